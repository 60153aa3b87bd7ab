// _IrCore, the C++ IrBuilder: the IR that popart.ir builds (its
// `Ir._pb_ir`), with the methods the original's examples call on it
// (setDataFlow, getSessionOptions, updateVertices, setIsPrepared) and
// those popart.ir builds graphs, tensors and ops with.
#include "Bindings.hpp"
#include "NumpyData.hpp"

#include <popart/irbuilder.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

namespace {

ConstVoidData arrayData(const py::array &a, const std::string &id) {
  return ConstVoidData(a.data(), tensorInfoOf(a, "The data of tensor '" + id + "'"));
}

} // namespace

void bindIrBuilder(py::module_ &m) {
  py::class_<IrBuilder> cls(m, "_IrCore");
  cls.def(py::init<>());
  cls.def("setDataFlow", &IrBuilder::setDataFlow, py::arg("dataFlow"));
  cls.def("getDataFlow", &IrBuilder::getDataFlow);
  cls.def("getSessionOptions",
          py::overload_cast<>(&IrBuilder::getSessionOptions),
          py::return_value_policy::reference_internal);
  cls.def("updateVertices", &IrBuilder::updateVertices);
  // The original marks its IR as prepared so that the session does not
  // prepare it again; the preparation of an IR built op by op here is only
  // the checks and the schedule, which the session makes either way.
  cls.def("setIsPrepared", [](IrBuilder &) {});
  cls.def("isInSession", &IrBuilder::isInSession);
  cls.def("serialise", &IrBuilder::serialise);

  cls.def("createGraph", &IrBuilder::createGraph, py::arg("graphId"));
  cls.def("hasGraph", &IrBuilder::hasGraph, py::arg("graphId"));
  cls.def("addGraphInput", &IrBuilder::addGraphInput, py::arg("graphId"),
          py::arg("id"), py::arg("info"));
  cls.def("addGraphOutput", &IrBuilder::addGraphOutput, py::arg("graphId"),
          py::arg("id"));
  cls.def("getGraphInputIds", &IrBuilder::getGraphInputIds, py::arg("graphId"));
  cls.def("getGraphOutputIds", &IrBuilder::getGraphOutputIds, py::arg("graphId"));
  cls.def(
      "addVariable",
      [](IrBuilder &b, const TensorId &id, const py::array &data) {
        b.addVariable(id, arrayData(cContiguous(data), id));
      },
      py::arg("id"), py::arg("data"));
  cls.def(
      "addConstant",
      [](IrBuilder &b, const std::string &graphId, const TensorId &id,
         const py::array &data) {
        b.addConstant(graphId, id, arrayData(cContiguous(data), id));
      },
      py::arg("graphId"), py::arg("id"), py::arg("data"));
  cls.def("addStream", &IrBuilder::addStream, py::arg("id"), py::arg("info"));
  cls.def("hasTensor", &IrBuilder::hasTensor, py::arg("graphId"), py::arg("id"));
  cls.def("getTensorInfo", &IrBuilder::getTensorInfo, py::arg("graphId"),
          py::arg("id"));
  cls.def("getTensorType", &IrBuilder::getTensorType, py::arg("graphId"),
          py::arg("id"));
  cls.def("uniqueId", &IrBuilder::uniqueId, py::arg("graphId"), py::arg("base"));
  cls.def(
      "addOp",
      [](IrBuilder &b, const std::string &graphId, const std::string &domain,
         const std::string &type, int version, const std::vector<TensorId> &inputs,
         const std::vector<TensorId> &outputs, const py::dict &attributes,
         const std::string &name, int64_t virtualGraph) {
        return b.addOp(graphId, OperatorIdentifier(domain, type, version), inputs,
                       outputs, toAttributes(attributes), name, virtualGraph);
      },
      py::arg("graphId"), py::arg("domain"), py::arg("type"), py::arg("version"),
      py::arg("inputs"), py::arg("outputs"), py::arg("attributes"),
      py::arg("name"), py::arg("virtualGraph") = -1);
  cls.def("setCallInputModified", &IrBuilder::setCallInputModified,
          py::arg("graphId"), py::arg("opId"), py::arg("inIndex"));
  cls.def("getOpOutputIds", &IrBuilder::getOpOutputIds, py::arg("graphId"),
          py::arg("opId"));
  cls.def("addTopoCon", &IrBuilder::addTopoCon, py::arg("graphId"),
          py::arg("before"), py::arg("after"));
}

} // namespace python
} // namespace popart

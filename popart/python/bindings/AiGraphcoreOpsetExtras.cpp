// The ai.graphcore operators batchnormalization, printtensor, call,
// packedDataBlock, multiconv and the replicated collectives (with
// CollectiveOperator; CommGroupType and CommGroup are bound with the tensor
// locations), with the original module's keywords.
#include "Bindings.hpp"
#include "OptionalCaster.hpp"

#include <popart/builder.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

void bindAiGraphcoreOpsetExtras(py::module_ &m,
                                py::class_<AiGraphcoreOpset1> &cls) {
  using Op = AiGraphcoreOpset1;
  const auto dc = py::arg("debugContext") = std::string();
  py::enum_<CollectiveOperator>(m, "CollectiveOperator")
      .value("Add", CollectiveOperator::Add)
      .value("Mean", CollectiveOperator::Mean)
      .value("Mul", CollectiveOperator::Mul)
      .value("Min", CollectiveOperator::Min)
      .value("Max", CollectiveOperator::Max)
      .value("LogicalAnd", CollectiveOperator::LogicalAnd)
      .value("LogicalOr", CollectiveOperator::LogicalOr)
      .value("SquareAdd", CollectiveOperator::SquareAdd)
      .value("Local", CollectiveOperator::Local);
  // CommGroupType and CommGroup are bound with the tensor locations.

  cls.def("batchnormalization", &Op::batchnormalization, py::arg("args"),
          py::arg("num_outputs"), py::arg("epsilon") = 1e-05f,
          py::arg("momentum") = 0.9f, dc);
  cls.def("printtensor", &Op::printtensor, py::arg("args"),
          py::arg("print_gradient") = 1, dc, py::arg("title") = std::string(),
          py::arg("summariseThreshold") = 1000, py::arg("edgeItems") = 3,
          py::arg("maxLineWidth") = 75, py::arg("digits") = 8,
          py::arg("floatFormat") = 0, py::arg("separator") = ' ',
          py::arg("openBracket") = '[', py::arg("closeBracket") = ']');
  cls.def("call", &Op::call, py::arg("args"), py::arg("num_outputs"),
          py::arg("callee"), dc);
  cls.def("packedDataBlock", &Op::packedDataBlock, py::arg("args"),
          py::arg("maxSequenceLengths"), py::arg("resultSize"),
          py::arg("callbackBatchSize"), py::arg("callback"), dc);
  cls.def("replicatedallreduce",
          py::overload_cast<const std::vector<TensorId> &,
                            const nonstd::optional<CollectiveOperator> &,
                            const nonstd::optional<CommGroup> &,
                            const DebugContext &>(&Op::replicatedallreduce),
          py::arg("args"), py::arg("collectiveOperator") = py::none(),
          py::arg("commGroup") = py::none(), dc);
  cls.def("replicatedreducescatter", &Op::replicatedreducescatter,
          py::arg("args"), py::arg("collectiveOperator") = py::none(),
          py::arg("commGroup") = py::none(), dc);
  cls.def("multiconv", &Op::multiconv, py::arg("args"),
          py::arg("dilations") = py::list(), py::arg("inDilations") = py::list(),
          py::arg("pads") = py::list(), py::arg("outPads") = py::list(),
          py::arg("strides") = py::list(),
          py::arg("availableMemoryProportions") = py::list(),
          py::arg("partialsTypes") = py::list(),
          py::arg("planType") = py::none(),
          py::arg("perConvReservedTiles") = py::none(),
          py::arg("cycleBackOff") = py::none(),
          py::arg("enableConvDithering") = py::list(), dc);
}

} // namespace python
} // namespace popart

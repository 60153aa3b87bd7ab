// How a step runs and where inputs live: AnchorReturnType, DataFlow,
// InputSettings and their enums.
#include "Bindings.hpp"

#include <popart/dataflow.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

void bindDataFlow(py::module_ &m) {
  py::enum_<TileSet>(m, "TileSet")
      .value("Compute", TileSet::Compute)
      .value("IO", TileSet::IO)
      .value("Undefined", TileSet::Undefined);
  py::enum_<ExchangeStrategy>(m, "ExchangeStrategy")
      .value("JustInTime", ExchangeStrategy::JustInTime)
      .value("OverlapInnerLoop", ExchangeStrategy::OverlapInnerLoop)
      .value("OverlapLoops", ExchangeStrategy::OverlapLoops)
      .value("OverlapStep", ExchangeStrategy::OverlapStep);
  py::enum_<ReplicatedStreamMode>(m, "ReplicatedStreamMode")
      .value("Broadcast", ReplicatedStreamMode::Broadcast)
      .value("Replicate", ReplicatedStreamMode::Replicate);
  {
    py::class_<InputSettings> cls(m, "InputSettings");
    cls.def(py::init<>());
    cls.def(py::init<TileSet, ExchangeStrategy>(), py::arg("tileSet"),
            py::arg("exchangeStrategy"));
    cls.def(py::init<ReplicatedStreamMode>(), py::arg("replicatedStreamMode"));
    cls.def("tileSet", &InputSettings::tileSet);
    cls.def("exchangeStrategy", &InputSettings::exchangeStrategy);
    cls.def("replicatedStreamMode", &InputSettings::replicatedStreamMode);
  }
  py::enum_<AnchorReturnTypeId>(m, "AnchorReturnTypeId")
      .value("Final", AnchorReturnTypeId::Final)
      .value("EveryN", AnchorReturnTypeId::EveryN)
      .value("All", AnchorReturnTypeId::All)
      .value("Sum", AnchorReturnTypeId::Sum);
  {
    py::class_<AnchorReturnType> cls(m, "AnchorReturnType");
    cls.def(py::init<>());
    cls.def(py::init<std::string, TileSet, ExchangeStrategy>(),
            py::arg("anchorReturnTypeString"), py::arg("tileSet") = TileSet::Compute,
            py::arg("exchangeStrategy") = ExchangeStrategy::JustInTime);
    cls.def(py::init<std::string, int, TileSet, ExchangeStrategy>(),
            py::arg("anchorReturnTypeString"), py::arg("returnPeriod"),
            py::arg("tileSet") = TileSet::Compute,
            py::arg("exchangeStrategy") = ExchangeStrategy::JustInTime);
    cls.def("id", &AnchorReturnType::id);
    cls.def("rp", &AnchorReturnType::rp);
    cls.def("str", &AnchorReturnType::str);
    cls.def("tileSet", &AnchorReturnType::tileSet);
    cls.def("exchangeStrategy", &AnchorReturnType::exchangeStrategy);
    cls.def("__repr__", [](const AnchorReturnType &art) {
      return "AnchorReturnType(" + art.str() + ")";
    });
  }
  {
    py::class_<DataFlow> cls(m, "DataFlow");
    cls.def(py::init<>());
    cls.def(py::init<int>(), py::arg("batchesPerStep"));
    cls.def(py::init<int, const AnchorReturnTypeMap &>(), py::arg("batchesPerStep"),
            py::arg("anchorTensors"));
    cls.def(py::init<int, const std::vector<TensorId> &, const AnchorReturnType &>(),
            py::arg("batchesPerStep"), py::arg("anchorIds"),
            py::arg("anchorReturnType") = AnchorReturnType("All"));
    cls.def("isAnchored", &DataFlow::isAnchored, py::arg("tensorId"));
    cls.def("isBatchCountingRequired", &DataFlow::isBatchCountingRequired);
    cls.def("nAnchors", &DataFlow::nAnchors);
    cls.def("batchesPerStep", &DataFlow::batchesPerStep);
    cls.def("anchors", &DataFlow::anchors);
    cls.def("rps", &DataFlow::rps);
    cls.def("art", &DataFlow::art, py::arg("anchorId"));
    cls.def("setBatchesPerStep", &DataFlow::setBatchesPerStep,
            py::arg("batchesPerStep"));
    cls.def("getAnchorReturnTypeMap", &DataFlow::getAnchorReturnTypeMap);
  }
}

} // namespace python
} // namespace popart

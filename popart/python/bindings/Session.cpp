// _InferenceSessionCore, the C++ InferenceSession (popart/session.py
// derives InferenceSession from it). Compilation and runs release the
// GIL: they take long, and PyStepIOCallback takes it back when it calls
// into Python.
#include "Bindings.hpp"

#include <popart/session.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

namespace {

py::object report(const std::string &text, bool useCbor) {
  if (useCbor)
    return py::bytes(text);
  return py::str(text);
}

} // namespace

void bindSession(py::module_ &m) {
  using Release = py::call_guard<py::gil_scoped_release>;
  py::class_<InferenceSession> cls(m, "_InferenceSessionCore");
  cls.def(py::init([](const std::string &model, const DataFlow &dataFlow,
                      std::shared_ptr<DeviceInfo> deviceInfo,
                      const InputShapeInfo &inputShapeInfo,
                      const SessionOptions &userOptions, const Patterns &patterns,
                      const std::string &name) {
            return InferenceSession::createFromOnnxModel(
                model, dataFlow, std::move(deviceInfo), inputShapeInfo,
                userOptions, patterns, name);
          }),
          py::arg("model"), py::arg("dataFlow"), py::arg("deviceInfo"),
          py::arg("inputShapeInfo"), py::arg("userOptions"), py::arg("patterns"),
          py::arg("name") = "inference");
  cls.def("prepareDevice", &Session::prepareDevice, py::arg("loadEngine") = true,
          Release());
  cls.def("loadEngineAndConnectStreams", &Session::loadEngineAndConnectStreams,
          Release());
  cls.def("weightsFromHost", &Session::weightsFromHost, Release());
  cls.def("weightsToHost", &Session::weightsToHost, Release());
  cls.def("run", &Session::run, py::arg("stepio"), py::arg("debugName") = "",
          Release());
  cls.def("modelToHost", &Session::modelToHost, py::arg("fn"));
  cls.def("getInfo", &Session::getInfo, py::arg("id"));
  cls.def("hasInfo", &Session::hasInfo, py::arg("id"));
  cls.def("getAllTensorIds", &Session::getAllTensorIds);
  cls.def("getSummaryReport", &Session::getSummaryReport,
          py::arg("resetProfile") = true);
  cls.def("getCycleCount", &Session::getCycleCount, py::arg("id") = "");
  cls.def(
      "getGraphReport",
      [](const InferenceSession &s, bool useCbor) { return report(s.getGraphReport(useCbor), useCbor); },
      py::arg("useCbor") = false);
  cls.def(
      "getExecutionReport",
      [](const InferenceSession &s, bool useCbor, bool resetProfile) {
        return report(s.getExecutionReport(useCbor, resetProfile), useCbor);
      },
      py::arg("useCbor") = false, py::arg("resetProfile") = true);
  cls.def("_serializeIr", &Session::serializeIr, py::arg("format"));
  cls.def("getDevice", &Session::getDevice);
  cls.def("_getDataFlow", &Session::getDataFlow);
  cls.def("_getSessionOptions", &Session::getSessionOptions);
  cls.def("_replicationFactor", [](const InferenceSession &s) {
    return s.getSessionOptions().getGlobalReplicationFactor();
  });
  cls.def("_accumulationFactor", [](const InferenceSession &s) {
    return s.getSessionOptions().getAccumulationFactor();
  });
}

} // namespace python
} // namespace popart

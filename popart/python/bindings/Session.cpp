// _InferenceSessionCore and _TrainingSessionCore, the C++ sessions
// (popart/session.py derives InferenceSession and TrainingSession from
// them). Compilation and runs release the GIL: they take long, and
// PyStepIOCallback takes it back when it calls into Python.
#include "Bindings.hpp"

#include <popart/error.hpp>
#include <popart/irbuilder.hpp>
#include <popart/op/loss.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include "NumpyData.hpp"

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>

namespace popart {
namespace python {

namespace {

py::object report(const std::string &text, bool useCbor) {
  if (useCbor)
    return py::bytes(text);
  return py::str(text);
}

/// The methods both sessions have, bound on each class.
template <class S> void bindCommon(py::class_<S> &cls) {
  using Release = py::call_guard<py::gil_scoped_release>;
  cls.def("prepareDevice", &Session::prepareDevice, py::arg("loadEngine") = true,
          Release());
  cls.def("loadEngineAndConnectStreams", &Session::loadEngineAndConnectStreams,
          Release());
  // Executables (as the original's module: loadExecutable takes a file).
  cls.def(
      "compileAndExport",
      [](S &s, const std::string &filename) { s.compileAndExport(filename); },
      py::arg("filename"), Release());
  cls.def("saveExecutable", &Session::saveExecutable, py::arg("path"),
          py::arg("savePopartMetadata") = true, py::arg("saveVariables") = true,
          Release());
  cls.def("saveExecutableToFile", &Session::saveExecutableToFile,
          py::arg("filename"), Release());
  cls.def("saveVariables", &Session::saveVariables, py::arg("path"), Release());
  cls.def("loadExecutable", &Session::loadExecutableFromFile,
          py::arg("filename"), Release());
  cls.def("weightsFromHost", &Session::weightsFromHost, Release());
  cls.def("weightsToHost", &Session::weightsToHost, Release());
  cls.def("readWeights", &Session::readWeights, py::arg("weightsIo"));
  cls.def("writeWeights", &Session::writeWeights, py::arg("weightsIo"));
  cls.def("resetHostWeights", &Session::resetHostWeights,
          py::arg("modelProtoOrFilename"),
          py::arg("ignoreWeightsInModelWithoutCorrespondingHostWeight") = false);
  cls.def("setRandomSeed", &Session::setRandomSeed, py::arg("seedValue"));
  cls.def("getRandomSeed", &Session::getRandomSeed);
  cls.def("run", &Session::run, py::arg("stepio"), py::arg("debugName") = "",
          Release());
  cls.def("modelToHost", &Session::modelToHost, py::arg("fn"));
  cls.def("getInfo", &Session::getInfo, py::arg("id"));
  cls.def("hasInfo", &Session::hasInfo, py::arg("id"));
  cls.def("getAllTensorIds", &Session::getAllTensorIds);
  cls.def("getTensorIds", &Session::getAllTensorIds);
  cls.def("getSummaryReport", &Session::getSummaryReport,
          py::arg("resetProfile") = true);
  cls.def("getCycleCount", &Session::getCycleCount, py::arg("id") = "");
  cls.def(
      "getGraphReport",
      [](const S &s, bool useCbor) { return report(s.getGraphReport(useCbor), useCbor); },
      py::arg("useCbor") = false);
  cls.def(
      "getExecutionReport",
      [](const S &s, bool useCbor, bool resetProfile) {
        return report(s.getExecutionReport(useCbor, resetProfile), useCbor);
      },
      py::arg("useCbor") = false, py::arg("resetProfile") = true);
  cls.def("_serializeIr", &Session::serializeIr, py::arg("format"));
  cls.def("getDevice", &Session::getDevice);
  cls.def("_getDataFlow", &Session::getDataFlow);
  cls.def("_getSessionOptions", &Session::getSessionOptions);
  // The replicas of this process (the anchors' replica dimension), as the
  // original's.
  cls.def("_replicationFactor", [](const S &s) -> int64_t {
    const SessionOptions &o = s.getSessionOptions();
    return o.enableReplicatedGraphs ? o.replicatedGraphCount : 1;
  });
  cls.def("_accumulationFactor", [](const S &s) {
    return s.getSessionOptions().getAccumulationFactor();
  });
}

/// The tensor a stream of the session moves, from the stream's name.
TensorId streamTensor(const std::string &handle) {
  std::string id = handle;
  for (const std::string prefix : {"gradientStore__", "gradientLoad__", "anchor___"})
    if (id.rfind(prefix, 0) == 0)
      id = id.substr(prefix.size());
  const std::string toHost = "/toHost";
  if (id.size() > toHost.size() &&
      id.compare(id.size() - toHost.size(), toHost.size(), toHost) == 0)
    id.resize(id.size() - toHost.size());
  return id;
}

/// connectStreamToCallback from Python: the callback is given the
/// stream's elements as a 1-D numpy array over the engine's buffer (valid
/// during the call; INT64 and DOUBLE tensors are held as int32 and
/// float32 on the device), with the GIL held.
template <class S> void bindStreamCallback(py::class_<S> &cls) {
  cls.def(
      "connectStreamToCallback",
      [](S &s, const std::string &handle, py::function callback,
         unsigned index) {
        const TensorId id = streamTensor(handle);
        if (!s.hasInfo(id))
          throw error("connectStreamToCallback('{}'): the stream moves no "
                      "tensor of the session",
                      handle);
        const TensorInfo info = s.getInfo(id);
        DataType type = info.dataType();
        if (type == DataType::INT64)
          type = DataType::INT32;
        else if (type == DataType::DOUBLE)
          type = DataType::FLOAT;
        const py::dtype dtype = numpyDtypeOf(type);
        const auto n = static_cast<py::ssize_t>(info.nelms());
        // Released with the GIL held, whichever thread drops it.
        std::shared_ptr<py::function> held(
            new py::function(std::move(callback)), [](py::function *f) {
              py::gil_scoped_acquire gil;
              delete f;
            });
        s.connectStreamToCallback(
            handle,
            [held, dtype, n](void *p) {
              py::gil_scoped_acquire gil;
              // The engine owns the buffer: the array only views it.
              py::array view(dtype, {n}, {dtype.itemsize()}, p,
                             py::capsule(p, [](void *) {}));
              (*held)(view);
            },
            index);
      },
      py::arg("streamHandle"), py::arg("callback"), py::arg("index") = 0);
}

/// Loss objects from a Python list (the older `losses=` form).
std::vector<Loss *> lossList(const std::vector<Loss *> &losses) {
  for (const Loss *l : losses)
    if (l == nullptr)
      throw error("TrainingSession: a loss of the list is None");
  return losses;
}

} // namespace

void bindSession(py::module_ &m) {
  py::class_<InferenceSession> inference(m, "_InferenceSessionCore");
  inference.def(py::init([](const std::string &model, const DataFlow &dataFlow,
                            std::shared_ptr<DeviceInfo> deviceInfo,
                            const InputShapeInfo &inputShapeInfo,
                            const SessionOptions &userOptions,
                            const Patterns &patterns, const std::string &name) {
                  return InferenceSession::createFromOnnxModel(
                      model, dataFlow, std::move(deviceInfo), inputShapeInfo,
                      userOptions, patterns, name);
                }),
                py::arg("model"), py::arg("dataFlow"), py::arg("deviceInfo"),
                py::arg("inputShapeInfo"), py::arg("userOptions"),
                py::arg("patterns"), py::arg("name") = "inference");
  inference.def(py::init([](const std::string &model, const DataFlow &dataFlow,
                            std::shared_ptr<DeviceInfo> deviceInfo,
                            const std::vector<Loss *> &losses,
                            const InputShapeInfo &inputShapeInfo,
                            const SessionOptions &userOptions,
                            const Patterns &patterns) {
                  return InferenceSession::createFromOnnxModel(
                      model, dataFlow, std::move(deviceInfo), lossList(losses),
                      inputShapeInfo, userOptions, patterns);
                }),
                py::arg("model"), py::arg("dataFlow"), py::arg("deviceInfo"),
                py::arg("losses"), py::arg("inputShapeInfo"),
                py::arg("userOptions"), py::arg("patterns"));
  inference.def(py::init([](IrBuilder &ir, std::shared_ptr<DeviceInfo> deviceInfo,
                            const std::string &name) {
                  return InferenceSession::createFromIr(ir, std::move(deviceInfo),
                                                        name);
                }),
                py::arg("ir"), py::arg("deviceInfo"), py::arg("name") = "fromIr");
  bindCommon(inference);

  py::class_<TrainingSession> training(m, "_TrainingSessionCore");
  training.def(py::init([](const std::string &model, const DataFlow &dataFlow,
                           const TensorId &loss, const Optimizer &optimizer,
                           std::shared_ptr<DeviceInfo> deviceInfo,
                           const InputShapeInfo &inputShapeInfo,
                           const SessionOptions &userOptions,
                           const Patterns &patterns, const std::string &name) {
                 return TrainingSession::createFromOnnxModel(
                     model, dataFlow, loss, optimizer, std::move(deviceInfo),
                     inputShapeInfo, userOptions, patterns, name);
               }),
               py::arg("model"), py::arg("dataFlow"), py::arg("loss"),
               py::arg("optimizer"), py::arg("deviceInfo"),
               py::arg("inputShapeInfo"), py::arg("userOptions"),
               py::arg("patterns"), py::arg("name") = "training");
  training.def(py::init([](const std::string &model, const DataFlow &dataFlow,
                           const std::vector<Loss *> &losses,
                           const Optimizer &optimizer,
                           std::shared_ptr<DeviceInfo> deviceInfo,
                           const InputShapeInfo &inputShapeInfo,
                           const SessionOptions &userOptions,
                           const Patterns &patterns, const std::string &name) {
                 return TrainingSession::createFromOnnxModel(
                     model, dataFlow, lossList(losses), optimizer,
                     std::move(deviceInfo), inputShapeInfo, userOptions,
                     patterns, name);
               }),
               py::arg("model"), py::arg("dataFlow"), py::arg("losses"),
               py::arg("optimizer"), py::arg("deviceInfo"),
               py::arg("inputShapeInfo"), py::arg("userOptions"),
               py::arg("patterns"), py::arg("name") = "training");
  training.def("updateOptimizerFromHost", &TrainingSession::updateOptimizerFromHost,
               py::arg("optimizer"));
  training.def("getHostReduceStreamIds",
               &TrainingSession::getHostReduceStreamIds);
  bindCommon(training);
  bindStreamCallback(inference);
  bindStreamCallback(training);
}

} // namespace python
} // namespace popart

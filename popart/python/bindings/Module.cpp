// popart_core: the C++ library popart as a Python extension module. The
// package popart (popart/__init__.py) imports it and adds the parts that
// are Python by nature (the Builder's opset selection, the sessions'
// anchor arrays).
#include "Bindings.hpp"

PYBIND11_MODULE(popart_core, m) {
  using namespace popart::python;
  m.doc() = "The popart C++ library (ONNX builder, sessions, devices)";
  // Numpy's C API, used by every array conversion.
  pybind11::module_::import("numpy");
  bindErrors(m);
  bindLogging(m);
  bindTensorInfo(m);
  bindDataFlow(m);
  bindTensorNames(m);
  // The enums of the options (ReductionType) are defaults of the builder's.
  bindSessionOptions(m);
  bindBuilder(m);
  bindAiGraphcoreOpset(m);
  bindAiOnnxOpsets(m);
  bindStepIO(m);
  bindPatterns(m);
  bindDevices(m);
  bindOptimizers(m);
  bindLosses(m);
  bindWeightsIO(m);
  bindIrBuilder(m);
  bindSession(m);
  bindMpi(m);
}

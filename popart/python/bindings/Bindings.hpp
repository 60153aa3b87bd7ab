// The parts of the popart_core extension module. Each binds one area of
// the C++ library; Module.cpp calls them in dependency order (a type must
// be bound before a later part uses it as a default argument). A new area
// is one more file and one more call.
#ifndef POPART_PYTHON_BINDINGS_HPP
#define POPART_PYTHON_BINDINGS_HPP

#include <popart/names.hpp>

#include <pybind11/pybind11.h>

#include <map>
#include <string>

namespace popart {

class AiGraphcoreOpset1;

namespace python {

namespace py = pybind11;

void bindErrors(py::module_ &m);
void bindLogging(py::module_ &m);
void bindTensorInfo(py::module_ &m);
void bindDataFlow(py::module_ &m);
void bindTensorNames(py::module_ &m);
void bindBuilder(py::module_ &m);
void bindAiGraphcoreOpset(py::module_ &m);
/// Called by bindAiGraphcoreOpset: batchnormalization, printtensor, call
/// and the collectives (AiGraphcoreOpsetExtras.cpp).
void bindAiGraphcoreOpsetExtras(py::module_ &m,
                                py::class_<AiGraphcoreOpset1> &cls);
/// Generated from the ONNX schemas: AiOnnxOpset6 ... AiOnnxOpset17.
void bindAiOnnxOpsets(py::module_ &m);
void bindStepIO(py::module_ &m);
void bindSessionOptions(py::module_ &m);
void bindPatterns(py::module_ &m);
void bindDevices(py::module_ &m);
void bindOptimizers(py::module_ &m);
void bindLosses(py::module_ &m);
void bindWeightsIO(py::module_ &m);
void bindSession(py::module_ &m);
void bindIrBuilder(py::module_ &m);
/// popart_core._mpi (popart/mpi.hpp).
void bindMpi(py::module_ &m);

/// Node attributes from a dict of Python values (int, float, str, numpy
/// arrays and lists of one of them), as ONNX stores them (Builder.cpp).
std::map<std::string, any> toAttributes(const py::dict &attributes);

} // namespace python
} // namespace popart

#endif

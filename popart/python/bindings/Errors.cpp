// C++ exceptions as the original module's Python exceptions, keeping the
// message: popart::error is popart.popart_exception, poplar's errors are
// popart.poplar_exception (and its runtime subclasses), PopLibs' are
// popart.poplibs_exception, and popart::memory_allocation_err is
// popart.OutOfMemoryException, which also carries the profile summary.
#include "Bindings.hpp"

#include <popart/error.hpp>

#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

namespace popart {
namespace python {

namespace {

// Exception types live as long as the interpreter; the handles are never
// released, so that nothing is destroyed after Python has finalised.
py::handle newExceptionType(py::module_ &m, const char *name, py::handle base) {
  auto *type = new py::exception<void>(m, name, base);
  return type->ptr();
}

// The Python type a C++ exception type E is raised as. pybind11 takes
// translators as plain functions, hence a type per E.
template <class E> struct Mapped {
  static inline py::handle type;

  // The plain mapping: the message only.
  static void translate(std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const E &e) {
      PyErr_SetString(type.ptr(), e.what());
    }
  }
};

template <class E>
py::handle mapException(py::module_ &m, const char *name, py::handle base) {
  Mapped<E>::type = newExceptionType(m, name, base);
  py::register_exception_translator(&Mapped<E>::translate);
  return Mapped<E>::type;
}

// Raises `type` with the message and extra attributes set on the instance.
void raiseWith(py::handle type, const char *message,
               const std::vector<std::pair<const char *, py::object>> &attrs) {
  py::object instance = py::reinterpret_borrow<py::object>(type)(message);
  for (const auto &a : attrs)
    instance.attr(a.first) = a.second;
  PyErr_SetObject(type.ptr(), instance.ptr());
}

void translateOutOfMemory(std::exception_ptr p) {
  try {
    if (p)
      std::rethrow_exception(p);
  } catch (const memory_allocation_err &e) {
    raiseWith(Mapped<memory_allocation_err>::type, e.what(),
              {{"_summaryReport", py::str(e.getSummaryReport())},
               {"_profilePath", py::str(e.getProfilePath())}});
  }
}

void translateRecoverable(std::exception_ptr p) {
  try {
    if (p)
      std::rethrow_exception(p);
  } catch (const poplar::recoverable_runtime_error &e) {
    raiseWith(Mapped<poplar::recoverable_runtime_error>::type, e.what(),
              {{"recoveryAction", py::cast(e.getRecoveryAction())}});
  }
}

} // namespace

void bindErrors(py::module_ &m) {
  // Registered base first: pybind11 tries the newest translator first, so
  // a subclass is matched before its base.
  py::handle popartBase = mapException<error>(m, "popart_exception", PyExc_Exception);
  mapException<internal_error>(m, "popart_internal_exception", popartBase);
  mapException<runtime_error>(m, "popart_runtime_error", popartBase);

  Mapped<memory_allocation_err>::type =
      newExceptionType(m, "OutOfMemoryException", popartBase);
  py::register_exception_translator(&translateOutOfMemory);

  py::handle poplarBase =
      mapException<poplar::poplar_error>(m, "poplar_exception", PyExc_Exception);
  py::handle poplarRuntime =
      mapException<poplar::runtime_error>(m, "poplar_runtime_error", poplarBase);
  mapException<poplar::application_runtime_error>(
      m, "poplar_application_runtime_error", poplarRuntime);
  mapException<poplar::unrecoverable_runtime_error>(
      m, "poplar_unrecoverable_runtime_error", poplarRuntime);

  py::enum_<poplar::RecoveryAction>(m, "RecoveryAction")
      .value("IPU_RESET", poplar::RecoveryAction::IPU_RESET)
      .value("PARTITION_RESET", poplar::RecoveryAction::PARTITION_RESET)
      .value("FULL_RESET", poplar::RecoveryAction::FULL_RESET);
  Mapped<poplar::recoverable_runtime_error>::type =
      newExceptionType(m, "poplar_recoverable_runtime_error", poplarRuntime);
  py::register_exception_translator(&translateRecoverable);

  mapException<poputil::poplibs_error>(m, "poplibs_exception", PyExc_Exception);
}

} // namespace python
} // namespace popart

// The parts of the pva_core extension module.
#ifndef PVA_PYTHON_PVAMODULE_HPP
#define PVA_PYTHON_PVAMODULE_HPP

#include <pva/pva.hpp>

#include <pybind11/pybind11.h>

namespace pva {
namespace python {

namespace py = pybind11;

/// Program, its subclasses, and ProgramVisitor (subclassed in Python).
void bindPrograms(py::module_ &m);

} // namespace python
} // namespace pva

#endif

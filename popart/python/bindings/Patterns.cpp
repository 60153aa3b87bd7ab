// Patterns: levels, names, and one property per pattern
// (`patterns.PreUniRepl = False`), made from the C++ library's list so
// that a pattern added there appears here.
#include "Bindings.hpp"

#include <popart/patterns/patterns.hpp>

#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <sstream>

namespace popart {
namespace python {

void bindPatterns(py::module_ &m) {
  py::enum_<PatternsLevel>(m, "PatternsLevel")
      .value("NoPatterns", PatternsLevel::NoPatterns)
      .value("Minimal", PatternsLevel::Minimal)
      .value("Default", PatternsLevel::Default)
      .value("All", PatternsLevel::All);

  py::class_<Patterns> cls(m, "Patterns");
  cls.def(py::init<>());
  cls.def(py::init<PatternsLevel>(), py::arg("level"));
  cls.def(py::init<std::vector<std::string>>(), py::arg("patterns"));
  cls.def("isPatternEnabled", &Patterns::isPatternEnabled, py::arg("pattern"));
  cls.def("enablePattern", &Patterns::enablePattern, py::arg("pattern"),
          py::arg("enable"), py::return_value_policy::reference_internal);
  cls.def("enableRuntimeAsserts", &Patterns::enableRuntimeAsserts, py::arg("b"),
          py::return_value_policy::reference_internal);
  cls.def_static("getAllPreAliasPatternNames", &Patterns::getAllPreAliasPatternNames);
  cls.def_static("isMandatory", &Patterns::isMandatory, py::arg("pattern"));
  cls.def(py::self == py::self);
  cls.def("__repr__", [](const Patterns &p) {
    std::ostringstream out;
    out << p;
    return out.str();
  });
  for (const auto &name : Patterns::getAllPreAliasPatternNames())
    cls.def_property(
        name.c_str(), [name](const Patterns &p) { return p.isPatternEnabled(name); },
        [name](Patterns &p, bool enable) { p.enablePattern(name, enable); });
  cls.def_property("InPlace", &Patterns::isInPlaceEnabled,
                   [](Patterns &p, bool v) { p.enableInPlace(v); });
  cls.def_property("UpdateInplacePrioritiesForIpu",
                   &Patterns::isUpdateInplacePrioritiesForIpuEnabled,
                   [](Patterns &p, bool v) { p.enableUpdateInplacePrioritiesForIpu(v); });
}

} // namespace python
} // namespace popart

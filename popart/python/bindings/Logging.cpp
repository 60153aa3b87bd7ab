// popart.getLogger(name="all"): a handle on the logging of one module of
// popart::logging (or of every module, "all"), with the original's
// setLevel and the message methods, which write to that module's log.
#include "Bindings.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <string>

namespace popart {
namespace python {

namespace {

class Logger {
public:
  explicit Logger(std::string name) : name(std::move(name)) {
    if (this->name != "all")
      logging::moduleFromString(this->name); // popart::error if unknown
  }

  void setLevel(const std::string &level) { logging::configure({{name, level}}); }

  void log(logging::Level level, const std::string &message) const {
    logging::log(module(), level, message);
  }

  const std::string &getName() const { return name; }

private:
  // Messages of the "all" logger go to the module of Python code.
  logging::Module module() const {
    return name == "all" ? logging::Module::python : logging::moduleFromString(name);
  }

  std::string name;
};

} // namespace

void bindLogging(py::module_ &m) {
  py::class_<Logger> cls(m, "Logger");
  cls.def("setLevel", &Logger::setLevel, py::arg("level"));
  cls.def_property_readonly("name", &Logger::getName);
  const std::pair<const char *, logging::Level> levels[] = {
      {"trace", logging::Level::Trace}, {"debug", logging::Level::Debug},
      {"info", logging::Level::Info},   {"warn", logging::Level::Warn},
      {"error", logging::Level::Err},   {"critical", logging::Level::Critical}};
  for (const auto &[name, level] : levels) {
    const logging::Level l = level;
    cls.def(
        name, [l](const Logger &self, const std::string &msg) { self.log(l, msg); },
        py::arg("msg"));
  }
  m.def(
      "getLogger", [](const std::string &name) { return Logger(name); },
      py::arg("name") = "all");
}

} // namespace python
} // namespace popart

// AiGraphcoreOpset1: the ai.graphcore operators of the builder, with the
// original module's keywords.
#include "Bindings.hpp"
#include "OptionalCaster.hpp"

#include <popart/builder.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

void bindAiGraphcoreOpset(py::module_ &m) {
  using Op = AiGraphcoreOpset1;
  py::class_<Op> cls(m, "AiGraphcoreOpset1");
  const auto dc = py::arg("debugContext") = std::string();
  // The one-input operators.
  const std::pair<const char *, TensorId (Op::*)(const std::vector<TensorId> &,
                                                 const DebugContext &)>
      unary[] = {{"gelu", &Op::gelu},     {"geluerf", &Op::geluerf},
                 {"detach", &Op::detach}, {"nop", &Op::nop},
                 {"square", &Op::square}, {"swish", &Op::swish},
                 {"log1p", &Op::log1p},   {"expm1", &Op::expm1}};
  for (const auto &[name, method] : unary)
    cls.def(name, method, py::arg("args"), dc);
  cls.def("scale", &Op::scale, py::arg("args"), py::arg("scale"), dc);
  cls.def("scaledadd", &Op::scaledadd, py::arg("args"), py::arg("scale0") = 1.0f,
          py::arg("scale1") = 1.0f, dc);
  cls.def("reshape", &Op::reshape, py::arg("args"), py::arg("shape"), dc);
  // The losses.
  cls.def("l1loss", &Op::l1loss, py::arg("args"), py::arg("lambda"),
          py::arg("reduction") = ReductionType::Mean, dc);
  cls.def("nllloss", &Op::nllloss, py::arg("args"),
          py::arg("reduction") = ReductionType::Mean,
          py::arg("ignoreIndex") = py::none(), py::arg("inputIsLogProbability") = false,
          dc);
  cls.def("identityloss", &Op::identityloss, py::arg("args"),
          py::arg("reduction") = ReductionType::Mean, dc);
}

} // namespace python
} // namespace popart

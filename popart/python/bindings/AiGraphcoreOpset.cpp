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
  py::enum_<ScatterReduction>(m, "ScatterReduction")
      .value("Sum", ScatterReduction::Sum)
      .value("Max", ScatterReduction::Max)
      .value("Min", ScatterReduction::Min)
      .value("Mul", ScatterReduction::Mul)
      .value("NoReduction", ScatterReduction::None);
  py::enum_<InitType>(m, "InitType")
      .value("NoInit", InitType::NoInit)
      .value("Zero", InitType::Zero);
  py::enum_<TensorRemapType>(m, "TensorRemapType")
      .value("FwdBwdReverse", TensorRemapType::FwdBwdReverse)
      .value("FwdBwd", TensorRemapType::FwdBwd)
      .value("Fwd", TensorRemapType::Fwd);
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
  // Element-wise and data movement.
  const std::pair<const char *, TensorId (Op::*)(const std::vector<TensorId> &,
                                                 const DebugContext &)>
      elementwise[] = {{"atan2", &Op::atan2},         {"fmod", &Op::fmod},
                       {"remainder", &Op::remainder}, {"round", &Op::round},
                       {"nearbyint", &Op::nearbyint}};
  for (const auto &[name, method] : elementwise)
    cls.def(name, method, py::arg("args"), dc);
  const std::pair<const char *, TensorId (Op::*)(const std::vector<TensorId> &,
                                                 const DebugContext &)>
      bitwise[] = {{"bitwisenot", &Op::bitwisenot},
                   {"bitwiseand", &Op::bitwiseand},
                   {"bitwiseor", &Op::bitwiseor},
                   {"bitwisexor", &Op::bitwisexor},
                   {"bitwisexnor", &Op::bitwisexnor}};
  for (const auto &[name, method] : bitwise)
    cls.def(name, method, py::arg("args") = py::list(), dc);
  cls.def("incrementmod", &Op::incrementmod, py::arg("args"),
          py::arg("increment"), py::arg("modulus"), dc);
  cls.def("bucketize", &Op::bucketize, py::arg("args"), py::arg("right") = 0,
          dc);
  cls.def("sort", &Op::sort, py::arg("args"), py::arg("axis") = -1,
          py::arg("descending") = 0, py::arg("stable") = 0, dc);
  cls.def("reducemedian", &Op::reducemedian, py::arg("args"),
          py::arg("axes") = py::none(), py::arg("keepdims") = 1, dc);
  cls.def("reverse", &Op::reverse, py::arg("args"), py::arg("dimensions"), dc);
  cls.def("slice", &Op::slice, py::arg("args"), py::arg("ends"),
          py::arg("starts"), py::arg("axes") = std::vector<int64_t>(), dc);
  cls.def("subsample", &Op::subsample, py::arg("args"), py::arg("strides"), dc);
  cls.def("depthtospace", &Op::depthtospace, py::arg("args"),
          py::arg("blocksize"), py::arg("mode") = "DCR", dc);
  cls.def("dynamicslice", &Op::dynamicslice, py::arg("args"), py::arg("axes"),
          py::arg("sizes"), py::arg("noOverlap") = 0, dc);
  cls.def("dynamicupdate", &Op::dynamicupdate, py::arg("args"),
          py::arg("axes"), py::arg("sizes"), py::arg("noOverlap") = 0, dc);
  cls.def("dynamiczero", &Op::dynamiczero, py::arg("args"), py::arg("axes"),
          py::arg("sizes"), dc);
  cls.def("dynamicadd", &Op::dynamicadd, py::arg("args"), py::arg("axes"),
          py::arg("sizes"), dc);
  cls.def("groupnormalization", &Op::groupnormalization, py::arg("args"),
          py::arg("num_groups"), py::arg("epsilon") = 1e-05f, dc);
  cls.def("scatterreduce", &Op::scatterreduce, py::arg("args"),
          py::arg("axis_size"), py::arg("axis") = -1,
          py::arg("reduction") = ScatterReduction::Sum,
          py::arg("enable_index_broadcast") = 1, dc);
  cls.def("groupedscatterreduce", &Op::groupedscatterreduce, py::arg("args"),
          py::arg("axis_size"), py::arg("axis") = -1,
          py::arg("reduction") = ScatterReduction::Sum,
          py::arg("group_size") = 1, py::arg("enable_index_broadcast") = 1, dc);
  cls.def("groupedgather", &Op::groupedgather, py::arg("args"),
          py::arg("axis") = 0, py::arg("group_size") = 1, dc);
  cls.def("init",
          py::overload_cast<Attributes::Ints, Attributes::Int, Attributes::Int,
                            Attributes::Int, const DebugContext &>(&Op::init),
          py::arg("shape"), py::arg("data_type"), py::arg("init_type"),
          py::arg("batch_axis"), dc);
  cls.def("init",
          py::overload_cast<Attributes::Ints, Attributes::Int, Attributes::Int,
                            const DebugContext &>(&Op::init),
          py::arg("shape"), py::arg("data_type"), py::arg("init_type"), dc);
  cls.def("abort", &Op::abort, py::arg("args") = py::list(), dc);
  cls.def("normalize_image", &Op::normalize_image, py::arg("args"),
          py::arg("scale"), dc);
  cls.def("sequenceslice", &Op::sequenceslice, py::arg("args"),
          py::arg("zeroUnused"), dc);
  cls.def("shapeddropout", &Op::shapeddropout, py::arg("args"),
          py::arg("shape"), py::arg("ratio") = 0.5f, dc);
  cls.def("tensorremap", &Op::tensorremap, py::arg("args"),
          py::arg("remap_type"), dc);
  cls.def("copyvarupdate", &Op::copyvarupdate, py::arg("args"), dc);
  // Sequence models.
  cls.def("ctcloss", &Op::ctcloss, py::arg("args"),
          py::arg("reduction") = ReductionType::Mean, py::arg("blank") = 0u,
          py::arg("outDataType") = std::string("UNDEFINED"),
          py::arg("zeroInfinity") = false, dc);
  cls.def("ctcbeamsearchdecoder", &Op::ctcbeamsearchdecoder, py::arg("args"),
          py::arg("blank") = 0u, py::arg("beam_width") = 100u,
          py::arg("top_paths") = 1u,
          py::arg("debug_context") = std::string());  // the original's keyword
  cls.def("lstm", &Op::lstm, py::arg("args"),
          py::arg("outputFullSequence") = 1, dc);
  cls.def("splinebasis", &Op::splinebasis, py::arg("args") = py::list(),
          py::arg("degree"), dc);
  cls.def("splineweighting", &Op::splineweighting,
          py::arg("args") = py::list(), dc);
  bindAiGraphcoreOpsetExtras(m, cls);
}

} // namespace python
} // namespace popart

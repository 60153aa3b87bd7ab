#include <poputil/DebugInfo.hpp>

#include <sstream>

namespace poputil {

template <> poplar::ProfileValue toProfileValue(const int &v) { return v; }
template <> poplar::ProfileValue toProfileValue(const unsigned &v) { return v; }
template <> poplar::ProfileValue toProfileValue(const long &v) { return v; }
template <> poplar::ProfileValue toProfileValue(const unsigned long &v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned char &v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const bool &v) {
  return poplar::ProfileValue(v);
}
template <> poplar::ProfileValue toProfileValue(const float &v) { return v; }
template <> poplar::ProfileValue toProfileValue(const double &v) {
  return poplar::ProfileValue(v);
}
template <> poplar::ProfileValue toProfileValue(const long long &v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned long long &v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const std::string &v) {
  return poplar::ProfileValue(v);
}

template <> poplar::ProfileValue toProfileValue(const poplar::ComputeSet &v) {
  return v.getId();
}

template <> poplar::ProfileValue toProfileValue(const poplar::OptionFlags &v) {
  poplar::ProfileValue::Map m;
  for (const auto &option : v)
    m.insert({option.first, poplar::ProfileValue(option.second)});
  return m;
}

template <>
poplar::ProfileValue toProfileValue(const poplar::program::Copy &) {
  return "<poplar::program::Copy>";
}

template <>
poplar::ProfileValue toProfileValue(const poplar::program::Sequence &) {
  return "<poplar::program::Sequence>";
}

// A tensor is recorded by its shape and element type, not its values.
template <> poplar::ProfileValue toProfileValue(const poplar::Tensor &v) {
  if (!v.valid())
    return "<poplar::Tensor> - uninitialized";
  std::ostringstream shape;
  shape << "[";
  for (std::size_t i = 0; i != v.rank(); ++i)
    shape << (i ? ", " : "") << v.dim(i);
  shape << "]";
  poplar::ProfileValue::Map m;
  m.insert({"shape", poplar::ProfileValue(shape.str())});
  m.insert({"type", poplar::ProfileValue(v.elementType().toString().str())});
  return m;
}

template <> poplar::ProfileValue toProfileValue(const poplar::Type &v) {
  return poplar::ProfileValue(v.toString().str());
}

template <>
poplar::ProfileValue toProfileValue(const poplar::TensorCloneMethod &v) {
  switch (v) {
  case poplar::TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES:
    return "PRESERVE_ORDER_AND_ALIASES";
  case poplar::TensorCloneMethod::CREATE_NEW_ORDER:
    return "CREATE_NEW_ORDER";
  case poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES:
    return "PRESERVE_ORDER_UNLESS_ALIASES";
  case poplar::TensorCloneMethod::GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES:
    return "GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES";
  }
  return "<UNKNOWN>";
}

template <> poplar::ProfileValue toProfileValue(const std::vector<bool> &v) {
  poplar::ProfileValue::Map m;
  for (std::size_t i = 0; i != v.size(); ++i)
    m.insert({std::to_string(i), poplar::ProfileValue(bool(v[i]))});
  return m;
}

OpDebugInfo::OpDebugInfo(const poplar::DebugContext &debugContext,
                         std::string api)
    : poplar::DebugInfo(debugContext, "poplibs") {
  setValue("api", poplar::ProfileValue(std::move(api)));
}

void OpDebugInfo::add(std::string name, const std::vector<ArgType> &args) {
  if (args.empty())
    return;
  poplar::ProfileValue::Map m;
  for (const auto &a : args)
    m.insert({a.n, a.pv});
  setValue(std::move(name), std::move(m));
}

void OpDebugInfo::add(std::string name, poplar::ProfileValue pv) {
  setValue(std::move(name), std::move(pv));
}

PoplibsOpDebugInfo::PoplibsOpDebugInfo(const poplar::DebugContext &debugContext,
                                       const std::vector<ArgType> &args,
                                       const std::string &api)
    : OpDebugInfo(debugContext, api) {
  add("args", args);
}

void PoplibsOpDebugInfo::addOutputs(const std::vector<ArgType> &outputs) {
  add("outputs", outputs);
}

void PoplibsOpDebugInfo::addOutput(const poplar::Tensor &output) {
  add("outputs", {ArgType("output", toProfileValue(output))});
}

} // namespace poputil

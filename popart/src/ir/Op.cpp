#include "ir/HostData.hpp"
#include "ir/Op.hpp"

#include <popart/error.hpp>

#include <sstream>

namespace popart {

const char *tensorTypeName(TensorType t) {
  switch (t) {
  case TensorType::ActGrad:
    return "ActGrad";
  case TensorType::Const:
    return "Const";
  case TensorType::Stream:
    return "Stream";
  case TensorType::Variable:
    return "Variable";
  default:
    return "Unknown";
  }
}

Op::Op(const OperatorIdentifier &opid_, const std::string &name_)
    : opid(opid_), name(name_) {}
Op::~Op() = default;

Tensor &Op::inTensor(int i) const {
  if (!hasInput(i))
    throw error("{} has no input {}", str(), i);
  return *inputs[i];
}

TensorInfo &Op::outInfo(int i) const {
  if (i >= static_cast<int>(outputs.size()) || !outputs[i])
    throw error("{} has no output {}", str(), i);
  return outputs[i]->info;
}

std::vector<char> Op::fold() const {
  throw internal_error("{} cannot be folded", str());
}

std::vector<int64_t> Op::constInputInts(int i, const char *what) const {
  const Tensor &t = inTensor(i);
  if (t.type != TensorType::Const)
    throw error("{}: the {} (input {}, '{}') must be a constant", str(), what,
                i, t.id);
  std::vector<int64_t> out;
  for (double v : toDoubles(t.data, t.info.dataType()))
    out.push_back(static_cast<int64_t>(v));
  return out;
}

std::string Op::str() const {
  std::ostringstream out;
  out << opid.type << ":" << opid.version << " '" << name << "'";
  return out.str();
}

} // namespace popart

#include "ir/Graph.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>
#include <popart/op.hpp>
#include <popart/opserialiser.hpp>

#include <ostream>
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

Op *Tensor::getProducer() const {
  if (!producer)
    throw error("Tensor '{}' has no producer", id);
  return producer;
}

std::ostream &operator<<(std::ostream &os, const ReductionType &r) {
  switch (r) {
  case ReductionType::Sum:
    return os << "Sum";
  case ReductionType::Mean:
    return os << "Mean";
  case ReductionType::NoReduction:
    return os << "NoReduction";
  default:
    return os << "N";
  }
}

std::ostream &operator<<(std::ostream &os, const RecomputeType &r) {
  static const char *names[] = {"Undefined", "Checkpoint", "Recompute",
                                "Recomputed"};
  return os << names[static_cast<int>(r)];
}

std::ostream &operator<<(std::ostream &os, const ExecutionContext &c) {
  static const char *names[] = {"Normal",
                                "AccumulateOuterFragment",
                                "WeightsFromHostFragment",
                                "WeightsToHostFragment",
                                "OptimizerFromHostFragment",
                                "Subgraph"};
  return os << names[static_cast<int>(c)];
}

GradInOutMapper::GradInOutMapper(InIndex iGrad_, int iNonGrad_,
                                 GradOpInType type_)
    : iGrad(iGrad_), iNonGrad(iNonGrad_), type(type_) {}

bool GradInOutMapper::operator==(const GradInOutMapper &rhs) const {
  return iGrad == rhs.iGrad && iNonGrad == rhs.iNonGrad && type == rhs.type;
}

Op::Settings::Settings(Graph &graph_, const std::string &name_)
    : graph(graph_), name(name_) {}
Op::Settings::~Settings() = default;

Op::Settings Op::Settings::copy(const std::string &newName) const {
  Settings s = *this;
  s.name = newName;
  return s;
}

Op::Op(const OperatorIdentifier &opid_, const Settings &settings_)
    : opid(opid_), settings(settings_) {}
Op::Op(const Op &other) : opid(other.opid), settings(other.settings) {}
Op::~Op() = default;

bool Op::hasInput(InIndex i) const {
  return i >= 0 && i < static_cast<int>(inputs.size()) && inputs[i];
}

bool Op::hasOutput(OutIndex i) const {
  return i >= 0 && i < static_cast<int>(outputs.size()) && outputs[i];
}

Tensor *Op::inTensor(InIndex i) const {
  if (!hasInput(i))
    throw error("{} has no input {}", str(), i);
  return inputs[i];
}

Tensor *Op::outTensor(OutIndex i) const {
  if (!hasOutput(i))
    throw error("{} has no output {}", str(), i);
  return outputs[i];
}

const TensorId &Op::inId(InIndex i) const { return inTensor(i)->id; }
const TensorId &Op::outId(OutIndex i) const { return outTensor(i)->id; }
const TensorInfo &Op::inInfo(InIndex i) const { return inTensor(i)->info; }
TensorInfo &Op::outInfo(OutIndex i) const { return outTensor(i)->info; }
const Shape &Op::inShape(InIndex i) const { return inInfo(i).shape(); }
const Shape &Op::outShape(OutIndex i) const { return outInfo(i).shape(); }
int Op::inRank(InIndex i) const { return inInfo(i).rank(); }
int Op::outRank(OutIndex i) const { return outInfo(i).rank(); }

std::vector<std::unique_ptr<Op>> Op::getGradOps() { return {}; }

std::unique_ptr<Op> Op::getInplaceVariant(const OperatorIdentifier &id) const {
  throw error("{} has no in-place variant {}", str(), id.type);
}

const std::vector<GradInOutMapper> &Op::gradInputInfo() const {
  throw error("{} is not a grad op: it has no gradInputInfo", str());
}

const std::map<int, int> &Op::gradOutToNonGradIn() const {
  throw error("{} is not a grad op: it has no gradOutToNonGradIn", str());
}

void Op::appendAttributes(OpSerialiserBase &os) const {
  if (hasVirtualGraphId())
    os.appendAttribute("__ipu_number", settings.vgraphId);
  if (settings.recomputeType != RecomputeType::Undefined) {
    std::ostringstream r;
    r << settings.recomputeType;
    os.appendAttribute("recompute", r.str());
  }
  if (settings.executionContext != ExecutionContext::Normal) {
    std::ostringstream c;
    c << settings.executionContext;
    os.appendAttribute("executionContext", c.str());
  }
}

void Op::appendOutlineAttributes(OpSerialiserBase &os) const {
  appendAttributes(os);
}

std::vector<char> Op::fold() const {
  throw internal_error("{} cannot be folded", str());
}

bool Op::hasConstInput(InIndex i) const {
  if (!hasInput(i))
    return false;
  const Tensor &t = *inTensor(i);
  const bool initializer = t.type == TensorType::Variable && !t.producer &&
                           t.variableKind == VariableKind::Weight &&
                           !t.data.empty();
  return t.type == TensorType::Const || initializer;
}

std::vector<double> Op::constInputValues(InIndex i, const char *what) const {
  const Tensor &t = *inTensor(i);
  if (!hasConstInput(i))
    throw error("{}: the {} (input {}, '{}') must be a constant", str(), what,
                i, t.id);
  return toDoubles(t.data, t.info.dataType());
}

std::vector<int64_t> Op::constInputInts(InIndex i, const char *what) const {
  const Tensor &t = *inTensor(i);
  if (!hasConstInput(i))
    throw error("{}: the {} (input {}, '{}') must be a constant", str(), what,
                i, t.id);
  try {
    return toInt64s(t.data, t.info.dataType());
  } catch (const error &e) {
    throw error("{}: the {} (input {}, '{}'): {}", str(), what, i, t.id,
                e.what());
  }
}

std::string Op::str() const {
  std::ostringstream out;
  out << opid.type << ":" << opid.version << " '" << name() << "'";
  return out.str();
}

std::string Op::debugName() const {
  std::ostringstream out;
  out << "Op(" << name() << ", " << opid << ")";
  return out.str();
}

} // namespace popart

#include <popart/operatoridentifier.hpp>

#include <tuple>

namespace popart {

OperatorIdentifier::OperatorIdentifier(const OpDomain &_domain,
                                       const OpType &_type, OpVersion _version,
                                       NumInputs inputs, int outputs)
    : domain(_domain == "" ? Domain::ai_onnx : _domain), type(_type),
      version(_version), numInputs(inputs), numOutputs(outputs) {}

OperatorIdentifier::OperatorIdentifier(const char *_domain, const char *_type,
                                       OpVersion _version, NumInputs inputs,
                                       int outputs)
    : OperatorIdentifier(OpDomain(_domain ? _domain : ""),
                         OpType(_type ? _type : ""), _version, inputs,
                         outputs) {}

bool OperatorIdentifier::operator<(const OperatorIdentifier &rhs) const {
  return std::tie(domain, type, version) <
         std::tie(rhs.domain, rhs.type, rhs.version);
}

std::ostream &operator<<(std::ostream &os, const OperatorIdentifier &opid) {
  return os << opid.domain << "." << opid.type << ":" << opid.version;
}

} // namespace popart

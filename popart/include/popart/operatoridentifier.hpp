// The identity of an operator: domain, type and version (the opset
// version in which that definition of the operator appeared).
#ifndef POPART_OPERATORIDENTIFIER_HPP
#define POPART_OPERATORIDENTIFIER_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>

#include <ostream>
#include <string>

namespace popart {

struct Domain {
  static constexpr const char *ai_onnx = "ai.onnx";
  static constexpr const char *ai_onnx_ml = "ai.onnx.ml";
  static constexpr const char *ai_graphcore = "ai.graphcore";
};

struct NumInputs {
  int min = 0;
  int max = 0;
  NumInputs() = default;
  NumInputs(int f) : min(f), max(f) {}
  NumInputs(int _min, int _max) : min(_min), max(_max) {}
};

struct POPART_API OperatorIdentifier {
  OperatorIdentifier(const OpDomain &_domain, const OpType &_type,
                     OpVersion _version, NumInputs inputs = {},
                     int outputs = 0);
  // The same from literals, out of line: the headers' hundreds of static
  // identifiers then each initialise with one call, not two inline strings.
  OperatorIdentifier(const char *_domain, const char *_type, OpVersion _version,
                     NumInputs inputs = {}, int outputs = 0);

  OpDomain domain;
  OpType type;
  OpVersion version;
  NumInputs numInputs;
  int numOutputs;

  bool operator==(const OperatorIdentifier &rhs) const {
    return domain == rhs.domain && type == rhs.type && version == rhs.version;
  }
  bool operator!=(const OperatorIdentifier &rhs) const { return !(*this == rhs); }
  bool operator<(const OperatorIdentifier &rhs) const;
};

/// "ai.onnx.Add:7"
POPART_API std::ostream &operator<<(std::ostream &os, const OperatorIdentifier &opid);

} // namespace popart

#endif

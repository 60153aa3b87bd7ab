// Element-wise ops: unary (Abs ... Not, Gelu), binary with numpy
// broadcasting (Add ... Or), variadic (Max, Min, Sum, Mean), Where, Clip
// and Scale. One class per arity; the op type names the function.
#ifndef POPART_SRC_OPS_ELEMENTWISEOPS_HPP
#define POPART_SRC_OPS_ELEMENTWISEOPS_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

class UnaryOp : public Op {
public:
  UnaryOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &a);
  void setup() override;
  bool canFold() const override;
  std::vector<char> fold() const override;
  float alpha = 0.0f; // LeakyRelu
};

class BinaryOp : public Op {
public:
  BinaryOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  bool isComparison() const;
};

class VariadicOp : public Op {
public:
  VariadicOp(const OperatorIdentifier &id, const std::string &name,
             const Attributes &a);
  void setup() override;
};

class WhereOp : public Op {
public:
  WhereOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &)
      : Op(id, name) {}
  void setup() override;
};

/// Clip-6 (min, max attributes) and Clip-11/12/13 (optional inputs).
class ClipOp : public Op {
public:
  ClipOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &a);
  void setup() override;
  float min, max;
};

class ScaleOp : public Op {
public:
  ScaleOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &a)
      : Op(id, name), scale(a.getFloat("scale")) {}
  void setup() override { outInfo(0) = inInfo(0); }
  float scale;
};

/// ai.graphcore ScaledAdd: scale0 * X + scale1 * Y.
class ScaledAddOp : public Op {
public:
  ScaledAddOp(const OperatorIdentifier &id, const std::string &name,
              const Attributes &a)
      : Op(id, name), scale0(a.getFloat("scale0", 1.0f)),
        scale1(a.getFloat("scale1", 1.0f)) {}
  void setup() override { outInfo(0) = npOut(inInfo(0), inInfo(1)); }
  float scale0, scale1;
};

/// Identity, and ops that are identities in inference (Dropout, Detach).
class IdentityOp : public Op {
public:
  IdentityOp(const OperatorIdentifier &id, const std::string &name,
             const Attributes &a);
  void setup() override;
  bool isIdentityLike() const override { return true; }
  bool canFold() const override { return true; }
  std::vector<char> fold() const override { return inTensor(0).data; }
};

} // namespace popart

#endif

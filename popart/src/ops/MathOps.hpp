// MatMul (numpy semantics, batch dimensions broadcast), Gemm, Softmax and
// LogSoftmax, and the reductions ReduceSum/Mean/Max/Min/Prod.
#ifndef POPART_SRC_OPS_MATHOPS_HPP
#define POPART_SRC_OPS_MATHOPS_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

class MatMulOp : public Op {
public:
  MatMulOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &)
      : Op(id, name) {}
  void setup() override;
};

class GemmOp : public Op {
public:
  GemmOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &a);
  void setup() override;
  float alpha, beta;
  bool transA, transB;
};

class SoftmaxOp : public Op {
public:
  SoftmaxOp(const OperatorIdentifier &id, const std::string &name,
            const Attributes &a);
  void setup() override;
  /// Before opset 13 the input is seen as 2-D [outer, inner] split at
  /// axis; from 13 the softmax is along axis alone.
  bool coerceTo2D() const { return opid.version < 13; }
  int64_t axis;
};

class ReduceOp : public Op {
public:
  ReduceOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &a);
  void setup() override;
  /// The dimensions reduced (normalised, sorted).
  std::vector<int64_t> reducedAxes;
  bool keepdims;

private:
  std::vector<int64_t> attrAxes;
  bool axesAttr = false;
  bool noopWithEmptyAxes = false;
};

} // namespace popart

#endif

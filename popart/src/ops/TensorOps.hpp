// Ops that move or reinterpret data: Reshape, Flatten, Squeeze and
// Unsqueeze (one class: a new shape over the same elements), Transpose,
// Concat, Gather, Slice, Split, Cast, Shape.
#ifndef POPART_SRC_OPS_TENSOROPS_HPP
#define POPART_SRC_OPS_TENSOROPS_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

class ReshapeOp : public Op {
public:
  ReshapeOp(const OperatorIdentifier &id, const std::string &name,
            const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override { return inTensor(0).data; }
  std::vector<int64_t> attrShape; // Reshape-1, ai.graphcore Reshape
  std::vector<int64_t> axes;      // Squeeze, Unsqueeze before opset 13
  bool axesGiven = false;
  int64_t axis = 1;               // Flatten
};

class TransposeOp : public Op {
public:
  TransposeOp(const OperatorIdentifier &id, const std::string &name,
              const Attributes &a);
  void setup() override;
  std::vector<int64_t> perm;
};

class ConcatOp : public Op {
public:
  ConcatOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &a)
      : Op(id, name), axis(a.getInt("axis", 1)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  int64_t axis;
};

class GatherOp : public Op {
public:
  GatherOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &a)
      : Op(id, name), axis(a.getInt("axis", 0)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  int64_t axis;
};

class SliceOp : public Op {
public:
  SliceOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &a);
  void setup() override;
  // Per dimension of the input: begin, end (exclusive) and step.
  std::vector<int64_t> begins, ends, steps;

private:
  std::vector<int64_t> attrStarts, attrEnds, attrAxes;
};

/// Split along an axis into the sizes given (attribute before opset 13,
/// constant input after), or into equal parts.
class SplitOp : public Op {
public:
  SplitOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &a);
  void setup() override;
  int64_t axis;
  std::vector<int64_t> sizes;

private:
  std::vector<int64_t> attrSplit;
};

class CastOp : public Op {
public:
  CastOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  DataType to;
};

class ShapeOp : public Op {
public:
  ShapeOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &)
      : Op(id, name) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  bool foldsFromShapesOnly() const override { return true; }
};


} // namespace popart

#endif

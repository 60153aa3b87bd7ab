#ifndef POPART_SRC_OPS_NDINDEXOPS_HPP
#define POPART_SRC_OPS_NDINDEXOPS_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

/// The ops whose index vectors (the last dimension of the indices, of m
/// values) name slices of the data by their first m coordinates after
/// `batch_dims` batch dimensions: GatherND and ScatterND.
class NdIndexOp : public Op {
public:
  NdIndexOp(const OperatorIdentifier &id, const Op::Settings &settings,
            const Attributes &a)
      : Op(id, settings), batchDims(a.getInt("batch_dims", 0)) {}
  int64_t batchDims;
  /// The number of values in an index vector.
  int64_t indexDepth() const { return inShape(1).back(); }

protected:
  void checkIndices();
};

/// GatherND: for each index vector, the slice of the data it names;
/// shape indices.shape[:-1] + data.shape[batch_dims + m:].
class GatherNDOp : public NdIndexOp {
public:
  using NdIndexOp::NdIndexOp;
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GatherNDOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of GatherND's data: zeros with the output's gradient added
/// at the slices taken. Inputs: the gradient and the indices.
class GatherNDGradOp : public GradOp {
public:
  explicit GatherNDGradOp(const GatherNDOp &fwd)
      : GradOp(fwd, "GatherNDGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 1, GradOpInType::In}},
               {{0, 0}}),
        batchDims(fwd.batchDims) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GatherNDGradOp>(*this);
  }
  int64_t batchDims;
};

/// ScatterND (data, indices, updates): a copy of the data with each
/// update slice written (or added or multiplied: `reduction`) at the
/// slice its index vector names.
class ScatterNDOp : public NdIndexOp {
public:
  ScatterNDOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScatterNDOp>(*this);
  }
  void setup() override;
  std::string reduction;
};

} // namespace popart

#endif

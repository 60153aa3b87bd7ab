#ifndef POPART_SRC_OPS_TILEOP_HPP
#define POPART_SRC_OPS_TILEOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Tile: the input repeated along each dimension (constant repeats).
class TileOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TileOp>(*this);
  }
  TileOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &)
      : Op(id, settings) {}
  void setup() override;
  std::vector<int64_t> repeats;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of a tiling: the output's gradient summed over the copies.
class TileGradOp : public GradOp {
public:
  explicit TileGradOp(const TileOp &fwd)
      : GradOp(fwd, "TileGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}),
        repeats(fwd.repeats) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TileGradOp>(*this);
  }
  std::vector<int64_t> repeats;
};

} // namespace popart

#endif

// The ops of the weight update, each changing its first input in place:
//  - ScaledUpdate: t = a t + b u, the updates of SGD (SGD0VarUpdate,
//    SGD1VarUpdate, SGD1AcclUpdate, SGD2VarUpdate, SGD2AcclUpdate) and of
//    the gradient accumulators (Accumulate);
//  - AccumulatorZero: t = 0;
//  - AdamUpdate and AdaptiveUpdate: one weight's step of those optimisers,
//    with their state.
// The scalars (a, b, learning rates ...) are scalar tensors: constants
// for constant hyper-parameters, the optimiser's tensors otherwise.
#ifndef POPART_SRC_OPS_OPTIMIZEROPS_HPP
#define POPART_SRC_OPS_OPTIMIZEROPS_HPP

#include <popart/adam.hpp>
#include <popart/adaptive.hpp>
#include <popart/op.hpp>

#include "ops/CollectiveOps.hpp"

#include <memory>
#include <set>
#include <string>

namespace popart {

/// An op that changes some inputs in place; output 0 is input 0 updated.
class InPlaceUpdateOp : public Op {
public:
  InPlaceUpdateOp(const std::string &type, const Op::Settings &settings,
                  std::set<InIndex> modified);
  void setup() override { outInfo(0) = inInfo(0); }
  bool modifiesInputInPlace(InIndex i) const override {
    return modified.count(i) != 0;
  }

private:
  std::set<InIndex> modified;
};

/// t = a * t + b * u. Inputs: 0 t, 1 u, 2 a (absent: 1), 3 b (absent: 1).
class ScaledUpdateOp : public InPlaceUpdateOp {
public:
  ScaledUpdateOp(const std::string &type, const Op::Settings &settings)
      : InPlaceUpdateOp(type, settings, {0}) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScaledUpdateOp>(*this);
  }
};

/// t = 0. Input 0 t.
class AccumulatorZeroOp : public InPlaceUpdateOp {
public:
  explicit AccumulatorZeroOp(const Op::Settings &settings)
      : InPlaceUpdateOp("AccumulatorZero", settings, {0}) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<AccumulatorZeroOp>(*this);
  }
};

/// Inputs: 0 weight, 1 gradient (or accumulated gradient), 2 first moment,
/// 3 second moment, 4 step (FLOAT scalar), then scalars: 5 learning rate,
/// 6 weight decay, 7 beta1, 8 beta2, 9 eps, 10 the gradient's scale
/// (1 / (loss scaling [x accumulation factor])), 11 max weight norm (Lamb),
/// 12 loss scaling (scaled optimiser state).
class AdamUpdateOp : public InPlaceUpdateOp {
public:
  AdamUpdateOp(const Op::Settings &settings, AdamMode mode,
               WeightDecayMode decayMode, bool scaledState)
      : InPlaceUpdateOp("AdamUpdate", settings, {0, 2, 3, 4}), mode(mode),
        decayMode(decayMode), scaledState(scaledState) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<AdamUpdateOp>(*this);
  }
  AdamMode mode;
  WeightDecayMode decayMode;
  bool scaledState;
  /// The weight, gradient and moments are the replica's shards
  /// (replicated tensor sharding): Lamb's norms sum over the replicas.
  bool sharded = false;
};

/// Inputs: 0 weight, 1 gradient, 2 accl1, 3 accl2 (CenteredRMSProp,
/// AdaDelta), 4 accl3 (momentum), then scalars: 5 learning rate, 6 weight
/// decay, 7 alpha, 8 momentum, 9 eps, 10 the gradient's scale.
class AdaptiveUpdateOp : public InPlaceUpdateOp {
public:
  AdaptiveUpdateOp(const Op::Settings &settings, AdaptiveMode mode,
                   WeightDecayMode decayMode, bool tfVariant)
      : InPlaceUpdateOp("AdaptiveUpdate", settings, {0, 2, 3, 4}), mode(mode),
        decayMode(decayMode), tfVariant(tfVariant) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<AdaptiveUpdateOp>(*this);
  }
  AdaptiveMode mode;
  WeightDecayMode decayMode;
  bool tfVariant;
};

/// A weight's gradient reduced on the host (SessionOptions::hostAllReduce,
/// enableDistributedReplicatedGraphs): the original's GradCopyToHost and
/// GradCopyFromHost pair as one op. Input 0 the gradient, sent to the host
/// through the stream gradientStore__<id>; output 0 its reduction, received
/// through gradientLoad__<id>.
class HostReduceOp : public Op {
public:
  explicit HostReduceOp(const Op::Settings &settings);
  void setup() override { outInfo(0) = inInfo(0); }
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<HostReduceOp>(*this);
  }
  static std::string gradientStoreStreamId(const TensorId &id) {
    return "gradientStore__" + id;
  }
  static std::string gradientLoadStreamId(const TensorId &id) {
    return "gradientLoad__" + id;
  }
};

} // namespace popart

#endif

// The ONNX random ops: RandomUniform, RandomNormal and their Like forms,
// Bernoulli and Multinomial. They draw with poprand from the session's
// random seed (Session::setRandomSeed), each op with its own seed modifier,
// or from the seed attribute alone when the node has one; see
// popart/README.md, "Random ops".
#ifndef POPART_SRC_OPS_RANDOMOPS_HPP
#define POPART_SRC_OPS_RANDOMOPS_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <cstdint>
#include <memory>

namespace popart {

/// Where an op's random numbers come from.
struct RandomSeedChoice {
  /// The node's `seed` attribute: the numbers depend on it alone (the same
  /// on every run and in every session, as ONNX's reference implementation
  /// seeds its generator on every call); otherwise on the session's seed,
  /// which moves on every micro-batch, and `modifier`.
  bool fromAttribute = false;
  double attribute = 0.0;
  /// The poprand seed words the attribute gives.
  uint32_t words[2] = {0, 0};
  /// Distinguishes the op's numbers from other ops' (from its name).
  uint32_t modifier = 0;
  /// The choice of an op named `opName` with attributes `a`, whose seed
  /// is a FLOAT (the random ops: its 32 bits and 0) or, with
  /// `integerSeed`, an INT (Dropout: its low and high 32 bits).
  static RandomSeedChoice of(const Attributes &a, const std::string &opName,
                             bool integerSeed = false);
};

/// RandomUniform and RandomNormal (shape attribute), RandomUniformLike and
/// RandomNormalLike (the shape of input 0, whose values are not read). The
/// output type is `dtype`: FLOAT by default, the input's for the Like
/// forms; FLOAT16, FLOAT or DOUBLE (held as FLOAT on the device).
class RandomOp : public Op {
public:
  enum class Distribution { Uniform, Normal };

  RandomOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<RandomOp>(*this);
  }
  void setup() override;
  bool requiresRandomSeed() const override { return true; }
  void appendAttributes(OpSerialiserBase &os) const override;

  /// A Like form (reading input 0's shape).
  bool isLike() const { return like; }
  /// The op without the Like form's input: RandomUniform or RandomNormal of
  /// this op's output shape and type (RandomUniformLikeOpPattern,
  /// RandomNormalLikeOpPattern).
  std::unique_ptr<RandomOp> shapedForm() const;

  Distribution distribution;
  /// low and high (uniform), mean and scale (normal).
  float first, second;
  RandomSeedChoice seed;

private:
  bool like;
  Shape shape;
  DataType dtype = DataType::UNDEFINED; // UNDEFINED: the default
};

/// Bernoulli: 1 with the probability input 0 gives each element, else 0, of
/// the `dtype` type (the input's without it).
class BernoulliOp : public Op {
public:
  BernoulliOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<BernoulliOp>(*this);
  }
  void setup() override;
  bool requiresRandomSeed() const override { return true; }

  RandomSeedChoice seed;

private:
  DataType dtype = DataType::UNDEFINED;
};

/// Multinomial: sample_size class indices per row of input 0 ([batch,
/// classes] of unnormalised log-probabilities), INT32 (the default) or
/// INT64.
class MultinomialOp : public Op {
public:
  MultinomialOp(const OperatorIdentifier &id, const Op::Settings &settings,
                const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<MultinomialOp>(*this);
  }
  void setup() override;
  bool requiresRandomSeed() const override { return true; }
  void appendAttributes(OpSerialiserBase &os) const override;

  int64_t sampleSize;
  RandomSeedChoice seed;

private:
  DataType dtype;
};

} // namespace popart

#endif

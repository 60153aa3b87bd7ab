// MultiConv (ai.graphcore, builder.aiGraphcore.multiconv): several
// independent convolutions in one op, each with its own input dilation,
// padding, kernel dilation, stride and output padding, and their
// gradients: one op for the data gradients of all of them, one for the
// weights gradients and one for the biases', as the original splits them.
#ifndef POPART_SRC_OPS_MULTICONVOP_HPP
#define POPART_SRC_OPS_MULTICONVOP_HPP

#include "ops/GradOp.hpp"
#include "ops/PoplibsOptions.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <vector>

namespace popart {

/// One convolution of a MultiConv, resolved from the flat attributes and
/// its inputs' shapes: data [N, C, field...] and weights [M, C / groups,
/// kernel...]. Every list has one value per spatial dimension.
struct MultiConvGeometry {
  int64_t groups = 1;
  Shape field, kernel;
  std::vector<int64_t> inDilations, padsLower, padsUpper, dilations, strides,
      outPadsLower, outPadsUpper;
  /// [N, M, outField...].
  Shape outShape;
  /// The convolution's own options: partialsType,
  /// availableMemoryProportion, enableConvDithering (those given).
  PoplibsOptions options;
};

/// Inputs: data, weights and an optional bias [M] for each convolution
/// (3 * numConvs indices). Outputs: each convolution's result.
class MultiConvOp : public Op {
public:
  MultiConvOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<MultiConvOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;

  static InIndex getDataInIndex(int conv) { return 3 * conv; }
  static InIndex getWeightsInIndex(int conv) { return 3 * conv + 1; }
  static InIndex getBiasInIndex(int conv) { return 3 * conv + 2; }
  static OutIndex getOutIndex(int conv) { return conv; }
  int numConvs() const { return static_cast<int>(convs.size()); }

  /// Resolved by setup().
  std::vector<MultiConvGeometry> convs;
  /// The multi-convolution options of poplin::multiconv: planType,
  /// perConvReservedTiles, cycleBackOff (those given).
  PoplibsOptions planOptions;

private:
  int64_t numConvsAttr;
  std::vector<int64_t> flatStrides, flatPads, flatOutPads, flatDilations,
      flatInDilations;
  // One entry per convolution, or none.
  std::vector<float> availableMemoryProportions;
  std::vector<std::string> partialsTypes;
  std::vector<int64_t> enableConvDithering;
};

/// The gradients of every convolution's data (kind Data: inputs the
/// output gradient and the weights of each convolution, in pairs), of its
/// weights (kind Weights: the output gradient and the data of each), or of
/// the biases (kind Bias: the output gradient of each; outputs only for
/// the convolutions with a bias).
class MultiConvGradOp : public GradOp {
public:
  enum class Kind { Data, Weights, Bias };
  MultiConvGradOp(const MultiConvOp &fwd, Kind kind);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<MultiConvGradOp>(*this);
  }
  Kind kind;
  std::vector<MultiConvGeometry> convs;
  PoplibsOptions planOptions;
  /// Kind Bias: the convolution of each output.
  std::vector<int> biasConvs;
};

} // namespace popart

#endif

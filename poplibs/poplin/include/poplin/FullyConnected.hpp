// The matrix multiplications of a fully connected layer, for planning
// them ahead (poplin::preplanMatMuls, poplin::preplan).
#ifndef POPLIN_FULLYCONNECTED_HPP
#define POPLIN_FULLYCONNECTED_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/poplin_export.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace poplin {
namespace fc {

/// A fully connected layer: numGroups groups of a [batchSize, inputSize]
/// by [inputSize, outputSize] product.
struct FullyConnectedParams {
  std::size_t numGroups;
  std::size_t batchSize;
  std::size_t inputSize;
  std::size_t outputSize;
};

/// The products of the layer's passes with the options to plan each with:
/// the forward pass (fullyConnectedPass INFERENCE_FWD when inferenceOnly,
/// else TRAINING_FWD), and when training the backward pass
/// ([batch, output] by [output, input], TRAINING_BWD) and the weight update
/// ([input, batch] by [batch, output], TRAINING_WU). matmulOptions are
/// kept, but for fullyConnectedPass. Throws poputil::poplibs_error naming
/// a size that is zero.
POPLIN_API std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getMatMulPrePlanParameters(FullyConnectedParams parameters,
                           poplar::OptionFlags matmulOptions,
                           poplar::Type type, bool inferenceOnly);

} // namespace fc
} // namespace poplin

#endif // POPLIN_FULLYCONNECTED_HPP

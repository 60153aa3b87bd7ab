// What the normalisations (BatchNorm.hpp, GroupNorm.hpp, LayerNorm.hpp,
// InstanceNorm.hpp) have in common: their per-channel parameters.
#ifndef POPNN_NORMS_HPP
#define POPNN_NORMS_HPP

#include <popnn/popnn_export.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

#include <utility>

namespace popnn {

/// gamma for activations [batch][channels][field...]: a variable with one
/// element per channel, of acts' type (or `type`), mapped over the tiles.
POPNN_API poplar::Tensor
createNormGamma(poplar::Graph &graph, const poplar::Tensor &acts,
                const poplar::Type &type,
                const poplar::DebugContext &debugContext = {});
POPNN_API poplar::Tensor
createNormGamma(poplar::Graph &graph, const poplar::Tensor &acts,
                const poplar::DebugContext &debugContext = {});
/// beta, as gamma.
POPNN_API poplar::Tensor
createNormBeta(poplar::Graph &graph, const poplar::Tensor &acts,
               const poplar::Type &type,
               const poplar::DebugContext &debugContext = {});
POPNN_API poplar::Tensor
createNormBeta(poplar::Graph &graph, const poplar::Tensor &acts,
               const poplar::DebugContext &debugContext = {});
/// (gamma, beta)
POPNN_API std::pair<poplar::Tensor, poplar::Tensor>
createNormParams(poplar::Graph &graph, const poplar::Tensor &acts,
                 const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // POPNN_NORMS_HPP

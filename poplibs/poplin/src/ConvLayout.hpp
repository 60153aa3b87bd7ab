// How a convolution is laid out on the graph: its parameters folded into a
// ConvGeometry, the views of the transformed input and kernel the vertices
// read, and tensors built of one variable per tile block.
#ifndef POPLIN_SRC_CONVLAYOUT_HPP
#define POPLIN_SRC_CONVLAYOUT_HPP

#include "ConvPlan.hpp"

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/ConvParams.hpp>

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace poplin {
namespace detail {

/// The geometry of `params` (validated first): the input transform is
/// applied by views (transformedInput), the kernel's truncation and flip
/// by views (transformedKernel), and its dilation and padding, the stride
/// and the output truncation by the geometry. The output padding is left
/// to the caller.
ConvGeometry foldGeometry(const ConvParams &params);

/// True when every computed output is zero: an empty kernel window or no
/// input channels (the output is then only zeros).
bool hasNoMacs(const ConvGeometry &geometry);

/// `in` [B, G * Ci, field...] as [G, B, Z, Y, X, Ci] after the input
/// transform (truncation, zero dilation, zero padding, flip). The zeros
/// are a constant on zeroTile: each tile reads its own, so that padding
/// costs no exchange.
poplar::Tensor transformedInput(poplar::Graph &graph, const poplar::Tensor &in,
                                const ConvParams &params, unsigned zeroTile);

/// The input transform's zero padding along the three spatial dimensions
/// of a ConvGeometry, left to a vertex that reads zeros for it rather than
/// memory: the padding before the stored elements and how many are stored.
struct InputPadding {
  std::array<std::size_t, 3> lower{0, 0, 0};
  std::array<std::size_t, 3> stored{1, 1, 1};
};

/// Whether the input transform of `params` pads and adds nothing else
/// that memory must hold (no dilation, no flip): its padding can then be
/// left to the vertex.
bool padsOnly(const ConvParams &params);

/// `in` [B, G * Ci, field...] as [G, B, Z, Y, X, Ci] after the input
/// transform's truncation, for params that padsOnly: transformedInput
/// without the padding, which `padding` receives.
poplar::Tensor unpaddedInput(const poplar::Tensor &in, const ConvParams &params,
                             InputPadding &padding);

/// Blocks of transformedInput(graph, in, params, tile) for the vertices of
/// a convolution, each tile's with its own zeros: block (g, batches
/// [b0, b1), channels [ci0, ci1), padded positions [start, start + span)
/// along field dimension fd) as [b1 - b0, Z, Y, X, ci1 - ci0]. When the
/// input transform only truncates and pads, a block is built from the
/// stored elements it reads and its padding, so that a vertex costs views
/// of its own block only, not of the whole input; the elements, and the
/// zero constants made on each tile (in number and order), are those of
/// the whole transformed input sliced.
class InputBlocks {
public:
  InputBlocks(poplar::Graph &graph, const poplar::Tensor &in,
              const ConvParams &params, unsigned fd);
  poplar::Tensor block(std::size_t g, std::size_t b0, std::size_t b1,
                       std::size_t ci0, std::size_t ci1, std::size_t start,
                       std::size_t span, unsigned tile);

private:
  poplar::Graph &graph;
  const poplar::Tensor in;
  const ConvParams params;
  const unsigned fd;
  bool fromStored = false;
  // The truncated input [G, B, Z, Y, X, C] and its padding.
  poplar::Tensor stored;
  InputPadding padding;
  // The dimension shuffles of a block [B, Z, Y, X, C] that bring
  // dimension 1 + fd first, and back.
  std::vector<unsigned> toFdFirst, fromFdFirst;
  // Stored blocks (g, b0, b1, ci0, ci1) with field dimension fd first,
  // shared by the vertices that read them.
  std::map<std::array<std::size_t, 5>, poplar::Tensor> fdFirst;
};

/// `weights` as [G, KZ, KY, KX, Ci, Co] after the kernel's truncation and
/// flip. With transposeAndFlip, weights is [G, Ci, Co, kernel...] and its
/// kernel is reversed first.
poplar::Tensor transformedKernel(const poplar::Tensor &weights,
                                 const ConvParams &params,
                                 bool transposeAndFlip);

/// `t` [B, G * C, field...] as [G, B, field..., C].
poplar::Tensor groupsFirstChannelsLast(const poplar::Tensor &t,
                                       std::size_t groups);
/// The inverse of groupsFirstChannelsLast.
poplar::Tensor publicActivations(const poplar::Tensor &t);

/// Pads a tensor of rank nd + 3 ([G, B, field..., C]) to the three spatial
/// dimensions of a ConvGeometry.
poplar::Tensor toThreeFieldDims(const poplar::Tensor &t);

/// The b-th of p balanced parts of [0, size).
inline std::size_t partBegin(std::size_t size, unsigned p, unsigned b) {
  return size * b / p;
}

/// One split dimension of a tensor built of blocks.
struct BlockSplit {
  unsigned dim;
  unsigned parts;
  // Parts of this size (the last ones shorter or empty); 0 for balanced
  // parts.
  std::size_t block = 0;
};
/// Maps piece `piece` of the block with the given index (one per split) to
/// a tile.
using BlockTileFn =
    std::function<unsigned(const std::vector<unsigned> &index, unsigned piece)>;
/// A tensor of `shape` made of one variable per block (the dimensions of
/// `splits` cut into parts), so every block is contiguous. Each block is
/// cut (flattened) into `spread` balanced pieces, piece s on tileOf(index,
/// s): a block many tiles read is spread over them, so that no tile sends
/// it to all the others.
poplar::Tensor addBlockedVariable(poplar::Graph &graph,
                                  const poplar::Type &type,
                                  const std::vector<std::size_t> &shape,
                                  const std::vector<BlockSplit> &splits,
                                  unsigned spread, const BlockTileFn &tileOf,
                                  const poplar::DebugContext &debugContext);

/// A zero constant of the given shape (one element on `tile`, broadcast).
poplar::Tensor zeros(poplar::Graph &graph, const poplar::Type &type,
                     const std::vector<std::size_t> &shape, unsigned tile);

/// Checks a tensor's rank and shape against what `params` expect, naming
/// the tensor in the poplibs_error.
void checkShape(const poplar::Tensor &t, const std::vector<std::size_t> &want,
                const std::string &what, const std::string &op);

} // namespace detail
} // namespace poplin

#endif // POPLIN_SRC_CONVLAYOUT_HPP

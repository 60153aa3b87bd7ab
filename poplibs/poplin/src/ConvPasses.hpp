// Pieces shared by the forward and the weight-update passes.
#ifndef POPLIN_SRC_CONVPASSES_HPP
#define POPLIN_SRC_CONVPASSES_HPP

#include "ConvLayout.hpp"
#include "ConvPlan.hpp"
#include "PlanningCacheImpl.hpp"

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/Convolution.hpp>

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace poplin {

namespace detail {

/// The plan of params.canonicalize() for `pass`, from the cache when it
/// holds it.
ConvPlan getConvPlan(const poplar::Target &target, const ConvParams &params,
                     const ConvOptions &options, ConvPass pass,
                     PlanningCache *cache);

/// The input slab block (b, f, ci) of the plan reads, from the
/// transformed input x ([G, B, Z, Y, X, Ci]), with the geometry the vertex
/// is given (its outputs o0 .. o1 along the plan's field dimension).
struct SlabBlock {
  poplar::Tensor slab;
  std::size_t slabBegin = 0; // where the slab starts along the field dim
  std::vector<unsigned> geometry;
};
SlabBlock inputSlab(const poplar::Tensor &x, const ConvGeometry &geometry,
                    std::size_t g, std::size_t b0, std::size_t b1,
                    std::size_t o0, std::size_t o1, std::size_t ci0,
                    std::size_t ci1, std::size_t co0, std::size_t co1);
/// The same from the blocks of the transformed input with the zeros of
/// `tile`.
SlabBlock inputSlab(InputBlocks &blocks, unsigned tile,
                    const ConvGeometry &geometry, std::size_t g, std::size_t b0,
                    std::size_t b1, std::size_t o0, std::size_t o1,
                    std::size_t ci0, std::size_t ci1, std::size_t co0,
                    std::size_t co1);
/// The same from x without the input transform's zero padding
/// (unpaddedInput): the slab holds the stored elements the block reads, and
/// the geometry ends with the padding that the vertex reads as zeros
/// (element 21, the weights' layout, 0 until the caller sets it; elements
/// 22 to 27, ConvKernelCommon.hpp).
SlabBlock inputSlab(const poplar::Tensor &x, const InputPadding &padding,
                    const ConvGeometry &geometry, std::size_t g, std::size_t b0,
                    std::size_t b1, std::size_t o0, std::size_t o1,
                    std::size_t ci0, std::size_t ci1, std::size_t co0,
                    std::size_t co1);

/// The partial results of one output block, one per tile that adds to it.
struct PartialSet {
  std::vector<poplar::Tensor> partials;
  std::vector<unsigned> tiles;
  /// Where the vertex on `tile` writes: the block itself when `direct`,
  /// else a new float partial on that tile.
  poplar::Tensor destination(poplar::Graph &graph,
                             const poplar::Tensor &outBlock, bool direct,
                             unsigned tile, const poplar::DebugContext &dc);
};

/// Adds ConvReduce vertices summing float `partials` (one tensor of the
/// shape of `out` per part, partial r on tiles[r]) into `out`: the
/// elements are cut into one slice per part, slice r summed on tiles[r]
/// and mapped there, so each tile receives about one block of partials.
void addReduce(poplar::Graph &graph, const poplar::ComputeSet &cs,
               const std::vector<poplar::Tensor> &partials,
               const std::vector<unsigned> &tiles, const poplar::Tensor &out);

/// Checks that every named operand has the params' input type, naming
/// them all in the poplibs_error.
void checkOperandTypes(
    const ConvParams &params,
    const std::vector<std::pair<std::string, poplar::Tensor>> &operands,
    const std::string &op);

/// Checks FLOAT or HALF, naming the tensor.
void checkConvType(const poplar::Type &t, const std::string &what,
                   const std::string &op);

} // namespace detail
} // namespace poplin

#endif // POPLIN_SRC_CONVPASSES_HPP

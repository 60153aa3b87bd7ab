#ifndef POPOPS_GATHER_HPP
#define POPOPS_GATHER_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

#include <cstddef>

namespace popops {

struct GatherParams {
  std::size_t maxElementsPerTile = 65535;
};

/// numpy.take: the slices of input along `axis` at `indices` (UNSIGNED_INT,
/// any shape), which replace that dimension in the result. Indices out of
/// range give zeros.
POPOPS_API poplar::Tensor gather(poplar::Graph &graph, const poplar::Tensor &input,
                                 const poplar::Tensor &indices, unsigned axis,
                                 poplar::program::Sequence &prog,
                                 GatherParams params = {},
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

} // namespace popops

#endif // POPOPS_GATHER_HPP

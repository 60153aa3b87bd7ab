#ifndef POPLAR_RANDOMSEED_HPP
#define POPLAR_RANDOMSEED_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/poplar_export.hpp>

namespace poplar {

/// The state of the graph's random number generator (the "hardware
/// seeds"), copied into a new tensor by `prog`. On the IPU Model and CPU
/// targets the generator is one counter-based generator per graph, not one
/// per tile and worker, so that what it produces does not depend on tile
/// mapping: the state is 4 UNSIGNED_INT words, {key0, key1, counter low,
/// counter high} (see poplibs/poprand/README.md). A new graph starts from
/// a fixed state, so programs are repeatable from one Engine to the next.
POPLAR_API Tensor getHwSeeds(Graph &graph, program::Sequence &prog,
                             const DebugContext &debugContext = {});

/// Sets the generator's state to `hwSeeds` (a tensor from getHwSeeds, or
/// any 4 UNSIGNED_INT words) when `prog` runs.
POPLAR_API void setHwSeeds(Graph &graph, const Tensor &hwSeeds,
                           program::Sequence &prog,
                           const DebugContext &debugContext = {});

} // namespace poplar

#endif // POPLAR_RANDOMSEED_HPP

#ifndef POPOPS_GATHERSTATISTICS_HPP
#define POPOPS_GATHERSTATISTICS_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// A histogram of `input` (FLOAT or HALF, any shape) over the bins the
/// ascending 1-D `levels` (of the input's type) bound: [levels.size() + 1]
/// counts, bin 0 for x < levels[0], bin i for levels[i-1] <= x < levels[i]
/// and the last for x >= levels.back(); with absoluteOfInput, |x| is
/// counted. NaN counts in bin 0. UNSIGNED_INT counts, or FLOAT with the
/// option useFloatArithmetic=true.
POPOPS_API poplar::Tensor
histogram(poplar::Graph &graph, const poplar::Tensor &input,
          const poplar::Tensor &levels, bool absoluteOfInput,
          poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {},
          const poplar::OptionFlags &options = {});

/// The same into `output` (UNSIGNED_INT or FLOAT, levels.size() + 1
/// elements), adding to what it holds when updateOutput.
POPOPS_API void histogram(poplar::Graph &graph, const poplar::Tensor &input,
                          poplar::Tensor &output, bool updateOutput,
                          const poplar::Tensor &levels, bool absoluteOfInput,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_GATHERSTATISTICS_HPP

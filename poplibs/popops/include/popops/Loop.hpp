#ifndef POPOPS_LOOP_HPP
#define POPOPS_LOOP_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>
#include <poputil/VertexTemplates.hpp>

#include <cstddef>
#include <functional>

namespace popops {

/// Builds a loop body from the loop's index: an UNSIGNED_INT scalar that
/// holds the current index while the body runs.
using CountedLoopBodyType =
    std::function<poplar::program::Program(const poplar::Tensor &)>;

/// A loop over begin, begin + step, ... while below end (step > 0,
/// begin <= end): the index tensor is set to begin, then the body runs and
/// the index grows by step, (end - begin + step - 1) / step times.
POPOPS_API poplar::program::Sequence
countedLoop(poplar::Graph &graph, std::size_t begin, std::size_t end,
            std::size_t step, const CountedLoopBodyType &body,
            const poplar::DebugContext &debugContext = {});

/// countedLoop(graph, 0, count, 1, body): the index runs over 0 .. count-1.
POPOPS_API poplar::program::Sequence
countedLoop(poplar::Graph &graph, std::size_t count,
            const CountedLoopBodyType &body,
            const poplar::DebugContext &debugContext = {});

/// A loop whose end is known only at run time: `count` (an INT or
/// UNSIGNED_INT scalar) is set to initialCount, then while count is below
/// countLimit (above it, for a negative countStep) the body runs and count
/// grows by countStep. countLimit is a scalar of count's type; it is read
/// before every iteration. countStep must not be 0.
POPOPS_API poplar::program::Sequence
countedForLoop(poplar::Graph &graph, const poplar::Tensor &count,
               int initialCount, const poplar::Tensor &countLimit,
               int countStep, const poplar::program::Program &body,
               const poplar::DebugContext &debugContext = {});

/// As above with a count of its own, of countLimit's type.
POPOPS_API poplar::program::Sequence
countedForLoop(poplar::Graph &graph, int initialCount,
               const poplar::Tensor &countLimit, int countStep,
               const poplar::program::Program &body,
               const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_LOOP_HPP

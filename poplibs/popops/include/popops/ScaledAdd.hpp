// Scaled additions: A = scaleA * A + scaleB * B (and the subtracting
// forms), updating A in place. A and B have the same shape; B (and a tensor
// scale) is cast to the type of A first, except that a HALF A keeps a FLOAT
// scale in FLOAT. Scales given as tensors have one element. Floating-point
// results are computed in float and rounded once.
//
// Options: optimizeForSpeed (true, false) [=false] and
// scaleFloatToHalfTolerance (double) [=1e-6] are accepted for
// compatibility; they change nothing.
#ifndef POPOPS_SCALEDADD_HPP
#define POPOPS_SCALEDADD_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// How scaleA enters A = scaleA' * A + scaleB * B: scaleA' = scaleA
/// (DEFAULT) or 1 - scaleA (X_MINUS_AX_PLUS_BY, A - scaleA * A + ...).
enum class ScaledAddSpecialisation { DEFAULT, X_MINUS_AX_PLUS_BY };

/// A += scaleB * B.
POPOPS_API void scaledAddTo(poplar::Graph &graph, poplar::Tensor A,
                            poplar::Tensor B, float scaleB,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void scaledAddTo(poplar::Graph &graph, poplar::Tensor A,
                            poplar::Tensor B, poplar::Tensor scaleB,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});

/// A -= scaleB * B.
POPOPS_API void
scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B,
                   float scaleB, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});
POPOPS_API void
scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B,
                   poplar::Tensor scaleB, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});

/// A = scaleA * A + scaleB * B.
POPOPS_API void scaledAddTo(poplar::Graph &graph, poplar::Tensor A,
                            poplar::Tensor scaleA, poplar::Tensor B,
                            poplar::Tensor scaleB,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void scaledAddTo(poplar::Graph &graph, poplar::Tensor A,
                            poplar::Tensor scaleA, poplar::Tensor B,
                            poplar::Tensor scaleB,
                            poplar::program::Sequence &prog,
                            const ScaledAddSpecialisation speciality,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void scaledAddTo(poplar::Graph &graph, poplar::Tensor A,
                            float scaleA, poplar::Tensor B, float scaleB,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void scaledAddTo(poplar::Graph &graph, poplar::Tensor A,
                            float scaleA, poplar::Tensor B, float scaleB,
                            poplar::program::Sequence &prog,
                            const ScaledAddSpecialisation speciality,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});

/// A = scaleA * A - scaleB * B.
POPOPS_API void
scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A,
                   poplar::Tensor scaleA, poplar::Tensor B,
                   poplar::Tensor scaleB, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});
POPOPS_API void
scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, float scaleA,
                   poplar::Tensor B, float scaleB,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});

} // namespace popops

#endif // POPOPS_SCALEDADD_HPP

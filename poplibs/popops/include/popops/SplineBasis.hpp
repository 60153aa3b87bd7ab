// B-spline basis of pseudo coordinates (the spline convolutions of
// geometric deep learning).
#ifndef POPOPS_SPLINEBASIS_HPP
#define POPOPS_SPLINEBASIS_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// Writes the B-spline basis of `pseudo` ([numEdges, numDims], FLOAT or
/// HALF, values in [0, 1]) into `basis` and `weightIndex` (both [numEdges,
/// numSplines], numSplines = (degree + 1)^numDims; basis of pseudo's type,
/// weightIndex INT). kernelSize (INT) and isOpenSpline (UNSIGNED_CHAR) are
/// [numDims]. For spline s, with k_d its digit d in base degree + 1 and
/// v_d = pseudo[e][d] * (kernelSize[d] - degree * isOpenSpline[d]):
/// basis[e][s] = prod_d B_{k_d}(v_d - floor(v_d)) with B the B-spline
/// pieces of the degree, and weightIndex[e][s] = sum_d ((int(v_d) + k_d) %
/// kernelSize[d]) * prod_{d' < d} kernelSize[d'].
/// poputil::poplibs_error for tensors of other ranks, types or sizes, or a
/// degree other than 1, 2 or 3.
POPOPS_API void splineBasis(poplar::Graph &graph, const poplar::Tensor &pseudo,
                            const poplar::Tensor &kernelSize,
                            const poplar::Tensor &isOpenSpline,
                            const poplar::Tensor &basis,
                            const poplar::Tensor &weightIndex, unsigned degree,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif

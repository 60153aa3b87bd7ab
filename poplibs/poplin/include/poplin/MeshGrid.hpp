// Evenly spaced values and coordinate grids.
#ifndef POPLIN_MESHGRID_HPP
#define POPLIN_MESHGRID_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/poplin_export.hpp>

#include <cstddef>
#include <vector>

namespace poplin {

/// A constant of `count` values evenly spaced over [left, right] (both
/// ends included; one value is `left`), of type FLOAT or HALF, mapped
/// linearly over the tiles. Throws poputil::poplibs_error for another type.
POPLIN_API poplar::Tensor linspace(poplar::Graph &graph,
                                   const poplar::Type &type, float left,
                                   float right, std::size_t count,
                                   const poplar::DebugContext &debugContext = {});

/// The coordinate grids of two vectors: {X, Y}, each of shape
/// [y.numElements(), x.numElements()], with X[i][j] = x[j] and
/// Y[i][j] = y[i] (numpy's meshgrid with 'xy' indexing). They are
/// broadcast views of x and y: nothing is copied. Throws
/// poputil::poplibs_error unless x and y are of rank 1.
POPLIN_API std::vector<poplar::Tensor>
meshgrid2d(poplar::Graph &graph, poplar::Tensor x, poplar::Tensor y);

} // namespace poplin

#endif // POPLIN_MESHGRID_HPP

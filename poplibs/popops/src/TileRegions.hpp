// popops' operations place their work with the shared tile-region helpers.
#ifndef POPOPS_SRC_TILEREGIONS_HPP
#define POPOPS_SRC_TILEREGIONS_HPP

#include <poplibs_support/TileRegions.hpp>

namespace popops {
namespace detail {

using poplibs_support::forEachVertexGroup;
using poplibs_support::groupRegions;
using poplibs_support::maxElementsPerVertex;
using poplibs_support::regionSizes;
using poplibs_support::regionSlices;
using poplibs_support::splitAtDiscontinuities;
using poplibs_support::tileContiguousRegions;

} // namespace detail
} // namespace popops

#endif // POPOPS_SRC_TILEREGIONS_HPP

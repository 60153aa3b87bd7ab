// Planning convolutions and matrix products ahead of graph construction,
// together, into one planning cache.
#ifndef POPLIN_CONVPREPLAN_HPP
#define POPLIN_CONVPREPLAN_HPP

#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/poplin_export.hpp>

#include <set>

namespace poplin {

/// Plans every convolution of `convs` and every product of `matmuls` into
/// `cache`. Convolutions given `cache`, and matmuls given the
/// matmul::PlanningCache whose getImpl() it is, then find their plans
/// there. A parameter set without a target is a poputil::poplibs_error.
POPLIN_API void preplan(const std::set<ConvPlanParams> &convs,
                        const std::set<MatMulPlanParams> &matmuls,
                        PlanningCache &cache);

} // namespace poplin

#endif // POPLIN_CONVPREPLAN_HPP

// poplin::preplan: the convolutions' and the products' plans into one
// cache.
#include <poplin/ConvPreplan.hpp>

#include "MatMulPlan.hpp"

namespace poplin {

void preplan(const std::set<ConvPlanParams> &convs,
             const std::set<MatMulPlanParams> &matmuls, PlanningCache &cache) {
  preplanConvolutions(convs, cache);
  detail::preplanMatMulsInto(matmuls, cache);
}

} // namespace poplin

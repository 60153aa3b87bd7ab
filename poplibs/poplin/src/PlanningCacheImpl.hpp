// What a poplin::PlanningCache holds: convolution plans, and the matmul
// plans of the matmul::PlanningCache it belongs to (getImpl()) or that
// poplin::preplan made.
#ifndef POPLIN_SRC_PLANNINGCACHEIMPL_HPP
#define POPLIN_SRC_PLANNINGCACHEIMPL_HPP

#include "ConvPlan.hpp"
#include "MatMulPlan.hpp"

#include <poplin/ConvParams.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>

namespace poplin {

struct PlanningCacheImpl {
  // Target, tiles, tiles per group, bytes per tile, params, memory
  // proportion, pass.
  using Key = std::tuple<std::string, unsigned, unsigned, std::uint64_t,
                         ConvParams, double, int>;
  std::map<Key, detail::ConvPlan> plans;
  // Target, supertile alignment, tiles, input type, partials type, m, k,
  // n, memory proportion, bytes per tile.
  using MatMulKey =
      std::tuple<std::string, bool, unsigned, std::string, std::string,
                 std::size_t, std::size_t, std::size_t, double, std::uint64_t>;
  std::map<MatMulKey, detail::MatMulPlan> matmulPlans;
};

} // namespace poplin

#endif // POPLIN_SRC_PLANNINGCACHEIMPL_HPP

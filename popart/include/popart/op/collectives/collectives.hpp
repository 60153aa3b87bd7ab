// How the values of the replicas combine in a collective operation.
#ifndef POPART_OP_COLLECTIVES_COLLECTIVES_HPP
#define POPART_OP_COLLECTIVES_COLLECTIVES_HPP

#include <popart/popart_export.hpp>

#include <iosfwd>

namespace popart {

enum class CollectiveOperator {
  Add = 0,
  /// The sum divided by the number of replicas combined.
  Mean,
  Mul,
  Min,
  Max,
  LogicalAnd,
  LogicalOr,
  /// The sum of the squares.
  SquareAdd,
  /// Each replica keeps its own value.
  Local,
  N
};

POPART_API std::ostream &operator<<(std::ostream &os,
                                    const CollectiveOperator &op);

} // namespace popart

#endif

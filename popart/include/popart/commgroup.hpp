// Which replicas a collective operation combines (CommGroup).
#ifndef POPART_COMMGROUP_HPP
#define POPART_COMMGROUP_HPP

#include <popart/popart_export.hpp>

#include <iosfwd>

namespace popart {

/// How the replicas are split into the groups that communicate.
enum class CommGroupType {
  /// One group of every replica (replicaGroupSize unused).
  All = 0,
  /// Groups of replicaGroupSize replicas next to each other: 0, 1, ...
  Consecutive,
  /// Groups of replicaGroupSize replicas, numReplicas / replicaGroupSize
  /// apart: 0, numReplicas / replicaGroupSize, ...
  Orthogonal,
  /// Each replica alone.
  None,
  N
};

class POPART_API CommGroup {
public:
  CommGroup() = default;
  CommGroup(CommGroupType type, unsigned groupSize)
      : type(type), replicaGroupSize(groupSize) {}

  bool operator==(const CommGroup &other) const {
    return type == other.type && replicaGroupSize == other.replicaGroupSize;
  }
  bool operator!=(const CommGroup &other) const { return !(*this == other); }

  CommGroupType type = CommGroupType::All;
  unsigned replicaGroupSize = 0;
};

POPART_API std::ostream &operator<<(std::ostream &os, CommGroupType type);
POPART_API std::ostream &operator<<(std::ostream &os, const CommGroup &group);

} // namespace popart

#endif

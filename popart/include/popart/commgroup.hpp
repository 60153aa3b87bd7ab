// Groups of replicas that communicate (gcl's CommGroup as PopART names it):
// the sharding domain of a replicated tensor sharded tensor.
#ifndef POPART_COMMGROUP_HPP
#define POPART_COMMGROUP_HPP

#include <popart/popart_export.hpp>

#include <iosfwd>

namespace popart {

/// All: every replica in one group (the size is ignored); Consecutive:
/// groups of replicaGroupSize consecutive replicas; Orthogonal: the
/// replicas at the same position of each consecutive block; None: each
/// replica alone.
enum class CommGroupType { All = 0, Consecutive, Orthogonal, None, N };

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

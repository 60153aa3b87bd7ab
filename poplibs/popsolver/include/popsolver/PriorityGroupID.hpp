#ifndef POPSOLVER_PRIORITYGROUPID_HPP
#define POPSOLVER_PRIORITYGROUPID_HPP

#include <cstdint>
#include <limits>

namespace popsolver {

/// A priority group of a Model: the search splits the ranges of the
/// variables of a group before those of the groups it is prioritised over.
class PriorityGroupID {
public:
  using IndexType = std::uint32_t;
  PriorityGroupID() = default;
  explicit PriorityGroupID(IndexType id) : id(id) {}
  IndexType id = std::numeric_limits<IndexType>::max();
  friend bool operator==(PriorityGroupID a, PriorityGroupID b) {
    return a.id == b.id;
  }
  friend bool operator!=(PriorityGroupID a, PriorityGroupID b) {
    return a.id != b.id;
  }
  friend bool operator<(PriorityGroupID a, PriorityGroupID b) {
    return a.id < b.id;
  }
};

} // namespace popsolver

#endif // POPSOLVER_PRIORITYGROUPID_HPP

#ifndef POPLAR_GRAPHELEMENTS_HPP
#define POPLAR_GRAPHELEMENTS_HPP

#include <limits>

namespace poplar {

/// A set of vertices that run in parallel, named by its id in its graph.
class ComputeSet {
public:
  ComputeSet() = default;
  explicit ComputeSet(unsigned id) : id(id) {}
  unsigned getId() const { return id; }
  bool valid() const { return id != std::numeric_limits<unsigned>::max(); }
  friend bool operator==(ComputeSet a, ComputeSet b) { return a.id == b.id; }
  friend bool operator!=(ComputeSet a, ComputeSet b) { return a.id != b.id; }

private:
  unsigned id = std::numeric_limits<unsigned>::max();
};

/// A program added to a graph once and called from many places
/// (program::Call), so that its code exists once on the device.
class Function {
public:
  Function() = default;
  explicit Function(unsigned id) : id(id) {}
  unsigned getId() const { return id; }
  friend bool operator==(Function a, Function b) { return a.id == b.id; }
  friend bool operator!=(Function a, Function b) { return a.id != b.id; }

private:
  unsigned id = std::numeric_limits<unsigned>::max();
};

} // namespace poplar

#endif // POPLAR_GRAPHELEMENTS_HPP

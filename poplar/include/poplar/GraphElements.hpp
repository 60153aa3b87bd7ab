#ifndef POPLAR_GRAPHELEMENTS_HPP
#define POPLAR_GRAPHELEMENTS_HPP

#include <poplar/StringRef.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

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

class FieldRef;

/// A vertex of a graph, made by Graph::addVertex. `vertex["field"]` names
/// one of its fields.
class VertexRef {
public:
  VertexRef() = default;
  VertexRef(std::uint64_t graphId, unsigned id) : graphId(graphId), id(id) {}
  unsigned getId() const { return id; }
  std::uint64_t getGraphId() const { return graphId; }
  bool valid() const { return graphId != 0; }
  inline FieldRef operator[](StringRef fieldName) const;
  friend bool operator==(const VertexRef &a, const VertexRef &b) {
    return a.graphId == b.graphId && a.id == b.id;
  }
  friend bool operator!=(const VertexRef &a, const VertexRef &b) {
    return !(a == b);
  }

private:
  std::uint64_t graphId = 0;
  unsigned id = std::numeric_limits<unsigned>::max();
};

/// A field of a vertex, or (after operator[]) one item of a list field.
class FieldRef {
public:
  FieldRef() = default;
  FieldRef(VertexRef vertex, StringRef fieldName)
      : vertex(vertex), name(fieldName.str()) {}
  /// Item `index` of a list field (Vector<Input<...>>, VectorList).
  FieldRef operator[](std::size_t index) const {
    FieldRef item = *this;
    item.index = index;
    return item;
  }
  bool isIndexed() const { return index != notIndexed; }
  std::size_t getIndex() const { return index; }
  VertexRef getVertex() const { return vertex; }
  const std::string &getFieldName() const { return name; }

private:
  static constexpr std::size_t notIndexed =
      std::numeric_limits<std::size_t>::max();
  VertexRef vertex;
  std::string name;
  std::size_t index = notIndexed;
};

inline FieldRef VertexRef::operator[](StringRef fieldName) const {
  return FieldRef(*this, fieldName);
}

} // namespace poplar

#endif // POPLAR_GRAPHELEMENTS_HPP

// The device-side API: what a codelet is written with. A vertex type is a
// class derived from Vertex, MultiVertex or SupervisorVertex whose public
// members are its fields:
//
//   Input<T>, Output<T>, InOut<T>          one element of a tensor
//   Input<Vector<T>> (and Output, InOut)   a 1-D region of a tensor
//   Input<VectorList<T>>, Vector<Input<Vector<T>>>
//                                          a list of 1-D regions
//   T, Vector<T> (T a scalar type)         vertex state, set from the host
//
// popc compiles codelets for the host: __POPC__ is defined, __IPU__ is not
// (no code of this SDK runs on IPU hardware).
#ifndef POPLAR_VERTEX_HPP
#define POPLAR_VERTEX_HPP

#include <poplar/VectorLayout.hpp>
#include <poplar/HalfFloat.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>


namespace poplar {

/// A vertex whose compute() runs on one worker context of its tile.
class Vertex {};

/// A vertex whose compute(unsigned workerId) runs on every worker context
/// of its tile, each call with its own workerId.
class MultiVertex {
public:
  static constexpr unsigned numWorkers() { return 6; }
};

/// A vertex whose compute() runs on the tile's supervisor context.
class SupervisorVertex {};

template <bool pred>
using SupervisorVertexIf = typename std::conditional<pred, SupervisorVertex, Vertex>::type;

namespace detail {
struct FieldAccess; // binds fields to memory (poplar/detail/CodeletInterface.hpp)
} // namespace detail

/// A contiguous array: vertex state when T is a scalar type, a 1-D region
/// when wrapped in Input/Output/InOut, and a list of fields when T is one.
template <class T, VectorLayout Layout = VectorLayout::SPAN,
          unsigned AlignBytes = alignof(T), bool Interleaved = false>
class Vector {
public:
  using value_type = T;
  T &operator[](std::size_t i) { return items[i]; }
  const T &operator[](std::size_t i) const { return items[i]; }
  std::size_t size() const { return count; }
  bool empty() const { return count == 0; }
  T *data() { return items; }
  const T *data() const { return items; }
  T *begin() { return items; }
  T *end() { return items + count; }
  const T *begin() const { return items; }
  const T *end() const { return items + count; }

private:
  friend struct detail::FieldAccess;
  T *items = nullptr;
  unsigned count = 0;
};

/// A list of 1-D regions; only meaningful inside Input, Output or InOut.
template <class T, VectorListLayout Layout = VectorListLayout::DELTAN>
class VectorList;

namespace detail {

/// One element of a tensor (Elem is const for inputs).
template <class Elem> class ScalarEdge {
public:
  operator Elem &() const { return *ptr; }
  Elem &operator*() const { return *ptr; }
  Elem *operator->() const { return ptr; }

private:
  friend struct FieldAccess;
  Elem *ptr = nullptr;
};

/// A 1-D region of a tensor. `field->size()` is `field.size()`, as on
/// the IPU.
template <class Elem> class VectorEdge {
public:
  const VectorEdge *operator->() const { return this; }
  Elem &operator[](std::size_t i) const { return items[i]; }
  std::size_t size() const { return count; }
  bool empty() const { return count == 0; }
  Elem *data() const { return items; }
  Elem *begin() const { return items; }
  Elem *end() const { return items + count; }

private:
  friend struct FieldAccess;
  Elem *items = nullptr;
  unsigned count = 0;
};

/// A list of regions, each a VectorEdge.
template <class Item> class ListEdge {
public:
  const ListEdge *operator->() const { return this; }
  const Item &operator[](std::size_t i) const { return items[i]; }
  std::size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const Item *begin() const { return items; }
  const Item *end() const { return items + count; }

private:
  friend struct FieldAccess;
  Item *items = nullptr;
  unsigned count = 0;
};

template <class Elem> struct EdgeOf { using type = ScalarEdge<Elem>; };
template <class T, VectorLayout L, unsigned A, bool I>
struct EdgeOf<Vector<T, L, A, I>> {
  using type = VectorEdge<T>;
};
template <class T, VectorLayout L, unsigned A, bool I>
struct EdgeOf<const Vector<T, L, A, I>> {
  using type = VectorEdge<const T>;
};
template <class T, VectorListLayout L> struct EdgeOf<VectorList<T, L>> {
  using type = ListEdge<VectorEdge<T>>;
};
template <class T, VectorListLayout L> struct EdgeOf<const VectorList<T, L>> {
  using type = ListEdge<VectorEdge<const T>>;
};

} // namespace detail

/// A field the vertex reads.
template <class T> class Input : public detail::EdgeOf<const T>::type {};

/// A field the vertex writes (and may read after writing).
template <class T> class Output : public detail::EdgeOf<T>::type {
public:
  template <class V, class E = T,
            class = typename std::enable_if<std::is_assignable<E &, const V &>::value>::type>
  Output &operator=(const V &value) {
    **this = value;
    return *this;
  }
};

/// A field the vertex reads and writes.
template <class T> class InOut : public detail::EdgeOf<T>::type {
public:
  template <class V, class E = T,
            class = typename std::enable_if<std::is_assignable<E &, const V &>::value>::type>
  InOut &operator=(const V &value) {
    **this = value;
    return *this;
  }
};

} // namespace poplar

#endif // POPLAR_VERTEX_HPP

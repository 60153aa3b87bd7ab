// The interface between a compiled codelet object (.gp) and the Poplar
// runtime. popc generates, for each vertex type it finds, a table built with
// the templates below; the runtime reads the table to construct vertices,
// point their fields at tensor memory and run compute().
//
// This header is included by the code popc generates, not by users.
#ifndef POPLAR_DETAIL_CODELETINTERFACE_HPP
#define POPLAR_DETAIL_CODELETINTERFACE_HPP

#include <poplar/Vertex.hpp>
#include <poplar/detail/HalfBits.hpp>
#include <poplar/detail/HostParallel.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace poplar {
namespace codelet_interface {

/// Bumped whenever the structures below change; the runtime refuses a .gp
/// built for another version.
constexpr unsigned version = 3;

/// The name of the function every .gp exports, returning its Library.
#define POPLAR_CODELET_LIBRARY_SYMBOL poplar_codelet_library_v1
#define POPLAR_CODELET_LIBRARY_STRING "poplar_codelet_library_v1"

enum class FieldKind : std::uint8_t { Input, Output, InOut, State };

enum class FieldShape : std::uint8_t {
  Scalar, // one element (an edge) or one value (state)
  Vector, // a 1-D region (an edge) or an array (state)
  List    // a list of edges, each Scalar or Vector
};

/// Where the runtime puts a field.
struct Binding {
  void *data = nullptr;            // Scalar, Vector: the first element
  std::size_t size = 0;            // Vector: elements; List: items
  void *itemStorage = nullptr;     // List: room for `size` item objects
  const Binding *items = nullptr;  // List: where each item goes
};

struct FieldInfo {
  const char *name;
  FieldKind kind;
  FieldShape shape;
  FieldShape itemShape;    // List only
  const char *elementType; // Poplar type name: "float", "unsigned int", ...
  std::uint8_t layout;     // VectorLayout or VectorListLayout value
  unsigned alignBytes;
  bool interleaved;
  std::size_t itemSize;  // List only: one item object
  std::size_t itemAlign; // List only
  void (*bind)(void *vertex, const Binding &binding);
};

enum class VertexBase : std::uint8_t { Vertex, MultiVertex, SupervisorVertex };

struct VertexInfo {
  const char *name; // qualified, templates as Name<arg,arg>
  VertexBase base;
  std::size_t size;
  std::size_t align;
  void (*construct)(void *memory);
  void (*destroy)(void *vertex);
  /// Runs compute() (compute(workerId) for a MultiVertex); false when the
  /// vertex reports failure.
  bool (*compute)(void *vertex, unsigned workerId);
  const FieldInfo *fields;
  std::size_t numFields;
  const char *file; // where the class is declared
  unsigned line;
  /// The calling thread's floating-point control in this codelet object,
  /// which the runtime sets from the tile's state before compute().
  detail::FloatingPointControl *(*floatingPointControl)();
  /// Installs the runtime's host parallel loop in this codelet object
  /// (HostParallel.hpp); the runtime calls it when it loads the object.
  void (*setHostParallelFor)(detail::HostParallelFor loop);
};

struct Library {
  unsigned version;
  const VertexInfo *vertices;
  std::size_t numVertices;
};

using LibraryFunction = const Library *(*)();

} // namespace codelet_interface

namespace detail {

template <class T> constexpr const char *elementTypeName() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>)
    return "float";
  else if constexpr (std::is_same_v<U, ::half>)
    return "half";
  else if constexpr (std::is_same_v<U, bool>)
    return "bool";
  else if constexpr (std::is_same_v<U, char>)
    return "char";
  else if constexpr (std::is_same_v<U, signed char>)
    return "signed char";
  else if constexpr (std::is_same_v<U, unsigned char>)
    return "unsigned char";
  else if constexpr (std::is_same_v<U, short>)
    return "short";
  else if constexpr (std::is_same_v<U, unsigned short>)
    return "unsigned short";
  else if constexpr (std::is_same_v<U, int>)
    return "int";
  else if constexpr (std::is_same_v<U, unsigned>)
    return "unsigned int";
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> &&
                     sizeof(U) == 8)
    return "long long";
  else if constexpr (std::is_integral_v<U> && std::is_unsigned_v<U> &&
                     sizeof(U) == 8)
    return "unsigned long long";
  else
    return nullptr;
}

template <class T>
constexpr bool isElementType = elementTypeName<T>() != nullptr;

/// What the runtime needs to know about one field type, and how to bind it.
template <class F, class = void> struct FieldTraits {
  static constexpr bool supported = false;
};

struct FieldAccess {
  template <class Elem>
  static void bind(ScalarEdge<Elem> &f, const codelet_interface::Binding &b) {
    f.ptr = static_cast<Elem *>(b.data);
  }
  template <class Elem>
  static void bind(VectorEdge<Elem> &f, const codelet_interface::Binding &b) {
    f.items = static_cast<Elem *>(b.data);
    f.count = static_cast<unsigned>(b.size);
  }
  template <class Item>
  static void bind(ListEdge<Item> &f, const codelet_interface::Binding &b) {
    f.items = bindItems<Item>(b);
    f.count = static_cast<unsigned>(b.size);
  }
  template <class T, VectorLayout L, unsigned A, bool I>
  static void bind(Vector<T, L, A, I> &f, const codelet_interface::Binding &b) {
    if constexpr (isElementType<T>)
      f.items = static_cast<T *>(b.data);
    else
      f.items = bindItems<T>(b);
    f.count = static_cast<unsigned>(b.size);
  }
  template <class T, class = std::enable_if_t<isElementType<T>>>
  static void bind(T &f, const codelet_interface::Binding &b) {
    f = *static_cast<const T *>(b.data);
  }

private:
  template <class Item>
  static Item *bindItems(const codelet_interface::Binding &b) {
    auto *items = static_cast<Item *>(b.itemStorage);
    for (std::size_t i = 0; i != b.size; ++i) {
      new (items + i) Item();
      bind(items[i], b.items[i]);
    }
    return items;
  }
};

struct EdgeShape {
  codelet_interface::FieldShape shape;
  const char *elementType;
  std::uint8_t layout;
  unsigned alignBytes;
  bool interleaved;
};

// The shape of what Input<T> (and Output, InOut) refers to.
template <class T> struct EdgeTarget {
  static constexpr bool supported = isElementType<T>;
  static constexpr EdgeShape info{codelet_interface::FieldShape::Scalar,
                                  elementTypeName<T>(), 0, alignof(T), false};
};
template <class T, VectorLayout L, unsigned A, bool I>
struct EdgeTarget<Vector<T, L, A, I>> {
  static constexpr bool supported = isElementType<T>;
  static constexpr EdgeShape info{codelet_interface::FieldShape::Vector,
                                  elementTypeName<T>(),
                                  static_cast<std::uint8_t>(L), A, I};
};
template <class T, VectorListLayout L> struct EdgeTarget<VectorList<T, L>> {
  static constexpr bool supported = isElementType<T>;
  static constexpr EdgeShape info{codelet_interface::FieldShape::List,
                                  elementTypeName<T>(),
                                  static_cast<std::uint8_t>(L), alignof(T),
                                  false};
  using Item = VectorEdge<T>;
};

template <codelet_interface::FieldKind K, class T> struct EdgeTraits {
  static constexpr bool supported = EdgeTarget<T>::supported;
  static constexpr codelet_interface::FieldKind kind = K;
  static constexpr EdgeShape info = EdgeTarget<T>::info;
};

template <class T>
struct FieldTraits<Input<T>> : EdgeTraits<codelet_interface::FieldKind::Input, T> {};
template <class T>
struct FieldTraits<Output<T>> : EdgeTraits<codelet_interface::FieldKind::Output, T> {};
template <class T>
struct FieldTraits<InOut<T>> : EdgeTraits<codelet_interface::FieldKind::InOut, T> {};

template <class T>
struct FieldTraits<T, std::enable_if_t<isElementType<T>>> {
  static constexpr bool supported = true;
  static constexpr codelet_interface::FieldKind kind =
      codelet_interface::FieldKind::State;
  static constexpr EdgeShape info{codelet_interface::FieldShape::Scalar,
                                  elementTypeName<T>(), 0, alignof(T), false};
};

template <class T, VectorLayout L, unsigned A, bool I>
struct FieldTraits<Vector<T, L, A, I>> {
  using Item = FieldTraits<T>;
  static constexpr bool isList = !isElementType<T>;
  static constexpr bool supported =
      isElementType<T> ||
      (Item::supported &&
       Item::kind != codelet_interface::FieldKind::State &&
       Item::info.shape != codelet_interface::FieldShape::List);
  static constexpr codelet_interface::FieldKind kind =
      isList ? Item::kind : codelet_interface::FieldKind::State;
  static constexpr EdgeShape info{
      isList ? codelet_interface::FieldShape::List
             : codelet_interface::FieldShape::Vector,
      isList ? Item::info.elementType : elementTypeName<T>(),
      static_cast<std::uint8_t>(L), A, I};
};

template <class E> std::true_type vectorEdgeTest(const VectorEdge<E> *);
std::false_type vectorEdgeTest(const void *);
/// Whether a list item is a region (else a single element).
template <class Item>
constexpr bool isVectorEdge =
    decltype(vectorEdgeTest(static_cast<Item *>(nullptr)))::value;

/// The object a list field F holds per item.
template <class F> struct ItemObject { using type = void; };
template <class T, VectorLayout L, unsigned A, bool I>
struct ItemObject<Vector<T, L, A, I>> {
  using type = T;
};
template <class T, VectorListLayout L> struct ItemObject<Input<VectorList<T, L>>> {
  using type = VectorEdge<const T>;
};
template <class T, VectorListLayout L> struct ItemObject<Output<VectorList<T, L>>> {
  using type = VectorEdge<T>;
};
template <class T, VectorListLayout L> struct ItemObject<InOut<VectorList<T, L>>> {
  using type = VectorEdge<T>;
};

/// The field type and the declaring class of a pointer to data member.
template <class M> struct MemberPointer;
template <class F, class C> struct MemberPointer<F C::*> {
  using Field = F;
  using Owner = C;
};

// Member may point into a base class of V: ->* converts it.
template <class V, auto Member>
void bindMember(void *vertex, const codelet_interface::Binding &b) {
  FieldAccess::bind(static_cast<V *>(vertex)->*Member, b);
}

template <class V> constexpr codelet_interface::VertexBase vertexBase() {
  if constexpr (std::is_base_of_v<MultiVertex, V>)
    return codelet_interface::VertexBase::MultiVertex;
  else if constexpr (std::is_base_of_v<SupervisorVertex, V>)
    return codelet_interface::VertexBase::SupervisorVertex;
  else
    return codelet_interface::VertexBase::Vertex;
}

template <class V> bool computeVertex(void *vertex, unsigned workerId) {
  V &v = *static_cast<V *>(vertex);
  if constexpr (std::is_base_of_v<MultiVertex, V>) {
    if constexpr (std::is_void_v<decltype(v.compute(workerId))>) {
      v.compute(workerId);
      return true;
    } else {
      return static_cast<bool>(v.compute(workerId));
    }
  } else {
    if constexpr (std::is_void_v<decltype(v.compute())>) {
      v.compute();
      return true;
    } else {
      return static_cast<bool>(v.compute());
    }
  }
}

} // namespace detail

namespace codelet_interface {

/// The table entry of field `Member` of vertex type V, where Member is
/// `&V::name` and the field may be declared in a base class of V. (A
/// template argument of type `F V::*` cannot name an inherited field: the
/// pointer `&V::name` then has type `F Base::*` and C++17 does not convert
/// it in a template argument, so the member pointer's type is deduced.)
template <class V, auto Member>
constexpr FieldInfo field(const char *name) {
  using Pointer = detail::MemberPointer<decltype(Member)>;
  using F = typename Pointer::Field;
  static_assert(std::is_base_of_v<typename Pointer::Owner, V>,
                "the field must be a member of the vertex type");
  using Traits = detail::FieldTraits<F>;
  static_assert(Traits::supported, "unsupported vertex field type");
  using Item = typename detail::ItemObject<F>::type;
  constexpr bool isList = Traits::info.shape == FieldShape::List;
  FieldInfo info{};
  info.name = name;
  info.kind = Traits::kind;
  info.shape = Traits::info.shape;
  info.itemShape = FieldShape::Scalar;
  if constexpr (isList) {
    if constexpr (detail::isVectorEdge<Item>)
      info.itemShape = FieldShape::Vector;
    info.itemSize = sizeof(Item);
    info.itemAlign = alignof(Item);
  }
  info.elementType = Traits::info.elementType;
  info.layout = Traits::info.layout;
  info.alignBytes = Traits::info.alignBytes;
  info.interleaved = Traits::info.interleaved;
  info.bind = &detail::bindMember<V, Member>;
  return info;
}

/// The table entry of field `Member`, declared in V itself.
template <class V, class F, F V::*Member>
constexpr FieldInfo field(const char *name) {
  return field<V, Member>(name);
}

/// The table entry of vertex type V.
template <class V>
constexpr VertexInfo vertex(const char *name, const FieldInfo *fields,
                            std::size_t numFields, const char *file,
                            unsigned line) {
  static_assert(std::is_default_constructible_v<V>,
                "a vertex type must be default constructible");
  VertexInfo info{};
  info.name = name;
  info.base = detail::vertexBase<V>();
  info.size = sizeof(V);
  info.align = alignof(V);
  info.construct = [](void *memory) { new (memory) V(); };
  info.destroy = [](void *vertex) { static_cast<V *>(vertex)->~V(); };
  info.compute = &detail::computeVertex<V>;
  info.fields = fields;
  info.numFields = numFields;
  info.file = file;
  info.line = line;
  info.floatingPointControl = [] { return &detail::floatingPointControl(); };
  info.setHostParallelFor = [](detail::HostParallelFor loop) {
    detail::hostParallelFor() = loop;
  };
  return info;
}

} // namespace codelet_interface
} // namespace poplar

#endif // POPLAR_DETAIL_CODELETINTERFACE_HPP

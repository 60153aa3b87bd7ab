#include <poplar/Vertex.hpp>

// The field's type is known only in the instantiation Derived<double>,
// through a dependent base: the compiler reports it.
template <class T> struct Base : poplar::Vertex {
  poplar::Input<T> in;
};
template <class T> struct Derived : Base<T> {
  void compute() {}
};
template struct Derived<double>;

#include <poplar/Vertex.hpp>

template <class T> struct Forgotten : poplar::Vertex {
  poplar::Input<T> in;
  void compute() {}
};

#include <poplar/Vertex.hpp>

template <class T> struct Cast : poplar::Vertex {
  poplar::Input<T> in;
  poplar::Output<float> out;
  void compute() { *out = float(*in); }
};
template struct Cast<int>;
template struct Cast<double>;

// Included by Vertices.cpp and More.cpp (found through -I): its vertex
// type is registered once although both inputs see it.
#ifndef POPC_TEST_COMMONBASE_HPP
#define POPC_TEST_COMMONBASE_HPP

#include <poplar/Vertex.hpp>

/// A base with state only: not a vertex on its own (no compute()).
struct WithScale : poplar::Vertex {
  float scale;
};

/// out = in * scale, fields partly inherited.
struct CommonScale : WithScale {
  poplar::Input<float> in;
  poplar::Output<float> out;
  void compute() { *out = *in * scale; }
};

/// Derived from by no vertex of the sources that include it: a header's
/// class without compute() is not an error, as another source may use it.
struct UnusedBase : poplar::Vertex {
  poplar::Input<float> x;
};

#endif

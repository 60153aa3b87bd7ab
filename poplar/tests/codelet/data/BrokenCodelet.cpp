// Does not compile: the error must name this file and line.
#include <poplar/Vertex.hpp>

class Broken : public poplar::Vertex {
public:
  poplar::Output<float> out;
  bool compute() {
    *out = undefinedName;
    return true;
  }
};

// Tutorial 3: the device code. Add the fields and the body of compute().
#include <poplar/Vertex.hpp>

class SumVertex : public poplar::Vertex {
public:
  // Fields

  // Compute function
  bool compute() { return true; }
};

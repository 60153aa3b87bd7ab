// PrintTensor's output: "name: {1,1.5,2}" for a vector, and for higher
// ranks one nested brace per dimension, each inner level on its own line
// indented by its depth:
//
//   v3: {
//    {5,4.5},
//    {4,3.5}
//   }
#include "runtime/EngineImpl.hpp"

#include "core/ElementConversion.hpp"
#include "core/TypeInfo.hpp"

#include <ostream>
#include <string>

namespace poplar {
namespace {

void printElement(std::ostream &out, const Type &type,
                  const unsigned char *element) {
  if (isFloatingPoint(type)) {
    // Printed as the float it holds, with the stream's default format.
    out << static_cast<float>(elementAsDouble(type, element));
  } else if (type == BOOL) {
    out << (*element != 0 ? 1 : 0);
  } else if (isSigned(type)) {
    out << elementAsInteger(type, element);
  } else {
    unsigned long long value;
    convertElements(type, element, UNSIGNED_LONGLONG, &value, 1);
    out << value;
  }
}

struct Printer {
  std::ostream &out;
  const exec::TensorAccess &a;
  const unsigned char *data;

  // Prints dimension `dim` starting at flattened element `first`, whose
  // opening brace sits at indentation `depth`.
  void print(unsigned dim, std::size_t first, unsigned depth) {
    const std::size_t count = a.shape[dim];
    std::size_t stride = 1;
    for (std::size_t d = dim + 1; d < a.shape.size(); ++d)
      stride *= a.shape[d];
    out << '{';
    if (dim + 1 == a.shape.size()) {
      for (std::size_t i = 0; i != count; ++i) {
        if (i)
          out << ',';
        printElement(out, a.type, data + (first + i) * a.elementBytes);
      }
      out << '}';
      return;
    }
    out << '\n';
    for (std::size_t i = 0; i != count; ++i) {
      out << std::string(depth + 1, ' ');
      print(dim + 1, first + i * stride, depth + 1);
      out << (i + 1 != count ? ",\n" : "\n");
    }
    out << std::string(depth, ' ') << '}';
  }
};

} // namespace

void printTensor(std::ostream &out, const std::string &title,
                 const exec::TensorAccess &a, const unsigned char *data) {
  out << title << ": ";
  if (a.shape.empty())
    printElement(out, a.type, data);
  else
    Printer{out, a, data}.print(0, 0, 0);
  out << '\n';
}

} // namespace poplar

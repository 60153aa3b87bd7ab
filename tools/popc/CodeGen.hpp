// The registration source popc compiles for each input: it includes the
// input and builds the poplar::codelet_interface tables of its vertices.
#ifndef POPC_CODEGEN_HPP
#define POPC_CODEGEN_HPP

#include "Model.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace popc {

struct PartSpec {
  std::string inputPath;     // absolute path of the codelet source
  std::string generatedPath; // where this source is written
  const std::vector<VertexModel> *vertices;
};

/// The source of part `index` of `parts`. Each part has its own tables and
/// a function returning them; the last part also defines the exported
/// function that returns the whole library.
std::string generatePart(const std::vector<PartSpec> &parts, std::size_t index);

/// `s` as a C++ string literal.
std::string cppString(const std::string &s);

} // namespace popc

#endif // POPC_CODEGEN_HPP

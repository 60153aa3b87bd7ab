// Finding the vertex types of a codelet source with libclang.
#ifndef POPC_REFLECTION_HPP
#define POPC_REFLECTION_HPP

#include "Diagnostics.hpp"
#include "Model.hpp"

#include <clang-c/Index.h>

#include <string>
#include <vector>

namespace popc {

struct ParseSettings {
  /// Everything clang needs besides the file: language, macros, includes.
  std::vector<std::string> clangArgs;
  /// Poplar's include directory: its headers are not searched for vertices.
  std::string poplarIncludeDir;
};

struct SourceModel {
  std::string path; // as given on the command line
  std::vector<VertexModel> vertices;
  /// Absolute paths of the source and every file it includes.
  std::vector<std::string> dependencies;
};

/// Parses `path` and finds its vertex types. Problems are reported to
/// `diags`; false if there were errors.
bool reflectSource(CXIndex index, const std::string &path,
                   const ParseSettings &settings, Diagnostics &diags,
                   SourceModel &model);

} // namespace popc

#endif // POPC_REFLECTION_HPP

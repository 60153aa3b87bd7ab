// A loaded graph program object (.gp): the shared object popc built, with
// the table of vertex types it exports.
#ifndef POPLAR_SRC_CODELET_CODELETLIBRARY_HPP
#define POPLAR_SRC_CODELET_CODELETLIBRARY_HPP

#include <poplar/detail/CodeletInterface.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace poplar {

class CodeletLibrary {
public:
  /// Loads a .gp file; poplar::file_load_error naming the file if it is
  /// missing, corrupt or built for another version of the interface.
  static std::shared_ptr<const CodeletLibrary> load(const std::string &path);
  /// A table built into this library (no file), under the name `name`.
  static std::shared_ptr<const CodeletLibrary>
  builtin(const codelet_interface::Library &table, const std::string &name);

  CodeletLibrary(const CodeletLibrary &) = delete;
  CodeletLibrary &operator=(const CodeletLibrary &) = delete;
  ~CodeletLibrary();

  const codelet_interface::Library &table() const { return *lib; }
  const std::string &path() const { return filePath; }
  /// Identifies the content: the same codelets loaded twice compare equal.
  std::uint64_t contentHash() const { return hash; }

private:
  CodeletLibrary() = default;
  void *handle = nullptr;
  const codelet_interface::Library *lib = nullptr;
  std::string filePath;
  std::uint64_t hash = 0;
};

/// Poplar's own vertices, which change a tile's floating-point behaviour
/// (src/codelet/FloatingPointVertices.cpp): Modify, GetAndModify, Restore.
constexpr const char *floatingPointVertexNames[] = {
    "poplar::ModifyFloatingPointBehaviour",
    "poplar::GetAndModifyFloatingPointBehaviour",
    "poplar::RestoreFloatingPointBehaviour"};
const codelet_interface::Library &floatingPointCodelets();

/// A vertex type name as registered: whitespace next to '<', '>' and ','
/// removed, so "Foo< float, 4 >" names "Foo<float,4>".
std::string normaliseVertexName(const std::string &name);

} // namespace poplar

#endif // POPLAR_SRC_CODELET_CODELETLIBRARY_HPP

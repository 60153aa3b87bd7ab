#include "codelet/CodeletLibrary.hpp"
#include "codelet/GraphProgramFile.hpp"
#include "runtime/HostParallelFor.hpp"

#include <poplar/exceptions.hpp>

#include <dlfcn.h>

#include <cctype>
#include <climits>
#include <cstdlib>
#include <functional>

namespace poplar {

namespace {

// Gives the codelet object the runtime's host threads (through any of its
// vertex types: they share one slot in the object).
void installHostParallelFor(const codelet_interface::Library &table) {
  for (std::size_t i = 0; i != table.numVertices; ++i)
    if (table.vertices[i].setHostParallelFor)
      table.vertices[i].setHostParallelFor(&runtime::hostParallelFor);
}

} // namespace

std::shared_ptr<const CodeletLibrary>
CodeletLibrary::load(const std::string &path) {
  char resolved[PATH_MAX];
  if (!realpath(path.c_str(), resolved))
    throw file_load_error("addCodelets: cannot open codelet file '" + path +
                          "'");
  std::string why;
  std::uint64_t hash = 0;
  if (!gp::validate(resolved, why, &hash))
    throw file_load_error("addCodelets: cannot load codelets: " + why);

  std::shared_ptr<CodeletLibrary> library(new CodeletLibrary());
  library->filePath = resolved;
  library->hash = hash;
  library->handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL);
  if (!library->handle)
    throw file_load_error("addCodelets: cannot load '" + path + "': " +
                          dlerror());
  auto entry = reinterpret_cast<codelet_interface::LibraryFunction>(
      dlsym(library->handle, POPLAR_CODELET_LIBRARY_STRING));
  if (!entry)
    throw file_load_error("addCodelets: '" + path +
                          "' does not export a codelet table (was it made "
                          "by popc?)");
  library->lib = entry();
  if (!library->lib || library->lib->version != codelet_interface::version)
    throw file_load_error(
        "addCodelets: '" + path + "' was built for codelet interface version " +
        std::to_string(library->lib ? library->lib->version : 0) +
        ", this Poplar uses version " +
        std::to_string(codelet_interface::version) + "; rebuild it with popc");
  installHostParallelFor(*library->lib);
  return library;
}

std::shared_ptr<const CodeletLibrary>
CodeletLibrary::builtin(const codelet_interface::Library &table,
                        const std::string &name) {
  std::shared_ptr<CodeletLibrary> library(new CodeletLibrary());
  library->filePath = name;
  library->hash = std::hash<std::string>()(name);
  library->lib = &table;
  installHostParallelFor(table);
  return library;
}

CodeletLibrary::~CodeletLibrary() {
  if (handle)
    dlclose(handle);
}

std::string normaliseVertexName(const std::string &name) {
  std::string out;
  out.reserve(name.size());
  auto isPunct = [](char c) { return c == '<' || c == '>' || c == ','; };
  for (std::size_t i = 0; i != name.size(); ++i) {
    const char c = name[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      // Keep a space only between two parts of one name ("unsigned int").
      std::size_t next = i;
      while (next < name.size() &&
             std::isspace(static_cast<unsigned char>(name[next])))
        ++next;
      const bool atEdge = out.empty() || next == name.size() ||
                          isPunct(out.back()) || isPunct(name[next]);
      if (!atEdge)
        out.push_back(' ');
      i = next - 1;
      continue;
    }
    out.push_back(c);
  }
  return out;
}

} // namespace poplar

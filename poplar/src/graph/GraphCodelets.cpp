// Graph::addCodelets: loading vertex types from .gp files, compiling C++
// codelet source with popc first when given source.
#include "graph/GraphImpl.hpp"

#include "codelet/CodeletCompiler.hpp"
#include "codelet/CodeletLibrary.hpp"
#include "core/Logging.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>

namespace poplar {
namespace {

bool endsWith(const std::string &s, const char *suffix) {
  const std::size_t n = std::char_traits<char>::length(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

CodeletFileType fileTypeFromName(const std::string &path) {
  for (const char *ext : {".cpp", ".cc", ".cxx", ".C", ".c++"})
    if (endsWith(path, ext))
      return CodeletFileType::CppSource;
  if (endsWith(path, ".gp") || endsWith(path, ".o"))
    return CodeletFileType::Object;
  if (endsWith(path, ".S"))
    return CodeletFileType::AsmSource;
  if (endsWith(path, ".s"))
    return CodeletFileType::PreprocessedAsmSource;
  if (endsWith(path, ".c"))
    return CodeletFileType::CSource;
  if (endsWith(path, ".ii"))
    return CodeletFileType::PreprocessedCppSource;
  throw file_load_error("addCodelets: cannot tell the type of '" + path +
                        "' from its extension; pass a CodeletFileType");
}

Type elementTypeFromName(const char *name, const std::string &where) {
  static const std::pair<const char *, Type> types[] = {
      {"float", FLOAT},
      {"half", HALF},
      {"bool", BOOL},
      {"char", CHAR},
      {"signed char", SIGNED_CHAR},
      {"unsigned char", UNSIGNED_CHAR},
      {"short", SHORT},
      {"unsigned short", UNSIGNED_SHORT},
      {"int", INT},
      {"unsigned int", UNSIGNED_INT},
      {"long long", LONGLONG},
      {"unsigned long long", UNSIGNED_LONGLONG}};
  for (const auto &[typeName, type] : types)
    if (name && std::string_view(name) == typeName)
      return type;
  throw file_load_error(where + ": unknown element type '" +
                        (name ? name : "") + "'");
}

} // namespace

bool Graph::addCodelets(StringRef src, CodeletFileType type,
                        StringRef compileFlags, StringRef targetName) {
  return addCodeletsImpl(src.str(), type, compileFlags.str(), targetName.str(),
                         nullptr);
}

bool Graph::addCodelets(StringRef src, CodeletFileType type,
                        StringRef compileFlags, std::ostream &compileOutput,
                        StringRef targetName) {
  return addCodeletsImpl(src.str(), type, compileFlags.str(), targetName.str(),
                         &compileOutput);
}

void Graph::addCodelets(std::stringstream &stream, StringRef compileFlags,
                        CodeletFileType type, StringRef targetName) {
  addCodeletsImpl(storeCodeletSource(stream.str()), type, compileFlags.str(),
                  targetName.str(), nullptr);
}

void Graph::addCodelets(std::stringstream &stream, StringRef compileFlags,
                        std::ostream &compileOutput, CodeletFileType type,
                        StringRef targetName) {
  addCodeletsImpl(storeCodeletSource(stream.str()), type, compileFlags.str(),
                  targetName.str(), &compileOutput);
}

void Graph::addCodelets(const std::vector<std::string> &xs,
                        StringRef compileFlags) {
  for (const auto &x : xs)
    addCodeletsImpl(x, CodeletFileType::Auto, compileFlags.str(), "", nullptr);
}

bool Graph::addCodeletsImpl(const std::string &src, CodeletFileType type,
                            const std::string &compileFlags,
                            const std::string &targetName,
                            std::ostream *compileOutput) {
  if (type == CodeletFileType::Auto)
    type = fileTypeFromName(src);
  std::string objectPath;
  switch (type) {
  case CodeletFileType::Object:
    objectPath = src;
    break;
  case CodeletFileType::CppSource:
  case CodeletFileType::PreprocessedCppSource:
    objectPath = compileCodeletSource(src, compileFlags, targetName,
                                      compileOutput);
    break;
  default:
    throw graph_program_compilation_error(
        "addCodelets: '" + src +
        "': only C++ codelets and .gp objects are supported; assembly and "
        "C codelets need the IPU toolchain, which this SDK does not have");
  }

  return registerCodeletLibrary(*impl, CodeletLibrary::load(objectPath), src);
}

bool registerCodeletLibrary(Graph::Impl &impl,
                            std::shared_ptr<const CodeletLibrary> library,
                            const std::string &src) {
  for (const auto &loaded : impl.codeletLibraries)
    if (loaded->contentHash() == library->contentHash())
      return false;

  // Check every name before registering any, so a clash changes nothing.
  const auto &table = library->table();
  for (std::size_t i = 0; i != table.numVertices; ++i) {
    const std::string name = normaliseVertexName(table.vertices[i].name);
    auto it = impl.vertexTypeIndex.find(name);
    if (it != impl.vertexTypeIndex.end())
      throw link_error("addCodelets: vertex type '" + name + "' in '" + src +
                       "' is already defined by '" +
                       impl.vertexTypes[it->second].library->path() + "'");
  }
  for (std::size_t i = 0; i != table.numVertices; ++i) {
    const auto &info = table.vertices[i];
    VertexType vt;
    vt.name = normaliseVertexName(info.name);
    vt.info = &info;
    vt.library = library;
    for (std::size_t f = 0; f != info.numFields; ++f)
      vt.fieldTypes.push_back(elementTypeFromName(
          info.fields[f].elementType,
          "addCodelets: '" + src + "', vertex '" + vt.name + "'"));
    impl.vertexTypeIndex.emplace(vt.name,
                                 static_cast<unsigned>(impl.vertexTypes.size()));
    impl.vertexTypes.push_back(std::move(vt));
  }
  impl.codeletLibraries.push_back(std::move(library));
  logging::debug(logging::Module::Graph, "Added {} vertex types from '{}'",
                 table.numVertices, src);
  return true;
}

bool Graph::hasCodelet(StringRef codeletName) const {
  return impl->vertexTypeIndex.count(normaliseVertexName(codeletName.str())) !=
         0;
}

} // namespace poplar

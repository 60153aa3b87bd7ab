// Codelet sources through popc's reflection, in process: libclang parses
// the source, popc finds its vertex types and their fields, and generates
// the registration source for them. Problems in the source must be
// reported as popc diagnostics, never crash popc. (The host compiler that
// popc runs on the generated source is not part of this harness.)
#include "CodeGen.hpp"
#include "Reflection.hpp"

#include "FuzzSupport.hpp"

#include <clang-c/Index.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace {

CXIndex index = nullptr;
popc::ParseSettings settings;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::enterScratchDirectory();
  index = clang_createIndex(/*excludeDeclarationsFromPCH=*/0,
                            /*displayDiagnostics=*/0);
  settings.poplarIncludeDir = SDK_POPLAR_INCLUDE_DIR;
  settings.clangArgs = {"-x", "c++", "-std=c++17", "-D__POPC__",
                        "-I" SDK_POPLAR_INCLUDE_DIR, "-O2"};
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string path = fuzz::scratchFile("codelet.cpp", data, size);
  popc::Diagnostics diags;
  popc::SourceModel model;
  if (!popc::reflectSource(index, path, settings, diags, model))
    return 0;
  popc::PartSpec part{std::filesystem::absolute(path).string(), "part0.cpp",
                      &model.vertices};
  const std::string generated = popc::generatePart({part}, 0);
  if (generated.empty()) {
    std::fprintf(stderr, "popc generated no registration source\n");
    std::abort();
  }
  return 0;
}

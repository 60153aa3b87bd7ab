// popc: the codelet compiler. Finds the vertex types of codelet sources
// with libclang, generates their registration tables, and compiles both
// with the host compiler into one graph program file (.gp).
#include "Build.hpp"
#include "Clang.hpp"
#include "CodeGen.hpp"
#include "Diagnostics.hpp"
#include "Options.hpp"
#include "PopcConfig.hpp"
#include "Reflection.hpp"

#include "codelet/GraphProgramFile.hpp"

#include <clang-c/Index.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;

namespace popc {
namespace {

// <prefix>/bin/popc uses <prefix>/include; popc in a build tree uses the
// source tree's headers.
std::string poplarIncludeDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "include";
    if (fs::exists(installed / "poplar" / "Vertex.hpp", ec))
      return installed.lexically_normal().string();
  }
  return POPC_SOURCE_INCLUDE_DIR;
}

std::vector<std::string> splitSpaces(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string word; in >> word;)
    out.push_back(word);
  return out;
}

class Timer {
public:
  explicit Timer(bool on) : on(on), start(std::chrono::steady_clock::now()) {}
  void report(const std::string &what) {
    auto now = std::chrono::steady_clock::now();
    if (on)
      std::fprintf(stderr, "popc: %s: %.3f s\n", what.c_str(),
                   std::chrono::duration<double>(now - start).count());
    start = now;
  }

private:
  bool on;
  std::chrono::steady_clock::time_point start;
};

void printVertices(const std::vector<SourceModel> &sources) {
  for (const SourceModel &s : sources)
    for (const VertexModel &v : s.vertices) {
      std::fprintf(stderr, "popc: vertex %s (%s:%u)\n", v.name.c_str(),
                   v.file.c_str(), v.pos.line);
      for (const FieldModel &f : v.fields) {
        if (!f.typeKnown) {
          std::fprintf(stderr, "popc:   %s: %s (checked by the compiler)\n",
                       f.name.c_str(), f.typeSpelling.c_str());
          continue;
        }
        std::fprintf(stderr, "popc:   %s: %s %s %s%s\n", f.name.c_str(),
                     kindName(f.type.kind), shapeName(f.type.shape),
                     f.type.elementType.c_str(),
                     f.type.shape == FieldShape::List
                         ? (std::string(" of ") + shapeName(f.type.itemShape)).c_str()
                         : "");
      }
    }
}

// A vertex type from a header included by several inputs is registered
// once; two different classes of the same name are an error.
void removeDuplicates(std::vector<SourceModel> &sources, Diagnostics &diags) {
  std::map<std::string, const VertexModel *> seen;
  std::vector<std::vector<VertexModel>> kept(sources.size());
  for (std::size_t i = 0; i != sources.size(); ++i)
    for (const VertexModel &v : sources[i].vertices) {
      auto [it, fresh] = seen.emplace(v.name, &v);
      if (fresh) {
        kept[i].push_back(v);
        continue;
      }
      const VertexModel &other = *it->second;
      if (other.file != v.file || other.pos.line != v.pos.line) {
        diags.error(v.pos, "vertex type '" + v.name + "' is defined twice");
        diags.note(other.pos, "the other definition of '" + v.name + "' is here");
      }
    }
  for (std::size_t i = 0; i != sources.size(); ++i)
    sources[i].vertices = std::move(kept[i]);
}

int compile(const Options &options) {
  Diagnostics diags;
  Timer timer(options.verbose);
  const std::string include = poplarIncludeDir();

  ParseSettings settings;
  settings.poplarIncludeDir = include;
  settings.clangArgs = {"-x", "c++", "-std=c++17", "-D__POPC__", "-I" + include};
  for (const std::string &f : options.preprocessorFlags)
    settings.clangArgs.push_back(f);
  settings.clangArgs.push_back(options.optimisation);

  for (const std::string &input : options.inputs) {
    std::error_code ec;
    if (!fs::is_regular_file(input, ec)) {
      diags.error("no such file: '" + input + "'");
      return 1;
    }
  }

  std::vector<SourceModel> sources(options.inputs.size());
  CXIndex index = clang_createIndex(/*excludeDeclarationsFromPCH=*/0,
                                    /*displayDiagnostics=*/0);
  for (std::size_t i = 0; i != options.inputs.size(); ++i)
    reflectSource(index, options.inputs[i], settings, diags, sources[i]);
  clang_disposeIndex(index);
  timer.report("parsing with libclang");
  if (diags.errorCount() != 0)
    return 1;
  for (const SourceModel &s : sources)
    if (s.vertices.empty())
      diags.warning(SourcePos{}, "no vertex types found in '" + s.path + "'");
  removeDuplicates(sources, diags);
  if (diags.errorCount() != 0)
    return 1;
  if (options.verbose)
    printVertices(sources);

  // The registration sources.
  TempDir temp;
  std::string why;
  if (!options.saveTemps && !temp.create(why)) {
    diags.error(why);
    return 1;
  }
  std::vector<PartSpec> parts;
  for (std::size_t i = 0; i != sources.size(); ++i) {
    PartSpec p;
    p.inputPath = fs::absolute(sources[i].path).lexically_normal().string();
    p.generatedPath = options.saveTemps
                          ? options.output + ".part" + std::to_string(i) + ".cpp"
                          : temp.path() + "/part" + std::to_string(i) + ".cpp";
    p.generatedPath = fs::absolute(p.generatedPath).lexically_normal().string();
    p.vertices = &sources[i].vertices;
    parts.push_back(p);
  }
  for (std::size_t i = 0; i != parts.size(); ++i)
    if (!writeFile(parts[i].generatedPath, generatePart(parts, i), why)) {
      diags.error(why);
      return 1;
    }

  // Compile into a file beside the output, then move it into place.
  std::string shared;
  if (!makeTempBeside(options.output, shared, why)) {
    diags.error(why);
    return 1;
  }
  std::vector<std::string> command = {hostCompiler(), "-std=c++17", "-fPIC",
                                      "-shared", "-fvisibility=hidden",
                                      "-D__POPC__", "-I" + include};
  for (const std::string &f : splitSpaces(POPC_CXX_EXTRA_FLAGS))
    command.push_back(f);
  for (const std::string &f : options.preprocessorFlags)
    command.push_back(f);
  for (const std::string &f : options.warningFlags)
    command.push_back(f);
  for (const std::string &f : options.codegenFlags)
    command.push_back(f);
  if (options.debugInfo)
    command.push_back("-g");
  command.push_back(options.optimisation);
  for (const PartSpec &p : parts)
    command.push_back(p.generatedPath);
  command.push_back("-o");
  command.push_back(shared);
  if (options.verbose) {
    std::string line;
    for (const std::string &a : command)
      line += (line.empty() ? "" : " ") + a;
    std::fprintf(stderr, "popc: %s\n", line.c_str());
  }
  int rc = runProgram(command);
  timer.report("compiling with " + command[0]);
  if (rc != 0) {
    std::remove(shared.c_str());
    diags.error("compiling the codelets failed (" + command[0] +
                " exited with code " + std::to_string(rc) + ")");
    return 1;
  }
  if (!poplar::gp::appendTrailer(shared, why) ||
      std::rename(shared.c_str(), options.output.c_str()) != 0) {
    std::remove(shared.c_str());
    diags.error(why.empty() ? "cannot write '" + options.output + "'" : why);
    return 1;
  }

  if (!options.depfile.empty()) {
    std::vector<std::string> deps;
    for (const SourceModel &s : sources)
      deps.insert(deps.end(), s.dependencies.begin(), s.dependencies.end());
    std::error_code ec;
    deps.push_back(
        fs::weakly_canonical(include + "/poplar/detail/CodeletInterface.hpp", ec)
            .string());
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    std::string target = fs::absolute(options.output).lexically_normal().string();
    if (!writeFileAtomically(options.depfile, depfileRule(target, deps), why)) {
      diags.error(why);
      return 1;
    }
  }
  timer.report("writing the output");
  return 0;
}

} // namespace
} // namespace popc

int main(int argc, char **argv) {
  using popc::Options;
  Options options;
  std::string error;
  if (!popc::parseOptions(argc, argv, options, error)) {
    std::cerr << "popc: error: " << error << "\n"
              << "Run 'popc --help' for usage.\n";
    return 1;
  }
  switch (options.action) {
  case Options::Action::Help:
    std::cout << popc::usage();
    return 0;
  case Options::Action::Version:
    std::cout << "popc " << POPC_VERSION << " (open Poplar SDK)\n"
              << "libclang: " << popc::toString(clang_getClangVersion()) << "\n"
              << "host compiler: " << popc::hostCompiler() << "\n";
    return 0;
  case Options::Action::ListTargets:
    for (const auto &t : popc::knownTargets())
      std::cout << t.name << "\t" << t.description << "\n";
    return 0;
  case Options::Action::Compile:
    break;
  }
  return popc::compile(options);
}

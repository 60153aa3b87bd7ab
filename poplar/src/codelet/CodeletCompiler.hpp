// Compiling codelet source at run time: popc is run on the source and the
// resulting .gp kept in a cache, keyed by a hash of the source, the flags
// and the toolchain, and checked against the files the source includes.
#ifndef POPLAR_SRC_CODELET_CODELETCOMPILER_HPP
#define POPLAR_SRC_CODELET_CODELETCOMPILER_HPP

#include <cstdint>
#include <iosfwd>
#include <string>

namespace poplar {

/// The .gp for a codelet source file, compiling it on a cache miss.
/// Compiler messages go to `output` when given; a failed compile throws
/// poplar::graph_program_compilation_error with the messages.
std::string compileCodeletSource(const std::string &sourcePath,
                                 const std::string &compileFlags,
                                 const std::string &targetName,
                                 std::ostream *output);

/// Writes source text to a file in the cache (named by its hash) and
/// returns the path, for codelets given as a stream.
std::string storeCodeletSource(const std::string &source);

/// Writes a .gp held in an executable file (its bytes, trailer included)
/// into the cache, named by its content hash, unless it is there already,
/// and returns its path.
std::string storeCodeletObject(const std::string &bytes,
                               std::uint64_t contentHash);

/// The cache directory: $POPLAR_CODELET_CACHE_DIR, else
/// $XDG_CACHE_HOME/poplar/codelets, else ~/.cache/poplar/codelets.
std::string codeletCacheDirectory();

/// The popc executable: $POPLAR_POPC, else bin/popc beside the library's
/// installation, else the one in the build tree, else popc on PATH.
std::string popcExecutable();

} // namespace poplar

#endif // POPLAR_SRC_CODELET_CODELETCOMPILER_HPP

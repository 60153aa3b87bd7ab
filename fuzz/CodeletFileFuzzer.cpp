// Graph program files (.gp) given to Graph::addCodelets: the first byte
// chooses what the rest is.
//   0 (and most values): the bytes of a .gp file;
//   1: a length: a .gp that popc made, cut short there, or with its last
//      bytes changed, as a file written only in part would be.
// A file that is not a complete .gp must be refused with a
// poplar::file_load_error (a poplar_error) before the loader sees it.
// (The bytes of the shared object inside a complete .gp are not mutated:
// the system's dynamic loader trusts them, as it trusts any library.)
#include <poplar/Graph.hpp>
#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>

#include "FuzzSupport.hpp"

#include <fstream>
#include <iterator>
#include <string>

namespace {

std::string validGp; // SDK_FUZZ_GP, a .gp of the build

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  std::ifstream in(SDK_FUZZ_GP, std::ios::binary);
  validGp.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (validGp.size() < 64) {
    std::fprintf(stderr, "cannot read %s\n", SDK_FUZZ_GP);
    std::abort();
  }
  fuzz::enterScratchDirectory();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  std::string bytes;
  if (data[0] == 1 && size >= 5) {
    // Cut at a length from the input, then overwrite the bytes before the
    // cut with what follows the length.
    std::uint32_t cut = 0;
    for (int i = 0; i != 4; ++i)
      cut = cut << 8 | data[1 + i];
    bytes = validGp.substr(0, cut % (validGp.size() + 1));
    const std::size_t extra = size - 5;
    for (std::size_t i = 0; i != extra && i != bytes.size(); ++i)
      bytes[bytes.size() - 1 - i] = char(data[5 + i]);
    if (extra == 0 && bytes.size() == validGp.size())
      bytes.pop_back(); // never the whole file: that one loads
  } else {
    bytes.assign(reinterpret_cast<const char *>(data) + 1, size - 1);
  }
  const std::string path = fuzz::scratchFile("codelets.gp", bytes);
  poplar::Graph graph(poplar::Target::createCPUTarget());
  try {
    graph.addCodelets(path);
  } catch (const poplar::poplar_error &) {
    return 0;
  }
  // Only popc's own file loads; anything else reaching the loader is a
  // hole in the checks.
  if (bytes != validGp) {
    std::fprintf(stderr, "a .gp that popc did not make was loaded\n");
    std::abort();
  }
  return 0;
}

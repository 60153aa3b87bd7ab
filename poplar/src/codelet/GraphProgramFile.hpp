// The .gp file format: the shared object popc builds, followed by a 24-byte
// trailer (FNV-1a-64 hash of the preceding bytes, their count, and the
// magic "POPLARGP"; little-endian) so a truncated or altered file is
// recognised before it is loaded. Header-only: popc writes the format and
// the runtime reads it.
#ifndef POPLAR_SRC_CODELET_GRAPHPROGRAMFILE_HPP
#define POPLAR_SRC_CODELET_GRAPHPROGRAMFILE_HPP

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace poplar {
namespace gp {

constexpr char magic[8] = {'P', 'O', 'P', 'L', 'A', 'R', 'G', 'P'};
constexpr std::size_t trailerBytes = 24;

/// FNV-1a, 64 bits; `seed` varies the offset basis for independent hashes.
inline std::uint64_t hashBytes(const void *data, std::size_t n,
                               std::uint64_t seed = 0) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ (seed * 0x9e3779b97f4a7c15ull);
  const auto *p = static_cast<const unsigned char *>(data);
  for (std::size_t i = 0; i != n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

inline void putLittleEndian(unsigned char *out, std::uint64_t v) {
  for (int i = 0; i != 8; ++i)
    out[i] = static_cast<unsigned char>(v >> (8 * i));
}

inline std::uint64_t getLittleEndian(const unsigned char *in) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | in[i];
  return v;
}

/// Appends the trailer to a shared object; false if the file cannot be
/// read or written.
inline bool appendTrailer(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  unsigned char trailer[trailerBytes];
  putLittleEndian(trailer, hashBytes(bytes.data(), bytes.size()));
  putLittleEndian(trailer + 8, bytes.size());
  std::memcpy(trailer + 16, magic, sizeof magic);
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out.write(reinterpret_cast<const char *>(trailer), trailerBytes);
  return static_cast<bool>(out);
}

/// Whether the file is a whole .gp; if not, `why` says what is wrong. On
/// success *hash (if given) is the content hash.
inline bool validate(const std::string &path, std::string &why,
                     std::uint64_t *hash = nullptr) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "cannot open the file";
    return false;
  }
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  if (bytes.size() < trailerBytes) {
    why = "the file is too short to be a graph program object";
    return false;
  }
  const unsigned char *trailer = bytes.data() + bytes.size() - trailerBytes;
  if (std::memcmp(trailer + 16, magic, sizeof magic) != 0) {
    why = "the file does not end with the graph program trailer (not made "
          "by popc, or truncated)";
    return false;
  }
  const std::size_t size = bytes.size() - trailerBytes;
  if (getLittleEndian(trailer + 8) != size) {
    why = "the recorded size does not match the file (truncated or extended)";
    return false;
  }
  const std::uint64_t h = hashBytes(bytes.data(), size);
  if (getLittleEndian(trailer) != h) {
    why = "the content does not match its hash (the file is corrupt)";
    return false;
  }
  why.clear();
  if (hash)
    *hash = h;
  return true;
}

} // namespace gp
} // namespace poplar

#endif // POPLAR_SRC_CODELET_GRAPHPROGRAMFILE_HPP

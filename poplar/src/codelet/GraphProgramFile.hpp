// The .gp file format: a codelet shared object made by popc, followed by a
// 24-byte trailer
//
//   8 bytes  FNV-1a-64 hash of every byte before the trailer
//   8 bytes  the number of bytes before the trailer
//   8 bytes  the magic "POPLARGP"
//
// (integers little-endian). The dynamic loader ignores bytes after the ELF
// contents, so a .gp is dlopen()ed as it is; the trailer lets the runtime
// refuse a truncated or corrupt file with a clear message instead of a
// loader error or a crash. Written by popc, read by the Poplar runtime.
#ifndef POPLAR_CODELET_GRAPHPROGRAMFILE_HPP
#define POPLAR_CODELET_GRAPHPROGRAMFILE_HPP

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace poplar {
namespace gp {

constexpr std::size_t trailerSize = 24;
constexpr char magic[8] = {'P', 'O', 'P', 'L', 'A', 'R', 'G', 'P'};

constexpr std::uint64_t fnvOffsetBasis = 14695981039346656037ull;
constexpr std::uint64_t fnvPrime = 1099511628211ull;

/// Continues an FNV-1a-64 hash over `size` more bytes.
inline std::uint64_t fnv1a64(const void *data, std::size_t size,
                             std::uint64_t hash = fnvOffsetBasis) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  for (std::size_t i = 0; i != size; ++i) {
    hash ^= bytes[i];
    hash *= fnvPrime;
  }
  return hash;
}

struct Trailer {
  std::uint64_t hash = 0;
  std::uint64_t payloadSize = 0;
};

inline std::array<unsigned char, trailerSize> encodeTrailer(const Trailer &t) {
  std::array<unsigned char, trailerSize> out{};
  for (unsigned i = 0; i != 8; ++i) {
    out[i] = static_cast<unsigned char>(t.hash >> (8 * i));
    out[8 + i] = static_cast<unsigned char>(t.payloadSize >> (8 * i));
  }
  std::memcpy(out.data() + 16, magic, sizeof magic);
  return out;
}

/// False when the bytes do not end with the magic.
inline bool decodeTrailer(const unsigned char *bytes, Trailer &t) {
  if (std::memcmp(bytes + 16, magic, sizeof magic) != 0)
    return false;
  t = Trailer{};
  for (unsigned i = 0; i != 8; ++i) {
    t.hash |= std::uint64_t(bytes[i]) << (8 * i);
    t.payloadSize |= std::uint64_t(bytes[8 + i]) << (8 * i);
  }
  return true;
}

namespace detail {

struct File {
  std::FILE *f = nullptr;
  File(const std::string &path, const char *mode)
      : f(std::fopen(path.c_str(), mode)) {}
  ~File() {
    if (f)
      std::fclose(f);
  }
  File(const File &) = delete;
  File &operator=(const File &) = delete;
};

inline std::string systemError(const std::string &what, const std::string &path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

/// Hashes the first `size` bytes of an open file; false if it is shorter.
inline bool hashPrefix(std::FILE *f, std::uint64_t size, std::uint64_t &hash) {
  if (std::fseek(f, 0, SEEK_SET) != 0)
    return false;
  hash = fnvOffsetBasis;
  unsigned char buffer[1 << 16];
  while (size != 0) {
    std::size_t want = size < sizeof buffer ? std::size_t(size) : sizeof buffer;
    std::size_t got = std::fread(buffer, 1, want, f);
    if (got != want)
      return false;
    hash = fnv1a64(buffer, got, hash);
    size -= got;
  }
  return true;
}

inline bool fileSize(std::FILE *f, std::uint64_t &size) {
  if (std::fseek(f, 0, SEEK_END) != 0)
    return false;
  long end = std::ftell(f);
  if (end < 0)
    return false;
  size = std::uint64_t(end);
  return true;
}

} // namespace detail

/// Appends the trailer to the shared object at `path`, making it a .gp.
inline bool appendTrailer(const std::string &path, std::string &why) {
  detail::File file(path, "r+b");
  if (!file.f) {
    why = detail::systemError("cannot open", path);
    return false;
  }
  Trailer t;
  std::uint64_t hash = 0;
  if (!detail::fileSize(file.f, t.payloadSize) ||
      !detail::hashPrefix(file.f, t.payloadSize, hash)) {
    why = detail::systemError("cannot read", path);
    return false;
  }
  t.hash = hash;
  auto bytes = encodeTrailer(t);
  if (std::fseek(file.f, 0, SEEK_END) != 0 ||
      std::fwrite(bytes.data(), 1, bytes.size(), file.f) != bytes.size() ||
      std::fflush(file.f) != 0) {
    why = detail::systemError("cannot write", path);
    return false;
  }
  return true;
}

/// Checks that `path` is a complete .gp file: the trailer is there, and
/// the size and hash it records match the bytes before it. On failure `why`
/// says what is wrong; on success *contentHash (if given) is the hash.
inline bool validate(const std::string &path, std::string &why,
                     std::uint64_t *contentHash = nullptr) {
  detail::File file(path, "rb");
  if (!file.f) {
    why = detail::systemError("cannot open", path);
    return false;
  }
  std::uint64_t size = 0;
  if (!detail::fileSize(file.f, size)) {
    why = detail::systemError("cannot read", path);
    return false;
  }
  if (size < trailerSize) {
    why = "'" + path + "' is not a graph program file: it is too short (" +
          std::to_string(size) + " bytes)";
    return false;
  }
  unsigned char bytes[trailerSize];
  if (std::fseek(file.f, long(size - trailerSize), SEEK_SET) != 0 ||
      std::fread(bytes, 1, trailerSize, file.f) != trailerSize) {
    why = detail::systemError("cannot read", path);
    return false;
  }
  Trailer t;
  if (!decodeTrailer(bytes, t)) {
    why = "'" + path +
          "' is not a graph program file (no POPLARGP trailer); it may be "
          "truncated or not made by popc";
    return false;
  }
  if (t.payloadSize != size - trailerSize) {
    why = "'" + path + "' is corrupt: its trailer records " +
          std::to_string(t.payloadSize) + " bytes but " +
          std::to_string(size - trailerSize) + " precede it";
    return false;
  }
  std::uint64_t hash = 0;
  if (!detail::hashPrefix(file.f, t.payloadSize, hash)) {
    why = detail::systemError("cannot read", path);
    return false;
  }
  if (hash != t.hash) {
    why = "'" + path + "' is corrupt: its contents do not match the hash in "
                       "its trailer";
    return false;
  }
  if (contentHash)
    *contentHash = hash;
  return true;
}

} // namespace gp
} // namespace poplar

#endif // POPLAR_CODELET_GRAPHPROGRAMFILE_HPP

// The .popef files PopART writes and reads: named sections (PopART's
// metadata, the Poplar executable, the variables' values), each with its
// size and CRC-32, behind a table of contents.
//
//   8 bytes  "POPARTEF"
//   4 bytes  format version (little-endian)
//   4 bytes  number of sections N
//   N times  name length (4 bytes), name, offset (8), size (8), CRC-32 (4)
//   4 bytes  CRC-32 of everything above
//   the sections' bytes
//
// A section is read only when asked for, so an executable loads without
// reading the variables; POPART_PRELOAD_POPEF=full-preload reads the whole
// file in one sequential read first (for files on slow remote storage).
#ifndef POPART_SRC_SESSION_POPEFFILE_HPP
#define POPART_SRC_SESSION_POPEFFILE_HPP

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace popart {
namespace popef {

class Writer {
public:
  void add(const std::string &name, std::string bytes);
  /// Writes to a temporary file beside `path`, then renames it, so that a
  /// reader never sees half a file; makes missing directories.
  void writeFile(const std::string &path) const;
  void write(std::ostream &out) const;

private:
  std::vector<std::pair<std::string, std::string>> sections;
};

class Reader {
public:
  /// Reads the table of contents of a file (all of it with preload).
  /// popart::error naming the file if it is missing, not a .popef file,
  /// truncated or damaged.
  static Reader openFile(const std::string &path, bool preload);
  /// Reads a whole stream; `what` names it in errors.
  static Reader fromStream(std::istream &in, const std::string &what);

  bool has(const std::string &name) const;
  /// The bytes of a section, checked against its CRC.
  std::string section(const std::string &name) const;
  /// Calls `read` with a stream at the start of a section, which reads the
  /// file (or the preloaded bytes) in place: no copy of the section is
  /// made, and its CRC is not checked, so it is for contents that check
  /// themselves (the Poplar executable has its own checksums).
  void readSection(const std::string &name,
                   const std::function<void(std::istream &)> &read) const;
  /// "'path'" or the stream's name, for messages.
  const std::string &describe() const { return what; }
  [[noreturn]] void fail(const std::string &why) const;

private:
  struct Entry {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint32_t crc = 0;
  };
  void readTable(std::istream &in, std::uint64_t fileSize);

  std::string what;
  std::string path;   // empty when the bytes are all in memory
  std::string memory; // the whole file, when preloaded or from a stream
  std::map<std::string, Entry> entries;
};

/// Whether POPART_PRELOAD_POPEF asks for full preloading ("full-preload");
/// popart::error for any other non-empty value.
bool preloadRequested();

/// The CRC-32 of some bytes (zlib's).
std::uint32_t crc32Of(const std::string &bytes);

/// Little-endian fixed-width fields for the metadata sections.
class Encoder {
public:
  void u64(std::uint64_t v);
  void str(const std::string &s);
  std::string &bytes() { return out; }

private:
  std::string out;
};

class Decoder {
public:
  Decoder(const std::string &bytes, const Reader &file)
      : bytes(bytes), file(file) {}
  std::uint64_t u64();
  std::string str();
  bool done() const { return at == bytes.size(); }

private:
  const std::string &bytes;
  const Reader &file;
  std::size_t at = 0;
};

} // namespace popef
} // namespace popart

#endif // POPART_SRC_SESSION_POPEFFILE_HPP

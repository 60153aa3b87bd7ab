#include "session/PopefFile.hpp"

#include <popart/error.hpp>

#include <zlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <streambuf>
#include <unistd.h>

namespace popart {
namespace popef {
namespace {

constexpr char magic[8] = {'P', 'O', 'P', 'A', 'R', 'T', 'E', 'F'};
constexpr std::uint32_t formatVersion = 1;

void put(std::string &out, std::uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i != bytes; ++i)
    out.push_back(static_cast<char>(v >> (8 * i)));
}

std::uint64_t get(const std::string &in, std::size_t at, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i != bytes; ++i)
    v |= std::uint64_t(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

std::uint64_t sizeOfStream(std::istream &in) {
  const auto here = in.tellg();
  in.seekg(0, std::ios::end);
  const auto end = in.tellg();
  in.seekg(here);
  return end < 0 ? 0 : static_cast<std::uint64_t>(end);
}

} // namespace

std::uint32_t crc32Of(const std::string &bytes) {
  return static_cast<std::uint32_t>(crc32_z(
      0, reinterpret_cast<const Bytef *>(bytes.data()), bytes.size()));
}

void Writer::add(const std::string &name, std::string bytes) {
  sections.emplace_back(name, std::move(bytes));
}

void Writer::write(std::ostream &out) const {
  std::string table(magic, sizeof magic);
  put(table, formatVersion, 4);
  put(table, sections.size(), 4);
  std::uint64_t tableSize = table.size() + 4;
  for (const auto &s : sections)
    tableSize += 4 + s.first.size() + 8 + 8 + 4;
  std::uint64_t offset = tableSize;
  for (const auto &s : sections) {
    put(table, s.first.size(), 4);
    table += s.first;
    put(table, offset, 8);
    put(table, s.second.size(), 8);
    put(table, crc32Of(s.second), 4);
    offset += s.second.size();
  }
  put(table, crc32Of(table), 4);
  out.write(table.data(), static_cast<std::streamsize>(table.size()));
  for (const auto &s : sections)
    out.write(s.second.data(), static_cast<std::streamsize>(s.second.size()));
  if (!out)
    throw error("Cannot write the executable: the stream failed");
}

void Writer::writeFile(const std::string &path) const {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path())
    fs::create_directories(target.parent_path(), ec);
  if (ec)
    throw error("Cannot write '{}': cannot create its directory: {}", path,
                ec.message());
  // Written beside the target and renamed over it: a write that fails (a
  // full disk) leaves neither a partial file nor the temporary one, and
  // keeps a file already there whole.
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw error("Cannot write '{}': {}", path, std::strerror(errno));
    bool written = false;
    errno = 0;
    try {
      write(out);
      out.close();
      written = static_cast<bool>(out);
    } catch (const error &) {
    }
    if (!written) {
      const int why = errno; // ENOSPC, EFBIG, EIO, ... when the system said
      std::remove(tmp.c_str());
      throw error("Cannot write '{}': {}", path,
                  why ? std::strerror(why) : "writing failed");
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw error("Cannot write '{}': {}", path, ec.message());
  }
}

void Reader::fail(const std::string &why) const {
  throw error("Cannot load the executable {}: {}", what, why);
}

void Reader::readTable(std::istream &in, std::uint64_t fileSize) {
  std::string table(16, '\0');
  in.read(&table[0], 16);
  if (in.gcount() == 0)
    fail("it is empty");
  if (in.gcount() != 16 || table.compare(0, 8, magic, 8) != 0)
    fail("it is not a PopART executable file (.popef)");
  const auto version = static_cast<std::uint32_t>(get(table, 8, 4));
  if (version != formatVersion)
    fail("it has .popef format version " + std::to_string(version) +
         "; this PopART reads version " + std::to_string(formatVersion));
  const std::uint64_t count = get(table, 12, 4);
  if (count > 64)
    fail("it is damaged: its table of contents is implausible");
  auto readMore = [&](std::size_t n) {
    const std::size_t old = table.size();
    table.resize(old + n);
    in.read(&table[old], static_cast<std::streamsize>(n));
    if (static_cast<std::size_t>(in.gcount()) != n)
      fail("it is truncated");
  };
  std::vector<std::pair<std::string, Entry>> found;
  for (std::uint64_t i = 0; i != count; ++i) {
    readMore(4);
    const std::size_t nameSize = get(table, table.size() - 4, 4);
    if (nameSize > 256)
      fail("it is damaged: its table of contents is implausible");
    readMore(nameSize + 20);
    const std::size_t at = table.size() - nameSize - 20;
    Entry e;
    e.offset = get(table, at + nameSize, 8);
    e.size = get(table, at + nameSize + 8, 8);
    e.crc = static_cast<std::uint32_t>(get(table, at + nameSize + 16, 4));
    found.emplace_back(table.substr(at, nameSize), e);
  }
  const std::string body = table;
  readMore(4);
  if (crc32Of(body) != get(table, body.size(), 4))
    fail("it is damaged: its table of contents does not match its checksum");
  for (const auto &[name, e] : found) {
    if (e.offset > fileSize || e.size > fileSize - e.offset)
      fail("it is truncated: section '" + name + "' ends past the end of the "
           "file");
    entries[name] = e;
  }
}

Reader Reader::openFile(const std::string &path, bool preload) {
  Reader r;
  r.what = "'" + path + "'";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    r.fail(std::string("the file cannot be opened: ") + std::strerror(errno));
  if (preload) {
    // One sequential read of the whole file, then everything from memory.
    r.memory.assign(std::istreambuf_iterator<char>(in), {});
    std::istringstream all(r.memory);
    r.readTable(all, r.memory.size());
  } else {
    r.path = path;
    r.readTable(in, sizeOfStream(in));
  }
  return r;
}

Reader Reader::fromStream(std::istream &in, const std::string &what) {
  Reader r;
  r.what = what;
  r.memory.assign(std::istreambuf_iterator<char>(in), {});
  std::istringstream all(r.memory);
  r.readTable(all, r.memory.size());
  return r;
}

bool Reader::has(const std::string &name) const { return entries.count(name); }

std::string Reader::section(const std::string &name) const {
  auto it = entries.find(name);
  if (it == entries.end())
    fail("it has no " + name + " section");
  const Entry &e = it->second;
  std::string bytes;
  if (path.empty()) {
    bytes = memory.substr(e.offset, e.size);
  } else {
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(e.offset));
    bytes.resize(e.size);
    in.read(&bytes[0], static_cast<std::streamsize>(e.size));
    if (!in || static_cast<std::uint64_t>(in.gcount()) != e.size)
      fail("it is truncated: section '" + name + "' cannot be read whole");
  }
  if (crc32Of(bytes) != e.crc)
    fail("it is damaged: section '" + name +
         "' does not match its checksum");
  return bytes;
}

namespace {

// An input stream buffer over bytes held elsewhere, without a copy; it
// can tell its size (seeking), so readers can check lengths against it.
class ViewBuffer : public std::streambuf {
public:
  ViewBuffer(const char *data, std::size_t size) {
    char *begin = const_cast<char *>(data); // only ever read
    setg(begin, begin, begin + size);
  }

protected:
  pos_type seekoff(off_type off, std::ios_base::seekdir dir,
                   std::ios_base::openmode) override {
    const off_type base = dir == std::ios_base::beg   ? 0
                          : dir == std::ios_base::cur ? gptr() - eback()
                                                      : egptr() - eback();
    const off_type to = base + off;
    if (to < 0 || to > egptr() - eback())
      return pos_type(off_type(-1));
    setg(eback(), eback() + to, egptr());
    return pos_type(to);
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }
};

} // namespace

void Reader::readSection(const std::string &name,
                         const std::function<void(std::istream &)> &read) const {
  auto it = entries.find(name);
  if (it == entries.end())
    fail("it has no " + name + " section");
  const Entry &e = it->second;
  if (path.empty()) {
    ViewBuffer view(memory.data() + e.offset, static_cast<std::size_t>(e.size));
    std::istream in(&view);
    read(in);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(e.offset));
  if (!in)
    fail("it is truncated: section '" + name + "' cannot be read");
  read(in);
}

bool preloadRequested() {
  const char *env = std::getenv("POPART_PRELOAD_POPEF");
  if (!env || !*env)
    return false;
  if (std::string(env) == "full-preload")
    return true;
  throw error("POPART_PRELOAD_POPEF is '{}': the only preload mode is "
              "full-preload",
              env);
}

void Encoder::u64(std::uint64_t v) { put(out, v, 8); }

void Encoder::str(const std::string &s) {
  u64(s.size());
  out += s;
}

std::uint64_t Decoder::u64() {
  if (bytes.size() - at < 8)
    file.fail("it is damaged: its metadata ends early");
  const std::uint64_t v = get(bytes, at, 8);
  at += 8;
  return v;
}

std::string Decoder::str() {
  const std::uint64_t n = u64();
  if (n > bytes.size() - at)
    file.fail("it is damaged: its metadata ends early");
  std::string s = bytes.substr(at, n);
  at += n;
  return s;
}

} // namespace popef
} // namespace popart

// The executable file: Executable::serialize and deserialize.
//
//   8 bytes  "POPLAREX"
//   4 bytes  format version (little-endian)
//   4 bytes  header length H
//   H bytes  header: SDK version, target (Target::serialize), a readable
//            description of the target, the engine name, payload length
//            and payload CRC-32
//   4 bytes  CRC-32 of the header
//   payload: the codelet libraries (.gp bytes), the lowered executable,
//            and the IPU Model's estimates when the target has them
//
// Every way a file can be unusable (not an executable, another format or
// SDK version, truncated, damaged) is a poplar::file_load_error that names
// the file (or "the stream") and the reason.
#include "compile/ExecutableCodec.hpp"

#include "codelet/CodeletCompiler.hpp"
#include "codelet/CodeletLibrary.hpp"
#include "codelet/GraphProgramFile.hpp"
#include "core/Logging.hpp"
#include "model/Estimates.hpp"
#include "profiling/ReportFiles.hpp"
#include "runtime/EngineImpl.hpp"

#include <poplar/exceptions.hpp>

#include <zlib.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace poplar {
namespace {

constexpr char fileMagic[8] = {'P', 'O', 'P', 'L', 'A', 'R', 'E', 'X'};
constexpr std::uint32_t formatVersion = 3; // 2: the IPUs of each simulated step; 3: print formats

std::uint32_t crc(const std::string &bytes, std::size_t offset = 0,
                  std::size_t size = std::string::npos) {
  size = std::min(size, bytes.size() - offset);
  return static_cast<std::uint32_t>(
      crc32_z(0, reinterpret_cast<const Bytef *>(bytes.data() + offset), size));
}

void putU32(std::string &out, std::uint32_t v) {
  for (unsigned i = 0; i != 4; ++i)
    out.push_back(static_cast<char>(v >> (8 * i)));
}

std::uint32_t getU32(const std::string &in, std::size_t at) {
  std::uint32_t v = 0;
  for (unsigned i = 0; i != 4; ++i)
    v |= std::uint32_t(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

std::string describeTarget(const Target &t) {
  std::string arch = t.getTargetArchString();
  return toString(t.getTargetType()) +
         (t.getTargetType() == TargetType::CPU ? "" : " " + arch) + " (" +
         std::to_string(t.getNumIPUs()) + " IPU" +
         (t.getNumIPUs() == 1 ? "" : "s") + " x " +
         std::to_string(t.getTilesPerIPU()) + " tiles)";
}

std::string readWholeFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw file_load_error("Cannot serialise the executable: cannot read its "
                          "codelet library '" + path + "'");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The libraries' bytes, checked to be the ones loaded: a .gp rewritten
// since would give vertex types another code.
void writeLibraries(binary::Writer &w, const codec::Libraries &libraries) {
  w.u64(libraries.size());
  for (const auto &lib : libraries) {
    const std::string bytes = readWholeFile(lib->path());
    std::string why;
    std::uint64_t hash = 0;
    if (!gp::validate(lib->path(), why, &hash) || hash != lib->contentHash())
      throw file_load_error("Cannot serialise the executable: its codelet "
                            "library '" + lib->path() +
                            "' has changed since it was loaded");
    w.str(lib->path());
    w.u64(lib->contentHash());
    w.raw(bytes.data(), bytes.size());
  }
}

// Loads each library from where it was when the executable was written if
// it is still the same there, else from a copy of the bytes in the file.
codec::Libraries readLibraries(binary::Reader &r) {
  codec::Libraries libraries(r.count(3));
  for (auto &lib : libraries) {
    const std::string path = r.str();
    const std::uint64_t hash = r.u64();
    const std::string bytes = r.str(); // written by Writer::raw
    std::string why;
    std::uint64_t found = 0;
    if (gp::validate(path, why, &found) && found == hash) {
      lib = CodeletLibrary::load(path);
    } else {
      lib = CodeletLibrary::load(storeCodeletObject(bytes, hash));
      if (lib->contentHash() != hash)
        throw binary::DecodeError("a codelet library in it is damaged");
    }
  }
  return libraries;
}

struct Header {
  std::string sdkVersion;
  std::string target;
  std::string targetDescription;
  std::string name;
  std::uint64_t payloadSize = 0;
  std::uint32_t payloadCrc = 0;
};

std::string encodeHeader(const Header &h) {
  binary::Writer w;
  w.str(h.sdkVersion);
  w.str(h.target);
  w.str(h.targetDescription);
  w.str(h.name);
  w.u64(h.payloadSize);
  w.u64(h.payloadCrc);
  return std::move(w.bytes());
}

Header decodeHeader(const std::string &bytes) {
  binary::Reader r(bytes.data(), bytes.size());
  Header h;
  h.sdkVersion = r.str();
  h.target = r.str();
  h.targetDescription = r.str();
  h.name = r.str();
  h.payloadSize = r.u64();
  h.payloadCrc = static_cast<std::uint32_t>(r.u64());
  return h;
}

std::string encode(const Executable::Impl &exe) {
  binary::Writer body;
  codec::Libraries libraries;
  codec::writeExecutable(body, exe, libraries);
  body.pod(exe.estimates != nullptr);
  if (exe.estimates)
    codec::writeEstimates(body, *exe.estimates);

  binary::Writer payload;
  writeLibraries(payload, libraries);
  std::string bytes = std::move(payload.bytes());
  bytes += body.bytes();

  std::ostringstream target;
  exe.target.serialize(target);
  Header h{profiling::sdkVersion(), target.str(), describeTarget(exe.target),
           exe.name, bytes.size(), crc(bytes)};
  const std::string header = encodeHeader(h);
  std::string out(fileMagic, sizeof fileMagic);
  putU32(out, formatVersion);
  putU32(out, static_cast<std::uint32_t>(header.size()));
  out += header;
  putU32(out, crc(header));
  out += bytes;
  return out;
}

class Loader {
public:
  Loader(std::istream &in, std::string what) : in(in), what(std::move(what)) {}

  std::unique_ptr<Executable::Impl> load(bool checkPackageHash) {
    std::string start = read(16, "it is empty or shorter than a header");
    if (start.compare(0, 8, fileMagic, 8) != 0)
      fail("it is not a Poplar executable (it does not start with the "
           "POPLAREX mark)");
    const std::uint32_t version = getU32(start, 8);
    if (version != formatVersion)
      fail("it has executable format version " + std::to_string(version) +
           "; this SDK (" + profiling::sdkVersion() + ") reads version " +
           std::to_string(formatVersion));
    const std::uint32_t headerSize = getU32(start, 12);
    if (headerSize > (1u << 20))
      fail("it is damaged: its header length is implausible");
    const std::string headerBytes = read(headerSize + 4, "it is truncated");
    const std::string header = headerBytes.substr(0, headerSize);
    if (crc(header) != getU32(headerBytes, headerSize))
      fail("it is damaged: its header does not match its checksum");
    Header h;
    try {
      h = decodeHeader(header);
    } catch (const binary::DecodeError &e) {
      fail(std::string("it is damaged: its header ") + e.what());
    }
    if (h.sdkVersion != profiling::sdkVersion()) {
      if (checkPackageHash)
        fail("it was made by Poplar SDK " + h.sdkVersion +
             ", and this is SDK " + profiling::sdkVersion() +
             "; compile the graph again (or deserialise with "
             "checkPackageHash false)");
      logging::warn(logging::Module::Engine,
                    "Loading {}, made by Poplar SDK {} (this is SDK {})", what,
                    h.sdkVersion, profiling::sdkVersion());
    }
    const std::string payload = read(h.payloadSize, "it is truncated");
    if (in.peek() != std::char_traits<char>::eof() && whole)
      fail("it is damaged: bytes follow the executable");
    if (crc(payload) != h.payloadCrc)
      fail("it is damaged: its contents do not match the checksum in its "
           "header");

    auto exe = std::make_unique<Executable::Impl>();
    try {
      std::istringstream targetText(h.target);
      exe->target = Target::deserialize(targetText);
    } catch (const poplar_error &e) {
      fail(std::string("its target cannot be read: ") + e.what());
    }
    exe->name = h.name;
    exe->source = what;
    try {
      binary::Reader r(payload.data(), payload.size());
      const codec::Libraries libraries = readLibraries(r);
      codec::readExecutable(r, *exe, libraries);
      if (r.pod<bool>())
        exe->estimates = codec::readEstimates(r, exe->target);
      if (!r.done())
        throw binary::DecodeError("bytes are left after the executable");
    } catch (const binary::DecodeError &e) {
      fail(std::string("it is damaged: ") + e.what());
    }
    logging::info(logging::Module::Engine,
                  "Loaded the executable '{}' for {} from {}", exe->name,
                  h.targetDescription, what);
    return exe;
  }

  /// Set when the stream is a whole file, so trailing bytes are damage.
  bool whole = false;

private:
  std::string read(std::uint64_t n, const char *ifShort) {
    // A damaged length must not allocate much more than the stream holds.
    // A stream that says how much it has left (a file) is read in one go
    // once the length fits; any other is read in pieces.
    if (const std::streampos here = in.tellg(); here != std::streampos(-1)) {
      in.seekg(0, std::ios::end);
      const std::streampos end = in.tellg();
      in.seekg(here);
      if (end != std::streampos(-1) && in) {
        if (n > static_cast<std::uint64_t>(end - here))
          fail(ifShort);
        std::string bytes(static_cast<std::size_t>(n), '\0');
        in.read(bytes.data(), static_cast<std::streamsize>(n));
        if (static_cast<std::uint64_t>(in.gcount()) != n)
          fail(ifShort);
        return bytes;
      }
      in.clear();
      in.seekg(here);
    }
    std::string bytes;
    constexpr std::uint64_t piece = 1 << 24;
    while (bytes.size() < n) {
      const std::size_t want =
          static_cast<std::size_t>(std::min<std::uint64_t>(piece, n - bytes.size()));
      const std::size_t old = bytes.size();
      bytes.resize(old + want);
      in.read(&bytes[old], static_cast<std::streamsize>(want));
      if (static_cast<std::size_t>(in.gcount()) != want)
        fail(ifShort);
    }
    return bytes;
  }
  [[noreturn]] void fail(const std::string &why) const {
    throw file_load_error("Cannot load the executable " + what + ": " + why);
  }

  std::istream &in;
  std::string what;
};

} // namespace

void Executable::serialize(std::ostream &out) const {
  if (!impl)
    throw poplar_error("Executable::serialize: the executable is empty "
                       "(moved from)");
  const std::string bytes = encode(*impl);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out)
    throw poplar_error("Executable::serialize: writing the stream failed");
}

void Executable::serialize(const std::string &filename) const {
  if (!impl)
    throw poplar_error("Executable::serialize: the executable is empty "
                       "(moved from)");
  const std::string bytes = encode(*impl);
  // Written beside the file and renamed over it, so that a write that
  // fails (a full disk) leaves no partial file and keeps an older one whole.
  const std::string tmp = filename + ".tmp" + std::to_string(::getpid());
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  errno = 0;
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  const int why = errno;
  if (!out || std::rename(tmp.c_str(), filename.c_str()) != 0) {
    const int err = out ? errno : why;
    std::remove(tmp.c_str());
    throw poplar_error("Executable::serialize: cannot write '" + filename +
                       "'" + (err ? std::string(": ") + std::strerror(err) : ""));
  }
}

void Engine::serializeExecutable(std::ostream &out) const {
  const std::string bytes = encode(*impl->exe);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out)
    throw poplar_error("Engine::serializeExecutable: writing the stream failed");
}

Executable Executable::deserialize(std::istream &in, bool checkPackageHash) {
  return Executable(Loader(in, "from the stream").load(checkPackageHash));
}

Executable Executable::deserialize(std::unique_ptr<std::istream> in,
                                   bool checkPackageHash) {
  if (!in)
    throw file_load_error("Cannot load the executable: no stream given");
  return deserialize(*in, checkPackageHash);
}

Executable Executable::deserialize(const std::string &filename,
                                   bool checkPackageHash) {
  std::ifstream in(filename, std::ios::binary);
  if (!in)
    throw file_load_error("Cannot load the executable '" + filename +
                          "': the file cannot be opened");
  Loader loader(in, "'" + filename + "'");
  loader.whole = true;
  return Executable(loader.load(checkPackageHash));
}

} // namespace poplar

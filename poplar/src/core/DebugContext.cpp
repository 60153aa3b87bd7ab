// Debug contexts and debug records (DebugInfo), and the streamer that
// writes completed records to a file.
#include <poplar/DebugContext.hpp>
#include <poplar/exceptions.hpp>

#include <atomic>
#include <fstream>
#include <mutex>

namespace poplar {
namespace {

std::string joinPath(const std::string &parent, StringRef name) {
  if (parent.empty())
    return name.str();
  if (name.empty())
    return parent;
  return parent + "/" + name.str();
}

std::atomic<DebugId> lastDebugId{0};

/// The open streamer: records written as the elements of one array.
struct Streamer {
  std::mutex mutex;
  std::ofstream out;
  DebugSerializationFormat format = DebugSerializationFormat::CBOR;
  bool open = false;
  bool first = true;
};

Streamer &streamer() {
  static Streamer s;
  return s;
}

void closeLocked(Streamer &s) {
  if (!s.open)
    return;
  if (s.format == DebugSerializationFormat::JSON)
    s.out << "]\n";
  else
    s.out.put(static_cast<char>(0xff)); // end of the indefinite array
  s.out.close();
  s.open = false;
}

} // namespace

DebugNameAndId::DebugNameAndId(StringRef name, DebugId debugId,
                               StringRef parentPath)
    : pathName(joinPath(parentPath.str(), name)), id(debugId) {}

DebugNameAndId::DebugNameAndId(const DebugInfo &debugInfo, StringRef name)
    : pathName(joinPath(debugInfo.getPathName(), name)), id(debugInfo.getId()) {}

DebugNameAndId::DebugNameAndId(const DebugNameAndId &parent, StringRef name)
    : pathName(joinPath(parent.pathName, name)), id(parent.id) {}

DebugContext::DebugContext(SourceLocation loc) : location(loc) {}

DebugContext::DebugContext(StringRef name, SourceLocation loc)
    : pathName(name.str()), location(loc) {}

DebugContext::DebugContext(const DebugNameAndId &parent, StringRef name,
                           SourceLocation loc)
    : pathName(joinPath(parent.getPathName(), name)), parentId(parent.getId()),
      location(loc) {}

DebugContext::DebugContext(const DebugInfo &parent, StringRef name,
                           SourceLocation loc)
    : pathName(joinPath(parent.getPathName(), name)), parentId(parent.getId()),
      location(loc) {}

DebugContext::DebugContext(const DebugContext &parent, StringRef name,
                           SourceLocation loc)
    : pathName(joinPath(parent.getPathName(), name)),
      parentId(parent.parentId), location(loc) {}

class DebugInfo::Impl {
public:
  DebugId id;
  std::string pathName;
  ProfileValue::Map record;
};

DebugInfo::DebugInfo(const DebugContext &debugContext, std::string layer)
    : impl(new Impl) {
  impl->id = ++lastDebugId;
  impl->pathName = debugContext.getPathName();
  auto &r = impl->record;
  r["id"] = ProfileValue(impl->id);
  r["layer"] = ProfileValue(std::move(layer));
  r["name"] = ProfileValue(impl->pathName);
  if (debugContext.getId() != 0)
    r["parentId"] = ProfileValue(debugContext.getId());
  const SourceLocation &loc = debugContext.getLocation();
  if (loc.isValid())
    r["location"] = ProfileValue(ProfileValue::Map{
        {"functionName", ProfileValue(loc.getFunctionName())},
        {"fileName", ProfileValue(loc.getFileName())},
        {"lineNumber", ProfileValue(loc.getLineNumber())}});
}

DebugInfo::~DebugInfo() {
  Streamer &s = streamer();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.open)
    return;
  const ProfileValue record(std::move(impl->record));
  if (s.format == DebugSerializationFormat::JSON) {
    s.out << (s.first ? "[\n" : ",\n");
    serializeToJSON(s.out, record);
  } else {
    serializeToCBOR(s.out, record);
  }
  s.first = false;
  s.out.flush();
}

DebugId DebugInfo::getId() const { return impl->id; }

std::string DebugInfo::getPathName() const { return impl->pathName; }

bool DebugInfo::setValue(std::string name, ProfileValue value) {
  return impl->record.emplace(std::move(name), std::move(value)).second;
}

void DebugInfo::initializeStreamer(const std::string &fileName,
                                   const DebugSerializationFormat &format) {
  Streamer &s = streamer();
  std::lock_guard<std::mutex> lock(s.mutex);
  closeLocked(s);
  s.out.open(fileName, std::ios::binary | std::ios::trunc);
  if (!s.out)
    throw poplar_error("DebugInfo::initializeStreamer: cannot open '" +
                       fileName + "' for writing");
  s.format = format;
  s.first = true;
  s.open = true;
  if (format == DebugSerializationFormat::CBOR)
    s.out.put(static_cast<char>(0x9f)); // an array of indefinite length
}

void DebugInfo::closeStreamer() {
  Streamer &s = streamer();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.open && s.format == DebugSerializationFormat::JSON && s.first)
    s.out << "[";
  closeLocked(s);
}

} // namespace poplar

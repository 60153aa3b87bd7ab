#ifndef POPLAR_DEBUGCONTEXT_HPP
#define POPLAR_DEBUGCONTEXT_HPP

#include <poplar/ProfileValue.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/poplar_export.hpp>

#include <cstdint>
#include <memory>
#include <string>

// GCC (4.8 on) and Clang (9 on) give the caller's function, file and line
// to a default argument; elsewhere the location is left empty.
#if defined(__clang__)
#if __has_builtin(__builtin_FUNCTION)
#define POPLAR_HAS_SOURCE_LOCATION_BUILTINS 1
#endif
#elif defined(__GNUC__)
#define POPLAR_HAS_SOURCE_LOCATION_BUILTINS 1
#endif
#ifndef POPLAR_HAS_SOURCE_LOCATION_BUILTINS
#define POPLAR_HAS_SOURCE_LOCATION_BUILTINS 0
#endif

namespace poplar {

using DebugId = std::uint64_t;

class DebugInfo;

/// Where in the user's source an operation was asked for. The default
/// argument `SourceLocation::Current()` records the caller.
class POPLAR_API SourceLocation {
public:
  constexpr SourceLocation() : function(""), file(""), line(0), valid(false) {}
  constexpr SourceLocation(const char *functionName, const char *fileName,
                           unsigned lineNumber)
      : function(functionName), file(fileName), line(lineNumber),
        valid(true) {}

  const char *getFunctionName() const { return function; }
  const char *getFileName() const { return file; }
  unsigned getLineNumber() const { return line; }
  bool isValid() const { return valid; }

#if POPLAR_HAS_SOURCE_LOCATION_BUILTINS
  static constexpr SourceLocation
  Current(const char *functionName = __builtin_FUNCTION(),
          const char *fileName = __builtin_FILE(),
          unsigned lineNumber = __builtin_LINE()) {
    return SourceLocation(functionName, fileName, lineNumber);
  }
#else
  static constexpr SourceLocation Current() { return SourceLocation(); }
#endif

private:
  const char *function;
  const char *file;
  unsigned line;
  bool valid;
};

/// A name with the identifier of the debug record it belongs to; passed
/// down from an operation to the operations it is built from.
class POPLAR_API DebugNameAndId {
public:
  DebugNameAndId(StringRef name = "", DebugId id = 0, StringRef parentPath = "");
  DebugNameAndId(const char *name) : DebugNameAndId(StringRef(name)) {}
  DebugNameAndId(const std::string &name) : DebugNameAndId(StringRef(name)) {}
  DebugNameAndId(DebugId id) : DebugNameAndId(StringRef(""), id) {}
  DebugNameAndId(const DebugInfo &debugInfo, StringRef name = "");
  DebugNameAndId(const DebugNameAndId &parent, StringRef name);
  DebugNameAndId(const DebugNameAndId &) = default;
  DebugNameAndId &operator=(const DebugNameAndId &) = default;

  void setPathName(const std::string &name) { pathName = name; }
  const std::string &getPathName() const { return pathName; }
  DebugId getId() const { return id; }

private:
  std::string pathName;
  DebugId id = 0;
};

/// Where a graph element comes from: its name, the path of names of the
/// operations that created it ("layer1/Add/out"), the debug record of the
/// operation it belongs to, and the place in the user's source that asked
/// for it. Every API call that creates tensors, compute sets or programs
/// takes one; the names appear in error messages and profiles.
class POPLAR_API DebugContext {
public:
  DebugContext(SourceLocation loc = SourceLocation::Current());
  DebugContext(StringRef name, SourceLocation loc = SourceLocation::Current());
  DebugContext(const char *name, SourceLocation loc = SourceLocation::Current())
      : DebugContext(StringRef(name), loc) {}
  DebugContext(const std::string &name,
               SourceLocation loc = SourceLocation::Current())
      : DebugContext(StringRef(name), loc) {}
  DebugContext(const DebugNameAndId &parent, StringRef name = "",
               SourceLocation loc = SourceLocation::Current());
  DebugContext(const DebugInfo &parent, StringRef name = "",
               SourceLocation loc = SourceLocation::Current());
  DebugContext(const DebugContext &parent, StringRef name,
               SourceLocation loc = SourceLocation::Current());
  DebugContext(const DebugContext &) = default;
  DebugContext &operator=(const DebugContext &) = default;

  /// The full path: parent path and name joined with '/'.
  const std::string &getPathName() const { return pathName; }
  /// The debug record this context belongs to (0: none).
  DebugId getId() const { return parentId; }
  const SourceLocation &getLocation() const { return location; }

private:
  std::string pathName;
  DebugId parentId = 0;
  SourceLocation location;
};

/// How DebugInfo::initializeStreamer writes the debug records.
enum class DebugSerializationFormat { JSON = 0, CBOR = 1 };

/// A debug record: what one layer of the software (poplar, poplibs, popart,
/// a user's library) knows of an operation, as named values. Records are
/// numbered from 1 in creation order; contexts made from a record carry
/// its id, so the records of the operations an operation is built from
/// name it as their parent. A record is complete when its DebugInfo is
/// destroyed, and is then written to the streamer, if one is open.
class POPLAR_API DebugInfo {
public:
  DebugInfo(const DebugContext &debugContext, std::string layer);
  DebugInfo &operator=(const DebugInfo &) = delete;
  DebugInfo(const DebugInfo &) = delete;
  virtual ~DebugInfo();

  DebugId getId() const;
  std::string getPathName() const;

  /// Start writing every record completed from now on to \p fileName
  /// (a JSON or CBOR array of maps), until closeStreamer().
  static void initializeStreamer(
      const std::string &fileName,
      const DebugSerializationFormat &format = DebugSerializationFormat::CBOR);
  static void closeStreamer();

  class Impl;

protected:
  /// Adds a named value to the record; false (and no change) if \p name
  /// has a value already.
  bool setValue(std::string name, ProfileValue value);

private:
  std::unique_ptr<Impl> impl;
};

} // namespace poplar

#endif // POPLAR_DEBUGCONTEXT_HPP

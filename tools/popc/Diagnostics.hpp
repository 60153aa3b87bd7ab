// Compiler-style messages: "file:line:col: error: message".
#ifndef POPC_DIAGNOSTICS_HPP
#define POPC_DIAGNOSTICS_HPP

#include <set>
#include <string>

namespace popc {

struct SourcePos {
  std::string file; // empty when the message is about no place in a file
  unsigned line = 0;
  unsigned column = 0;
};

class Diagnostics {
public:
  void error(const SourcePos &pos, const std::string &message);
  void warning(const SourcePos &pos, const std::string &message);
  void note(const SourcePos &pos, const std::string &message);
  /// An error with no source position ("popc: error: ...").
  void error(const std::string &message) { error(SourcePos{}, message); }

  unsigned errorCount() const { return errors; }

private:
  void print(const SourcePos &pos, const char *severity,
             const std::string &message);
  unsigned errors = 0;
  // The same declaration can be reached through several vertex types; each
  // message is printed once.
  std::set<std::string> printed;
  bool lastSuppressed = false;
};

} // namespace popc

#endif // POPC_DIAGNOSTICS_HPP

#include "Diagnostics.hpp"

#include <iostream>

namespace popc {

void Diagnostics::print(const SourcePos &pos, const char *severity,
                        const std::string &message) {
  std::string text;
  if (pos.file.empty())
    text = "popc: ";
  else
    text = pos.file + ":" + std::to_string(pos.line) + ":" +
           std::to_string(pos.column) + ": ";
  text += severity;
  text += ": " + message;
  bool isNote = std::string(severity) == "note";
  // A note belongs to the message before it: printed only with it.
  if (isNote ? lastSuppressed : !printed.insert(text).second) {
    lastSuppressed = true;
    return;
  }
  lastSuppressed = false;
  std::cerr << text << '\n';
}

void Diagnostics::error(const SourcePos &pos, const std::string &message) {
  std::size_t before = printed.size();
  print(pos, "error", message);
  if (printed.size() != before)
    ++errors;
}

void Diagnostics::warning(const SourcePos &pos, const std::string &message) {
  print(pos, "warning", message);
}

void Diagnostics::note(const SourcePos &pos, const std::string &message) {
  print(pos, "note", message);
}

} // namespace popc

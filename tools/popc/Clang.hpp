// Small conveniences over the libclang C API.
#ifndef POPC_CLANG_HPP
#define POPC_CLANG_HPP

#include "Diagnostics.hpp"

#include <clang-c/Index.h>

#include <string>

namespace popc {

/// Takes ownership of `s`.
inline std::string toString(CXString s) {
  const char *c = clang_getCString(s);
  std::string result = c ? c : "";
  clang_disposeString(s);
  return result;
}

inline std::string spelling(CXCursor c) {
  return toString(clang_getCursorSpelling(c));
}

inline std::string spelling(CXType t) { return toString(clang_getTypeSpelling(t)); }

inline std::string usr(CXCursor c) { return toString(clang_getCursorUSR(c)); }

inline CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }

inline bool isNull(CXCursor c) { return clang_Cursor_isNull(c) != 0; }

inline bool isRecordKind(CXCursorKind k) {
  return k == CXCursor_StructDecl || k == CXCursor_ClassDecl;
}

/// Where a location is in a file, macro expansions resolved to where the
/// macro is used.
inline SourcePos position(CXSourceLocation loc) {
  CXFile file = nullptr;
  SourcePos pos;
  clang_getExpansionLocation(loc, &file, &pos.line, &pos.column, nullptr);
  if (file)
    pos.file = toString(clang_getFileName(file));
  return pos;
}

inline SourcePos position(CXCursor c) {
  return position(clang_getCursorLocation(c));
}

/// Calls f(child) for each direct child of `parent`.
template <class F> void forEachChild(CXCursor parent, F f) {
  clang_visitChildren(
      parent,
      [](CXCursor child, CXCursor, CXClientData data) {
        (*static_cast<F *>(data))(child);
        return CXChildVisit_Continue;
      },
      &f);
}

} // namespace popc

#endif // POPC_CLANG_HPP

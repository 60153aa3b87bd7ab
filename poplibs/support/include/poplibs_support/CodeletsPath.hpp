// Where a PopLibs library's codelets (<lib>.gp) are: installed beside the
// shared library, or in the build tree. Private to the libraries (header
// only, never installed).
#ifndef POPLIBS_SUPPORT_CODELETSPATH_HPP
#define POPLIBS_SUPPORT_CODELETSPATH_HPP

#include <poputil/exceptions.hpp>

#include <dlfcn.h>

#include <filesystem>
#include <string>

namespace poplibs_support {

/// The path of `gpName` beside the shared library that holds `symbol`, or
/// `buildTreePath` (when not null and the file exists) for programs that
/// load the library from elsewhere while the build tree exists. Otherwise
/// a poputil::poplibs_error naming `caller` and the places looked at.
inline std::string codeletsPath(const void *symbol, const std::string &gpName,
                                const char *buildTreePath,
                                const std::string &caller) {
  namespace fs = std::filesystem;
  std::string looked;
  Dl_info info{};
  if (dladdr(symbol, &info) != 0 && info.dli_fname != nullptr) {
    std::error_code ec;
    const fs::path candidate =
        fs::absolute(info.dli_fname, ec).parent_path() / gpName;
    if (fs::exists(candidate, ec))
      return candidate.string();
    looked = candidate.string();
  }
  if (buildTreePath != nullptr) {
    std::error_code ec;
    if (fs::exists(buildTreePath, ec))
      return buildTreePath;
    looked += std::string(looked.empty() ? "" : " or ") + buildTreePath;
  }
  throw poputil::poplibs_error(caller + ": cannot find " + gpName +
                               " (looked for " + looked + ")");
}

} // namespace poplibs_support

#endif // POPLIBS_SUPPORT_CODELETSPATH_HPP

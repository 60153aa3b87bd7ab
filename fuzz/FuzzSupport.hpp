// What the harnesses share: a scratch directory of their own (the current
// directory while they run) for the files the code under test reads.
#ifndef SDK_FUZZ_FUZZSUPPORT_HPP
#define SDK_FUZZ_FUZZSUPPORT_HPP

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace fuzz {

// Makes a fresh directory under $TMPDIR (default /tmp) and enters it; it
// is removed when the harness exits normally.
inline void enterScratchDirectory() {
  static std::string dir;
  const char *tmp = std::getenv("TMPDIR");
  dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/sdk-fuzz-XXXXXX";
  if (!mkdtemp(dir.data()) || chdir(dir.c_str()) != 0) {
    std::perror("fuzz: cannot make a scratch directory");
    std::abort();
  }
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  });
}

// Writes `bytes` to `name` in the scratch directory; returns the path.
inline std::string scratchFile(const std::string &name, const void *bytes,
                               std::size_t size) {
  std::FILE *f = std::fopen(name.c_str(), "wb");
  if (!f || std::fwrite(bytes, 1, size, f) != size || std::fclose(f) != 0) {
    std::perror("fuzz: cannot write a scratch file");
    std::abort();
  }
  return name;
}

inline std::string scratchFile(const std::string &name, const std::string &text) {
  return scratchFile(name, text.data(), text.size());
}

} // namespace fuzz

#endif

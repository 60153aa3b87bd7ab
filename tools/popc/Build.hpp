// Running the host compiler and writing popc's outputs safely.
#ifndef POPC_BUILD_HPP
#define POPC_BUILD_HPP

#include <string>
#include <vector>

namespace popc {

/// The compiler baked in when popc was built, else "c++" from PATH.
std::string hostCompiler();

/// Runs argv[0] with the arguments, its output going to popc's. Returns its
/// exit code (127 if it could not be started, 128+n if killed by signal n).
int runProgram(const std::vector<std::string> &argv);

/// A directory for generated sources, removed with its files unless kept.
class TempDir {
public:
  /// False with `why` set if it cannot be made.
  bool create(std::string &why);
  const std::string &path() const { return dir; }
  void keep() { kept = true; }
  ~TempDir();

private:
  std::string dir;
  bool kept = false;
};

/// A unique file name in the directory of `target`, for writing `target`
/// and then rename()ing it into place. The file is created empty.
bool makeTempBeside(const std::string &target, std::string &temp,
                    std::string &why);

bool writeFile(const std::string &path, const std::string &contents,
               std::string &why);

/// Writes through a temporary file and rename(), so that a reader sees
/// either the old file or the complete new one.
bool writeFileAtomically(const std::string &path, const std::string &contents,
                         std::string &why);

/// A make-style rule "target: dep dep ...", with spaces and special
/// characters escaped as Ninja and make read them.
std::string depfileRule(const std::string &target,
                        const std::vector<std::string> &dependencies);

} // namespace popc

#endif // POPC_BUILD_HPP

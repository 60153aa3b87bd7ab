#include "Build.hpp"

#include "PopcConfig.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace popc {

std::string hostCompiler() {
  if (::access(POPC_CXX_COMPILER, X_OK) == 0)
    return POPC_CXX_COMPILER;
  return "c++";
}

int runProgram(const std::vector<std::string> &argv) {
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0)
    return 127;
  if (pid == 0) {
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "popc: error: cannot run '%s': %s\n", args[0],
                 std::strerror(errno));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 127;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

bool TempDir::create(std::string &why) {
  const char *base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/popc-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!::mkdtemp(buffer.data())) {
    why = "cannot create a temporary directory '" + pattern +
          "': " + std::strerror(errno);
    return false;
  }
  dir = buffer.data();
  return true;
}

TempDir::~TempDir() {
  if (!dir.empty() && !kept) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
}

bool makeTempBeside(const std::string &target, std::string &temp,
                    std::string &why) {
  std::filesystem::path p(target);
  std::filesystem::path dir = p.parent_path();
  std::string pattern =
      (dir.empty() ? std::string(".") : dir.string()) + "/." +
      p.filename().string() + ".tmp-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  int fd = ::mkstemp(buffer.data());
  if (fd < 0) {
    why = "cannot create a file beside '" + target + "': " + std::strerror(errno);
    return false;
  }
  ::close(fd);
  temp = buffer.data();
  // mkstemp makes the file private; it becomes an ordinary output.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(temp.c_str(), 0666 & ~mask);
  return true;
}

bool writeFile(const std::string &path, const std::string &contents,
               std::string &why) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) {
    why = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

bool writeFileAtomically(const std::string &path, const std::string &contents,
                         std::string &why) {
  std::string temp;
  if (!makeTempBeside(path, temp, why))
    return false;
  if (!writeFile(temp, contents, why)) {
    std::remove(temp.c_str());
    return false;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    why = "cannot write '" + path + "': " + std::strerror(errno);
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

namespace {

std::string escapeDepfilePath(const std::string &path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#')
      out += '\\';
    else if (c == '$')
      out += '$';
    out += c;
  }
  return out;
}

} // namespace

std::string depfileRule(const std::string &target,
                        const std::vector<std::string> &dependencies) {
  std::string out = escapeDepfilePath(target) + ":";
  for (const std::string &d : dependencies)
    out += " \\\n  " + escapeDepfilePath(d);
  return out + "\n";
}

} // namespace popc

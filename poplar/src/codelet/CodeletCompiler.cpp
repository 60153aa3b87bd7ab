#include "codelet/CodeletCompiler.hpp"
#include "codelet/GraphProgramFile.hpp"

#include "core/Logging.hpp"

#include <poplar/exceptions.hpp>

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <vector>

extern char **environ;

namespace poplar {
namespace {

bool fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string readFile(const std::string &path, const char *what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw file_load_error(std::string(what) + ": cannot open '" + path + "'");
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

std::string directoryOf(const std::string &path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

void makeDirectories(const std::string &dir) {
  std::string partial;
  std::stringstream parts(dir);
  std::string part;
  if (!dir.empty() && dir[0] == '/')
    partial = "/";
  while (std::getline(parts, part, '/')) {
    if (part.empty())
      continue;
    partial += part + "/";
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
      throw poplar_error("addCodelets: cannot create the codelet cache "
                         "directory '" + dir + "': " + std::strerror(errno));
  }
}

// A name no other writer in this or another process uses.
std::string uniqueSuffix() {
  static std::atomic<unsigned> counter{0};
  return std::to_string(::getpid()) + "." + std::to_string(counter++);
}

// The identity of the files a compile read, to tell when a cached result
// is stale: "size mtime-ns path" per line.
std::string fileStamp(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return {};
  return std::to_string(st.st_size) + " " +
         std::to_string(std::int64_t(st.st_mtim.tv_sec) * 1000000000 +
                        st.st_mtim.tv_nsec);
}

// The prerequisites of a make-style dependency file.
std::vector<std::string> parseDepfile(const std::string &text) {
  std::vector<std::string> deps;
  const auto colon = text.find(": ");
  if (colon == std::string::npos)
    return deps;
  std::string current;
  for (std::size_t i = colon + 2; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() &&
        (text[i + 1] == ' ' || text[i + 1] == '\n')) {
      if (text[i + 1] == ' ')
        current.push_back(' ');
      else if (!current.empty())
        deps.push_back(std::move(current)), current.clear();
      ++i;
    } else if (c == ' ' || c == '\n' || c == '\t') {
      if (!current.empty())
        deps.push_back(std::move(current)), current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty())
    deps.push_back(std::move(current));
  return deps;
}

bool depsUnchanged(const std::string &manifestPath) {
  std::ifstream in(manifestPath);
  if (!in)
    return false;
  std::string line;
  while (std::getline(in, line)) {
    // "size mtime path": the path is everything after the second space.
    const auto first = line.find(' ');
    const auto second = first == std::string::npos
                            ? std::string::npos
                            : line.find(' ', first + 1);
    if (second == std::string::npos)
      return false;
    if (fileStamp(line.substr(second + 1)) != line.substr(0, second))
      return false;
  }
  return true;
}

void writeFileAtomically(const std::string &path, const std::string &text) {
  const std::string tmp = path + "." + uniqueSuffix() + ".tmp";
  {
    // Closed before the check: a full disk may fail only the final flush.
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      throw poplar_error("addCodelets: cannot write '" + tmp + "'");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw poplar_error("addCodelets: cannot write '" + path + "'");
  }
}

// Runs argv[0] with argv, returning its exit status and everything it
// printed on stdout and stderr.
int runProcess(const std::vector<std::string> &args, std::string &output) {
  int pipeFds[2];
  if (::pipe(pipeFds) != 0)
    throw poplar_error(std::string("addCodelets: pipe failed: ") +
                       std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeFds[1]);

  std::vector<char *> argv;
  for (const auto &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(),
                              environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipeFds[1]);
  if (rc != 0) {
    ::close(pipeFds[0]);
    throw graph_program_compilation_error(
        "addCodelets: cannot run the codelet compiler '" + args[0] +
        "': " + std::strerror(rc));
  }
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(pipeFds[0], buffer, sizeof buffer);
    if (n > 0)
      output.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  ::close(pipeFds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::vector<std::string> splitFlags(const std::string &flags) {
  std::vector<std::string> out;
  std::istringstream in(flags);
  std::string flag;
  while (in >> flag)
    out.push_back(flag);
  return out;
}

// A 128-bit cache key: two FNV-1a hashes from different starting points.
std::string hexKey(const std::string &bytes) {
  const std::uint64_t a = gp::fnv1a64(bytes.data(), bytes.size());
  const std::uint64_t b = gp::fnv1a64(bytes.data(), bytes.size(),
                                      gp::fnvOffsetBasis ^ 0x9e3779b97f4a7c15ull);
  std::ostringstream os;
  os << std::hex << std::setfill('0') << std::setw(16) << a << std::setw(16)
     << b;
  return os.str();
}

} // namespace

std::string popcExecutable() {
  if (const char *env = std::getenv("POPLAR_POPC"); env && *env)
    return env;
  // Installed: <prefix>/<libdir>/libpoplar.so and <prefix>/<bindir>/popc.
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&popcExecutable), &info) &&
      info.dli_fname) {
    const std::string installed =
        directoryOf(info.dli_fname) + "/" POPLAR_LIB_TO_BIN "/popc";
    if (fileExists(installed))
      return installed;
  }
#ifdef POPLAR_BUILD_TREE_POPC
  if (fileExists(POPLAR_BUILD_TREE_POPC))
    return POPLAR_BUILD_TREE_POPC;
#endif
  return "popc";
}

std::string codeletCacheDirectory() {
  if (const char *env = std::getenv("POPLAR_CODELET_CACHE_DIR"); env && *env)
    return env;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/poplar/codelets";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/poplar/codelets";
  return "/tmp/poplar-codelets-" + std::to_string(::getuid());
}

std::string storeCodeletSource(const std::string &source) {
  const std::string dir = codeletCacheDirectory();
  makeDirectories(dir);
  const std::string path = dir + "/" + hexKey(source) + ".cpp";
  if (!fileExists(path) || readFile(path, "addCodelets") != source)
    writeFileAtomically(path, source);
  return path;
}

std::string storeCodeletObject(const std::string &bytes,
                               std::uint64_t contentHash) {
  const std::string dir = codeletCacheDirectory();
  makeDirectories(dir);
  char name[32];
  std::snprintf(name, sizeof name, "exe-%016llx.gp",
                static_cast<unsigned long long>(contentHash));
  const std::string path = dir + "/" + name;
  // An entry of this name holds these bytes unless it was damaged.
  std::string why;
  std::uint64_t hash = 0;
  if (!fileExists(path) || !gp::validate(path, why, &hash) ||
      hash != contentHash)
    writeFileAtomically(path, bytes);
  return path;
}

std::string compileCodeletSource(const std::string &sourcePath,
                                 const std::string &compileFlags,
                                 const std::string &targetName,
                                 std::ostream *output) {
  const std::string source = readFile(sourcePath, "addCodelets");
  const std::string popc = popcExecutable();

  // The key covers what the result depends on besides included files,
  // which the manifest beside the entry checks.
  std::string identity = source;
  identity += '\0' + compileFlags + '\0' + targetName + '\0' +
              POPLAR_TOOLCHAIN_ID + '\0' + popc + '\0' + fileStamp(popc) +
              '\0' + sourcePath;
  const std::string key = hexKey(identity);
  const std::string dir = codeletCacheDirectory();
  makeDirectories(dir);
  const std::string entry = dir + "/" + key + ".gp";
  const std::string manifest = dir + "/" + key + ".deps";

  std::string why;
  if (fileExists(entry) && depsUnchanged(manifest) &&
      gp::validate(entry, why)) {
    logging::debug(logging::Module::Graph, "Codelets '{}': cache hit {}",
                   sourcePath, entry);
    return entry;
  }
  if (fileExists(entry) && !why.empty())
    logging::warn(logging::Module::Graph,
                  "Codelet cache entry {} is corrupt ({}); rebuilding", entry,
                  why);

  // Compile beside the entry under a unique name, then rename into place:
  // two processes compiling the same source both produce a whole file.
  const std::string suffix = uniqueSuffix();
  const std::string tmpGp = entry + "." + suffix + ".tmp";
  const std::string tmpDeps = manifest + "." + suffix + ".d";
  std::vector<std::string> args{popc};
  for (auto &flag : splitFlags(compileFlags))
    args.push_back(std::move(flag));
  if (!targetName.empty())
    args.insert(args.end(), {"--target", targetName});
  args.insert(args.end(),
              {sourcePath, "-o", tmpGp, "--depfile", tmpDeps});
  logging::info(logging::Module::Graph, "Compiling codelets '{}'",
                sourcePath);
  std::string messages;
  const int status = runProcess(args, messages);
  if (output)
    *output << messages;
  if (status != 0) {
    std::remove(tmpGp.c_str());
    std::remove(tmpDeps.c_str());
    throw graph_program_compilation_error(
        "addCodelets: compiling '" + sourcePath + "' failed:\n" + messages);
  }

  std::string stamps;
  for (const auto &dep : parseDepfile(readFile(tmpDeps, "addCodelets")))
    stamps += fileStamp(dep) + " " + dep + "\n";
  std::remove(tmpDeps.c_str());
  writeFileAtomically(manifest, stamps);
  if (std::rename(tmpGp.c_str(), entry.c_str()) != 0) {
    std::remove(tmpGp.c_str());
    throw poplar_error("addCodelets: cannot write the codelet cache entry '" +
                       entry + "'");
  }
  return entry;
}

} // namespace poplar

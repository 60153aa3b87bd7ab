// popc's command line.
#ifndef POPC_OPTIONS_HPP
#define POPC_OPTIONS_HPP

#include <string>
#include <vector>

namespace popc {

struct Options {
  enum class Action { Compile, Help, Version, ListTargets };
  Action action = Action::Compile;

  std::vector<std::string> inputs;
  std::string output;
  std::string depfile;
  /// -D, -U and -I, in command-line order, each as one argument ("-DX=1").
  std::vector<std::string> preprocessorFlags;
  /// -W... and -w, for the host compiler only.
  std::vector<std::string> warningFlags;
  /// -m... and -f..., code generation options for the host compiler
  /// (e.g. -march=native, -ffp-contract=fast), in command-line order.
  std::vector<std::string> codegenFlags;
  std::string optimisation = "-O2";
  bool debugInfo = false;
  std::vector<std::string> targets; // validated names, all when not given
  bool verbose = false;
  bool saveTemps = false;
};

/// The targets popc accepts, with a one-line description each.
struct TargetName {
  const char *name;
  const char *description;
};
const std::vector<TargetName> &knownTargets();

/// Parses argv; false with `error` set on a usage error.
bool parseOptions(int argc, char **argv, Options &options, std::string &error);

std::string usage();

} // namespace popc

#endif // POPC_OPTIONS_HPP

#include "Options.hpp"

#include <algorithm>
#include <cstring>

namespace popc {

const std::vector<TargetName> &knownTargets() {
  static const std::vector<TargetName> targets = {
      {"cpu", "the CPU device (host code)"},
      {"ipu1", "Mk1 IPU (GC2) and its IPU Model"},
      {"ipu2", "Mk2 IPU (GC200) and its IPU Model"},
      {"ipu21", "Mk2 IPU with FP8 support (C600) and its IPU Model"},
  };
  return targets;
}

std::string usage() {
  return R"(Usage: popc [options] <input file>... -o <output file>

Compiles codelet sources into one graph program file (.gp) that the Poplar
runtime loads with Graph::addCodelets. popc finds every vertex type (a class
derived from poplar::Vertex, MultiVertex or SupervisorVertex, and each
explicit instantiation of a vertex class template), checks its fields and
compute(), and compiles the sources with a table of them for the host.

Options:
  -o <file>             write the graph program to <file> (required)
  -D<macro>[=<value>]   define a macro (also -D <macro>)
  -U<macro>             undefine a macro (also -U <macro>)
  -I<dir>               add a directory to the include path (also -I <dir>)
  -O0, -O1, -O2, -O3    optimisation level of the host code (default -O2)
  -g                    include debug information
  -W<warning>, -w       warning options, passed to the host compiler
                        (for example -Wall -Werror -Wdouble-promotion)
  -m<option>, -f<option>
                        code generation options, passed to the host
                        compiler (for example -march=native
                        -ffp-contract=fast); code built for one machine's
                        instructions runs only on machines that have them
  --target <list>       comma-separated targets the program is for: cpu,
                        ipu1, ipu2, ipu21 (default: all). The output is host
                        code, valid for every target.
  --list-targets        list the targets and exit
  --depfile <file>      write a make-style dependency file (for Ninja's
                        DEPFILE and CMake's add_custom_command)
  --save-temps          keep the generated registration sources, next to the
                        output as <output>.part<N>.cpp
  -v, --verbose         print the vertex types found, the compiler command
                        and the time each step takes
  --help                print this help and exit
  --version             print the version and exit

Sources are parsed as C++17 with __POPC__ defined (__IPU__ is not). Errors
are printed as file:line:column: error: message and make popc exit with
code 1 without writing the output.
)";
}

namespace {

// An option whose value is either attached ("-Dx", "--depfile=f") or the
// next argument ("-D x", "--depfile f").
bool takeValue(int argc, char **argv, int &i, const std::string &arg,
               const std::string &name, std::string &value,
               std::string &error) {
  if (arg.size() > name.size()) {
    std::size_t skip = name.size();
    if (name.compare(0, 2, "--") == 0) {
      if (arg[skip] != '=')
        return false;
      ++skip;
    }
    value = arg.substr(skip);
  } else if (i + 1 < argc) {
    value = argv[++i];
  } else {
    error = "missing value after '" + name + "'";
    return true;
  }
  if (value.empty())
    error = "empty value for '" + name + "'";
  return true;
}

bool startsWith(const std::string &s, const char *prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

bool addTargets(const std::string &list, Options &options, std::string &error) {
  std::size_t begin = 0;
  while (true) {
    std::size_t end = list.find(',', begin);
    std::string name = list.substr(begin, end - begin);
    const auto &known = knownTargets();
    bool ok = std::any_of(known.begin(), known.end(),
                          [&](const TargetName &t) { return name == t.name; });
    if (!ok) {
      error = "unknown target '" + name + "' (known: cpu, ipu1, ipu2, ipu21)";
      return false;
    }
    if (std::find(options.targets.begin(), options.targets.end(), name) ==
        options.targets.end())
      options.targets.push_back(name);
    if (end == std::string::npos)
      return true;
    begin = end + 1;
  }
}

} // namespace

bool parseOptions(int argc, char **argv, Options &options, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    if (arg == "--help" || arg == "-h") {
      options.action = Options::Action::Help;
      return true;
    }
    if (arg == "--version") {
      options.action = Options::Action::Version;
      return true;
    }
    if (arg == "--list-targets") {
      options.action = Options::Action::ListTargets;
      return true;
    }
    if (arg.empty() || arg[0] != '-' || arg == "-") {
      if (arg.empty() || arg == "-") {
        error = "'" + arg + "' is not a file name (popc reads files only)";
        return false;
      }
      options.inputs.push_back(arg);
      continue;
    }
    if (startsWith(arg, "-o")) {
      if (!takeValue(argc, argv, i, arg, "-o", value, error) || !error.empty())
        return false;
      if (!options.output.empty()) {
        error = "more than one output file (-o)";
        return false;
      }
      options.output = value;
    } else if (startsWith(arg, "-D") || startsWith(arg, "-U") ||
               startsWith(arg, "-I")) {
      std::string flag = arg.substr(0, 2);
      takeValue(argc, argv, i, arg, flag, value, error);
      if (!error.empty())
        return false;
      options.preprocessorFlags.push_back(flag + value);
    } else if (arg == "-g") {
      options.debugInfo = true;
    } else if (arg == "-O0" || arg == "-O1" || arg == "-O2" || arg == "-O3") {
      options.optimisation = arg;
    } else if (startsWith(arg, "-O")) {
      error = "unsupported optimisation level '" + arg + "' (use -O0 to -O3)";
      return false;
    } else if ((startsWith(arg, "-W") && arg.size() > 2) || arg == "-w") {
      if (startsWith(arg, "-Wl,") || startsWith(arg, "-Wa,") ||
          startsWith(arg, "-Wp,")) {
        error = "'" + arg + "' is not a warning option";
        return false;
      }
      options.warningFlags.push_back(arg);
    } else if ((startsWith(arg, "-m") || startsWith(arg, "-f")) &&
               arg.size() > 2) {
      options.codegenFlags.push_back(arg);
    } else if (startsWith(arg, "--target")) {
      if (!takeValue(argc, argv, i, arg, "--target", value, error)) {
        error = "unknown option '" + arg + "'";
        return false;
      }
      if (!error.empty() || !addTargets(value, options, error))
        return false;
    } else if (startsWith(arg, "--depfile")) {
      if (!takeValue(argc, argv, i, arg, "--depfile", value, error)) {
        error = "unknown option '" + arg + "'";
        return false;
      }
      if (!error.empty())
        return false;
      options.depfile = value;
    } else if (arg == "--save-temps") {
      options.saveTemps = true;
    } else if (arg == "-v" || arg == "--verbose") {
      options.verbose = true;
    } else {
      error = "unknown option '" + arg + "'";
      return false;
    }
  }
  if (options.inputs.empty()) {
    error = "no input files";
    return false;
  }
  if (options.output.empty()) {
    error = "no output file (use -o <file>)";
    return false;
  }
  if (options.targets.empty())
    for (const auto &t : knownTargets())
      options.targets.push_back(t.name);
  return true;
}

} // namespace popc

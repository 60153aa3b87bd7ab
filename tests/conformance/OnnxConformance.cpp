// Runs ONNX backend test cases (model.onnx + test_data_set_0/{input,output}_N.pb)
// through popart InferenceSessions and reports passes and failures by op.
//
// Each case runs in a child process with a time limit, so a failure of any
// kind is recorded against its case and the run goes on.

#include <onnx_io/HostTensor.hpp>
#include <onnx_io/HostValue.hpp>
#include <onnx_io/ModelRunner.hpp>

#include <popart/error.hpp>

#include <onnx/onnx_pb.h>
#include <tbb/global_control.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Options {
  std::vector<std::string> roots;
  std::string device = "cpu";
  std::string filter;
  std::string listFile;
  std::string tableFile;
  std::string notesFile;
  std::string expectPassFile;
  std::string passListFile;
  double rtol = 1e-3;
  double atol = 1e-7;
  double maxRelativeError = -1; // < 0: use the elementwise rule
  unsigned timeoutSeconds = 120;
  unsigned jobs = 1;
  bool verbose = false;
  /// Run each case again with each of these host thread counts: the
  /// outputs must be the same bits.
  std::vector<unsigned> threadCounts;
};

struct Case {
  std::string name; // directory name, e.g. test_abs
  fs::path dir;
  std::string op;   // op type of the model's last node
  int opset = 0;
};

enum class Status { Pass, Fail, Error, Crash, Timeout };

const char *statusName(Status s) {
  switch (s) {
  case Status::Pass: return "pass";
  case Status::Fail: return "wrong result";
  case Status::Error: return "error";
  case Status::Crash: return "crash";
  case Status::Timeout: return "timeout";
  }
  return "?";
}

struct Result {
  Case testCase;
  Status status = Status::Error;
  std::string detail;
  double seconds = 0;
};

const char *usage =
    "usage: onnx_conformance [options] <test data dir>...\n"
    "  Each directory holds test cases (model.onnx and test_data_set_0/).\n"
    "  --device cpu|ipumodel|ipumodel1   device to run on (default cpu)\n"
    "  --filter REGEX          only cases whose name matches\n"
    "  --list FILE             only the cases named in FILE\n"
    "  --expect-pass FILE      exit 1 unless every case named in FILE passes\n"
    "  --pass-list FILE        write the names of the cases that pass\n"
    "  --table FILE            write a Markdown table of results by op\n"
    "  --notes FILE            Markdown copied into the table after the count\n"
    "  --rtol X --atol X       elementwise tolerance (default 1e-3, 1e-7)\n"
    "  --max-relative-error X  compare max|a-e|/max|e| <= X instead\n"
    "  --timeout SECONDS       limit per case (default 120)\n"
    "  --jobs N                cases run at once (default 1)\n"
    "  --same-bits-for-threads N,M,...  run each case again with each\n"
    "                          number of host threads; a case whose outputs\n"
    "                          differ in any bit fails\n"
    "  --verbose               print every case\n";

Options parseOptions(int argc, char **argv) {
  Options o;
  auto value = [&](int &i) -> std::string {
    if (i + 1 >= argc)
      throw popart::error("option {} needs a value", argv[i]);
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--device") o.device = value(i);
    else if (a == "--filter") o.filter = value(i);
    else if (a == "--list") o.listFile = value(i);
    else if (a == "--expect-pass") o.expectPassFile = value(i);
    else if (a == "--pass-list") o.passListFile = value(i);
    else if (a == "--table") o.tableFile = value(i);
    else if (a == "--notes") o.notesFile = value(i);
    else if (a == "--rtol") o.rtol = std::stod(value(i));
    else if (a == "--atol") o.atol = std::stod(value(i));
    else if (a == "--max-relative-error") o.maxRelativeError = std::stod(value(i));
    else if (a == "--timeout") o.timeoutSeconds = std::stoul(value(i));
    else if (a == "--jobs") o.jobs = std::max(1ul, std::stoul(value(i)));
    else if (a == "--verbose") o.verbose = true;
    else if (a == "--same-bits-for-threads") {
      std::stringstream list(value(i));
      for (std::string n; std::getline(list, n, ',');)
        o.threadCounts.push_back(unsigned(std::max(1ul, std::stoul(n))));
    }
    else if (a == "--help" || a == "-h") { std::cout << usage; std::exit(0); }
    else if (!a.empty() && a[0] == '-') throw popart::error("unknown option '{}'", a);
    else o.roots.push_back(a);
  }
  if (o.roots.empty())
    throw popart::error("no test data directory given");
  return o;
}

std::set<std::string> readNameList(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw popart::error("cannot open list file '{}'", path);
  std::set<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    line.erase(std::remove_if(line.begin(), line.end(), ::isspace), line.end());
    if (!line.empty())
      names.insert(line);
  }
  return names;
}

// The op a case is filed under: its model's last node. Large models (the
// exported networks) are filed under their own name without parsing.
void describe(Case &c) {
  const fs::path model = c.dir / "model.onnx";
  std::error_code ec;
  if (fs::file_size(model, ec) > (16u << 20) || ec) {
    c.op = c.name;
    return;
  }
  onnx::ModelProto proto;
  std::ifstream in(model, std::ios::binary);
  if (!proto.ParseFromIstream(&in) || proto.graph().node_size() == 0) {
    c.op = "(unreadable model)";
    return;
  }
  const auto &last = proto.graph().node(proto.graph().node_size() - 1);
  c.op = last.domain().empty() || last.domain() == "ai.onnx"
             ? last.op_type()
             : last.domain() + "." + last.op_type();
  for (const auto &opset : proto.opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx")
      c.opset = int(opset.version());
}

std::vector<Case> findCases(const Options &o) {
  std::set<std::string> listed;
  if (!o.listFile.empty())
    listed = readNameList(o.listFile);
  const std::regex filter(o.filter.empty() ? ".*" : o.filter);
  std::vector<Case> cases;
  for (const auto &root : o.roots) {
    if (!fs::is_directory(root))
      throw popart::error("test data directory '{}' does not exist", root);
    for (const auto &entry : fs::directory_iterator(root)) {
      if (!fs::exists(entry.path() / "model.onnx"))
        continue;
      Case c{entry.path().filename().string(), entry.path(), "", 0};
      if (!std::regex_search(c.name, filter))
        continue;
      if (!listed.empty() && !listed.count(c.name))
        continue;
      cases.push_back(c);
    }
  }
  std::sort(cases.begin(), cases.end(),
            [](const Case &a, const Case &b) { return a.name < b.name; });
  for (auto &c : cases)
    describe(c);
  return cases;
}

std::vector<fs::path> numberedFiles(const fs::path &dir,
                                    const std::string &prefix) {
  std::vector<fs::path> files;
  for (int i = 0;; ++i) {
    fs::path p = dir / (prefix + std::to_string(i) + ".pb");
    if (!fs::exists(p))
      break;
    files.push_back(p);
  }
  return files;
}

// The bytes of a value: its tensors', in order.
void appendBytes(const onnx_io::HostValue &v, std::vector<char> &out) {
  if (v.kind == onnx_io::HostValue::Kind::Tensor)
    out.insert(out.end(), v.tensor.bytes.begin(), v.tensor.bytes.end());
  for (const auto &e : v.elements)
    appendBytes(e, out);
}

// Runs the loaded model again with each thread count of `o`: "" if every
// run gives the same bits, else which counts differ.
std::string differenceBetweenThreadCounts(
    onnx_io::ModelRunner &runner, const onnx::ModelProto &model,
    const std::map<popart::TensorId, onnx_io::HostTensor> &inputs,
    const Options &o) {
  std::vector<char> first;
  for (std::size_t k = 0; k < o.threadCounts.size(); ++k) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              o.threadCounts[k]);
    const auto outputs = runner.run(inputs);
    std::vector<char> bytes;
    for (const auto &output : model.graph().output())
      appendBytes(runner.outputValue(outputs, output.name()), bytes);
    if (k == 0)
      first = std::move(bytes);
    else if (bytes != first)
      return "the outputs with " + std::to_string(o.threadCounts[k]) +
             " host threads differ from those with " +
             std::to_string(o.threadCounts[0]);
  }
  return "";
}

// Runs one case in this process; returns "pass" or the reason it failed.
std::pair<Status, std::string> runCase(const Case &c, const Options &o) {
  const fs::path data = c.dir / "test_data_set_0";
  onnx::ModelProto model;
  {
    std::ifstream in(c.dir / "model.onnx", std::ios::binary);
    if (!model.ParseFromIstream(&in))
      return {Status::Error, "model.onnx cannot be parsed"};
  }
  std::set<std::string> initializers;
  for (const auto &init : model.graph().initializer())
    initializers.insert(init.name());
  std::vector<const onnx::ValueInfoProto *> inputs;
  for (const auto &input : model.graph().input())
    if (!initializers.count(input.name()))
      inputs.push_back(&input);

  const auto inputFiles = numberedFiles(data, "input_");
  const auto outputFiles = numberedFiles(data, "output_");
  if (inputFiles.size() != inputs.size() ||
      outputFiles.size() != std::size_t(model.graph().output_size()))
    return {Status::Error,
            "the test data has " + std::to_string(inputFiles.size()) +
                " input and " + std::to_string(outputFiles.size()) +
                " output files for a model of " +
                std::to_string(inputs.size()) + " inputs and " +
                std::to_string(model.graph().output_size()) + " outputs"};

  // INT64 inputs and compile-time operands become constants, the session
  // specialised on them, as are the structures of sequences and optionals
  // (onnx_io::splitGivenInputs).
  std::map<std::string, onnx_io::HostValue> values;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    values.emplace(inputs[i]->name(),
                   onnx_io::readValueFile(inputFiles[i].string(),
                                          inputs[i]->type()));
  auto given = onnx_io::splitGivenInputs((c.dir / "model.onnx").string(),
                                         std::move(values));

  onnx_io::ModelRunner runner((c.dir / "model.onnx").string(),
                              onnx_io::createDevice(o.device), given);
  auto outputs = runner.run(given.streamed);
  for (int j = 0; j < model.graph().output_size(); ++j) {
    const auto &output = model.graph().output(j);
    auto expected = onnx_io::readValueFile(outputFiles[std::size_t(j)].string(),
                                           output.type());
    const auto actual = runner.outputValue(outputs, output.name());
    onnx_io::Comparison cmp;
    if (o.maxRelativeError >= 0 &&
        actual.kind == onnx_io::HostValue::Kind::Tensor &&
        expected.kind == onnx_io::HostValue::Kind::Tensor)
      cmp = onnx_io::compareRelative(actual.tensor, expected.tensor,
                                     o.maxRelativeError);
    else
      cmp = onnx_io::compareValues(actual, expected, o.rtol, o.atol);
    if (!cmp.equal)
      return {Status::Fail, "output '" + output.name() + "': " + cmp.detail};
    if (o.verbose && !cmp.detail.empty())
      std::cerr << c.name << ": output '" << output.name()
                << "': " << cmp.detail << "\n";
  }
  if (!o.threadCounts.empty()) {
    const std::string differ =
        differenceBetweenThreadCounts(runner, model, given.streamed, o);
    if (!differ.empty())
      return {Status::Fail, differ};
  }
  return {Status::Pass, ""};
}

std::string firstLine(const std::string &s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > 200 ? line.substr(0, 197) + "..." : line;
}

struct Running {
  pid_t pid;
  int pipe;
  std::size_t index;
  std::chrono::steady_clock::time_point start;
};

// Forks a child that runs the case and writes "<status code> <detail>".
Running launch(const Case &c, std::size_t index, const Options &o) {
  int fds[2];
  if (pipe(fds) != 0)
    throw popart::error("pipe() failed: {}", std::strerror(errno));
  std::cout.flush();
  pid_t pid = fork();
  if (pid < 0)
    throw popart::error("fork() failed: {}", std::strerror(errno));
  if (pid == 0) {
    close(fds[0]);
    std::pair<Status, std::string> r;
    try {
      r = runCase(c, o);
    } catch (const std::exception &e) {
      r = {Status::Error, e.what()};
    }
    std::string message = std::to_string(int(r.first)) + " " + firstLine(r.second);
    ssize_t ignored = write(fds[1], message.data(), message.size());
    (void)ignored;
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  return {pid, fds[0], index, std::chrono::steady_clock::now()};
}

Result collect(const Running &r, const Case &c, bool timedOut) {
  Result result{c, Status::Crash, "", 0};
  result.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - r.start)
                       .count();
  if (timedOut) {
    kill(r.pid, SIGKILL);
    waitpid(r.pid, nullptr, 0);
    close(r.pipe);
    result.status = Status::Timeout;
    result.detail = "no result within the time limit";
    return result;
  }
  std::string message;
  char buffer[512];
  ssize_t n;
  while ((n = read(r.pipe, buffer, sizeof buffer)) > 0)
    message.append(buffer, std::size_t(n));
  close(r.pipe);
  int wstatus = 0;
  waitpid(r.pid, &wstatus, 0);
  if (message.empty()) {
    result.detail = WIFSIGNALED(wstatus)
                        ? std::string("killed by signal ") +
                              strsignal(WTERMSIG(wstatus))
                        : "exited without a result";
    return result;
  }
  const auto space = message.find(' ');
  result.status = Status(std::stoi(message.substr(0, space)));
  result.detail = space == std::string::npos ? "" : message.substr(space + 1);
  // A child that failed after writing its result (a sanitizer's report at
  // exit, a crash in a destructor) fails the case all the same.
  if (WIFSIGNALED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    result.detail = (WIFSIGNALED(wstatus)
                         ? std::string("killed by signal ") +
                               strsignal(WTERMSIG(wstatus))
                         : "exit status " + std::to_string(WEXITSTATUS(wstatus))) +
                    " after its result (" + statusName(result.status) +
                    (result.detail.empty() ? "" : ": " + result.detail) + ")";
    result.status = Status::Crash;
  }
  return result;
}

bool finished(pid_t pid) {
  // WNOWAIT leaves the child to be reaped by collect().
  siginfo_t info{};
  return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

std::vector<Result> runAll(const std::vector<Case> &cases, const Options &o) {
  std::vector<Result> results(cases.size());
  std::vector<Running> running;
  std::size_t next = 0;
  while (next < cases.size() || !running.empty()) {
    while (running.size() < o.jobs && next < cases.size()) {
      running.push_back(launch(cases[next], next, o));
      ++next;
    }
    bool progressed = false;
    for (auto it = running.begin(); it != running.end();) {
      const auto elapsed = std::chrono::steady_clock::now() - it->start;
      const bool timedOut = elapsed > std::chrono::seconds(o.timeoutSeconds);
      if (finished(it->pid) || timedOut) {
        Result r = collect(*it, cases[it->index], timedOut && !finished(it->pid));
        if (o.verbose || r.status != Status::Pass) {
          std::cout << (r.status == Status::Pass ? "PASS " : "FAIL ")
                    << r.testCase.name << " [" << r.testCase.op << "] "
                    << (r.status == Status::Pass ? "" : statusName(r.status))
                    << (r.detail.empty() ? "" : ": " + r.detail);
          if (o.verbose)
            std::cout << " (" << std::fixed << std::setprecision(1)
                      << r.seconds << " s)" << std::defaultfloat
                      << std::setprecision(6);
          std::cout << "\n";
        }
        results[it->index] = std::move(r);
        it = running.erase(it);
        progressed = true;
      } else {
        ++it;
      }
    }
    if (!progressed)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return results;
}

void writeTable(const std::vector<Result> &results, const Options &o) {
  struct OpRow {
    int total = 0, passed = 0;
    std::set<int> opsets;
    std::vector<const Result *> failures;
  };
  std::map<std::string, OpRow> rows;
  int passed = 0;
  for (const auto &r : results) {
    auto &row = rows[r.testCase.op];
    ++row.total;
    if (r.testCase.opset)
      row.opsets.insert(r.testCase.opset);
    if (r.status == Status::Pass) {
      ++row.passed;
      ++passed;
    } else {
      row.failures.push_back(&r);
    }
  }
  std::ofstream out(o.tableFile);
  if (!out)
    throw popart::error("cannot write table file '{}'", o.tableFile);
  out << "# ONNX backend conformance\n\n"
      << "Generated by `onnx_conformance` on the `" << o.device
      << "` device: each test case's model is run by a popart "
         "InferenceSession and its outputs are compared with the expected "
         "ones (|actual - expected| <= "
      << o.atol << " + " << o.rtol
      << " |expected|). INT64 inputs (shapes, axes or indices), and the "
         "inputs an op reads as compile-time operands (a shape, axis, count "
         "or bound that fixes a result's shape: `onnx_io::compileTimeInputs`), "
         "are given to the session as constants.\n\n"
      << "Regenerate with `scripts/conformance-table.sh` (which runs "
         "`onnx_conformance --device cpu --table docs/onnx_conformance.md` "
         "over the four test data directories).\n\n"
      << "**" << passed << " of " << results.size()
      << " test cases pass.**\n\n";
  if (!o.notesFile.empty()) {
    std::ifstream notes(o.notesFile);
    if (!notes)
      throw popart::error("cannot read notes file '{}'", o.notesFile);
    out << notes.rdbuf() << "\n";
  }
  // Passes by test data directory (node, simple, ...).
  std::map<std::string, std::pair<int, int>> bySet;
  for (const auto &r : results) {
    auto &counts = bySet[r.testCase.dir.parent_path().filename().string()];
    ++counts.second;
    counts.first += r.status == Status::Pass;
  }
  out << "| test data | passed | cases |\n|---|---|---|\n";
  for (const auto &[set, counts] : bySet)
    out << "| " << set << " | " << counts.first << " | " << counts.second
        << " |\n";
  out << "\n"
      << "| op | opsets | passed | cases |\n|---|---|---|---|\n";
  for (const auto &[op, row] : rows) {
    std::string opsets;
    for (int v : row.opsets)
      opsets += (opsets.empty() ? "" : ", ") + std::to_string(v);
    out << "| " << op << " | " << opsets << " | " << row.passed << " | "
        << row.total << " |\n";
  }
  out << "\n## Failures\n\n| case | op | result | detail |\n|---|---|---|---|\n";
  for (const auto &[op, row] : rows)
    for (const auto *r : row.failures) {
      std::string detail = r->detail;
      std::replace(detail.begin(), detail.end(), '|', '/');
      out << "| " << r->testCase.name << " | " << op << " | "
          << statusName(r->status) << " | " << detail << " |\n";
    }
}

void writePassList(const std::vector<Result> &results, const std::string &path) {
  std::ofstream out(path);
  if (!out)
    throw popart::error("cannot write pass list '{}'", path);
  out << "# ONNX backend test cases that pass (onnx_conformance --pass-list);\n"
         "# regenerate with UPDATE_EXPECTED=1 scripts/conformance-table.sh\n";
  for (const auto &r : results)
    if (r.status == Status::Pass)
      out << r.testCase.name << "\n";
}

} // namespace

int main(int argc, char **argv) {
  try {
    const Options o = parseOptions(argc, argv);
    const auto cases = findCases(o);
    const auto start = std::chrono::steady_clock::now();
    const auto results = runAll(cases, o);
    const double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count();
    const auto passed = std::count_if(results.begin(), results.end(), [](auto &r) {
      return r.status == Status::Pass;
    });
    std::cout << "onnx_conformance: " << passed << " of " << results.size()
              << " cases pass on " << o.device << " (" << seconds << " s)\n";
    if (!o.tableFile.empty())
      writeTable(results, o);
    if (!o.passListFile.empty())
      writePassList(results, o.passListFile);
    if (!o.expectPassFile.empty()) {
      std::map<std::string, const Result *> byName;
      for (const auto &r : results)
        byName[r.testCase.name] = &r;
      int missing = 0;
      for (const auto &name : readNameList(o.expectPassFile)) {
        auto found = byName.find(name);
        if (found == byName.end() || found->second->status != Status::Pass) {
          std::cout << "expected to pass: " << name << "\n";
          ++missing;
        }
      }
      if (missing) {
        std::cout << "onnx_conformance: " << missing
                  << " cases expected to pass did not\n";
        return 1;
      }
    }
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "onnx_conformance: " << e.what() << "\n" << usage;
    return 2;
  }
}

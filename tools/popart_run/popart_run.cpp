// popart_run: runs an ONNX model with a popart InferenceSession and reports
// compile and run times, IPU Model cycles and, on request, the profile.

#include <onnx_io/HostTensor.hpp>
#include <onnx_io/ModelRunner.hpp>

#include <popart/error.hpp>
#include <popart/session.hpp>

#include <onnx/onnx_pb.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>

namespace {

const char *usage =
    "usage: popart_run [options] <model.onnx>\n"
    "  --device cpu|ipumodel|ipumodel1  device (default ipumodel)\n"
    "  --input NAME=FILE.pb     value of an input (onnx TensorProto, or\n"
    "                           SequenceProto or OptionalProto for inputs\n"
    "                           of those types);\n"
    "                           inputs not given are random (seeded)\n"
    "  --seed N                 seed of the random inputs (default 1)\n"
    "  --iterations N           runs to time after the first (default 1)\n"
    "  --save-outputs DIR       write output_<i>.pb files of the last run\n"
    "                           (TensorProto, SequenceProto or OptionalProto)\n"
    "  --print-outputs          print the first values of each output\n"
    "  --report                 print the session's profile summary\n";

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Options {
  std::string model;
  std::string device = "ipumodel";
  std::map<std::string, std::string> inputFiles;
  unsigned seed = 1;
  int iterations = 1;
  std::string saveDir;
  bool printOutputs = false;
  bool report = false;
};

Options parse(int argc, char **argv) {
  Options o;
  auto value = [&](int &i) -> std::string {
    if (i + 1 >= argc)
      throw popart::error("option {} needs a value", argv[i]);
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--device") o.device = value(i);
    else if (a == "--seed") o.seed = unsigned(std::stoul(value(i)));
    else if (a == "--iterations") o.iterations = std::max(1, std::stoi(value(i)));
    else if (a == "--save-outputs") o.saveDir = value(i);
    else if (a == "--print-outputs") o.printOutputs = true;
    else if (a == "--report") o.report = true;
    else if (a == "--input") {
      std::string spec = value(i);
      auto eq = spec.find('=');
      if (eq == std::string::npos)
        throw popart::error("--input expects NAME=FILE, got '{}'", spec);
      o.inputFiles[spec.substr(0, eq)] = spec.substr(eq + 1);
    } else if (a == "--help" || a == "-h") { std::cout << usage; std::exit(0); }
    else if (!a.empty() && a[0] == '-') throw popart::error("unknown option '{}'", a);
    else if (o.model.empty()) o.model = a;
    else throw popart::error("more than one model given ('{}')", a);
  }
  if (o.model.empty())
    throw popart::error("no model given");
  return o;
}

// The IPU Model's simulated cycles since the profile was last reset, from
// the execution report (its "simulation" section).
uint64_t simulatedCycles(popart::Session &session) {
  const auto report = nlohmann::json::parse(
      session.getExecutionReport(false, /*resetProfile=*/false));
  return report.at("simulation").at("cycles").get<uint64_t>();
}

} // namespace

int main(int argc, char **argv) {
  try {
    const Options o = parse(argc, argv);
    // Given inputs that fix a shape, axis, count or bound (and INT64 ones)
    // specialise the session on their values, as in the conformance runner.
    // Sequence and optional inputs (SequenceProto and OptionalProto files)
    // fix the structure the session is specialised on.
    const auto given = onnx_io::splitGivenInputs(
        o.model, onnx_io::readInputFiles(o.model, o.inputFiles));

    auto start = Clock::now();
    onnx_io::ModelRunner runner(o.model, onnx_io::createDevice(o.device),
                                given);
    const double compileSeconds = secondsSince(start);

    std::map<popart::TensorId, onnx_io::HostTensor> inputs;
    unsigned seed = o.seed;
    for (const auto &input : runner.inputs()) {
      auto file = given.streamed.find(input.id);
      inputs[input.id] = file != given.streamed.end()
                             ? file->second
                             : onnx_io::randomTensor(input.info, seed++);
    }
    for (const auto &[name, tensor] : given.streamed)
      if (!inputs.count(name))
        throw popart::error("--input names '{}', which is not an input of {}",
                            name, o.model);

    // The first run pays one-off costs (buffers, the first transfers); it
    // is timed on its own so that the per-step figure is the steady state.
    start = Clock::now();
    auto outputs = runner.run(inputs);
    const double firstRunSeconds = secondsSince(start);

    const bool ipuModel = o.device != "cpu";
    if (ipuModel) // the cycles counted from here on are the timed runs'
      runner.session().getExecutionReport(false, /*resetProfile=*/true);
    start = Clock::now();
    for (int i = 0; i < o.iterations; ++i)
      outputs = runner.run(inputs);
    const double runSeconds = secondsSince(start) / o.iterations;

    std::cout << std::fixed << std::setprecision(3)
              << "model:        " << o.model << "\n"
              << "device:       " << o.device << "\n"
              << "compile:      " << compileSeconds << " s\n"
              << "first run:    " << firstRunSeconds * 1e3 << " ms\n"
              << "run:          " << runSeconds * 1e3 << " ms per step ("
              << o.iterations << " steps after the first)\n";
    if (ipuModel)
      std::cout << "IPU cycles:   " << simulatedCycles(runner.session()) / uint64_t(o.iterations)
                << " per step (IPU Model)\n";
    for (std::size_t i = 0; i < runner.outputs().size(); ++i) {
      const auto &id = runner.outputs()[i];
      const auto value = runner.outputValue(outputs, id);
      std::cout << "output " << id << ": " << onnx_io::describe(value) << "\n";
      if (o.printOutputs)
        for (const auto &[name, out] : onnx_io::flatten(value, id)) {
          if (out.isString()) {
            std::cout << "  " << (name == id ? "" : name + ": ");
            for (std::size_t k = 0; k < out.strings.size() && k < 10; ++k)
              std::cout << std::quoted(out.strings[k]) << " ";
            std::cout << (out.strings.size() > 10 ? "...\n" : "\n");
            continue;
          }
          auto values = onnx_io::toDoubles(out);
          std::cout << "  " << (name == id ? "" : name + ": ")
                    << std::setprecision(6);
          for (std::size_t k = 0; k < values.size() && k < 10; ++k)
            std::cout << values[k] << " ";
          std::cout << (values.size() > 10 ? "...\n" : "\n")
                    << std::setprecision(3);
        }
      if (!o.saveDir.empty())
        onnx_io::writeValueFile(value, id,
                                o.saveDir + "/output_" + std::to_string(i) +
                                    ".pb");
    }
    if (o.report)
      std::cout << runner.session().getSummaryReport();
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "popart_run: " << e.what() << "\n";
    return 1;
  }
}

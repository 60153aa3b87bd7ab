// popart: STRING tensors at a session's boundary on the CPU device. One
// step parses N strings into FLOAT on the host, doubles them on the device
// and formats the results as strings on the host (StringCastRoundTrip); or
// removes stop words and upper-cases N words (StringNormalizerUpper). The
// counter items_per_second counts strings.
#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

namespace {

using namespace popart;

std::unique_ptr<InferenceSession> sessionOf(Builder &builder,
                                            const TensorId &out) {
  auto session = InferenceSession::createFromOnnxModel(
      builder.getModelProto(), DataFlow(1, {out}),
      DeviceManager::createDeviceManager().createCpuDevice());
  session->prepareDevice();
  return session;
}

void run(benchmark::State &state, InferenceSession &session, const TensorId &in,
         std::vector<std::string> &given, const TensorId &out) {
  const int64_t n = static_cast<int64_t>(given.size());
  std::vector<std::string> result(given.size());
  NDArrayWrapper<std::string> input(given.data(), Shape{n});
  NDArrayWrapper<std::string> output(result.data(), Shape{n});
  for (auto _ : state) {
    StepIO stepio({{in, input}}, {{out, output}});
    session.run(stepio);
    benchmark::DoNotOptimize(result.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void StringCastRoundTrip(benchmark::State &state) {
  const int64_t n = state.range(0);
  auto builder = Builder::create();
  auto onnx = builder->aiOnnxOpset13();
  const TensorId x = builder->addInputTensor(TensorInfo(DataType::STRING, Shape{n}));
  const TensorId numbers = onnx.cast({x}, "FLOAT");
  const TensorId text = onnx.cast({onnx.add({numbers, numbers})}, "STRING");
  builder->addOutputTensor(text);
  auto session = sessionOf(*builder, text);
  std::mt19937 engine(1);
  std::uniform_real_distribution<float> uniform(-1e3f, 1e3f);
  std::vector<std::string> given;
  for (int64_t i = 0; i < n; ++i)
    given.push_back(std::to_string(uniform(engine)));
  run(state, *session, x, given, text);
}

void StringNormalizerUpper(benchmark::State &state) {
  const int64_t n = state.range(0);
  auto builder = Builder::create();
  const TensorId x = builder->addInputTensor(TensorInfo(DataType::STRING, Shape{n}));
  const TensorId y = builder->aiOnnxOpset13().stringnormalizer(
      {x}, "UPPER", 0, nonstd::nullopt, {"monday", "friday"});
  builder->addOutputTensor(y);
  auto session = sessionOf(*builder, y);
  const std::vector<std::string> days = {"Monday", "tuesday", "Wednesday",
                                         "thursday", "Friday", "école"};
  std::vector<std::string> given;
  for (int64_t i = 0; i < n; ++i)
    given.push_back(days[std::size_t(i) % days.size()]);
  run(state, *session, x, given, y);
}

} // namespace

BENCHMARK(StringCastRoundTrip)->Arg(1 << 16)->Unit(benchmark::kMillisecond);
BENCHMARK(StringNormalizerUpper)->Arg(1 << 16)->Unit(benchmark::kMillisecond);

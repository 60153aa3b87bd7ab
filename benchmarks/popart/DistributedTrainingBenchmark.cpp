// popart: training throughput of replicas in several processes
// (SessionOptions::enableDistributedReplicatedGraphs over MPI) against one
// process. An MLP (784-256-10, ReLU, softmax, NLL loss, SGD with momentum)
// on the CPU device, 32 samples per replica and batch, 8 batches per step;
// each process trains one replica on its own data and the gradients are
// summed over the processes each batch. ReplicatedTrainingCpu holds two
// replicas in each process (replicatedGraphCount 2, the gradients summed
// on the device). Run it in one and in two processes and compare the
// samples per second of the job:
//
//   ./build/benchmarks/popart_distributed_benchmarks
//   mpirun -np 2 ./build/benchmarks/popart_distributed_benchmarks
//
// (as root with --allow-run-as-root). Every process runs the same number
// of steps (a fixed iteration count: the collectives pair them); rank 0
// reports. Host threads per process: SDK_BENCH_THREADS (default 1).
#include <popart/builder.hpp>
#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/mpi.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

const int64_t batch = 32, in = 784, hidden = 256, classes = 10;
const int batchesPerStep = 8;

std::size_t benchThreads() {
  const char *env = std::getenv("SDK_BENCH_THREADS");
  return env ? std::size_t(std::atoi(env)) : 1;
}

std::vector<float> normals(std::size_t n, unsigned seed, float scale) {
  std::mt19937 random(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> v(n);
  for (auto &x : v)
    x = normal(random);
  return v;
}

struct Model {
  std::string proto;
  popart::TensorId x, label, loss;
};

Model mlp() {
  auto b = popart::Builder::create();
  Model m;
  m.x = b->addInputTensor(popart::TensorInfo("FLOAT", popart::Shape{batch, in}),
                          "x");
  m.label = b->addInputTensor(popart::TensorInfo("INT32", popart::Shape{batch}),
                              "label");
  auto w1v = normals(std::size_t(in * hidden), 1, 0.05f);
  auto w2v = normals(std::size_t(hidden * classes), 2, 0.05f);
  popart::ConstVoidData w1d(w1v.data(), {"FLOAT", popart::Shape{in, hidden}});
  popart::ConstVoidData w2d(w2v.data(), {"FLOAT", popart::Shape{hidden, classes}});
  auto w1 = b->addInitializedInputTensor(w1d, "w1");
  auto w2 = b->addInitializedInputTensor(w2d, "w2");
  auto onnx = b->aiOnnxOpset11();
  auto h = onnx.relu({onnx.matmul({m.x, w1})});
  auto probs = onnx.softmax({onnx.matmul({h, w2})}, 1);
  m.loss = b->aiGraphcoreOpset1().nllloss({probs, m.label},
                                          popart::ReductionType::Mean);
  m.proto = b->getModelProto();
  return m;
}

// Trains with `localReplicas` replicas in this process
// (replicatedGraphCount) and one more process of as many per further MPI
// process; the job's samples per second.
void trainReplicas(benchmark::State &state, int localReplicas) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              benchThreads());
  const int processes = popart::mpi::size();
  try {
    const Model m = mlp();
    popart::SessionOptions opts;
    if (processes > 1) {
      opts.enableDistributedReplicatedGraphs = true;
      opts.globalReplicationFactor = processes * localReplicas;
      opts.globalReplicaOffset = popart::mpi::rank() * localReplicas;
    }
    if (localReplicas > 1) {
      opts.enableReplicatedGraphs = true;
      opts.replicatedGraphCount = localReplicas;
    }
    auto session = popart::TrainingSession::createFromOnnxModel(
        m.proto,
        popart::DataFlow(batchesPerStep, {{m.loss, popart::AnchorReturnType("FINAL")}}),
        m.loss,
        popart::SGD({{"defaultLearningRate", {0.01f, false}},
                     {"defaultMomentum", {0.9f, true}}}),
        popart::DeviceManager::createDeviceManager().createCpuDevice(),
        popart::InputShapeInfo(), opts);
    session->prepareDevice();
    session->weightsFromHost();
    // Each process's own data.
    const int64_t r = localReplicas;
    auto xs = normals(std::size_t(batchesPerStep * r * batch * in),
                      100u + unsigned(popart::mpi::rank()), 1.0f);
    std::vector<int> labels(std::size_t(batchesPerStep * r * batch));
    for (std::size_t i = 0; i < labels.size(); ++i)
      labels[i] = int(i % classes);
    std::vector<float> loss(static_cast<std::size_t>(r));
    popart::NDArrayWrapper<float> xArray(xs.data(),
                                         {batchesPerStep, r, batch, in});
    popart::NDArrayWrapper<int> labelArray(labels.data(),
                                           {batchesPerStep, r, batch});
    popart::NDArrayWrapper<float> lossArray(loss.data(), {r});
    std::map<popart::TensorId, popart::IArray &> inputs = {
        {m.x, xArray}, {m.label, labelArray}};
    std::map<popart::TensorId, popart::IArray &> anchors = {{m.loss, lossArray}};
    popart::StepIO stepio(inputs, anchors);
    session->run(stepio); // the first run pays for the engine's set-up
    for (auto _ : state) {
      session->run(stepio);
      benchmark::DoNotOptimize(loss);
    }
    state.counters["loss"] = double(loss[0]);
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
  state.counters["processes"] = double(processes);
  state.counters["replicas_per_process"] = double(localReplicas);
  state.counters["threads_per_process"] = double(benchThreads());
  // The samples of every replica of every process: the job's throughput.
  state.counters["job_samples_per_second"] = benchmark::Counter(
      double(state.iterations()) * batchesPerStep * batch * processes *
          localReplicas,
      benchmark::Counter::kIsRate);
}

void DistributedTrainingCpu(benchmark::State &state) { trainReplicas(state, 1); }
BENCHMARK(DistributedTrainingCpu)->Unit(benchmark::kMillisecond)->UseRealTime()
    ->Iterations(40);

// Two replicas in one process (replicatedGraphCount 2): the gradients
// summed on the device by gcl instead of over MPI.
void ReplicatedTrainingCpu(benchmark::State &state) { trainReplicas(state, 2); }
BENCHMARK(ReplicatedTrainingCpu)->Unit(benchmark::kMillisecond)->UseRealTime()
    ->Iterations(40);

// Ranks other than 0 run the same steps and report nothing.
class SilentReporter : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context &) override { return true; }
  void ReportRuns(const std::vector<Run> &) override {}
};

} // namespace

int main(int argc, char **argv) {
  popart::mpi::init();
  benchmark::Initialize(&argc, argv);
  if (popart::mpi::rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    SilentReporter silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  return 0;
}

// Tutorial 7: matrix-vector multiplication, optimised. Each row is cut into
// `split` segments; one vertex computes the dot product of a segment with
// the matching part of the vector, and a second compute set adds the
// partial sums of each row. The split is chosen with a small cost model of
// the IPU: compute on the busiest tile plus the data it must receive.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

unsigned ceilDiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

// The parts of the estimated cost of one split.
struct Cost {
  unsigned compute = 0;
  unsigned exchange = 0;
  unsigned reduceExchange = 0;
  unsigned reduceCompute = 0;
  unsigned total() const {
    return compute + exchange + reduceExchange + reduceCompute;
  }
};

// Cycles of a vertex summing n products (or n values): a guess of 5 cycles
// to start and set up its loop, then 2 elements per cycle on the vector
// unit. The same numbers are given to Poplar as the vertices' estimates.
unsigned vertexCycles(unsigned n) { return 5 + (n + 1) / 2; }

// Estimates the cycles of the multiplication for one split, from the
// target's tiles, worker contexts and exchange bandwidth.
Cost estimateCost(const Target &target, unsigned rows, unsigned cols,
                  unsigned split) {
  const unsigned tiles = target.getNumTiles();
  const unsigned workers = target.getNumWorkerContexts();
  const unsigned exchangeBytesPerCycle = target.getExchangeBytesPerCycle();
  const unsigned segment = ceilDiv(cols, split);
  Cost c;
  // rows * split dot products are spread evenly over the tiles; the
  // busiest tile runs them in rounds of one per worker, and a round takes
  // as long on the tile as `workers` cycles of one vertex (barrel issue).
  const unsigned perTile = std::max(ceilDiv(rows * split, tiles), 1u);
  c.compute = ceilDiv(perTile, workers) * workers * vertexCycles(segment);
  // Each tile receives the vector segment of every group of rows it holds.
  c.exchange = ceilDiv(perTile, rows) * segment * unsigned(sizeof(float)) /
               exchangeBytesPerCycle;
  // One reduction per row, spread the same way; each receives `split`
  // partial sums.
  const unsigned reducePerTile = std::max(ceilDiv(rows, tiles), 1u);
  c.reduceCompute =
      ceilDiv(reducePerTile, workers) * workers * vertexCycles(split);
  c.reduceExchange =
      reducePerTile * split * unsigned(sizeof(float)) / exchangeBytesPerCycle;
  return c;
}

void printCost(unsigned split, const Cost &c) {
  std::cout << "colsAxisSplit=" << split << ", total cost=" << c.total()
            << " (compute cost=" << c.compute
            << ", exchange cost=" << c.exchange
            << ", reduce exchange cost=" << c.reduceExchange
            << ", reduce compute cost=" << c.reduceCompute << ")\n";
}

// Tries every split of the columns and keeps the cheapest.
unsigned chooseSplit(const Target &target, unsigned rows, unsigned cols) {
  unsigned best = 1;
  unsigned bestCost = std::numeric_limits<unsigned>::max();
  unsigned worstCost = 0;
  for (unsigned split = 1; split < cols; ++split) {
    const unsigned cost = estimateCost(target, rows, cols, split).total();
    if (cost < bestCost) {
      best = split;
      bestCost = cost;
    }
    worstCost = std::max(worstCost, cost);
  }
  std::cout << "Best split chosen:\n";
  printCost(best, estimateCost(target, rows, cols, best));
  std::cout << "Worst cost seen: " << worstCost << "\n";
  return best;
}

// Adds the compute sets that multiply `matrix` by `in` into `out`, and
// maps the data next to the vertices that use it.
Program buildMultiplyProgram(Graph &graph, Tensor matrix, Tensor in,
                             Tensor out) {
  const unsigned rows = matrix.dim(0);
  const unsigned cols = matrix.dim(1);
  const unsigned tiles = graph.getTarget().getNumTiles();
  const unsigned split = chooseSplit(graph.getTarget(), rows, cols);

  Tensor partials = graph.addVariable(FLOAT, {rows, split}, "partials");

  // Every tile uses some of the vector, so spread it over all of them.
  for (unsigned c = 0; c < cols; ++c)
    graph.setTileMapping(in[c], std::size_t(c) * tiles / cols);

  // The dot products: segment s of every row, then segment s + 1, ...,
  // spread evenly over the tiles so that a tile needs few segments of the
  // vector.
  ComputeSet mulCS = graph.addComputeSet("mulCS");
  for (unsigned s = 0; s < split; ++s) {
    const unsigned begin = std::size_t(s) * cols / split;
    const unsigned end = std::size_t(s + 1) * cols / split;
    if (begin == end)
      continue;
    for (unsigned r = 0; r < rows; ++r) {
      const unsigned tile =
          (std::size_t(s) * rows + r) * tiles / (std::size_t(split) * rows);
      Tensor segment = matrix[r].slice(begin, end);
      VertexRef v = graph.addVertex(mulCS, "DotProductVertex",
                                    {{"a", segment},
                                     {"b", in.slice(begin, end)},
                                     {"out", partials[r][s]}});
      graph.setTileMapping(v, tile);
      graph.setTileMapping(segment, tile);
      graph.setTileMapping(partials[r][s], tile);
      graph.setPerfEstimate(v, vertexCycles(end - begin));
    }
  }

  // The reductions: one vertex per row, next to its output element.
  ComputeSet reduceCS = graph.addComputeSet("reduceCS");
  for (unsigned r = 0; r < rows; ++r) {
    const unsigned tile = std::size_t(r) * tiles / rows;
    VertexRef v = graph.addVertex(reduceCS, "ReduceVertex",
                                  {{"in", partials[r]}, {"out", out[r]}});
    graph.setTileMapping(v, tile);
    graph.setTileMapping(out[r], tile);
    graph.setPerfEstimate(v, vertexCycles(split));
  }
  return Sequence{Execute(mulCS), Execute(reduceCS)};
}

// The device's result against the host's; the sums are added in another
// order on the device, so they agree to a relative tolerance.
int checkResult(const std::vector<float> &matrix, const std::vector<float> &in,
                const std::vector<float> &out, unsigned rows, unsigned cols) {
  for (unsigned r = 0; r < rows; ++r) {
    double sum = 0;
    for (unsigned c = 0; c < cols; ++c)
      sum += double(matrix[std::size_t(r) * cols + c]) * in[c];
    const double error = sum == 0 ? std::fabs(out[r]) : std::fabs(1 - out[r] / sum);
    if (error > 1e-5) {
      std::cout << "ERROR: output " << r << ": expected=" << sum
                << ", actual=" << out[r] << "\n";
      return 1;
    }
  }
  std::cout << "Multiplication result OK\n";
  return 0;
}

int usage(const char *program) {
  std::cerr << "usage: " << program
            << " numRows numCols [--device model-ipu1|model-ipu2|ipu]"
               " [--profile-dir DIR]\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    return usage(argv[0]);
  const unsigned rows = std::atoi(argv[1]);
  const unsigned cols = std::atoi(argv[2]);
  std::string device = "model-ipu2";
  std::string profileDir;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc)
      device = argv[++i];
    else if (std::strcmp(argv[i], "--profile-dir") == 0 && i + 1 < argc)
      profileDir = argv[++i];
    else
      return usage(argv[0]);
  }
  if (rows == 0 || cols < 2)
    return usage(argv[0]);
  if (device != "ipu" && device != "model-ipu1" && device != "model-ipu2")
    return usage(argv[0]);

  std::cout << "Multiplying matrix of size " << rows << "x" << cols
            << " by vector of size " << cols << "\n";
  std::cout << "Constructing compute graph and control program\n";

  Device dev;
  if (device == "ipu") {
    // An IPU found by the DeviceManager (on this SDK, an IPU Model standing
    // in for one when POPLAR_IPU_MODEL_AS_HARDWARE is set).
    DeviceManager manager = DeviceManager::createDeviceManager();
    std::vector<Device> devices = manager.getDevices(TargetType::IPU, 1);
    std::cout << "Trying to attach to IPU\n";
    auto it = std::find_if(devices.begin(), devices.end(),
                           [](Device &d) { return d.attach(); });
    if (it == devices.end()) {
      std::cerr << "Error attaching to device\n";
      return 1;
    }
    dev = std::move(*it);
    std::cout << "Attached to IPU " << dev.getId() << "\n";
  } else {
    // A simulated IPU whose sync costs nothing, so that the cycles counted
    // are those of compute and exchange, as the cost model assumes.
    IPUModel ipuModel(device == "model-ipu1" ? "ipu1" : "ipu2");
    ipuModel.minIPUSyncDelay = 0;
    ipuModel.relativeSyncDelay = IPUModel::RelativeSyncDelayType::NO_DELAY;
    dev = ipuModel.createDevice();
  }
  Graph graph(dev.getTarget());
  graph.addCodelets("matrix-mul-codelets.cpp");

  Tensor matrix = graph.addVariable(FLOAT, {rows, cols}, "matrix");
  Tensor inputVector = graph.addVariable(FLOAT, {cols}, "inputVector");
  Tensor outputVector = graph.addVariable(FLOAT, {rows}, "outputVector");

  std::vector<float> hMatrix(std::size_t(rows) * cols), hInput(cols), hOutput(rows);
  for (unsigned c = 0; c < cols; ++c) {
    hInput[c] = float(c);
    for (unsigned r = 0; r < rows; ++r)
      hMatrix[std::size_t(r) * cols + c] = float(r) * float(c);
  }

  Program multiply = buildMultiplyProgram(graph, matrix, inputVector, outputVector);
  DataStream inV = graph.addHostToDeviceFIFO("inputVector", FLOAT, cols);
  DataStream inM = graph.addHostToDeviceFIFO("inputMatrix", FLOAT, cols * rows);
  DataStream outV = graph.addDeviceToHostFIFO("out", FLOAT, rows);

  // Three programs, so that the multiplication's cycles can be seen apart
  // from the host transfers.
  enum { CopyIn, Multiply, CopyOut };
  const std::vector<Program> programs = {
      Sequence{Copy(inV, inputVector), Copy(inM, matrix)}, multiply,
      Copy(outputVector, outV)};
  Engine engine(graph, programs);
  engine.load(dev);
  engine.connectStream("inputVector", hInput.data());
  engine.connectStream("inputMatrix", hMatrix.data());
  engine.connectStream("out", hOutput.data());

  std::cout << "Running graph program to multiply matrix by vector\n";
  engine.run(CopyIn);
  engine.resetExecutionProfile();
  engine.run(Multiply);
  const ProfileValue graphProfile = engine.getGraphProfile();
  const ProfileValue executionProfile = engine.getExecutionProfile();
  engine.run(CopyOut);

  if (int err = checkResult(hMatrix, hInput, hOutput, rows, cols))
    return err;

  if (!profileDir.empty()) {
    std::ofstream graphFile(profileDir + "/graph.json");
    serializeToJSON(graphFile, graphProfile, true);
    std::ofstream executionFile(profileDir + "/execution.json");
    serializeToJSON(executionFile, executionProfile, true);
  }

  // The IPU Model's simulation of the multiplication alone.
  printProfileSummary(std::cout, graphProfile, executionProfile,
                      {{"showExecutionSteps", "true"}});
  std::cout << "Program cycles: "
            << executionProfile["simulation"]["cycles"].asUint() << "\n";
  return 0;
}

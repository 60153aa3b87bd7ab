// StreamCallback::prefetch as the original calls it: with the stream
// buffers apart from other buffers (exchange.streamBufferOverlap "none")
// and prefetching enabled (exchange.enablePrefetch, true by default), the
// callback is asked for the next transfer's data as soon as one is done.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

class FillCallback final : public StreamCallback {
public:
  FillCallback(float value, std::size_t elements)
      : value(value), size(elements) {}

  Result prefetch(void *p) noexcept override {
    std::printf("prefetch (value: %g)\n", value);
    std::fill_n(static_cast<float *>(p), size, value);
    return Result::Success;
  }
  void fetch(void *p) noexcept override {
    std::printf("fetch (value: %g)\n", value);
    std::fill_n(static_cast<float *>(p), size, value);
  }
  void complete() noexcept override {
    std::printf("complete (value: %g)\n", value);
  }
  void invalidatePrefetched() noexcept override {
    std::printf("invalidatePrefetched (value: %g)\n", value);
  }

private:
  float value;
  std::size_t size;
};

void runWith(const OptionFlags &options) {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 1;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  Tensor t = graph.addVariable(FLOAT, {4}, "t");
  graph.setTileMapping(t, 0);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 4);
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 4);
  Repeat prog(2, Sequence({Copy(in, t), Copy(t, out)}));
  Engine engine(graph, prog, options);
  engine.load(device);
  std::vector<float> result(4);
  engine.connectStream("out", result.data());
  const float values[] = {1, 1, 3};
  for (unsigned i = 0; i != 3; ++i) {
    if (i == 0 || values[i] != values[i - 1]) {
      std::cout << "Set input callback" << std::endl;
      engine.connectStreamToCallback(
          "in", std::unique_ptr<FillCallback>(new FillCallback(values[i], 4)));
    }
    std::cout << "Running" << std::endl;
    engine.run(0);
    const bool ok = std::all_of(result.begin(), result.end(),
                                [&](float x) { return x == values[i]; });
    std::cout << (ok ? "Result OK" : "Wrong result") << std::endl;
  }
}

} // namespace

int main() {
  std::cout << "== exchange.streamBufferOverlap none" << std::endl;
  runWith({{"exchange.streamBufferOverlap", "none"}});
  std::cout << "== exchange.enablePrefetch false" << std::endl;
  runWith({{"exchange.streamBufferOverlap", "none"},
           {"exchange.enablePrefetch", "false"}});
  return 0;
}

// ONNX model bytes through a PopART InferenceSession on the CPU device, as
// popart_run takes them: import, IR preparation, lowering to poplar and
// PopLibs, compilation, and one run with inputs of zeros. Every failure
// must be an exception of the original's classes: popart::error,
// poplar::poplar_error, or poputil::poplibs_error (which the original's
// PopLibs raise and PopART passes on). A model with a Loop is compiled but
// not run: a mutated trip count may ask for any number of iterations, and
// running them all is what ONNX's Loop means.
#include <onnx_io/ModelRunner.hpp>
#include <popart/error.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include "FuzzSupport.hpp"

#include <onnx/onnx_pb.h>

#include <map>
#include <string>

namespace {

// Models whose inputs are larger than this are compiled but not run.
constexpr std::size_t maxRunBytes = std::size_t(16) << 20;

bool hasLoop(const onnx::GraphProto &graph) {
  for (const auto &node : graph.node()) {
    if (node.op_type() == "Loop")
      return true;
    for (const auto &a : node.attribute())
      if (a.has_g() && hasLoop(a.g()))
        return true;
  }
  return false;
}

void runModel(const std::string &path, bool compileOnly) {
  static auto device = onnx_io::createDevice("cpu");
  onnx_io::ModelRunner runner(path, device);
  if (compileOnly)
    return;
  std::map<popart::TensorId, onnx_io::HostTensor> inputs;
  std::size_t total = 0;
  for (const auto &input : runner.inputs()) {
    const auto bytes = std::size_t(input.info.nbytes());
    if (input.info.nelms() < 0 || bytes > maxRunBytes - total)
      return;
    total += bytes;
    onnx_io::HostTensor &t = inputs[input.id];
    t.info = input.info;
    t.bytes.assign(bytes, 0);
  }
  runner.run(inputs);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string path = fuzz::scratchFile("model.onnx", data, size);
  onnx::ModelProto model;
  const bool withLoop = model.ParseFromArray(data, static_cast<int>(size)) &&
                        hasLoop(model.graph());
  try {
    runModel(path, withLoop);
  } catch (const popart::error &) {
  } catch (const poplar::poplar_error &) {
  } catch (const poputil::poplibs_error &) {
  }
  return 0;
}

// ConvActivation, an extension (on by default): in an inference session a
// Relu, or a Clip with constant bounds, that is the only reader of a FLOAT
// Conv's output is fused into the Conv (ConvOp::activation). The Conv then
// clamps each output after its bias as it computes it: on the CPU device
// in the convolution's vertices (poplin::ConvEpilogue), one pass over the
// output rather than three; elsewhere as the ops did. Same values.
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"
#include "ops/ClipOp.hpp"
#include "ops/ConvOp.hpp"
#include "patterns/PatternRewrites.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace popart {

namespace {

// Whether two ops run in the same place and phase, so that one may do the
// other's work.
bool samePlacement(const Op &a, const Op &b) {
  return a.settings.vgraphId == b.settings.vgraphId &&
         a.settings.pipelineStage == b.settings.pipelineStage &&
         a.settings.executionPhase == b.settings.executionPhase &&
         a.settings.executionContext == b.settings.executionContext &&
         a.settings.recomputeType == b.settings.recomputeType;
}

// The activation `op` is, if a Conv can apply it: a Relu, or a Clip whose
// bounds are constants and not NaN.
bool activationOf(const Op &op, ConvActivation &activation) {
  if (op.opid.domain != Domain::ai_onnx)
    return false;
  if (op.opid.type == "Relu") {
    activation = {"Relu", 0.0f, std::numeric_limits<float>::infinity()};
    return true;
  }
  if (op.opid.type != "Clip")
    return false;
  const auto &clip = static_cast<const ClipOp &>(op);
  if (clip.minIsTensor || clip.maxIsTensor || std::isnan(clip.min) ||
      std::isnan(clip.max))
    return false;
  activation = {"Clip", clip.min, clip.max};
  return true;
}

// Whether the graph orders `op` against others beyond its data.
bool hasTopoCons(const Graph &graph, const Op &op) {
  for (const auto &[before, afters] : graph.getTopoCons())
    if (before == &op ||
        std::find(afters.begin(), afters.end(), &op) != afters.end())
      return true;
  return false;
}

} // namespace

bool convActivation(Graph &graph, Op &op, const DataFlow &dataFlow) {
  ConvActivation activation;
  if (graph.getIr().isTraining() || !op.hasInput(0) || op.outputs.size() != 1 ||
      !activationOf(op, activation) || isExcluded(op, "ConvActivation"))
    return false;
  Tensor &convOut = *op.inTensor(0);
  auto *conv = dynamic_cast<ConvOp *>(convOut.producer);
  if (!conv || conv->opid.type != "Conv" ||
      conv->opid.domain != Domain::ai_onnx || !conv->activation.type.empty() ||
      isExcluded(*conv, "ConvActivation") ||
      convOut.info.dataType() != DataType::FLOAT ||
      convOut.consumers.size() != 1 || isObserved(graph, dataFlow, convOut) ||
      !samePlacement(*conv, op) || hasTopoCons(graph, op))
    return false;
  // The Conv writes the activation's output; the Clip's bounds go with it
  // when nothing else reads them.
  Tensor *out = op.outputs[0];
  std::vector<Tensor *> bounds;
  for (std::size_t i = 1; i < op.inputs.size(); ++i)
    if (op.inputs[i])
      bounds.push_back(op.inputs[i]);
  graph.eraseOp(op);
  conv->outputs[0] = out;
  out->producer = conv;
  convOut.producer = nullptr;
  graph.eraseTensor(TensorId(convOut.id));
  for (Tensor *bound : bounds)
    if (bound->consumers.empty() && !bound->producer &&
        bound->tensorType() == TensorType::Const)
      graph.eraseTensor(TensorId(bound->id));
  conv->activation = activation;
  return true;
}

} // namespace popart

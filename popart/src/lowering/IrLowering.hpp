// The lowering of a prepared IR into a poplar graph and its programs:
//   WeightsFromHost: the weights and optimiser state from their streams;
//   OptimizerFromHost: the optimiser's non-constant scalars;
//   RandomSeedFromHost: the session's random seed;
//   Step: batchesPerStep batches, each accumulationFactor micro-batches of
//     inputs in, ops (forward, backward, accumulation) and anchors out,
//     then the weight update of the batch;
//   WeightsToHost: the weights and optimiser state to their streams.
#ifndef POPART_SRC_LOWERING_IRLOWERING_HPP
#define POPART_SRC_LOWERING_IRLOWERING_HPP

#include "ir/Ir.hpp"
#include "lowering/Lowering.hpp"

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>

#include <functional>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

namespace popart {

enum class ProgramIndex {
  WeightsFromHost = 0,
  OptimizerFromHost,
  RandomSeedFromHost,
  Step,
  WeightsToHost,
  N
};

/// What the session connects to the engine's streams (IrLowering's
/// lists), so that a loaded executable needs no lowering.
struct LoweredInterface {
  std::map<TensorId, int64_t> inputs;  // elements per micro-batch
  std::map<TensorId, int64_t> anchors; // elements per fetch
  std::vector<TensorId> variables;
  std::vector<TensorId> optimizerScalars;
  bool randomSeed = false;
  /// Variables held in remote buffers (remoteBufferName), which the
  /// session writes and reads instead of streaming them.
  std::vector<TensorId> remoteVariables;
  /// Gradients reduced on the host (HostReduceOp): elements of each.
  std::map<TensorId, int64_t> hostReduceGradients;
};

class IrLowering {
public:
  /// onOpLowered(done, count) is called as the ops are lowered.
  IrLowering(const Ir &ir, const poplar::Target &target,
             std::function<void(int, int)> onOpLowered = {});
  poplar::Graph &getGraph() { return *graph; }
  /// The programs, in ProgramIndex order.
  std::vector<poplar::program::Program> getPrograms() const;

  /// The streams the session connects: inputs (elements per micro-batch),
  /// anchors (elements per fetch), the variables moved by WeightsFromHost
  /// and WeightsToHost, and the optimiser's scalars.
  const std::map<TensorId, int64_t> &getInputs() const { return inputs; }
  const std::map<TensorId, int64_t> &getAnchors() const { return anchors; }
  const std::vector<TensorId> &getVariables() const { return variables; }
  const std::vector<TensorId> &getOptimizerScalars() const {
    return optimizerScalars;
  }
  bool hasRandomSeed() const { return ctx->hasSeed(); }
  /// The lists above together, as a loaded executable keeps them.
  LoweredInterface getInterface() const {
    return {inputs,          anchors,
            variables,       optimizerScalars,
            hasRandomSeed(), remoteVariables,
            ctx->hostReduceGradients};
  }

  static std::string inputStream(const TensorId &id) { return id; }
  static std::string anchorStream(const TensorId &id) { return "anchor___" + id; }
  static std::string fromHostStream(const TensorId &id) { return id; }
  static std::string toHostStream(const TensorId &id) { return id + "/toHost"; }
  static std::string randomSeedStream() { return "randomSeed___fromHost"; }

private:
  void lowerRootTensors();
  void lowerOps(const std::function<void(int, int)> &onOpLowered);
  /// The program fragment op is lowered into: the micro-batch's (its
  /// stage's) or the batch's update.
  poplar::program::Sequence &programOf(const Op &op);
  /// Off-chip variables: the remote buffer and the tensor that holds the
  /// value between a load and a store.
  struct RemoteVariable {
    poplar::RemoteBuffer buffer;
    poplar::Tensor tensor;
  };
  /// The off-chip variables an op loads before it runs and stores after.
  struct RemoteTransfers {
    std::vector<TensorId> loads, stores;
  };
  std::map<const Op *, RemoteTransfers> planRemoteTransfers();
  void keepOutputsApart(const Op &op, LoweringContext &opCtx,
                        poplar::program::Sequence &prog);
  void lowerAnchors();
  poplar::Tensor addConstant(poplar::Graph &g, const Tensor &t);
  /// A weight's variable as its reader's lowering lays it out
  /// (InputCreator), or an invalid tensor if it has no layout for it.
  poplar::Tensor createdByReader(const Tensor &root, poplar::Graph &home);
  /// Ops placed on IPUs: each IPU's virtual graph and context.
  void makeIpuGraphs();
  void makeIpuContexts();
  /// The graph a root tensor lives in: its readers' IPU's.
  poplar::Graph &graphOf(const Tensor &root);
  LoweringContext &contextOf(const Op &op);
  /// Pipelining: the program of one micro-batch's ops, or its inputs'
  /// copies, in `stage` (a fragment each stage runs once per micro-batch).
  poplar::program::Sequence &microBatchProgram(PipelineStage stage);
  /// The stage of a root tensor streamed per micro-batch: its first
  /// reader's.
  PipelineStage rootStage(const Tensor &root) const;
  /// Pipelining: whether only the stage of input `root` reads it, so that
  /// its copy from the host can join the cycle's at its start.
  bool readInItsStageOnly(const Tensor &root) const;
  /// Pipelining: whether `op` is a copy between IPUs that can wait for the
  /// end of the pipeline cycle (only later stages read what it copies).
  bool copiesAtCycleEnd(const Op &op) const;
  /// The batch's pipeline (fill, main, flush) from the stages' fragments,
  /// with the tensors later stages read kept in slots per micro-batch.
  void makePipeline();
  /// Pipelining: the seed the random ops of `stage` draw from (a variable
  /// of `g`, the stage's IPU), made on first use.
  poplar::Tensor stageSeed(PipelineStage stage, poplar::Graph &g);

  const Ir &ir;
  std::unique_ptr<poplar::Graph> graph;
  std::unique_ptr<LoweringContext> ctx;
  std::map<PipelineStage, poplar::program::Sequence> stageFragments;
  /// Pipelining: the copies between IPUs (source, destination) each stage
  /// makes for later stages; a pipeline cycle runs them all at its end.
  std::map<PipelineStage, std::vector<std::pair<poplar::Tensor, poplar::Tensor>>>
      cycleEndCopies;
  std::set<TensorId> copiedAtCycleEnd;
  /// Pipelining: each stage's copies from the host (inputs) and to the
  /// host (anchors), which a cycle runs at its start and at its end for
  /// every stage that runs in it, as the original groups a cycle's host
  /// copies (so one host sync serves them all).
  std::map<PipelineStage, poplar::program::Sequence> cycleStartFromHost,
      cycleEndToHost;
  poplar::program::Sequence pipeline;
  std::map<PipelineStage, poplar::Tensor> stageSeeds;
  std::vector<poplar::Graph> ipuGraphs;
  std::vector<std::unique_ptr<LoweringContext>> ipuContexts;
  // The step's parts: once per step before and after the batches, once per
  // micro-batch, and once per batch after the micro-batches.
  poplar::program::Sequence weightsFromHost, optimizerFromHost, seedFromHost,
      weightsToHost, before, inner, outer, after;
  std::map<TensorId, int64_t> inputs, anchors;
  std::vector<TensorId> variables, optimizerScalars, remoteVariables;
  std::map<TensorId, RemoteVariable> remote;
};

} // namespace popart

#endif

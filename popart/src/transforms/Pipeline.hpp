// Pipelining (SessionOptions::enablePipelining): the pipeline stage of
// every op that runs once per micro-batch. The model's ops have theirs
// (Builder::pipelineStage); in training, the backward of forward stage s
// of N is stage 2N-2-s (the last forward stage and its backward share
// one), so a batch runs 2N-1 stages. The lowering runs them as the
// original does: fill (stages starting one by one), main, flush.
#ifndef POPART_SRC_TRANSFORMS_PIPELINE_HPP
#define POPART_SRC_TRANSFORMS_PIPELINE_HPP

#include <popart/names.hpp>

#include <set>

namespace popart {

class Ir;

/// Checks the options and annotations pipelining needs (popart::error
/// naming what is wrong) and sets every micro-batch op's stage. Returns
/// the number of stages.
int64_t assignPipelineStages(Ir &ir, const std::set<OpId> &modelOps);

} // namespace popart

#endif

// Recomputation: forward ops marked Recompute (by the Builder's
// recomputeOutputInBackwardPass, or by SessionOptions::autoRecomputation)
// run again in the backward pass, and the grad ops read those copies, so
// that their forward outputs need not stay live until the backward pass.
#ifndef POPART_SRC_TRANSFORMS_RECOMPUTE_HPP
#define POPART_SRC_TRANSFORMS_RECOMPUTE_HPP

#include <popart/sessionoptions.hpp>

#include <set>

namespace popart {

class Ir;
class Op;

/// Marks the forward ops on the loss's path as the policy says, leaving
/// the ops the Builder annotated as they are.
void annotateRecomputation(Ir &ir, RecomputationType policy);

/// After autodiff: the ops not in `forwardOps` (grad ops and the weight
/// update) read recomputed copies of the outputs of Recompute ops.
void growRecomputation(Ir &ir, const std::set<const Op *> &forwardOps);

} // namespace popart

#endif

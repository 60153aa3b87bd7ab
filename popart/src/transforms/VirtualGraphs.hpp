// Placement of the main graph's ops on the device's IPUs
// (SessionOptions::virtualGraphMode Manual or Auto) and the copies between
// IPUs (IpuCopyOp) where a tensor made on one IPU is read on another.
#ifndef POPART_SRC_TRANSFORMS_VIRTUALGRAPHS_HPP
#define POPART_SRC_TRANSFORMS_VIRTUALGRAPHS_HPP

#include <popart/names.hpp>

#include <set>

namespace popart {

class Ir;

/// `modelOps` are the ops of the model (before training added any):
/// with Manual each must have a virtual graph; with Auto they are split
/// over `numIpus` IPUs in schedule order by their cost. The ops the IR
/// made (gradients, the weight update) are then placed where their work
/// is: an update of a weight or optimiser state in place on that
/// variable's IPU, others with the tensors they read, and an IpuCopy
/// brings each tensor read on another IPU to it. A variable lives on the
/// IPU of its first reader.
void placeOnVirtualGraphs(Ir &ir, const std::set<OpId> &modelOps,
                          int64_t numIpus);

} // namespace popart

#endif

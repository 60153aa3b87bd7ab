// The remap types of AiGraphcoreOpset1::tensorremap.
#ifndef POPART_OP_TENSORREMAP_HPP
#define POPART_OP_TENSORREMAP_HPP

namespace popart {

/// Which passes re-lay the tensor out: the forward one (and the backward
/// pass by the reverse layout change, FwdBwdReverse, or one of its own,
/// FwdBwd), or only the forward one (Fwd: the gradient passes as it is).
enum class TensorRemapType { FwdBwdReverse = 0, FwdBwd, Fwd };

} // namespace popart

#endif

// Slices whose starts are read at run time (as a Loop body's slices at
// its iteration count are). The IR has static shapes, so the length of
// each slice must still be known: it is when the ends are the starts
// plus constants, which is found by following both back through the ops
// that compute them (Add and Sub of constants, Unsqueeze, Squeeze,
// Reshape, Flatten, Identity and integer Casts) to the same tensor.
#ifndef POPART_SRC_OPS_RUNTIMESLICEBOUNDS_HPP
#define POPART_SRC_OPS_RUNTIMESLICEBOUNDS_HPP

namespace popart {

class SliceOp;

/// Sets up a Slice (opset 10 on) whose starts or ends are not constants:
/// its runtimeAxes, runtimeLengths and output info. popart::error naming
/// the op if a length is not known, or the axes or steps (which must be
/// 1) are not constants.
void setupRuntimeSlice(SliceOp &op);

} // namespace popart

#endif

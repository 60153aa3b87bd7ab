// The InPlace pattern (Patterns::enableInPlace, on at the Default and All
// levels): once the schedule is fixed, an op with in-place variants
// (Op::inplacePriorityDefault) becomes the first variant whose written
// input may be overwritten, so that its result needs no tensor of its own.
#ifndef POPART_SRC_TRANSFORMS_INPLACE_HPP
#define POPART_SRC_TRANSFORMS_INPLACE_HPP

#include <vector>

namespace popart {

class Ir;
class Op;

/// Replaces ops of `schedule` (the IR's final order, updated in place) by
/// in-place variants where that is safe; returns how many.
int applyInPlace(Ir &ir, std::vector<Op *> &schedule);

} // namespace popart

#endif

// The reductions of AiGraphcoreOpset1::scatterreduce and
// groupedscatterreduce.
#ifndef POPART_OP_SCATTERREDUCE_HPP
#define POPART_OP_SCATTERREDUCE_HPP

namespace popart {

/// How the source values scattered to one output element combine: their
/// sum, maximum, minimum or product, or (None) the last one written.
enum class ScatterReduction { Sum = 0, Max, Min, Mul, None };

} // namespace popart

#endif

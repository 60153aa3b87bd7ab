// How a loss (or accumulated and replicated gradients) is reduced.
#ifndef POPART_REDUCTIONTYPE_HPP
#define POPART_REDUCTIONTYPE_HPP

#include <popart/popart_export.hpp>

#include <iosfwd>

namespace popart {

/// Sum: the sum of the elements; Mean: their mean; NoReduction: each
/// element apart (the loss keeps its shape).
enum class ReductionType { Sum = 0, Mean, NoReduction, N };

POPART_API std::ostream &operator<<(std::ostream &os, const ReductionType &r);

} // namespace popart

#endif

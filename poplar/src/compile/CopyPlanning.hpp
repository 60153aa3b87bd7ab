// Pairs the storage runs of a copy's source and destination into segments.
#ifndef POPLAR_SRC_COMPILE_COPYPLANNING_HPP
#define POPLAR_SRC_COMPILE_COPYPLANNING_HPP

#include "compile/ExecutableImpl.hpp"

#include <vector>

namespace poplar {

/// Elements a segment may hold at most, so that large copies split into
/// pieces host threads can share.
constexpr std::size_t copyChunkElements = std::size_t(1) << 15;

/// The segments moving element i of src to element i of dst for every i.
/// Both lists must cover the same number of elements.
std::vector<exec::CopySegment> planCopy(const std::vector<layout::FlatRun> &src,
                                        const std::vector<layout::FlatRun> &dst);

} // namespace poplar

#endif // POPLAR_SRC_COMPILE_COPYPLANNING_HPP

#ifndef POPOPS_SEQUENCESLICE_HPP
#define POPOPS_SEQUENCESLICE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// Copies runs of rows (the outermost dimension) of tIn into tOut:
///   tOut[tOutOffset[i] + r] = tIn[tInOffset[i] + r] for r < tN[i],
/// for each entry i of the 1-D tN, tInOffset and tOutOffset (UNSIGNED_INT
/// or INT, of one size), stopping at the first tN[i] == 0. Rows outside
/// either tensor are skipped. With zeroUnused, rows of tOut no entry writes
/// are set to 0. tIn and tOut have rank >= 2 and the same number of
/// elements per row; no two entries should write the same row.
POPOPS_API void sequenceSlice(poplar::Graph &graph, const poplar::Tensor &tIn,
                              const poplar::Tensor &tOut,
                              const poplar::Tensor &tN,
                              const poplar::Tensor &tInOffset,
                              const poplar::Tensor &tOutOffset,
                              bool zeroUnused, poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_SEQUENCESLICE_HPP

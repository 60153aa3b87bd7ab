#ifndef POPOPS_CIRCBUF_HPP
#define POPOPS_CIRCBUF_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

#include <cstddef>
#include <vector>

namespace popops {

/// A circular buffer of `size` tensors of `shape`, in a history tensor laid
/// out for slicing, with an UNSIGNED_INT index (starting at 0) of the entry
/// added last. The history's contents are undefined until written.
class POPOPS_API CircBuf {
public:
  CircBuf(poplar::Graph &graph, const poplar::Type &dataType, unsigned size,
          const std::vector<std::size_t> &shape,
          const poplar::DebugContext &debugContext = {});

  /// The entry added i additions ago (i < size(); prev(0) is the last one
  /// added), read when `seq` runs.
  poplar::Tensor prev(unsigned i, poplar::program::Sequence &seq,
                      const poplar::DebugContext &debugContext = {});

  /// Moves the index on by one and writes `t` (of the buffer's shape and
  /// type) there.
  void add(poplar::Tensor t, poplar::program::Sequence &seq,
           const poplar::DebugContext &debugContext = {});

  poplar::Tensor getIndex() const { return index; }
  unsigned size() const { return size_; }
  /// The tile mapping of one entry of the history.
  poplar::Graph::TileToTensorMapping getTileMapping();

private:
  poplar::Graph &graph;
  unsigned size_;
  poplar::Tensor index;
  std::vector<std::size_t> shape;
  poplar::Tensor hist; // [size, elements of shape]
};

} // namespace popops

#endif // POPOPS_CIRCBUF_HPP

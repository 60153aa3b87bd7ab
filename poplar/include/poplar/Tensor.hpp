#ifndef POPLAR_TENSOR_HPP
#define POPLAR_TENSOR_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Type.hpp>
#include <poplar/exceptions.hpp>
#include <poplar/poplar_export.hpp>

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace poplar {

/// How Tensor::upsample fills the new elements.
enum class UpsampleMethod { REPEAT };

/// Identifies one variable (or constant) of a graph.
class POPLAR_API VariableRef {
public:
  VariableRef() = default;
  VariableRef(std::uint64_t graphId, std::size_t id) : graph(graphId), index(id) {}
  std::size_t getId() const { return index; }
  friend bool operator==(const VariableRef &a, const VariableRef &b) {
    return a.graph == b.graph && a.index == b.index;
  }
  friend bool operator!=(const VariableRef &a, const VariableRef &b) {
    return !(a == b);
  }
  friend bool operator<(const VariableRef &a, const VariableRef &b) {
    return a.graph < b.graph || (a.graph == b.graph && a.index < b.index);
  }

private:
  std::uint64_t graph = 0;
  std::size_t index = 0;
};

/// A range of elements of one variable, in the variable's own order.
struct VariableInterval {
  VariableRef var;
  Interval interval;
  VariableInterval() = default;
  VariableInterval(VariableRef v, Interval i) : var(v), interval(i) {}
  friend bool operator==(const VariableInterval &a, const VariableInterval &b) {
    return a.var == b.var && a.interval == b.interval;
  }
};

/// A multi-dimensional view of elements of one or more variables.
///
/// A Tensor owns no data: slicing, reshaping, transposing and concatenating
/// make new views in time proportional to the rank, whatever the number of
/// elements. Which storage an element of a view refers to is worked out on
/// demand and kept in compressed form (strided blocks), so views of large
/// tensors stay cheap.
class POPLAR_API Tensor {
public:
  struct Impl;

  /// An invalid tensor (valid() is false) to be assigned later.
  Tensor();
  explicit Tensor(std::shared_ptr<const Impl> impl);
  Tensor(const Tensor &other);
  Tensor(Tensor &&other) noexcept;
  Tensor &operator=(const Tensor &other);
  Tensor &operator=(Tensor &&other) noexcept;
  ~Tensor();

  Type elementType() const;

  /// The sub-tensor at index i of the outermost dimension (rank - 1).
  Tensor operator[](std::size_t i) const;
  /// Successive indexing: index({a, b}) is t[a][b].
  Tensor index(ArrayRef<std::size_t> indices) const;

  Tensor slice(std::size_t begin, std::size_t end, unsigned dimension = 0) const;
  Tensor slice(const Interval &region, unsigned dimension = 0) const;
  /// A slice in every dimension: begin and end give one bound per dimension.
  Tensor slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const;
  std::vector<Tensor> slices(ArrayRef<Interval> intervals,
                             unsigned dimension = 0) const;
  /// One tensor per inner list: the concatenation of its intervals.
  std::vector<Tensor> slices(const std::vector<std::vector<Interval>> &intervals,
                             unsigned dimension = 0) const;
  /// One tensor per index: slices of size one, keeping the dimension.
  std::vector<Tensor> slices(ArrayRef<unsigned> indices,
                             unsigned dimension = 0) const;

  Tensor reshape(ArrayRef<std::size_t> shape) const;
  /// Replaces dimensions [beginIndex, endIndex) by newDims.
  Tensor reshapePartial(unsigned beginIndex, unsigned endIndex,
                        ArrayRef<std::size_t> newDims) const;
  Tensor flatten() const;
  /// Merges dimensions [dimBegin, dimEnd) into one.
  Tensor flatten(unsigned dimBegin, unsigned dimEnd) const;
  /// Inserts a dimension of size one before each given index.
  Tensor expand(ArrayRef<std::size_t> indices) const;
  /// Removes the given dimensions, which must have size one.
  Tensor squeeze(ArrayRef<std::size_t> indices) const;

  /// Dimension i of the result is dimension permutation[i] of this tensor.
  Tensor dimShuffle(ArrayRef<unsigned> permutation) const;
  /// Moves each dimension source[i] to position destination[i], keeping
  /// the others in order.
  Tensor dimShufflePartial(ArrayRef<unsigned> source,
                           ArrayRef<unsigned> destination) const;
  /// Moves dimension dimIdx to position newIdx.
  Tensor dimRoll(unsigned dimIdx, unsigned newIdx = 0) const;
  /// Swaps the two dimensions of a 2-D tensor.
  Tensor transpose() const;

  /// Repeats the whole tensor N times along a dimension.
  Tensor broadcast(unsigned N, unsigned dimension) const;
  Tensor reverse(unsigned dimension) const;
  /// Every stride-th element along a dimension, starting with the first.
  Tensor subSample(unsigned stride, unsigned dimension) const;
  /// Each element repeated scale times along a dimension.
  Tensor upsample(unsigned scale, unsigned dimension,
                  UpsampleMethod method = UpsampleMethod::REPEAT) const;
  /// The same storage seen as another type of the same size.
  Tensor reinterpret(const Type &type) const;

  std::size_t numElements() const;
  std::size_t dim(unsigned i) const;
  std::vector<std::size_t> shape() const;
  unsigned rank() const;
  std::string shapeToString() const;

  /// True unless default-constructed.
  bool valid() const { return impl != nullptr; }
  /// True if the tensor has no elements.
  bool empty() const { return numElements() == 0; }
  /// True if the elements are one variable's elements, in order, without
  /// gaps.
  bool isContiguous() const;
  /// True if two elements of the tensor refer to the same storage.
  bool containsAliases() const;
  bool containsConstant() const;
  /// True if writing every element of the tensor in parallel is allowed:
  /// no aliases and no constants.
  bool isParallelWriteable() const;
  /// True if the tensors share any storage.
  bool intersectsWith(const Tensor &other) const;

  /// The ranges of flattened indices whose storage is contiguous.
  std::vector<Interval> getContiguousRegions() const;
  /// The storage the tensor refers to, in the tensor's element order.
  std::vector<VariableInterval> getVarRegions() const;

  /// The names of the variables the tensor is made of, for messages.
  std::string getDebugStr() const;
  void dump() const;

  const Impl &getImpl() const { return *impl; }
  const std::shared_ptr<const Impl> &getImplPtr() const { return impl; }

private:
  std::shared_ptr<const Impl> impl;
};

/// True if the two tensors refer to the same elements in the same order.
POPLAR_API bool operator==(const Tensor &a, const Tensor &b);
POPLAR_API bool operator!=(const Tensor &a, const Tensor &b);

/// Takes a std::vector or a braced list of tensors ({a, b, c}) alike.
POPLAR_API Tensor concat(ArrayRef<Tensor> ts, unsigned dimension = 0);
inline Tensor concat(const Tensor &first, const Tensor &second,
                     unsigned dimension = 0) {
  const Tensor both[] = {first, second};
  return concat(ArrayRef<Tensor>(both, 2), dimension);
}
/// Appends second as a new last element along dimension: second has one
/// dimension fewer than first.
POPLAR_API Tensor append(const Tensor &first, const Tensor &second,
                         unsigned dimension);
inline Tensor append(const Tensor &first, const Tensor &second) {
  return append(first, second, 0);
}

POPLAR_API std::ostream &operator<<(std::ostream &os, const Tensor &t);

} // namespace poplar

#endif // POPLAR_TENSOR_HPP

#include <poplar/Tensor.hpp>

#include "core/TypeInfo.hpp"
#include "graph/TensorImpl.hpp"
#include "graph/TensorLayout.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <iostream>
#include <limits>
#include <sstream>
#include <unordered_set>
#include <utility>

namespace poplar {

using Impl = Tensor::Impl;
using Kind = Impl::Kind;
using Shape = std::vector<std::size_t>;

namespace {

// Message parts: a list prints as {1,2,3} and an interval as [b, e).
struct List {
  std::vector<std::size_t> values;
  List(ArrayRef<std::size_t> v) : values(v.vec()) {}
  List(ArrayRef<unsigned> v) : values(v.begin(), v.end()) {}
};
std::ostream &operator<<(std::ostream &os, const List &list) {
  os << '{';
  for (std::size_t i = 0; i != list.values.size(); ++i)
    os << (i == 0 ? "" : ",") << list.values[i];
  return os << '}';
}
struct Range {
  std::size_t begin, end;
};
std::ostream &operator<<(std::ostream &os, const Range &r) {
  return os << '[' << r.begin << ", " << r.end << ')';
}

const Impl &validImpl(const Tensor &t, const char *operation) {
  if (!t.valid())
    throw poplar_error(std::string("Tensor::") + operation +
                       ": the tensor is not valid (default constructed)");
  return t.getImpl();
}

// Throws Error with a message that names the tensor and its shape, then
// says what is wrong.
template <class Error, class... Parts>
[[noreturn]] void fail(const Tensor &t, const Parts &...parts) {
  std::ostringstream os;
  os << "Tensor '" << t.getDebugStr() << "' of shape " << t.shapeToString()
     << ": ";
  (os << ... << parts);
  throw Error(os.str());
}

void checkDim(const Tensor &t, std::size_t dim, const char *operation) {
  if (dim >= t.rank())
    fail<index_error>(t, operation, ": dimension ", dim,
                      " is out of range for a tensor of rank ", t.rank());
}

// t's shape with dimension dim multiplied by factor, checked for overflow.
Shape scaledShape(const Tensor &t, unsigned dim, std::size_t factor,
                  const char *operation) {
  Shape shape = t.shape();
  std::size_t total = 0;
  if (!layout::elementCount({shape[dim], factor}, shape[dim]) ||
      !layout::elementCount(shape, total))
    fail<tensor_creation_error>(t, operation, " by ", factor,
                                ": too many elements to index");
  return shape;
}

Tensor makeView(Kind kind, const Impl &from, Type type, Shape shape,
                std::vector<std::shared_ptr<const Impl>> inputs,
                std::vector<std::size_t> params = {}) {
  auto impl = std::make_shared<Impl>();
  impl->kind = kind;
  impl->type = type;
  impl->graphId = from.graphId;
  impl->shape = std::move(shape);
  impl->inputs = std::move(inputs);
  for (const auto &input : impl->inputs)
    impl->anyConstant = impl->anyConstant || input->anyConstant;
  impl->params = std::move(params);
  return Tensor(std::move(impl));
}

Tensor makeView(Kind kind, const Tensor &from, Shape shape,
                std::vector<std::size_t> params = {}) {
  return makeView(kind, from.getImpl(), from.getImpl().type, std::move(shape),
                  {from.getImplPtr()}, std::move(params));
}

// Drops a reference to an expression. When it is the last one, the nodes
// are taken apart one at a time: letting shared_ptr do it would recurse
// once per level, and views made in loops nest deeper than the stack.
void release(std::shared_ptr<const Impl> node) noexcept {
  // A node still shared, or whose inputs are all shared, goes without
  // deep recursion (most releases: no list is needed for them).
  if (!node || node.use_count() != 1 ||
      std::none_of(node->inputs.begin(), node->inputs.end(),
                   [](const auto &input) { return input.use_count() == 1; }))
    return;
  std::vector<std::shared_ptr<const Impl>> doomed;
  try {
    doomed.push_back(std::move(node));
    while (!doomed.empty()) {
      std::shared_ptr<const Impl> last = std::move(doomed.back());
      doomed.pop_back();
      if (last && last.use_count() == 1) {
        // Nodes are only ever created non-const (makeView, makeVariable).
        auto &inputs = const_cast<Impl &>(*last).inputs;
        for (auto &input : inputs)
          doomed.push_back(std::move(input));
        inputs.clear();
      }
    }
  } catch (...) {
    // Out of memory: whatever is left is destroyed the ordinary way.
  }
}

} // namespace

Tensor::Tensor() = default;
Tensor::Tensor(std::shared_ptr<const Impl> impl) : impl(std::move(impl)) {}
Tensor::Tensor(const Tensor &other) = default;
Tensor::Tensor(Tensor &&other) noexcept = default;

Tensor &Tensor::operator=(const Tensor &other) {
  std::shared_ptr<const Impl> old = std::move(impl);
  impl = other.impl;
  release(std::move(old));
  return *this;
}

Tensor &Tensor::operator=(Tensor &&other) noexcept {
  if (this != &other) {
    std::shared_ptr<const Impl> old = std::move(impl);
    impl = std::move(other.impl);
    release(std::move(old));
  }
  return *this;
}

Tensor::~Tensor() { release(std::move(impl)); }

Type Tensor::elementType() const {
  return validImpl(*this, "elementType").type;
}

// --- Indexing and slicing --------------------------------------------------

Tensor Tensor::operator[](std::size_t i) const {
  const Impl &self = validImpl(*this, "operator[]");
  if (self.shape.empty())
    fail<index_error>(*this, "index ", i,
                      ": a tensor of rank 0 cannot be indexed");
  if (i >= self.shape[0])
    fail<index_error>(*this, "index ", i,
                      " is out of range for dimension 0 (size ", self.shape[0],
                      ")");
  // One node, not a slice and a reshape: graphs index tensors per vertex.
  return makeView(Kind::Index, *this,
                  Shape(self.shape.begin() + 1, self.shape.end()), {i});
}

Tensor Tensor::index(ArrayRef<std::size_t> indices) const {
  const Impl &self = validImpl(*this, "index");
  if (indices.size() > self.shape.size())
    fail<index_error>(*this, "index ", List(indices),
                      " has more entries than the tensor has dimensions");
  Tensor result = *this;
  for (std::size_t i : indices)
    result = result[i];
  return result;
}

Tensor Tensor::slice(std::size_t begin, std::size_t end,
                     unsigned dimension) const {
  const Impl &self = validImpl(*this, "slice");
  checkDim(*this, dimension, "slice");
  const std::size_t size = self.shape[dimension];
  if (begin > end || end > size)
    fail<index_error>(*this, "slice ", Range{begin, end},
                      " is out of range for dimension ", dimension, " (size ",
                      size, ")");
  if (begin == 0 && end == size)
    return *this;
  Shape lower(self.shape.size(), 0);
  Shape upper = self.shape;
  lower[dimension] = begin;
  upper[dimension] = end;
  return slice(lower, upper);
}

Tensor Tensor::slice(const Interval &region, unsigned dimension) const {
  return slice(region.begin(), region.end(), dimension);
}

Tensor Tensor::slice(ArrayRef<std::size_t> begin,
                     ArrayRef<std::size_t> end) const {
  const Impl &self = validImpl(*this, "slice");
  const std::size_t rank = self.shape.size();
  if (begin.size() != rank || end.size() != rank)
    fail<index_error>(*this, "slice bounds ", List(begin), " and ", List(end),
                      " need ", rank, " entries each");
  Shape shape(rank);
  std::vector<std::size_t> bounds;
  bounds.reserve(2 * rank);
  bool whole = true;
  for (std::size_t d = 0; d != rank; ++d) {
    if (begin[d] > end[d] || end[d] > self.shape[d])
      fail<index_error>(*this, "slice ", Range{begin[d], end[d]},
                        " is out of range for dimension ", d, " (size ",
                        self.shape[d], ")");
    shape[d] = end[d] - begin[d];
    whole = whole && shape[d] == self.shape[d];
  }
  if (whole)
    return *this;
  bounds.insert(bounds.end(), begin.begin(), begin.end());
  bounds.insert(bounds.end(), end.begin(), end.end());
  return makeView(Kind::Slice, *this, std::move(shape), std::move(bounds));
}

std::vector<Tensor> Tensor::slices(ArrayRef<Interval> intervals,
                                   unsigned dimension) const {
  std::vector<Tensor> result;
  result.reserve(intervals.size());
  for (const Interval &region : intervals)
    result.push_back(slice(region, dimension));
  return result;
}

std::vector<Tensor>
Tensor::slices(const std::vector<std::vector<Interval>> &intervals,
               unsigned dimension) const {
  std::vector<Tensor> result;
  result.reserve(intervals.size());
  for (const std::vector<Interval> &regions : intervals) {
    if (regions.empty())
      result.push_back(slice(0, 0, dimension));
    else
      result.push_back(concat(slices(regions, dimension), dimension));
  }
  return result;
}

std::vector<Tensor> Tensor::slices(ArrayRef<unsigned> indices,
                                   unsigned dimension) const {
  std::vector<Tensor> result;
  result.reserve(indices.size());
  for (unsigned i : indices)
    result.push_back(slice(i, std::size_t(i) + 1, dimension));
  return result;
}

// --- Reshaping ---------------------------------------------------------------

Tensor Tensor::reshape(ArrayRef<std::size_t> shape) const {
  const Impl &self = validImpl(*this, "reshape");
  std::size_t count = 0;
  if (!layout::elementCount(shape, count) || count != self.numElements())
    fail<tensor_creation_error>(*this, "cannot reshape ", self.numElements(),
                                " elements to shape ", List(shape));
  if (shape == ArrayRef<std::size_t>(self.shape))
    return *this;
  // A reshape of a reshape reshapes its input: a view flattened and given
  // its shape back is that view again, and a layout is never worked out
  // through the flattened one (for a view of shuffled storage, a box per
  // run).
  if (self.kind == Kind::Reshape)
    return Tensor(self.inputs[0]).reshape(shape);
  return makeView(Kind::Reshape, *this, shape.vec());
}

Tensor Tensor::reshapePartial(unsigned beginIndex, unsigned endIndex,
                              ArrayRef<std::size_t> newDims) const {
  const Impl &self = validImpl(*this, "reshapePartial");
  if (beginIndex > endIndex || endIndex > self.shape.size())
    fail<index_error>(
        *this, "reshapePartial: dimensions ", Range{beginIndex, endIndex},
        " are out of range for a tensor of rank ", self.shape.size());
  std::size_t oldCount = 1, newCount = 0;
  for (unsigned d = beginIndex; d != endIndex; ++d)
    oldCount *= self.shape[d];
  if (!layout::elementCount(newDims, newCount) || newCount != oldCount)
    fail<tensor_creation_error>(*this, "reshapePartial: dimensions ",
                                Range{beginIndex, endIndex}, " hold ", oldCount,
                                " elements, not as many as ", List(newDims));
  Shape shape(self.shape.begin(), self.shape.begin() + beginIndex);
  shape.insert(shape.end(), newDims.begin(), newDims.end());
  shape.insert(shape.end(), self.shape.begin() + endIndex, self.shape.end());
  return reshape(shape);
}

Tensor Tensor::flatten() const {
  return reshape({validImpl(*this, "flatten").numElements()});
}

Tensor Tensor::flatten(unsigned dimBegin, unsigned dimEnd) const {
  const Impl &self = validImpl(*this, "flatten");
  if (dimBegin >= dimEnd || dimEnd > self.shape.size())
    fail<index_error>(*this, "flatten: dimensions ", Range{dimBegin, dimEnd},
                      " are not a non-empty range of a tensor of rank ",
                      self.shape.size());
  std::size_t merged = 1;
  for (unsigned d = dimBegin; d != dimEnd; ++d)
    merged *= self.shape[d];
  return reshapePartial(dimBegin, dimEnd, {merged});
}

Tensor Tensor::expand(ArrayRef<std::size_t> indices) const {
  const Impl &self = validImpl(*this, "expand");
  std::vector<std::size_t> sorted = indices.vec();
  std::sort(sorted.begin(), sorted.end());
  if (!sorted.empty() && sorted.back() > self.shape.size())
    fail<index_error>(*this, "expand: index ", sorted.back(),
                      " is out of range for a tensor of rank ",
                      self.shape.size());
  if (sorted.empty())
    return *this;
  Shape shape;
  auto next = sorted.begin();
  for (std::size_t d = 0; d <= self.shape.size(); ++d) {
    for (; next != sorted.end() && *next == d; ++next)
      shape.push_back(1);
    if (d != self.shape.size())
      shape.push_back(self.shape[d]);
  }
  return makeView(Kind::Reshape, *this, std::move(shape));
}

Tensor Tensor::squeeze(ArrayRef<std::size_t> indices) const {
  const Impl &self = validImpl(*this, "squeeze");
  std::vector<bool> drop(self.shape.size(), false);
  for (std::size_t d : indices) {
    checkDim(*this, d, "squeeze");
    if (self.shape[d] != 1)
      fail<tensor_creation_error>(*this, "squeeze: dimension ", d, " has size ",
                                  self.shape[d], ", not 1");
    if (drop[d])
      fail<tensor_creation_error>(*this, "squeeze: dimension ", d,
                                  " is given twice");
    drop[d] = true;
  }
  if (indices.empty())
    return *this;
  Shape shape;
  for (std::size_t d = 0; d != self.shape.size(); ++d)
    if (!drop[d])
      shape.push_back(self.shape[d]);
  return makeView(Kind::Reshape, *this, std::move(shape));
}

// --- Reordering ------------------------------------------------------------

Tensor Tensor::dimShuffle(ArrayRef<unsigned> permutation) const {
  const Impl &self = validImpl(*this, "dimShuffle");
  const std::size_t rank = self.shape.size();
  std::vector<bool> seen(rank, false);
  bool valid = permutation.size() == rank;
  bool identity = true;
  for (std::size_t i = 0; valid && i != rank; ++i) {
    const unsigned d = permutation[i];
    valid = d < rank && !seen[d];
    if (valid)
      seen[d] = true;
    identity = identity && d == i;
  }
  if (!valid)
    fail<tensor_creation_error>(*this, "dimShuffle: ", List(permutation),
                                " is not a permutation of ", rank,
                                " dimensions");
  if (identity)
    return *this;
  Shape shape(rank);
  std::vector<std::size_t> params(rank);
  for (std::size_t i = 0; i != rank; ++i) {
    shape[i] = self.shape[permutation[i]];
    params[i] = permutation[i];
  }
  return makeView(Kind::DimShuffle, *this, std::move(shape), std::move(params));
}

Tensor Tensor::dimShufflePartial(ArrayRef<unsigned> source,
                                 ArrayRef<unsigned> destination) const {
  const Impl &self = validImpl(*this, "dimShufflePartial");
  const std::size_t rank = self.shape.size();
  if (source.size() != destination.size())
    fail<tensor_creation_error>(*this, "dimShufflePartial: sources ",
                                List(source), " and destinations ",
                                List(destination), " differ in length");
  const unsigned none = std::numeric_limits<unsigned>::max();
  std::vector<unsigned> permutation(rank, none);
  std::vector<bool> moved(rank, false);
  for (std::size_t i = 0; i != source.size(); ++i) {
    checkDim(*this, source[i], "dimShufflePartial");
    checkDim(*this, destination[i], "dimShufflePartial");
    if (moved[source[i]] || permutation[destination[i]] != none)
      fail<tensor_creation_error>(*this, "dimShufflePartial: sources ",
                                  List(source), " or destinations ",
                                  List(destination), " repeat a dimension");
    moved[source[i]] = true;
    permutation[destination[i]] = source[i];
  }
  unsigned next = 0;
  for (unsigned &p : permutation) {
    if (p != none)
      continue;
    while (moved[next])
      ++next;
    p = next++;
  }
  return dimShuffle(permutation);
}

Tensor Tensor::dimRoll(unsigned dimIdx, unsigned newIdx) const {
  validImpl(*this, "dimRoll");
  checkDim(*this, dimIdx, "dimRoll");
  checkDim(*this, newIdx, "dimRoll");
  return dimShufflePartial({dimIdx}, {newIdx});
}

Tensor Tensor::transpose() const {
  const Impl &self = validImpl(*this, "transpose");
  if (self.shape.size() != 2)
    fail<tensor_creation_error>(*this, "transpose needs a tensor of rank 2, ",
                                "not ", self.shape.size());
  return dimShuffle({1, 0});
}

// --- Repeating and reordering elements -------------------------------------

Tensor Tensor::broadcast(unsigned N, unsigned dimension) const {
  validImpl(*this, "broadcast");
  checkDim(*this, dimension, "broadcast");
  if (N == 1)
    return *this;
  Shape shape = scaledShape(*this, dimension, N, "broadcast");
  return makeView(Kind::Broadcast, *this, std::move(shape), {N, dimension});
}

Tensor Tensor::reverse(unsigned dimension) const {
  const Impl &self = validImpl(*this, "reverse");
  checkDim(*this, dimension, "reverse");
  if (self.shape[dimension] <= 1)
    return *this;
  return makeView(Kind::Reverse, *this, self.shape, {dimension});
}

Tensor Tensor::subSample(unsigned stride, unsigned dimension) const {
  const Impl &self = validImpl(*this, "subSample");
  checkDim(*this, dimension, "subSample");
  if (stride == 0)
    fail<tensor_creation_error>(*this, "subSample: stride 0 along dimension ",
                                dimension, "; it must be at least 1");
  if (stride == 1)
    return *this;
  Shape shape = self.shape;
  shape[dimension] =
      shape[dimension] / stride + (shape[dimension] % stride != 0);
  return makeView(Kind::SubSample, *this, std::move(shape),
                  {stride, dimension});
}

Tensor Tensor::upsample(unsigned scale, unsigned dimension,
                        UpsampleMethod method) const {
  validImpl(*this, "upsample");
  checkDim(*this, dimension, "upsample");
  if (method != UpsampleMethod::REPEAT)
    fail<tensor_creation_error>(*this, "upsample: unknown method");
  if (scale == 1)
    return *this;
  Shape shape = scaledShape(*this, dimension, scale, "upsample");
  return makeView(Kind::Upsample, *this, std::move(shape), {scale, dimension});
}

Tensor Tensor::reinterpret(const Type &type) const {
  const Impl &self = validImpl(*this, "reinterpret");
  if (type == self.type)
    return *this;
  if (typeSize(type) == 0 || typeSize(type) != typeSize(self.type))
    fail<type_error>(*this, "cannot reinterpret ", self.type, " (",
                     typeSize(self.type), " bytes) as ", type, " (",
                     typeSize(type), " bytes): the sizes differ");
  return makeView(Kind::Reinterpret, self, type, self.shape, {getImplPtr()});
}

// --- Shape -------------------------------------------------------------------

std::size_t Tensor::numElements() const {
  return validImpl(*this, "numElements").numElements();
}

std::size_t Tensor::dim(unsigned i) const {
  const Impl &self = validImpl(*this, "dim");
  checkDim(*this, i, "dim");
  return self.shape[i];
}

std::vector<std::size_t> Tensor::shape() const {
  return validImpl(*this, "shape").shape;
}

unsigned Tensor::rank() const {
  return static_cast<unsigned>(validImpl(*this, "rank").shape.size());
}

std::string Tensor::shapeToString() const {
  std::ostringstream os;
  os << List(validImpl(*this, "shapeToString").shape);
  return os.str();
}

// --- Storage queries ---------------------------------------------------------

bool Tensor::isContiguous() const {
  validImpl(*this, "isContiguous");
  return layout::isContiguous(layout::flatRuns(*this));
}

bool Tensor::containsAliases() const {
  const Impl &self = validImpl(*this, "containsAliases");
  return layout::containsAliases(layout::storageRanges(*this),
                                 self.numElements());
}

bool Tensor::containsConstant() const {
  return validImpl(*this, "containsConstant").anyConstant;
}

bool Tensor::isParallelWriteable() const {
  return !containsAliases() && !containsConstant();
}

bool Tensor::intersectsWith(const Tensor &other) const {
  const Impl &self = validImpl(*this, "intersectsWith");
  const Impl &that = validImpl(other, "intersectsWith");
  return self.graphId == that.graphId &&
         layout::intersect(layout::storageRanges(*this),
                           layout::storageRanges(other));
}

std::vector<Interval> Tensor::getContiguousRegions() const {
  validImpl(*this, "getContiguousRegions");
  const std::vector<layout::FlatRun> runs = layout::flatRuns(*this);
  std::vector<Interval> regions;
  regions.reserve(layout::contiguousPieceBound(runs));
  layout::forEachContiguousPiece(runs, [&](std::size_t flat, std::size_t,
                                           std::size_t, std::size_t length) {
    regions.emplace_back(flat, flat + length);
  });
  return regions;
}

std::vector<VariableInterval> Tensor::getVarRegions() const {
  const Impl &self = validImpl(*this, "getVarRegions");
  const std::vector<layout::FlatRun> runs = layout::flatRuns(*this);
  std::vector<VariableInterval> regions;
  regions.reserve(layout::contiguousPieceBound(runs));
  layout::forEachContiguousPiece(
      runs,
      [&](std::size_t, std::size_t var, std::size_t start, std::size_t length) {
        regions.emplace_back(VariableRef(self.graphId, var),
                             Interval(start, start + length));
      });
  return regions;
}

// --- Printing ----------------------------------------------------------------

std::string Tensor::getDebugStr() const {
  validImpl(*this, "getDebugStr");
  // The leaves' names, left to right through the expression; only the
  // first few are shown, so stop looking once there are more.
  const std::size_t shown = 4;
  std::vector<std::string> distinct;
  std::vector<const Impl *> stack{&getImpl()};
  std::unordered_set<const Impl *> seen;
  while (!stack.empty() && distinct.size() <= shown) {
    const Impl *node = stack.back();
    stack.pop_back();
    if (!seen.insert(node).second)
      continue;
    if (node->kind == Kind::Variable) {
      std::string name = node->debugName.empty()
                             ? "var" + std::to_string(node->varId)
                             : node->debugName;
      if (std::find(distinct.begin(), distinct.end(), name) == distinct.end())
        distinct.push_back(std::move(name));
    }
    for (auto input = node->inputs.rbegin(); input != node->inputs.rend();
         ++input)
      stack.push_back(input->get());
  }
  if (distinct.size() == 1)
    return distinct.front();
  std::string s = "{";
  for (std::size_t i = 0; i != distinct.size() && i != shown; ++i)
    s += (i == 0 ? "" : ", ") + distinct[i];
  if (distinct.size() > shown)
    s += ", ...";
  return s + "}";
}

void Tensor::dump() const { std::cout << *this << '\n'; }

std::ostream &operator<<(std::ostream &os, const Tensor &t) {
  if (!t.valid())
    return os << "Tensor <invalid>";
  return os << "Tensor '" << t.getDebugStr() << "' " << t.shapeToString() << ' '
            << t.elementType();
}

// --- Comparison and concatenation --------------------------------------------

bool operator==(const Tensor &a, const Tensor &b) {
  const Impl &x = validImpl(a, "operator==");
  const Impl &y = validImpl(b, "operator==");
  if (x.shape != y.shape || x.type != y.type)
    return false;
  if (&x == &y || x.numElements() == 0)
    return true;
  if (x.graphId != y.graphId)
    return false;
  return layout::sameStorage(layout::flatRuns(a), layout::flatRuns(b));
}

bool operator!=(const Tensor &a, const Tensor &b) { return !(a == b); }

Tensor concat(ArrayRef<Tensor> ts, unsigned dimension) {
  if (ts.empty())
    throw tensor_creation_error("concat: no tensors to concatenate");
  const Tensor &first = ts[0];
  const Impl &head = validImpl(first, "concat");
  checkDim(first, dimension, "concat");
  std::vector<std::shared_ptr<const Impl>> inputs;
  inputs.reserve(ts.size());
  Shape shape = head.shape;
  shape[dimension] = 0;
  for (const Tensor &t : ts) {
    const Impl &part = validImpl(t, "concat");
    auto mismatch = [&](const auto &...what) {
      fail<tensor_creation_error>(t, "concat along dimension ", dimension,
                                  " with '", first.getDebugStr(), "' of shape ",
                                  first.shapeToString(), ": ", what...);
    };
    if (part.shape.size() != head.shape.size())
      mismatch("the ranks differ");
    if (part.type != head.type)
      mismatch("the element types differ (", part.type, " and ", head.type,
               ")");
    if (part.graphId != head.graphId)
      mismatch("the tensors belong to different graphs");
    for (std::size_t d = 0; d != head.shape.size(); ++d)
      if (d != dimension && part.shape[d] != head.shape[d])
        mismatch("dimension ", d, " differs");
    if (shape[dimension] >
        std::numeric_limits<std::size_t>::max() - part.shape[dimension])
      mismatch("the size overflows");
    shape[dimension] += part.shape[dimension];
    inputs.push_back(t.getImplPtr());
  }
  if (ts.size() == 1)
    return first;
  std::size_t total = 0;
  if (!layout::elementCount(shape, total))
    fail<tensor_creation_error>(first, "concat: too many elements to index");
  return makeView(Kind::Concat, head, head.type, std::move(shape),
                  std::move(inputs), {dimension});
}

Tensor append(const Tensor &first, const Tensor &second, unsigned dimension) {
  validImpl(first, "append");
  validImpl(second, "append");
  checkDim(first, dimension, "append");
  if (second.rank() + 1 != first.rank())
    fail<tensor_creation_error>(second, "append to '", first.getDebugStr(),
                                "' of shape ", first.shapeToString(),
                                ": the rank must be one less (",
                                first.rank() - 1, ")");
  return concat(first, second.expand({dimension}), dimension);
}

} // namespace poplar

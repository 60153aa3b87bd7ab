#include "ops/UniqueOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <map>
#include <numeric>

namespace popart {

void UniqueOp::setup() {
  const std::vector<double> x = constInputValues(
      0, "input (whose distinct values fix the outputs' shapes)");
  Shape shape = hasAxis ? inShape(0) : Shape{int64_t(x.size())};
  if (hasAxis)
    axis = normaliseAxis(axis, inRank(0), *this);
  const std::size_t a = hasAxis ? std::size_t(axis) : 0;
  int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (d < a)
      outer *= shape[d];
    else if (d > a)
      inner *= shape[d];
  const int64_t length = shape[a];
  if (length == 0)
    throw error("{}: the input '{}' is empty", str(), inTensor(0)->id);
  // Slice i of the axis: its values, outer-major.
  auto slice = [&](int64_t i) {
    std::vector<double> s;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < inner; ++j)
        s.push_back(x[std::size_t((o * length + i) * inner + j)]);
    return s;
  };
  // The distinct slices in order of first occurrence.
  std::vector<std::vector<double>> distinct;
  std::map<std::vector<double>, int> found;
  std::vector<int> which(static_cast<std::size_t>(length));
  firstIndices.clear();
  counts.clear();
  for (int64_t i = 0; i < length; ++i) {
    auto s = slice(i);
    auto [at, added] = found.emplace(s, int(distinct.size()));
    if (added) {
      distinct.push_back(std::move(s));
      firstIndices.push_back(int(i));
      counts.push_back(0);
    }
    which[std::size_t(i)] = at->second;
    ++counts[std::size_t(at->second)];
  }
  // The output order: sorted (lexicographically) or as found.
  std::vector<int> order(distinct.size());
  std::iota(order.begin(), order.end(), 0);
  if (sorted)
    std::sort(order.begin(), order.end(),
              [&](int l, int r) { return distinct[l] < distinct[r]; });
  std::vector<int> rank(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    rank[std::size_t(order[k])] = int(k);
  std::vector<int> first, count;
  for (int k : order) {
    first.push_back(firstIndices[std::size_t(k)]);
    count.push_back(counts[std::size_t(k)]);
  }
  firstIndices = first;
  counts = count;
  inverseIndices.clear();
  for (int w : which)
    inverseIndices.push_back(rank[std::size_t(w)]);
  const int64_t n = int64_t(order.size());
  values.assign(std::size_t(outer * n * inner), 0.0);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < inner; ++j)
        values[std::size_t((o * n + k) * inner + j)] =
            distinct[std::size_t(order[std::size_t(k)])]
                    [std::size_t(o * inner + j)];
  shape[a] = n;
  outInfo(0) = TensorInfo(inInfo(0).dataType(), shape);
  if (hasOutput(1))
    outInfo(1) = TensorInfo(DataType::INT64, {n});
  if (hasOutput(2))
    outInfo(2) = TensorInfo(DataType::INT64, {length});
  if (hasOutput(3))
    outInfo(3) = TensorInfo(DataType::INT64, {n});
}

} // namespace popart

#include "TileWork.hpp"

#include <poputil/exceptions.hpp>

#include <algorithm>

using namespace poplar;

namespace popnn {
namespace detail {

std::string describe(const Tensor &t) {
  std::string s = "'" + t.getDebugStr() + "' [";
  const auto shape = t.shape();
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void forEachVertexGroup(
    const Graph &graph, const Tensor &t, const std::string &opName,
    const std::function<void(unsigned, const std::vector<Interval> &)> &fn) {
  const std::size_t n = t.numElements();
  if (n == 0)
    return;
  bool complete = true;
  auto mapping = graph.getTileMapping(t, &complete);
  if (!complete) {
    if (graph.getTarget().getTargetType() != TargetType::CPU)
      throw poputil::poplibs_error(opName + ": tensor " + describe(t) +
                                   " has elements without a tile mapping");
    mapping.assign(std::max<std::size_t>(1, mapping.size()), {});
    mapping[0] = {Interval(0, n)};
  }
  for (unsigned tile = 0; tile != mapping.size(); ++tile) {
    std::vector<Interval> group;
    std::size_t inGroup = 0;
    for (const auto &r : mapping[tile]) {
      std::size_t begin = r.begin();
      while (begin < r.end()) {
        const std::size_t take =
            std::min(r.end() - begin, maxElementsPerVertex - inGroup);
        group.emplace_back(begin, begin + take);
        inGroup += take;
        begin += take;
        if (inGroup == maxElementsPerVertex) {
          fn(tile, group);
          group.clear();
          inGroup = 0;
        }
      }
    }
    if (!group.empty())
      fn(tile, group);
  }
}

std::vector<Tensor> intervalSlices(const Tensor &flat,
                                   const std::vector<Interval> &intervals) {
  std::vector<Tensor> slices;
  slices.reserve(intervals.size());
  for (const auto &i : intervals)
    slices.push_back(flat.slice(i.begin(), i.end()));
  return slices;
}

std::vector<std::size_t> intervalSizes(const std::vector<Interval> &intervals) {
  std::vector<std::size_t> sizes;
  sizes.reserve(intervals.size());
  for (const auto &i : intervals)
    sizes.push_back(i.size());
  return sizes;
}

void checkFloatingPoint(const Tensor &t, const std::string &opName,
                        const std::string &what) {
  const Type type = t.elementType();
  if (type != FLOAT && type != HALF)
    throw poputil::poplibs_error(opName + ": " + what + " " + describe(t) +
                                 " has element type " + type.toString().str() +
                                 "; FLOAT or HALF expected");
}

void checkSameShape(const Tensor &a, const std::string &aName, const Tensor &b,
                    const std::string &bName, const std::string &opName) {
  if (a.shape() != b.shape())
    throw poputil::poplibs_error(opName + ": " + aName + " " + describe(a) +
                                 " and " + bName + " " + describe(b) +
                                 " must have the same shape");
  if (a.elementType() != b.elementType())
    throw poputil::poplibs_error(
        opName + ": " + aName + " " + describe(a) + " and " + bName + " " +
        describe(b) + " must have the same element type (" +
        a.elementType().toString().str() + " and " +
        b.elementType().toString().str() + ")");
}

} // namespace detail
} // namespace popnn

#include "ops/NonMaxSuppressionOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <numeric>

namespace popart {

namespace {

struct Box {
  double y1, x1, y2, x2;
  double area() const { return (y2 - y1) * (x2 - x1); }
};

// Corners (either diagonal, any order) or centre and size as the box's
// lower and upper corners.
Box makeBox(const double *v, bool centre) {
  if (centre)
    return {v[1] - v[3] / 2, v[0] - v[2] / 2, v[1] + v[3] / 2, v[0] + v[2] / 2};
  return {std::min(v[0], v[2]), std::min(v[1], v[3]), std::max(v[0], v[2]),
          std::max(v[1], v[3])};
}

double intersectionOverUnion(const Box &a, const Box &b) {
  const double h = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
  const double w = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  if (h <= 0 || w <= 0)
    return 0.0;
  const double intersection = h * w;
  const double areas = a.area() + b.area() - intersection;
  return areas <= 0 ? 0.0 : intersection / areas;
}

} // namespace

void NonMaxSuppressionOp::setup() {
  if (centerPointBox != 0 && centerPointBox != 1)
    throw error("{}: center_point_box {} is neither 0 nor 1", str(),
                centerPointBox);
  const Shape b = inShape(0), s = inShape(1);
  if (b.size() != 3 || b[2] != 4 || s.size() != 3 || s[0] != b[0] ||
      s[2] != b[1])
    throw error("{}: boxes of shape {} and scores of shape {} are not "
                "[batches, boxes, 4] and [batches, classes, boxes]",
                str(), b, s);
  const char *why = "input (which fixes how many boxes are selected)";
  const auto boxes = constInputValues(0, why);
  const auto scores = constInputValues(1, why);
  const int64_t maxPerClass =
      hasInput(2) && inInfo(2).nelms() > 0 ? constInputInts(2, why).at(0) : 0;
  const double iouThreshold =
      hasInput(3) && inInfo(3).nelms() > 0 ? constInputValues(3, why).at(0) : 0.0;
  const bool byScore = hasInput(4) && inInfo(4).nelms() > 0;
  const double scoreThreshold = byScore ? constInputValues(4, why).at(0) : 0.0;
  const int64_t batches = b[0], n = b[1], classes = s[1];
  selected.clear();
  for (int64_t batch = 0; batch < batches; ++batch) {
    std::vector<Box> all;
    for (int64_t i = 0; i < n; ++i)
      all.push_back(makeBox(&boxes[std::size_t((batch * n + i) * 4)],
                            centerPointBox == 1));
    for (int64_t c = 0; c < classes; ++c) {
      const double *score = &scores[std::size_t((batch * classes + c) * n)];
      std::vector<int64_t> order;
      for (int64_t i = 0; i < n; ++i)
        if (!byScore || score[i] > scoreThreshold)
          order.push_back(i);
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t l, int64_t r) { return score[l] > score[r]; });
      std::vector<int64_t> kept;
      for (int64_t i : order) {
        if (int64_t(kept.size()) >= maxPerClass)
          break;
        bool overlaps = false;
        for (int64_t k : kept)
          overlaps = overlaps ||
                     intersectionOverUnion(all[std::size_t(i)],
                                           all[std::size_t(k)]) > iouThreshold;
        if (!overlaps) {
          kept.push_back(i);
          selected.push_back({batch, c, i});
        }
      }
    }
  }
  if (selected.empty())
    throw error("{}: no box is selected (an empty result is not supported)",
                str());
  outInfo(0) = TensorInfo(DataType::INT64, {int64_t(selected.size()), 3});
}

std::vector<char> NonMaxSuppressionOp::fold() const {
  std::vector<double> out;
  for (const auto &t : selected)
    out.insert(out.end(), t.begin(), t.end());
  return fromDoubles(out, DataType::INT64);
}

} // namespace popart

#include "compile/CopyPlanning.hpp"

#include <algorithm>

namespace poplar {

std::vector<exec::CopySegment> planCopy(const std::vector<layout::FlatRun> &src,
                                        const std::vector<layout::FlatRun> &dst) {
  std::vector<exec::CopySegment> segments;
  std::size_t si = 0, di = 0;     // current runs
  std::size_t sOff = 0, dOff = 0; // elements of them already used
  while (si < src.size() && di < dst.size()) {
    const auto &s = src[si];
    const auto &d = dst[di];
    const std::size_t n = std::min({s.length - sOff, d.length - dOff,
                                    copyChunkElements});
    exec::CopySegment seg;
    seg.srcVar = s.var;
    seg.dstVar = d.var;
    seg.srcStart = s.start + s.stride * std::int64_t(sOff);
    seg.dstStart = d.start + d.stride * std::int64_t(dOff);
    seg.srcStride = s.stride;
    seg.dstStride = d.stride;
    seg.length = n;
    segments.push_back(seg);
    sOff += n;
    dOff += n;
    if (sOff == s.length) {
      ++si;
      sOff = 0;
    }
    if (dOff == d.length) {
      ++di;
      dOff = 0;
    }
  }
  return segments;
}

} // namespace poplar

// First-fit allocation over the steps: a free list of the block's holes,
// items freed after their last step and placed at their first.
#include "model/SharedBlock.hpp"

#include <algorithm>
#include <map>
#include <queue>

namespace poplar::model {
namespace {

std::uint64_t alignUp(std::uint64_t x, std::uint64_t a) {
  return a <= 1 ? x : (x + a - 1) / a * a;
}

std::uint64_t peakBytes(const std::vector<LiveItem> &items) {
  // (step, change); at one step, ends (of the step before) come first.
  std::vector<std::pair<std::uint64_t, std::int64_t>> events;
  for (const auto &item : items)
    for (std::size_t r = 0; r != item.numRanges; ++r) {
      events.push_back({item.ranges[r].first, std::int64_t(item.bytes)});
      events.push_back({std::uint64_t(item.ranges[r].second) + 1, -std::int64_t(item.bytes)});
    }
  std::sort(events.begin(), events.end());
  std::int64_t live = 0, peak = 0;
  for (const auto &e : events) {
    live += e.second;
    peak = std::max(peak, live);
  }
  return std::uint64_t(peak);
}

// The holes below `top`, by offset, merged when they touch.
class FreeList {
public:
  std::uint64_t take(std::uint64_t bytes, std::uint64_t alignment) {
    for (auto it = holes.begin(); it != holes.end(); ++it) {
      const std::uint64_t at = alignUp(it->first, alignment);
      const std::uint64_t end = it->first + it->second;
      if (at + bytes > end && end != top)
        continue;
      // It fits, or the hole ends at the top and the block grows.
      const std::uint64_t start = it->first;
      holes.erase(it);
      if (at > start)
        holes[start] = at - start;
      if (at + bytes < end)
        holes[at + bytes] = end - (at + bytes);
      top = std::max(top, at + bytes);
      return at;
    }
    const std::uint64_t at = alignUp(top, alignment);
    if (at > top)
      holes[top] = at - top;
    top = at + bytes;
    return at;
  }

  void give(std::uint64_t at, std::uint64_t bytes) {
    auto next = holes.lower_bound(at);
    if (next != holes.end() && next->first == at + bytes) {
      bytes += next->second;
      next = holes.erase(next);
    }
    if (next != holes.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == at) {
        prev->second += bytes;
        return;
      }
    }
    holes[at] = bytes;
  }

  std::uint64_t end() const { return top; }

private:
  std::map<std::uint64_t, std::uint64_t> holes;
  std::uint64_t top = 0;
};

} // namespace

SharedBlock shareBlock(const std::vector<LiveItem> &items) {
  SharedBlock block;
  block.peak = peakBytes(items);
  block.offset.assign(items.size(), 0);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i != items.size(); ++i)
    if (items[i].bytes != 0 && items[i].numRanges != 0)
      order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto fa = items[a].ranges[0].first, fb = items[b].ranges[0].first;
    if (fa != fb)
      return fa < fb;
    if (items[a].bytes != items[b].bytes)
      return items[a].bytes > items[b].bytes;
    return a < b;
  });
  FreeList free;
  // (last step, item) of the items placed, the earliest to end on top.
  using Placed = std::pair<std::uint32_t, std::size_t>;
  std::priority_queue<Placed, std::vector<Placed>, std::greater<>> placed;
  for (std::size_t i : order) {
    const LiveItem &item = items[i];
    const std::uint32_t first = item.hull().first;
    while (!placed.empty() && placed.top().first < first) {
      const std::size_t done = placed.top().second;
      placed.pop();
      free.give(block.offset[done], items[done].bytes);
    }
    block.offset[i] = free.take(item.bytes, item.alignment);
    placed.push({item.hull().second, i});
  }
  block.size = free.end();
  return block;
}

} // namespace poplar::model

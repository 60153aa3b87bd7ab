#include "graph/TileMapping.hpp"

#include <algorithm>

namespace poplar {

void TileMapping::assign(std::size_t begin, std::size_t end, unsigned tile) {
  if (begin >= end)
    return;
  // Cut the pieces overlapping [begin, end), keeping what lies outside.
  auto it = pieces.lower_bound(begin);
  if (it != pieces.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end > begin) {
      Piece tail{prev->second.end, prev->second.tile};
      prev->second.end = begin;
      if (tail.end > end)
        pieces.emplace(end, tail);
    }
  }
  it = pieces.lower_bound(begin);
  while (it != pieces.end() && it->first < end) {
    if (it->second.end > end) {
      Piece tail{it->second.end, it->second.tile};
      pieces.erase(it);
      pieces.emplace(end, tail);
      break;
    }
    it = pieces.erase(it);
  }
  // Insert, merging with neighbours on the same tile.
  auto inserted = pieces.emplace(begin, Piece{end, tile}).first;
  if (inserted != pieces.begin()) {
    auto prev = std::prev(inserted);
    if (prev->second.end == begin && prev->second.tile == tile) {
      prev->second.end = inserted->second.end;
      pieces.erase(inserted);
      inserted = prev;
    }
  }
  auto next = std::next(inserted);
  if (next != pieces.end() && next->first == inserted->second.end &&
      next->second.tile == tile) {
    inserted->second.end = next->second.end;
    pieces.erase(next);
  }
}

unsigned TileMapping::tileOf(std::size_t element) const {
  auto it = pieces.upper_bound(element);
  if (it == pieces.begin())
    return NoTile;
  --it;
  return element < it->second.end ? it->second.tile : NoTile;
}

unsigned TileMapping::tileOf(std::size_t element, std::size_t &pieceBegin,
                             std::size_t &pieceEnd) const {
  auto next = pieces.upper_bound(element);
  if (next != pieces.begin()) {
    auto it = std::prev(next);
    if (element < it->second.end) {
      pieceBegin = it->first;
      pieceEnd = it->second.end;
      return it->second.tile;
    }
    pieceBegin = it->second.end;
  } else {
    pieceBegin = 0;
  }
  // In a gap between pieces.
  pieceEnd = next == pieces.end() ? ~std::size_t(0) : next->first;
  return NoTile;
}

std::size_t TileMapping::countUnmapped(std::size_t size) const {
  std::size_t mapped = 0;
  for (const auto &[begin, piece] : pieces)
    if (begin < size)
      mapped += std::min(piece.end, size) - begin;
  return size - mapped;
}

std::size_t TileMapping::firstUnmapped(std::size_t size) const {
  std::size_t pos = 0;
  for (const auto &[begin, piece] : pieces) {
    if (begin > pos)
      break;
    pos = std::max(pos, piece.end);
  }
  return std::min(pos, size);
}

} // namespace poplar

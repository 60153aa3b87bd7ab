#include "graph/TileMapping.hpp"

#include <algorithm>

namespace poplar {

void TileMapping::cut(std::size_t begin, std::size_t end) {
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
}

void TileMapping::joinNext(std::map<std::size_t, Piece>::iterator it) {
  auto next = std::next(it);
  if (next != pieces.end() && next->first == it->second.end &&
      next->second.tile == it->second.tile) {
    it->second.end = next->second.end;
    pieces.erase(next);
  }
}

void TileMapping::assign(std::size_t begin, std::size_t end, unsigned tile) {
  if (begin >= end)
    return;
  cut(begin, end);
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
  joinNext(inserted);
}

void TileMapping::assignEach(std::size_t begin,
                             const std::vector<unsigned> &tiles) {
  if (tiles.empty())
    return;
  const std::size_t end = begin + tiles.size();
  cut(begin, end);
  // The pieces of [begin, end) in order, each inserted just before the
  // first piece after the range; pieces that touch on one tile are joined,
  // at the ends of the range too, as assign leaves them.
  const auto after = pieces.lower_bound(end);
  auto last = after == pieces.begin() ? pieces.end() : std::prev(after);
  for (std::size_t i = 0; i != tiles.size();) {
    std::size_t j = i + 1;
    while (j != tiles.size() && tiles[j] == tiles[i])
      ++j;
    if (tiles[i] != NoTile) {
      if (last != pieces.end() && last->second.end == begin + i &&
          last->second.tile == tiles[i])
        last->second.end = begin + j;
      else
        last = pieces.emplace_hint(after, begin + i, Piece{begin + j, tiles[i]});
    }
    i = j;
  }
  if (last != pieces.end())
    joinNext(last);
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

FlatTileMapping::FlatTileMapping(const TileMapping &mapping) {
  pieces.reserve(mapping.pieces.size());
  for (const auto &[begin, piece] : mapping.pieces)
    pieces.push_back({begin, piece.end, piece.tile});
}

unsigned FlatTileMapping::tileOf(std::size_t element, std::size_t &pieceBegin,
                                 std::size_t &pieceEnd) const {
  const auto it = firstEndingAfter(element);
  if (it != pieces.end() && it->begin <= element) {
    pieceBegin = it->begin;
    pieceEnd = it->end;
    return it->tile;
  }
  // In a gap between pieces.
  pieceBegin = it == pieces.begin() ? 0 : std::prev(it)->end;
  pieceEnd = it == pieces.end() ? ~std::size_t(0) : it->begin;
  return TileMapping::NoTile;
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

// Which tile each storage element of a variable lives on: a map of disjoint
// element ranges to tiles, so a variable mapped in large pieces costs a few
// entries whatever its size.
#ifndef POPLAR_SRC_GRAPH_TILEMAPPING_HPP
#define POPLAR_SRC_GRAPH_TILEMAPPING_HPP

#include <cstddef>
#include <algorithm>
#include <map>
#include <vector>

namespace poplar {

class TileMapping {
public:
  /// Maps elements [begin, end) to tile, replacing what was there.
  void assign(std::size_t begin, std::size_t end, unsigned tile);
  /// Maps element begin + i to tiles[i] (NoTile: unmapped), replacing
  /// what was there: one pass however often the tile changes.
  void assignEach(std::size_t begin, const std::vector<unsigned> &tiles);
  /// Calls f(begin, end, tile) for the mapped pieces of [begin, end) in
  /// order, and f(begin, end, NoTile) for the unmapped ones.
  template <class F>
  void forEach(std::size_t begin, std::size_t end, F &&f) const;
  /// The tile of one element, or NoTile.
  unsigned tileOf(std::size_t element) const;
  /// The tile of one element (or NoTile) and the piece around it that is
  /// all on that tile: [*pieceBegin, *pieceEnd) holds element.
  unsigned tileOf(std::size_t element, std::size_t &pieceBegin,
                  std::size_t &pieceEnd) const;
  /// Number of elements of [0, size) without a tile.
  std::size_t countUnmapped(std::size_t size) const;
  /// The first unmapped element of [0, size), or size.
  std::size_t firstUnmapped(std::size_t size) const;

  static constexpr unsigned NoTile = ~0u;

private:
  friend class FlatTileMapping;
  struct Piece {
    std::size_t end;
    unsigned tile;
  };
  std::map<std::size_t, Piece> pieces; // keyed by begin
  // Removes [begin, end) from the pieces, keeping what lies outside.
  void cut(std::size_t begin, std::size_t end);
  // Joins the piece at `it` with the next one if they touch on one tile.
  void joinNext(std::map<std::size_t, Piece>::iterator it);
};

/// A snapshot of a TileMapping in one sorted array, for the many lookups
/// of the estimates: a binary search of contiguous memory rather than a
/// walk down a tree.
class FlatTileMapping {
public:
  FlatTileMapping() = default;
  explicit FlatTileMapping(const TileMapping &mapping);
  /// As TileMapping::forEach.
  template <class F>
  void forEach(std::size_t begin, std::size_t end, F &&f) const;
  /// As TileMapping::tileOf.
  unsigned tileOf(std::size_t element, std::size_t &pieceBegin,
                  std::size_t &pieceEnd) const;

private:
  struct Piece {
    std::size_t begin;
    std::size_t end;
    unsigned tile;
  };
  std::vector<Piece> pieces;
  // The first piece that ends after `element`.
  std::vector<Piece>::const_iterator firstEndingAfter(std::size_t element) const {
    return std::upper_bound(pieces.begin(), pieces.end(), element,
                            [](std::size_t e, const Piece &p) { return e < p.end; });
  }
};

template <class F>
void FlatTileMapping::forEach(std::size_t begin, std::size_t end, F &&f) const {
  std::size_t pos = begin;
  for (auto it = firstEndingAfter(begin); it != pieces.end() && pos < end; ++it) {
    if (it->begin > pos) {
      const std::size_t gapEnd = std::min(it->begin, end);
      f(pos, gapEnd, TileMapping::NoTile);
      pos = gapEnd;
      if (pos >= end)
        break;
    }
    const std::size_t pieceEnd = std::min(it->end, end);
    f(pos, pieceEnd, it->tile);
    pos = pieceEnd;
  }
  if (pos < end)
    f(pos, end, TileMapping::NoTile);
}

template <class F>
void TileMapping::forEach(std::size_t begin, std::size_t end, F &&f) const {
  std::size_t pos = begin;
  auto it = pieces.upper_bound(begin);
  if (it != pieces.begin())
    --it;
  for (; it != pieces.end() && pos < end; ++it) {
    if (it->second.end <= pos)
      continue;
    if (it->first > pos) {
      std::size_t gapEnd = std::min(it->first, end);
      f(pos, gapEnd, NoTile);
      pos = gapEnd;
      if (pos >= end)
        break;
    }
    std::size_t pieceEnd = std::min(it->second.end, end);
    f(pos, pieceEnd, it->second.tile);
    pos = pieceEnd;
  }
  if (pos < end)
    f(pos, end, NoTile);
}

} // namespace poplar

#endif // POPLAR_SRC_GRAPH_TILEMAPPING_HPP

// Which tile each storage element of a variable lives on: a map of disjoint
// element ranges to tiles, so a variable mapped in large pieces costs a few
// entries whatever its size.
#ifndef POPLAR_SRC_GRAPH_TILEMAPPING_HPP
#define POPLAR_SRC_GRAPH_TILEMAPPING_HPP

#include <cstddef>
#include <algorithm>
#include <map>

namespace poplar {

class TileMapping {
public:
  /// Maps elements [begin, end) to tile, replacing what was there.
  void assign(std::size_t begin, std::size_t end, unsigned tile);
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
  struct Piece {
    std::size_t end;
    unsigned tile;
  };
  std::map<std::size_t, Piece> pieces; // keyed by begin
};

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

// Exchange cycles from bytes sent and received, worked out by hand from
// the model (poplar/src/model/README.md).
#include <catch2/catch.hpp>

#include "model/ExchangeModel.hpp"
#include "target/TargetBuilder.hpp"

#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::model;

namespace {
Target target(const char *version, unsigned tiles, unsigned ipus = 1) {
  IPUModel m(version);
  m.tilesPerIPU = tiles;
  m.numIPUs = ipus;
  return m.createTarget();
}
} // namespace

TEST_CASE("An internal exchange takes the busiest tile's bytes at 4 per "
          "cycle plus 29 cycles of latency",
          "[model][exchange]") {
  const Target mk1 = target("ipu1", 8);
  Traffic t;
  t.add(0, 1, 400);
  t.add(0, 2, 100); // tile 0 sends 500
  t.add(3, 2, 100); // tile 2 receives 200
  t.add(5, 5, 999); // on one tile: not an exchange
  const ExchangeEstimate e = t.internalExchange(mk1, "x");
  REQUIRE(e.tiles.size() == 4);
  CHECK(e.tiles[0].tile == 0);
  CHECK(e.tiles[0].sent == 500);
  CHECK(e.tiles[0].cycles == 29 + 125);
  CHECK(e.tiles[0].pieces == 2);
  CHECK(e.tiles[1].received == 400);
  CHECK(e.tiles[1].cycles == 29 + 100);
  CHECK(e.tiles[2].cycles == 29 + 50);
  CHECK(e.cycles == 154);
  CHECK(e.totalBytes == 600);
  CHECK(t.externalExchange(mk1, "x").tiles.empty());
}

TEST_CASE("On Mk2 a tile whose supertile neighbour is idle uses the whole "
          "bus",
          "[model][exchange]") {
  const Target mk2 = target("ipu2", 8);
  Traffic alone;
  alone.add(0, 2, 400); // neighbours 1 and 3 idle: 8 bytes per cycle
  CHECK(alone.internalExchange(mk2, "x").cycles == 29 + 50);
  Traffic pairs;
  pairs.add(0, 2, 400);
  pairs.add(1, 3, 400); // both tiles of each supertile busy: 4 per cycle
  CHECK(pairs.internalExchange(mk2, "x").cycles == 29 + 100);
  // Tile 0 sends while its neighbour receives: each direction is free.
  Traffic mixed;
  mixed.add(0, 4, 400);
  mixed.add(6, 1, 400);
  CHECK(mixed.internalExchange(mk2, "x").cycles == 29 + 50);
}

TEST_CASE("Exchanges between IPUs are external, limited by tiles and links",
          "[model][exchange]") {
  const Target two = target("ipu2", 4, 2);
  Traffic t;
  t.add(0, 4, 400); // IPU 0 to IPU 1
  t.add(0, 1, 40);  // within IPU 0
  const ExchangeEstimate ext = t.externalExchange(two, "x");
  REQUIRE(ext.tiles.size() == 2);
  // The tile's port (400 / 4 = 100) is slower than the links (400 bytes at
  // 27.2 GB/s and 1.33 GHz: 20 cycles).
  CHECK(ext.cycles == 29 + 100);
  CHECK(ext.totalBytes == 400);
  const ExchangeEstimate in = t.internalExchange(two, "x");
  CHECK(in.totalBytes == 40);
}

TEST_CASE("Host exchanges move the total at the host link's rate",
          "[model][exchange]") {
  const Target mk1 = target("ipu1", 4); // 8 GB/s at 1.6 GHz: 5 B/cycle
  std::map<unsigned, std::pair<std::uint64_t, unsigned>> perTile = {
      {0, {1000, 1}}, {1, {1000, 1}}, {2, {1000, 1}}, {3, {1000, 1}}};
  const ExchangeEstimate e = hostExchange(mk1, "s", perTile, true);
  CHECK(e.cycles == 800); // 4000 / 5, more than a tile's 1000 / 4
  CHECK(e.totalBytes == 4000);
  REQUIRE(e.tiles.size() == 4);
  CHECK(e.tiles[0].received == 1000);
  CHECK(e.tiles[0].cycles == 800);
  // One tile's port limits a small transfer to it.
  const ExchangeEstimate one = hostExchange(mk1, "s", {{2, {400, 1}}}, false);
  CHECK(one.cycles == 100);
  CHECK(one.tiles[0].sent == 400);
}

TEST_CASE("Pieces of strided storage are split where the tile changes",
          "[model][exchange]") {
  TileMapping m;
  m.assign(0, 10, 0);
  m.assign(10, 20, 1);
  std::vector<std::pair<unsigned, std::size_t>> pieces;
  forEachTilePiece(m, 1, 3, 7, [&](unsigned tile, std::size_t n) {
    pieces.push_back({tile, n});
  });
  // Elements 1 4 7 | 10 13 16 19.
  CHECK(pieces == std::vector<std::pair<unsigned, std::size_t>>{{0, 3}, {1, 4}});
  pieces.clear();
  forEachTilePiece(m, 19, -4, 5, [&](unsigned tile, std::size_t n) {
    pieces.push_back({tile, n});
  });
  // Elements 19 15 11 | 7 3.
  CHECK(pieces == std::vector<std::pair<unsigned, std::size_t>>{{1, 3}, {0, 2}});
  std::vector<std::tuple<unsigned, unsigned, std::size_t>> copy;
  TileMapping d;
  d.assign(0, 5, 2);
  d.assign(5, 20, 3);
  forEachCopyPiece(m, 0, 1, d, 0, 1, 20, [&](unsigned s, unsigned t, std::size_t n) {
    copy.push_back({s, t, n});
  });
  CHECK(copy == std::vector<std::tuple<unsigned, unsigned, std::size_t>>{
                    {0, 2, 5}, {0, 3, 5}, {1, 3, 10}});
}

// The .gp trailer: written by popc, checked by the runtime before dlopen.
#include <catch2/catch.hpp>

#include "codelet/GraphProgramFile.hpp"

#include <fstream>
#include <iterator>
#include <string>

namespace gp = poplar::gp;
using Catch::Matchers::Contains;

namespace {

std::string path(const std::string &name) {
  return std::string(POPC_TEST_OUT) + "/" + name;
}

void write(const std::string &file, const std::string &bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

std::string read(const std::string &file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A valid .gp whose "shared object" is `payload`.
std::string makeGp(const std::string &name, const std::string &payload) {
  std::string file = path(name);
  write(file, payload);
  std::string why;
  REQUIRE(gp::appendTrailer(file, why));
  return file;
}

} // namespace

TEST_CASE("FNV-1a-64 has the reference values", "[popc][gp]") {
  CHECK(gp::fnv1a64("", 0) == 0xcbf29ce484222325ull);
  CHECK(gp::fnv1a64("a", 1) == 0xaf63dc4c8601ec8cull);
  CHECK(gp::fnv1a64("foobar", 6) == 0x85944171f73967e8ull);
  // Hashing in pieces is hashing the whole.
  CHECK(gp::fnv1a64("bar", 3, gp::fnv1a64("foo", 3)) == gp::fnv1a64("foobar", 6));
}

TEST_CASE("The trailer is the hash, the size and the magic", "[popc][gp]") {
  std::string payload(1000, '\0');
  for (std::size_t i = 0; i != payload.size(); ++i)
    payload[i] = char(i * 7);
  std::string file = makeGp("trailer.gp", payload);
  std::string bytes = read(file);
  REQUIRE(bytes.size() == payload.size() + gp::trailerSize);
  CHECK(bytes.compare(0, payload.size(), payload) == 0);
  CHECK(bytes.substr(bytes.size() - 8) == "POPLARGP");
  gp::Trailer t;
  REQUIRE(gp::decodeTrailer(
      reinterpret_cast<const unsigned char *>(bytes.data()) + payload.size(), t));
  CHECK(t.payloadSize == 1000);
  CHECK(t.hash == gp::fnv1a64(payload.data(), payload.size()));
  // Little-endian: the size's low byte first.
  CHECK(static_cast<unsigned char>(bytes[payload.size() + 8]) == (1000 & 0xff));
  CHECK(static_cast<unsigned char>(bytes[payload.size() + 9]) == (1000 >> 8));
  std::string why;
  CHECK(gp::validate(file, why));
}

TEST_CASE("Corrupt .gp files are refused with a reason", "[popc][gp]") {
  std::string payload(5000, 'x');
  std::string good = read(makeGp("good.gp", payload));
  std::string why;

  SECTION("missing") {
    CHECK_FALSE(gp::validate(path("no-such.gp"), why));
    CHECK_THAT(why, Contains("cannot open"));
  }
  SECTION("shorter than a trailer") {
    write(path("short.gp"), "POPLARGP");
    CHECK_FALSE(gp::validate(path("short.gp"), why));
    CHECK_THAT(why, Contains("too short"));
  }
  SECTION("truncated at the end") {
    write(path("cut.gp"), good.substr(0, good.size() - 1));
    CHECK_FALSE(gp::validate(path("cut.gp"), why));
    CHECK_THAT(why, Contains("no POPLARGP trailer"));
  }
  SECTION("missing bytes before the trailer") {
    write(path("gap.gp"), good.substr(100));
    CHECK_FALSE(gp::validate(path("gap.gp"), why));
    CHECK_THAT(why, Contains("records 5000 bytes but 4900 precede it"));
  }
  SECTION("garbage") {
    std::string garbage(4096, '\0');
    for (std::size_t i = 0; i != garbage.size(); ++i)
      garbage[i] = char((i * 2654435761u) >> 13);
    write(path("garbage.gp"), garbage);
    CHECK_FALSE(gp::validate(path("garbage.gp"), why));
    CHECK_THAT(why, Contains("not a graph program file"));
  }
  SECTION("a changed byte") {
    std::string bad = good;
    bad[1234] ^= 0x10;
    write(path("flipped.gp"), bad);
    CHECK_FALSE(gp::validate(path("flipped.gp"), why));
    CHECK_THAT(why, Contains("do not match the hash"));
  }
}

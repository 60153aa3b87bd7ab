// ProfileValue: the five kinds, accessors, and the JSON and CBOR encodings.
#include <catch2/catch.hpp>

#include <poplar/ProfileValue.hpp>
#include <poplar/exceptions.hpp>

#include <nlohmann/json.hpp>

#include <sstream>

using namespace poplar;

TEST_CASE("ProfileValue holds maps, vectors, strings, numbers and booleans",
          "[profiling][profilevalue]") {
  ProfileValue::Map m;
  m["name"] = "OnTileExecute";
  m["cycles"] = std::uint64_t(1234);
  m["balance"] = 0.5;
  m["ok"] = true;
  m["list"] = ProfileValue::Vector{1, 2, 3};
  const ProfileValue v(m);
  CHECK(v.type() == ProfileValue::Type::MAP);
  CHECK(v.size() == 5);
  CHECK(v["name"] == "OnTileExecute");
  CHECK(v["name"].asString() == "OnTileExecute");
  CHECK(v["cycles"].asUint() == 1234);
  CHECK(v["cycles"].asInt() == 1234);
  CHECK(v["balance"].asDouble() == 0.5);
  CHECK(v["ok"].asBool());
  CHECK(v["list"][1].asUint() == 2);
  CHECK(v["list"].sumUint() == 6);
  CHECK(v["list"].toUintVector() == std::vector<std::uint64_t>{1, 2, 3});
  CHECK(v.getOrNull("missing") == nullptr);
  CHECK(v.getOrNull("ok") != nullptr);
  const ProfileValue table(ProfileValue::Vector{ProfileValue::Vector{1, 2},
                                                ProfileValue::Vector{3}});
  CHECK(table.sum2DUint() == 6);
  CHECK(table.sum2DInt() == 6);

  // Copies are deep; moves leave the source empty of content.
  ProfileValue copy = v;
  CHECK(copy == v);
  ProfileValue moved = std::move(copy);
  CHECK(moved == v);
  CHECK(ProfileValue().type() == ProfileValue::Type::MAP);
  CHECK(ProfileValue().size() == 0);
}

TEST_CASE("ProfileValue accessors name the kind they found",
          "[profiling][profilevalue]") {
  const ProfileValue s("text");
  CHECK_THROWS_AS(s.asUint(), poplar_error);
  CHECK_THROWS_WITH(s.asVector(), Catch::Contains("a string"));
  CHECK_THROWS_AS(ProfileValue(1.5).asUint(), poplar_error);
  CHECK_THROWS_AS(ProfileValue(-1).asUint(), poplar_error);
  CHECK(ProfileValue(-1).asInt() == -1);
  CHECK_THROWS_AS(ProfileValue(ProfileValue::Vector{})[0], index_error);
  CHECK_THROWS_WITH(ProfileValue()["key"], Catch::Contains("'key'"));
}

TEST_CASE("ProfileValue serialises to JSON and CBOR", "[profiling][profilevalue]") {
  ProfileValue::Map m;
  m["a"] = ProfileValue::Vector{1, 2.5, "x", false};
  m["b"] = ProfileValue::Map{{"c", 3}};
  const ProfileValue v(m);
  std::ostringstream json;
  serializeToJSON(json, v);
  CHECK(json.str() == R"({"a":[1,2.5,"x",false],"b":{"c":3}})");
  std::ostringstream pretty;
  serializeToJSON(pretty, v, true);
  CHECK(pretty.str().find("\n  \"a\": [") != std::string::npos);
  std::ostringstream cbor;
  serializeToCBOR(cbor, v);
  const std::string bytes = cbor.str();
  const auto decoded = nlohmann::json::from_cbor(
      std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
  CHECK(decoded == nlohmann::json::parse(json.str()));
}

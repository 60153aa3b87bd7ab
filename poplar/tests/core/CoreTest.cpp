// Types, half conversion, option flags and debug contexts.
#include <catch2/catch.hpp>

#include "core/ElementConversion.hpp"
#include "core/Half.hpp"
#include "core/TypeInfo.hpp"

#include "HostHalf.hpp"

#include <poplar/DebugContext.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

using namespace poplar;
using Catch::Matchers::Contains;

TEST_CASE("Types have the device sizes and names of the guide", "[poplar][type]") {
  const Target t = Target::createCPUTarget();
  CHECK(t.getTypeSize(BOOL) == 1);
  CHECK(t.getTypeSize(CHAR) == 1);
  CHECK(t.getTypeSize(SIGNED_CHAR) == 1);
  CHECK(t.getTypeSize(UNSIGNED_CHAR) == 1);
  CHECK(t.getTypeSize(SHORT) == 2);
  CHECK(t.getTypeSize(UNSIGNED_SHORT) == 2);
  CHECK(t.getTypeSize(HALF) == 2);
  CHECK(t.getTypeSize(INT) == 4);
  CHECK(t.getTypeSize(UNSIGNED_INT) == 4);
  CHECK(t.getTypeSize(FLOAT) == 4);
  CHECK(t.getTypeSize(LONGLONG) == 8);
  CHECK(t.getTypeSize(UNSIGNED_LONGLONG) == 8);
  CHECK_THROWS_AS(t.getTypeSize(DOUBLE), type_error);
  CHECK(FLOAT.toString() == "float");
  CHECK(UNSIGNED_INT.toString() == "unsigned int");
  CHECK(LONGLONG.toString() == "long long");
  CHECK(HALF.toString() == "half");
  CHECK(FLOAT != HALF);
  CHECK(equivalent_device_type<int>().value == INT);
  CHECK(equivalent_device_type<float>().value == FLOAT);
  std::ostringstream os;
  os << UNSIGNED_SHORT;
  CHECK(os.str() == "unsigned short");
  CHECK(t.getVectorWidth(FLOAT) == 2);
  CHECK(t.getVectorWidth(HALF) == 4);
}

TEST_CASE("Half conversion rounds to nearest even", "[poplar][half]") {
  const float samples[] = {0.0f,     -0.0f,    1.0f,        1.5f,     -2.25f,
                           65504.0f, 65519.0f, 65520.0f,    1e-8f,    6.1e-5f,
                           5.96e-8f, 2.98e-8f, 2.99e-8f,    3.14159f, 1000.3f,
                           1e6f,     -1e-3f,   0.33333334f, 1.00049f, 1.0009766f};
  for (float f : samples) {
    const float back = halfToFloat(floatToHalf(f));
    INFO("value " << f);
    CHECK(back == sdktest::nearestHalf(f));
  }
  CHECK(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
  CHECK(floatToHalf(1.0f) == 0x3c00);
  CHECK(floatToHalf(-2.0f) == 0xc000);
  CHECK(halfToFloat(0x0001) == std::ldexp(1.0f, -24));
  CHECK(halfToFloat(0x7bff) == 65504.0f);

  // Every half survives the round trip and has the value the tests' own
  // decoding gives.
  for (unsigned bits = 0; bits != 0x10000; ++bits) {
    const float f = halfToFloat(static_cast<std::uint16_t>(bits));
    const float reference =
        sdktest::halfBitsToFloat(static_cast<std::uint16_t>(bits));
    if (std::isnan(f)) {
      REQUIRE(std::isnan(reference));
      continue;
    }
    REQUIRE(std::memcmp(&f, &reference, sizeof f) == 0);
    REQUIRE(floatToHalf(f) == bits);
  }

  const Target t = Target::createCPUTarget();
  const float in[3] = {1.0f, 0.5f, -3.0f};
  std::uint16_t halves[3];
  float out[3];
  copyFloatToDeviceHalf(t, in, halves, 3);
  copyDeviceHalfToFloat(t, halves, out, 3);
  CHECK(std::memcmp(in, out, sizeof in) == 0);
}

TEST_CASE("Elements convert between types as C++ casts do", "[poplar][type]") {
  const int ints[3] = {-1, 0, 7};
  float floats[3];
  convertElements(INT, ints, FLOAT, floats, 3);
  CHECK(floats[0] == -1.0f);
  CHECK(floats[2] == 7.0f);
  bool bools[3];
  convertElements(INT, ints, BOOL, bools, 3);
  CHECK(bools[0]);
  CHECK_FALSE(bools[1]);
  std::uint16_t halves[3];
  convertElements(INT, ints, HALF, halves, 3);
  CHECK(halfToFloat(halves[2]) == 7.0f);
  CHECK(elementAsInteger(HALF, &halves[0]) == -1);
  CHECK_THROWS_AS(convertElements(QUARTER, ints, FLOAT, floats, 1), type_error);
}

TEST_CASE("OptionFlags set, replace, find and read JSON", "[poplar][options]") {
  OptionFlags flags{{"a", "1"}, {"b", "x"}};
  flags.set("a", "2");
  CHECK(flags.at("a") == "2");
  CHECK(flags.size() == 2);
  CHECK(flags.find("c") == flags.end());
  CHECK_THROWS_AS(flags.at("c"), invalid_option);
  readJSON(R"({"c": "y", "d": true, "e": 3})", flags);
  CHECK(flags.at("c") == "y");
  CHECK(flags.at("d") == "true");
  CHECK(flags.at("e") == "3");
  std::ostringstream os;
  os << OptionFlags{{"k", "v"}};
  CHECK(os.str() == R"({"k":"v"})");
  CHECK_THROWS_WITH(readJSON("{not json", flags), Contains("not valid JSON"));
  CHECK_THROWS_AS(readJSON("[1,2]", flags), parse_error);
  CHECK_THROWS_AS(readJSON(R"({"k": [1]})", flags), parse_error);
}

TEST_CASE("DebugContext joins paths", "[poplar][debug]") {
  DebugContext parent("layer1");
  DebugContext child(parent, "add");
  CHECK(child.getPathName() == "layer1/add");
  DebugNameAndId named("out", 5, "net");
  CHECK(named.getPathName() == "net/out");
  CHECK(DebugContext(named, "x").getPathName() == "net/out/x");
  CHECK(DebugContext("").getPathName().empty());
}

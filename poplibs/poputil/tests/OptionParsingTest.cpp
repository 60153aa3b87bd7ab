// poplibs::OptionSpec: each handler parses its value, and bad names and
// values are poplar::invalid_option naming them.
#include <poputil/OptionParsing.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {
enum class Pass { NONE, FC_TRAINING_FWD, FC_INFERENCE_FWD };
}

TEST_CASE("OptionSpec parses each kind of option", "[poputil][options]") {
  unsigned tiles = 0;
  bool fast = false;
  double proportion = 0;
  std::string name;
  Pass pass = Pass::NONE;
  std::vector<unsigned> sizes;
  poplibs::OptionSpec spec{
      {"tilesPerIPU", poplibs::OptionHandler::createWithInteger(tiles)},
      {"fast", poplibs::OptionHandler::createWithBool(fast)},
      {"availableMemoryProportion",
       poplibs::OptionHandler::createWithDouble(proportion, 0.0, false, 1.0)},
      {"name", poplibs::OptionHandler::createWithString(name)},
      {"pass", poplibs::OptionHandler::createWithEnum(
                   pass, std::map<std::string, Pass>{
                             {"NONE", Pass::NONE},
                             {"FC_TRAINING_FWD", Pass::FC_TRAINING_FWD},
                             {"FC_INFERENCE_FWD", Pass::FC_INFERENCE_FWD}})},
      {"sizes", poplibs::OptionHandler::createWithList(sizes)}};
  spec.parse(poplar::OptionFlags{{"tilesPerIPU", "0x10"},
                                 {"fast", "true"},
                                 {"availableMemoryProportion", "0.25"},
                                 {"name", "layer 1"},
                                 {"pass", "FC_INFERENCE_FWD"},
                                 {"sizes", "3,1,4"}});
  CHECK(tiles == 16);
  CHECK(fast);
  CHECK(proportion == 0.25);
  CHECK(name == "layer 1");
  CHECK(pass == Pass::FC_INFERENCE_FWD);
  CHECK(sizes == std::vector<unsigned>{3, 1, 4});

  CHECK_THROWS_WITH(spec.parse("tiles", "4"),
                    Contains("'tiles'") && Contains("tilesPerIPU"));
  spec.parse("tiles", "4", true); // ignored
  CHECK_THROWS_WITH(spec.parse("tilesPerIPU", "4x"),
                    Contains("'4x'") && Contains("tilesPerIPU"));
  CHECK_THROWS_WITH(spec.parse("fast", "yes"),
                    Contains("'true'") && Contains("'fast'"));
  CHECK_THROWS_WITH(spec.parse("availableMemoryProportion", "0"),
                    Contains("greater than 0"));
  CHECK_THROWS_WITH(spec.parse("availableMemoryProportion", "1.5"),
                    Contains("less than or equal to 1"));
  CHECK_THROWS_WITH(spec.parse("pass", "FC"),
                    Contains("'FC_TRAINING_FWD'") && Contains("'pass'"));
  CHECK_THROWS_WITH(spec.parse("sizes", "3,,4"), Contains("'sizes'"));
  CHECK_THROWS_AS(spec.parse("sizes", "3,x"), poplar::invalid_option);
}

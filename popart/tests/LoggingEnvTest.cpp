// A POPART_LOG_LEVEL that is not a level (set by CTest to "LOUD") is a
// popart::error naming the variable, raised on first use of logging.
#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <catch2/catch.hpp>

TEST_CASE("A bad POPART_LOG_LEVEL is reported, not a crash", "[popart][logging]") {
  using namespace popart;
  REQUIRE_THROWS_WITH(logging::getLogLevel(logging::Module::ir),
                      Catch::Contains("POPART_LOG_LEVEL") && Catch::Contains("LOUD"));
  // Every use reports it again.
  REQUIRE_THROWS_AS(logging::shouldLog(logging::Module::session, logging::Level::Info),
                    popart::error);
}

// Logging configured by the environment (set by CTest): POPART_LOG_LEVEL
// DEBUG for every module, POPART_LOG_CONFIG overriding some modules, and
// POPART_LOG_DEST naming a file.
#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

using namespace popart;

namespace {
std::string logText() {
  logging::flush(logging::Module::session);
  std::ifstream in(POPART_TEST_LOG_FILE);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
} // namespace

TEST_CASE("Levels come from POPART_LOG_LEVEL and POPART_LOG_CONFIG",
          "[popart][logging]") {
  // data/log_config.json: devicex INFO, session DEBUG, ir OFF.
  REQUIRE(logging::getLogLevel(logging::Module::builder) == logging::Level::Debug);
  REQUIRE(logging::getLogLevel(logging::Module::devicex) == logging::Level::Info);
  REQUIRE(logging::getLogLevel(logging::Module::ir) == logging::Level::Off);
  REQUIRE(logging::shouldLog(logging::Module::devicex, logging::Level::Warn));
  REQUIRE_FALSE(logging::shouldLog(logging::Module::devicex, logging::Level::Debug));
}

TEST_CASE("Lines have the guide's format and reach POPART_LOG_DEST",
          "[popart][logging]") {
  logging::session::debug("A line with {} and {}", 42, "text");
  logging::ir::info("not written: ir is off");
  const std::string text = logText();
  std::regex line(R"(\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] \[popart:session\] \[debug\] A line with 42 and text)");
  REQUIRE(std::regex_search(text, line));
  REQUIRE(text.find("not written") == std::string::npos);
}

TEST_CASE("Levels set from the program", "[popart][logging]") {
  logging::setLogLevel(logging::Module::ir, logging::Level::Trace);
  REQUIRE(logging::ir::isEnabled(logging::Level::Trace));
  logger::setLevel("session", "OFF");
  REQUIRE(logging::getLogLevel(logging::Module::session) == logging::Level::Off);
  logger::setLevel("popart", "WARN");
  REQUIRE(logging::getLogLevel(logging::Module::devicex) == logging::Level::Warn);
  logging::configure({{"builder", "ERR"}});
  REQUIRE(logging::getLogLevel(logging::Module::builder) == logging::Level::Err);
  REQUIRE_THROWS_AS(logger::setLevel("session", "LOUD"), popart::error);
  REQUIRE_THROWS_AS(logging::configure({{"nosuchmodule", "INFO"}}), popart::error);
}

TEST_CASE("The builder logs what it adds", "[popart][logging]") {
  logging::setLogLevel(logging::Module::builder, logging::Level::Debug);
  auto b = Builder::create();
  b->addInputTensor(TensorInfo("FLOAT", Shape{3}), "loggedInput");
  REQUIRE(logText().find("[popart:builder] [debug] Added input tensor 'loggedInput'") !=
          std::string::npos);
}

// poputil/DebugInfo.hpp and poplar's DebugInfo: the records an operation
// makes (API, arguments by their own names, outputs, parent, the caller's
// source location), read back through the streamer as JSON and CBOR.
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Target.hpp>
#include <poputil/DebugInfo.hpp>

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

using namespace poplar;
using Catch::Matchers::Contains;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// An operation as PopLibs writes one: its record names the arguments.
DebugId myOperation(Graph &graph, const Tensor &input, unsigned factor,
                    const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, factor));
  Tensor out = graph.addVariable(FLOAT, {2, 3}, {di, "out"});
  di.addOutput(out);
  // A nested operation's record names this one as its parent.
  poputil::PoplibsOpDebugInfo inner({di, "inner"}, {}, "innerOperation");
  return di.getId();
}

} // namespace

TEST_CASE("PoplibsOpDebugInfo records the API, arguments and outputs",
          "[poputil][debuginfo]") {
  const std::string path = "debuginfo_test.json";
  DebugInfo::initializeStreamer(path, DebugSerializationFormat::JSON);
  Graph graph(Target::createCPUTarget());
  Tensor input = graph.addVariable(HALF, {4}, "input");
  const DebugId id = myOperation(graph, input, 7u, "layer1");
  DebugInfo::closeStreamer();
  const std::string json = readFile(path);
  std::remove(path.c_str());
  CHECK_THAT(json, Contains("\"api\":\"myOperation\"") &&
                       Contains("\"layer\":\"poplibs\"") &&
                       Contains("\"name\":\"layer1\"") &&
                       Contains("\"factor\":7") &&
                       Contains("\"shape\":\"[4]\"") &&
                       Contains("\"type\":\"half\"") &&
                       Contains("\"shape\":\"[2, 3]\"") &&
                       Contains("\"api\":\"innerOperation\"") &&
                       Contains("\"name\":\"layer1/inner\"") &&
                       Contains("\"parentId\":" + std::to_string(id)) &&
                       Contains("DebugInfoTest.cpp"));
  CHECK(json.front() == '[');
  CHECK(json.find(']') != std::string::npos);
}

TEST_CASE("DebugInfo ids increase, contexts carry them, CBOR is an array",
          "[poputil][debuginfo]") {
  const std::string path = "debuginfo_test.cbor";
  DebugInfo::initializeStreamer(path);
  DebugId first, second;
  {
    poputil::OpDebugInfo a("a", "opA");
    poputil::OpDebugInfo b(DebugContext(a, "b"), "opB");
    first = a.getId();
    second = b.getId();
    CHECK(DebugContext(a, "x").getId() == first);
    CHECK(DebugNameAndId(b).getId() == second);
    CHECK(b.getPathName() == "a/b");
  }
  DebugInfo::closeStreamer();
  CHECK(second > first);
  const std::string cbor = readFile(path);
  std::remove(path.c_str());
  REQUIRE(cbor.size() > 2);
  CHECK(static_cast<unsigned char>(cbor.front()) == 0x9f);
  CHECK(static_cast<unsigned char>(cbor.back()) == 0xff);
  CHECK_THAT(cbor, Contains("opA") && Contains("opB"));
}

TEST_CASE("toProfileValue of containers and pointers", "[poputil][debuginfo]") {
  const std::vector<unsigned> v{3, 4};
  CHECK(poputil::toProfileValue(v)["1"].asUint() == 4);
  const std::pair<int, float> p{-2, 0.5f};
  CHECK(poputil::toProfileValue(p)["first"].asInt() == -2);
  const int *none = nullptr;
  CHECK(poputil::toProfileValue(none).asString() == "<nullptr>");
  CHECK(poputil::toProfileValue(Tensor()).asString() ==
        "<poplar::Tensor> - uninitialized");
  CHECK_THROWS_AS(DebugInfo::initializeStreamer("/no/such/dir/x.cbor"),
                  poplar_error);
}

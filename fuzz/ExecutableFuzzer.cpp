// Serialised executables read back: Poplar's executable files
// (Executable::deserialize, then an Engine made from it and loaded on an IPU
// Model device) and PopART's .popef files (Session::loadExecutableFromStream,
// then prepareDevice). The first byte of the input chooses what the rest is:
//   0: a whole Poplar executable file;
//   1: the body of one (after the codelet libraries it carries), wrapped
//      with the magic, header and checksums of a valid file, so that the
//      decoder behind the checksums is reached;
//   2: a whole .popef file;
//   3: its "popart" metadata section, the other sections valid;
//   4: its "variables" section, the other sections valid.
// Every failure must be a poplar::poplar_error or a popart::error.
//
// SDK_FUZZ_WRITE_SEEDS=<dir>: write one seed for each mode into <dir> and
// exit (scripts/fuzz.sh makes the seed corpus this way).
#include "FuzzSupport.hpp"

#include "compile/BinaryStream.hpp"
#include "session/PopefFile.hpp"

#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/session.hpp>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <zlib.h>

#include <fstream>
#include <sstream>

namespace {

poplar::IPUModel smallModel() {
  poplar::IPUModel model;
  model.tilesPerIPU = 4;
  return model;
}

// c = a + b over four tiles, streamed in and out, repeated twice.
std::string makePoplarExecutable() {
  poplar::Graph graph(smallModel().createDevice().getTarget());
  popops::addCodelets(graph);
  auto a = graph.addVariable(poplar::FLOAT, {8}, "a");
  auto b = graph.addVariable(poplar::FLOAT, {8}, "b");
  for (unsigned tile = 0; tile != 4; ++tile) {
    graph.setTileMapping(a.slice(2 * tile, 2 * tile + 2), tile);
    graph.setTileMapping(b.slice(2 * tile, 2 * tile + 2), tile);
  }
  auto in = graph.addHostToDeviceFIFO("in", poplar::FLOAT, 8);
  auto out = graph.addDeviceToHostFIFO("out", poplar::FLOAT, 8);
  poplar::program::Sequence body;
  body.add(poplar::program::Copy(in, a));
  auto c = popops::add(graph, a, b, body, "add");
  body.add(poplar::program::Copy(c, out));
  poplar::program::Sequence prog{poplar::program::Repeat(2, body)};
  std::ostringstream bytes;
  poplar::compileGraph(graph, {prog}).serialize(bytes);
  return bytes.str();
}

// The Poplar file's parts: the fixed start (magic, version, header length),
// the header fields up to the payload's size and checksum, and the payload:
// the codelet libraries, then the body.
struct PoplarFile {
  std::string start, headerFields, libraries, body;
};

std::uint32_t getU32(const std::string &s, std::size_t at) {
  std::uint32_t v = 0;
  for (unsigned i = 0; i != 4; ++i)
    v |= std::uint32_t(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return v;
}

void putU32(std::string &out, std::uint32_t v) {
  for (unsigned i = 0; i != 4; ++i)
    out.push_back(static_cast<char>(v >> (8 * i)));
}

std::uint32_t crcOf(const std::string &s) {
  return static_cast<std::uint32_t>(
      crc32_z(0, reinterpret_cast<const Bytef *>(s.data()), s.size()));
}

PoplarFile splitPoplarFile(const std::string &file) {
  PoplarFile parts;
  parts.start = file.substr(0, 12);
  const std::uint32_t headerSize = getU32(file, 12);
  const std::string header = file.substr(16, headerSize);
  poplar::binary::Reader h(header.data(), header.size());
  for (int field = 0; field != 4; ++field) // SDK version, target x2, name
    h.str();
  parts.headerFields = header.substr(0, header.size() - h.left());
  const std::string payload = file.substr(16 + headerSize + 4);
  poplar::binary::Reader p(payload.data(), payload.size());
  for (std::size_t n = p.u64(); n != 0; --n) {
    p.str();
    p.u64();
    p.str();
  }
  parts.libraries = payload.substr(0, payload.size() - p.left());
  parts.body = payload.substr(parts.libraries.size());
  return parts;
}

std::string joinPoplarFile(const PoplarFile &parts) {
  const std::string payload = parts.libraries + parts.body;
  poplar::binary::Writer tail;
  tail.u64(payload.size());
  tail.u64(crcOf(payload));
  const std::string header = parts.headerFields + tail.bytes();
  std::string out = parts.start;
  putU32(out, static_cast<std::uint32_t>(header.size()));
  out += header;
  putU32(out, crcOf(header));
  return out + payload;
}

struct PopartModel {
  std::string proto, output;
};

// relu(x W + b), the weights initialised.
PopartModel makePopartModel() {
  auto builder = popart::Builder::create();
  auto o = builder->aiOnnxOpset13();
  std::vector<float> w(12, 0.25f), b(4, 0.5f);
  auto x = builder->addInputTensor(
      popart::TensorInfo(popart::DataType::FLOAT, popart::Shape{2, 3}), "x");
  auto wId = builder->addInitializedInputTensor(popart::ConstVoidData(
      w.data(), popart::TensorInfo(popart::DataType::FLOAT, popart::Shape{3, 4})));
  auto bId = builder->addInitializedInputTensor(popart::ConstVoidData(
      b.data(), popart::TensorInfo(popart::DataType::FLOAT, popart::Shape{4})));
  PopartModel m;
  m.output = o.relu({o.add({o.matmul({x, wId}), bId})});
  builder->addOutputTensor(m.output);
  m.proto = builder->getModelProto();
  return m;
}

std::unique_ptr<popart::InferenceSession> popartSession(const PopartModel &m) {
  static auto device = popart::DeviceManager::createDeviceManager().createCpuDevice();
  return popart::InferenceSession::createFromOnnxModel(
      m.proto, popart::DataFlow(1, {{m.output, popart::AnchorReturnType("All")}}),
      device);
}

// A .popef file with the given sections, in the order PopART writes them.
std::string popefWith(const std::map<std::string, std::string> &sections) {
  popart::popef::Writer w;
  for (const char *name : {"popart", "poplar", "variables"})
    if (auto it = sections.find(name); it != sections.end())
      w.add(name, it->second);
  std::ostringstream out;
  w.write(out);
  return out.str();
}

struct Valid {
  PoplarFile poplar;
  PopartModel model;
  std::map<std::string, std::string> popefSections;
};

const Valid &valid() {
  static const Valid v = [] {
    Valid v;
    v.poplar = splitPoplarFile(makePoplarExecutable());
    v.model = makePopartModel();
    auto session = popartSession(v.model);
    std::ostringstream exported;
    session->compileAndExport(exported);
    std::istringstream in(exported.str());
    auto file = popart::popef::Reader::fromStream(in, "the seed");
    for (const char *name : {"popart", "poplar", "variables"})
      if (file.has(name))
        v.popefSections[name] = file.section(name);
    return v;
  }();
  return v;
}

void loadPoplar(const std::string &file) {
  static auto device = smallModel().createDevice();
  std::istringstream in(file);
  poplar::Engine engine(poplar::Executable::deserialize(in));
  engine.load(device);
}

void loadPopef(const std::string &file) {
  auto session = popartSession(valid().model);
  session->loadExecutableFromStream(std::make_shared<std::istringstream>(file));
  session->prepareDevice();
}

void run(unsigned mode, const std::string &rest) {
  const Valid &v = valid();
  switch (mode) {
  case 0:
    return loadPoplar(rest);
  case 1: {
    PoplarFile parts = v.poplar;
    parts.body = rest;
    return loadPoplar(joinPoplarFile(parts));
  }
  case 2:
    return loadPopef(rest);
  default: {
    auto sections = v.popefSections;
    sections[mode == 3 ? "popart" : "variables"] = rest;
    return loadPopef(popefWith(sections));
  }
  }
}

void writeSeeds(const std::string &dir) {
  const Valid &v = valid();
  const std::string seeds[] = {joinPoplarFile(v.poplar), v.poplar.body,
                               popefWith(v.popefSections),
                               v.popefSections.at("popart"),
                               v.popefSections.at("variables")};
  for (unsigned mode = 0; mode != 5; ++mode) {
    std::ofstream out(dir + "/mode" + std::to_string(mode), std::ios::binary);
    out.put(static_cast<char>(mode));
    out << seeds[mode];
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::enterScratchDirectory();
  if (const char *dir = std::getenv("SDK_FUZZ_WRITE_SEEDS")) {
    writeSeeds(dir);
    std::exit(0);
  }
  valid();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string rest(reinterpret_cast<const char *>(data) + 1, size - 1);
  try {
    run(data[0] % 5, rest);
  } catch (const poplar::poplar_error &) {
  } catch (const popart::error &) {
  } catch (const poputil::poplibs_error &) {
  }
  return 0;
}

// debug.cbor and archive.a (README.md in this folder has their layouts).
#include "profiling/ReportFiles.hpp"

#include <poplar/exceptions.hpp>

#include <nlohmann/json.hpp>

#include <ctime>
#include <fstream>
#include <sstream>

namespace poplar::profiling {
namespace {

using json = nlohmann::json;

const char *stepKindName(exec::Step::Kind k) {
  using K = exec::Step::Kind;
  switch (k) {
  case K::Sequence:
    return "Sequence";
  case K::Execute:
    return "Execute";
  case K::Repeat:
    return "Repeat";
  case K::RepeatWhile:
    return "RepeatWhile";
  case K::If:
    return "If";
  case K::Switch:
    return "Switch";
  case K::CopyTensors:
    return "Copy";
  case K::StreamToTensor:
    return "StreamToTensor";
  case K::TensorToStream:
    return "TensorToStream";
  case K::RemoteToTensor:
    return "RemoteToTensor";
  case K::TensorToRemote:
    return "TensorToRemote";
  case K::WriteUndef:
    return "WriteUndef";
  case K::Sync:
    return "Sync";
  case K::CrossReplicaCopy:
    return "CrossReplicaCopy";
  case K::CrossReplicaCollective:
    return "CrossReplicaCollective";
  case K::Call:
    return "Call";
  case K::PrintTensor:
    return "PrintTensor";
  case K::Abort:
    return "Abort";
  case K::AbortOnCondition:
    return "AbortOnCondition";
  }
  return "Unknown";
}

// Programs of a target without estimates: the lowered steps, numbered in
// pre-order.
unsigned flatten(const exec::Step &s, json &programs) {
  const unsigned id = static_cast<unsigned>(programs.size());
  programs.push_back(json::object());
  json children = json::array();
  for (const auto &c : s.children)
    children.push_back(flatten(c, programs));
  json &p = programs[id];
  p["id"] = id;
  p["type"] = stepKindName(s.kind);
  p["name"] = s.name;
  p["children"] = std::move(children);
  if (s.kind == exec::Step::Kind::Execute)
    p["computeSet"] = s.computeSet;
  if (s.kind == exec::Step::Kind::Call)
    p["function"] = s.function;
  if (s.kind == exec::Step::Kind::Repeat)
    p["repeatCount"] = s.count;
  return id;
}

std::string octal(unsigned v) {
  std::ostringstream os;
  os << std::oct << v;
  return os.str();
}

} // namespace

std::vector<std::uint8_t> debugInfoCBOR(const Executable::Impl &exe,
                                        const std::string &engineName) {
  json d;
  d["format"] = "poplar-debug-info";
  d["formatVersion"] = debugInfoFormatVersion;
  d["sdkVersion"] = sdkVersion();
  d["created"] = timestampUTC();
  d["engine"] = engineName;
  d["target"] = {{"type", toString(exe.target.getTargetType())},
                 {"architecture", exe.target.getTargetArchString()},
                 {"numTiles", exe.target.getNumTiles()}};

  json variables = json::array();
  for (std::size_t i = 0; i != exe.variables.size(); ++i) {
    const auto &v = exe.variables[i];
    variables.push_back({{"id", i},
                         {"name", v.name},
                         {"type", v.type.toString().str()},
                         {"numElements", v.numElements},
                         {"constant", v.isConstant}});
  }
  d["variables"] = std::move(variables);

  json types = json::array();
  for (const auto &t : exe.vertexTypes)
    types.push_back(t.name);
  d["vertexTypes"] = std::move(types);

  json computeSets = json::array();
  json programs = json::array();
  json control = json::array(), functions = json::array();
  if (const model::Estimates *est = exe.estimates.get()) {
    // IPU targets: the ids are those of profile.pop and the graph profile.
    for (std::size_t i = 0; i != est->computeSets.size(); ++i)
      computeSets.push_back({{"id", i},
                             {"name", est->computeSets[i].name},
                             {"numVertices", est->computeSets[i].numVertices},
                             {"generated", i >= exe.computeSets.size()}});
    for (std::size_t i = 0; i != est->programs.size(); ++i) {
      const auto &p = est->programs[i];
      json node = {{"id", i}, {"type", p.type}, {"name", p.name},
                   {"children", p.children}};
      if (p.computeSet >= 0)
        node["computeSet"] = p.computeSet;
      if (p.target >= 0)
        node["function"] = p.target;
      if (p.type == "Repeat")
        node["repeatCount"] = p.count;
      programs.push_back(std::move(node));
    }
    control = est->controlPrograms;
    functions = est->functionPrograms;
  } else {
    for (std::size_t i = 0; i != exe.computeSets.size(); ++i)
      computeSets.push_back({{"id", i},
                             {"name", exe.computeSets[i].name},
                             {"numVertices", exe.computeSets[i].vertices.size()},
                             {"generated", false}});
    for (const auto &p : exe.programs)
      control.push_back(flatten(p, programs));
    for (const auto &f : exe.functions)
      functions.push_back(flatten(f, programs));
  }
  d["computeSets"] = std::move(computeSets);
  d["programs"] = std::move(programs);
  d["controlPrograms"] = std::move(control);
  d["functionPrograms"] = std::move(functions);

  json streams = json::array();
  for (const auto &s : exe.streams)
    streams.push_back({{"handle", s.handle},
                       {"type", s.type.toString().str()},
                       {"numElements", s.numElements},
                       {"direction", s.direction == DataStreamType::HostToDeviceFIFO
                                         ? "HostToDevice"
                                         : "DeviceToHost"}});
  d["streams"] = std::move(streams);
  json buffers = json::array();
  for (const auto &b : exe.remoteBuffers)
    buffers.push_back({{"handle", b.handle},
                       {"type", b.type.toString().str()},
                       {"numElements", b.numElements},
                       {"repeats", b.repeats}});
  d["remoteBuffers"] = std::move(buffers);
  json writes = json::array(), reads = json::array();
  for (const auto &[name, access] : exe.hostWrites)
    writes.push_back({{"handle", name}, {"tensor", access.name}});
  for (const auto &[name, access] : exe.hostReads)
    reads.push_back({{"handle", name}, {"tensor", access.name}});
  d["hostWrites"] = std::move(writes);
  d["hostReads"] = std::move(reads);
  return json::to_cbor(d);
}

void writeArArchive(const std::string &path,
                    const std::vector<std::pair<std::string, std::string>> &members) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw poplar_error("Cannot write the archive '" + path + "'");
  out << "!<arch>\n";
  const long long now = static_cast<long long>(std::time(nullptr));
  for (const auto &[name, data] : members) {
    // A 60-byte header of space-padded fields: name (ended by '/', the
    // GNU way), date, owner, group, mode, size, then "`\n".
    char header[61];
    std::snprintf(header, sizeof header, "%-16s%-12lld%-6d%-6d%-8s%-10zu`\n",
                  (name + "/").c_str(), now, 0, 0, octal(0100644).c_str(),
                  data.size());
    out.write(header, 60);
    out << data;
    if (data.size() % 2 != 0)
      out << '\n';
  }
  if (!out)
    throw poplar_error("Cannot write the archive '" + path + "'");
}

void writeArchive(const std::string &path, const model::Estimates &est) {
  std::ostringstream graph;
  serializeToJSON(graph, graphProfile(est));
  std::ostringstream tiles;
  tiles << "tile,ipu,totalBytes,totalBytesIncludingGaps,nonInterleavedBytes,"
           "interleavedBytes,overflowedBytes\n";
  const auto &m = est.memory;
  for (unsigned t = 0; t != est.target.getNumTiles(); ++t)
    tiles << t << ',' << t / est.target.getTilesPerIPU() << ',' << m.total[t]
          << ',' << m.totalIncludingGaps[t] << ',' << m.byRegion[0][t] << ','
          << m.byRegion[1][t] << ',' << m.byRegion[2][t] << '\n';
  writeArArchive(path, {{"graph.json", graph.str()}, {"tiles.csv", tiles.str()}});
}

} // namespace poplar::profiling

// Encoding of Executable::Impl: every structure field by field, so the
// file does not depend on the host's struct layout or padding.
#include "compile/ExecutableCodec.hpp"

#include "codelet/CodeletLibrary.hpp"
#include "core/TypeInfo.hpp"

#include <map>
#include <sstream>

namespace poplar::codec {
namespace {

using binary::DecodeError;
using binary::Reader;
using binary::Writer;

// A step nested deeper than this is damage, not a program.
constexpr unsigned maxStepDepth = 10000;

void writeRuns(Writer &w, const std::vector<layout::FlatRun> &runs) {
  w.u64(runs.size());
  for (const auto &r : runs) {
    w.u64(r.begin);
    w.u64(r.length);
    w.u64(r.var);
    w.i64(r.start);
    w.i64(r.stride);
  }
}

void readRuns(Reader &r, std::vector<layout::FlatRun> &runs) {
  runs.resize(r.count(5));
  for (auto &x : runs) {
    x.begin = r.u64();
    x.length = r.u64();
    x.var = r.u64();
    x.start = r.i64();
    x.stride = r.i64();
  }
}

void writeAccess(Writer &w, const exec::TensorAccess &a) {
  writeRuns(w, a.runs);
  w.u64(a.numElements);
  writeType(w, a.type);
  w.u64(a.elementBytes);
  w.vec(a.shape);
  w.str(a.name);
}

void readAccess(Reader &r, exec::TensorAccess &a) {
  readRuns(r, a.runs);
  a.numElements = r.u64();
  a.type = readType(r);
  a.elementBytes = r.u64();
  r.vec(a.shape);
  a.name = r.str();
}

void writeScalar(Writer &w, const exec::ScalarRef &s) {
  w.u64(s.var);
  w.u64(s.element);
  writeType(w, s.type);
}

void readScalar(Reader &r, exec::ScalarRef &s) {
  s.var = r.u64();
  s.element = r.u64();
  s.type = readType(r);
}

void writeStep(Writer &w, const exec::Step &s) {
  w.pod(s.kind);
  w.str(s.name);
  w.u64(s.children.size());
  for (const auto &c : s.children)
    writeStep(w, c);
  w.u64(s.count);
  w.pod(s.whileTrue);
  writeScalar(w, s.scalar);
  w.u64(s.caseValues.size());
  for (auto v : s.caseValues)
    w.i64(v);
  w.pod(s.boundsChecked);
  w.u64(s.segments.size());
  for (const auto &g : s.segments) {
    w.u64(g.srcVar);
    w.u64(g.dstVar);
    w.i64(g.srcStart);
    w.i64(g.dstStart);
    w.i64(g.srcStride);
    w.i64(g.dstStride);
    w.u64(g.length);
  }
  w.u64(s.elementBytes);
  w.u64(s.copyElements);
  w.pod(s.staged);
  writeAccess(w, s.access);
  w.u64(s.stream);
  w.u64(s.remoteBuffer);
  w.u64(s.offsets.size());
  for (const auto &o : s.offsets)
    writeScalar(w, o);
  w.u64(s.computeSet);
  w.u64(s.function);
  w.pod(s.syncType);
  w.str(s.text);
  w.pod(s.formatted);
  const exec::PrintFormat &f = s.printFormat;
  for (std::uint32_t v : {f.summariseThreshold, f.edgeItems, f.maxLineWidth,
                          f.digits, f.floatFormat})
    w.pod(v);
  for (char c : {f.separator, f.openBracket, f.closeBracket})
    w.pod(c);
  writeAccess(w, s.dstAccess);
  w.vec(s.replicaMap);
  w.u64(s.replicaGroups.size());
  for (const auto &g : s.replicaGroups)
    w.vec(g);
  w.pod(s.collective);
  w.pod(s.collectiveOp);
  w.u64(s.simBegin);
  w.u64(s.simEnd);
}

void readStep(Reader &r, exec::Step &s, unsigned depth) {
  if (depth > maxStepDepth)
    throw DecodeError("its programs are nested too deeply");
  s.kind = r.pod<exec::Step::Kind>();
  if (s.kind > exec::Step::Kind::CrossReplicaCollective)
    throw DecodeError("a program step has an unknown kind");
  s.name = r.str();
  s.children.resize(r.count(20));
  for (auto &c : s.children)
    readStep(r, c, depth + 1);
  s.count = r.pod<unsigned>();
  s.whileTrue = r.pod<bool>();
  readScalar(r, s.scalar);
  s.caseValues.resize(r.count());
  for (auto &v : s.caseValues)
    v = static_cast<std::int32_t>(r.i64());
  s.boundsChecked = r.pod<bool>();
  s.segments.resize(r.count(7));
  for (auto &g : s.segments) {
    g.srcVar = r.u64();
    g.dstVar = r.u64();
    g.srcStart = r.i64();
    g.dstStart = r.i64();
    g.srcStride = r.i64();
    g.dstStride = r.i64();
    g.length = r.u64();
  }
  s.elementBytes = r.u64();
  s.copyElements = r.u64();
  s.staged = r.pod<bool>();
  readAccess(r, s.access);
  s.stream = r.u64();
  s.remoteBuffer = r.u64();
  s.offsets.resize(r.count(3));
  for (auto &o : s.offsets)
    readScalar(r, o);
  s.computeSet = r.pod<unsigned>();
  s.function = r.u64();
  s.syncType = r.pod<SyncType>();
  s.text = r.str();
  s.formatted = r.pod<bool>();
  exec::PrintFormat &f = s.printFormat;
  for (std::uint32_t *v : {&f.summariseThreshold, &f.edgeItems,
                           &f.maxLineWidth, &f.digits, &f.floatFormat})
    *v = r.pod<std::uint32_t>();
  for (char *c : {&f.separator, &f.openBracket, &f.closeBracket})
    *c = r.pod<char>();
  if (s.printFormat.floatFormat > 3)
    throw DecodeError("a print step has an unknown float format");
  readAccess(r, s.dstAccess);
  r.vec(s.replicaMap);
  s.replicaGroups.resize(r.count());
  for (auto &g : s.replicaGroups)
    r.vec(g);
  s.collective = r.pod<detail::CrossReplicaCollective>();
  if (s.collective > detail::CrossReplicaCollective::AllGather)
    throw DecodeError("a collective step has an unknown kind");
  s.collectiveOp = r.pod<detail::CrossReplicaOperator>();
  if (s.collectiveOp > detail::CrossReplicaOperator::LOCAL)
    throw DecodeError("a collective step has an unknown operator");
  s.simBegin = r.pod<std::uint32_t>();
  s.simEnd = r.pod<std::uint32_t>();
}

// An index into a compute set's arrays, which hold fewer than 2^32 items.
std::uint32_t checkedIndex(std::size_t i) {
  if (i >= ~std::uint32_t(0))
    throw DecodeError("a compute set has 2^32 or more vertex fields or edges");
  return static_cast<std::uint32_t>(i);
}

void writeRegion(Writer &w, const exec::ComputeSetPlan &cs,
                 const exec::EdgeRegion &e) {
  w.u64(e.numElements);
  w.pod(e.direct());
  if (e.direct()) {
    w.u64(e.var);
    w.u64(e.offset);
  } else {
    writeRuns(w, cs.runsOf(e));
  }
}

void readRegion(Reader &r, exec::ComputeSetPlan &cs, exec::EdgeRegion &e) {
  e.numElements = r.u64();
  if (r.pod<bool>()) { // direct
    const std::uint64_t var = r.u64();
    if (var > ~std::uint32_t(0))
      throw DecodeError("an edge refers to a variable that is not in the file");
    e.var = static_cast<std::uint32_t>(var);
    e.offset = r.u64();
  } else {
    e.gathered = checkedIndex(cs.gathered.size());
    readRuns(r, cs.gathered.emplace_back().runs);
  }
}

void writeComputeSet(Writer &w, const exec::ComputeSetPlan &cs) {
  w.str(cs.name);
  w.u64(cs.vertices.size());
  for (const auto &v : cs.vertices) {
    w.u64(v.id);
    w.u64(v.type);
    w.u64(v.tile);
    w.u64(v.cycles);
    w.u64(v.flops);
    w.pod(v.hasPerfEstimate);
    w.u64(v.numFields);
    for (const auto &f : cs.fieldsOf(v)) {
      w.u64(f.numRegions());
      for (const auto &e : cs.regionsOf(f))
        writeRegion(w, cs, e);
      // A field without state is written as empty state.
      const exec::FieldState &state = cs.stateOf(f);
      w.raw(state.bytes.data(), state.bytes.size());
      w.u64(state.elements);
    }
  }
}

void readComputeSet(Reader &r, exec::ComputeSetPlan &cs, std::size_t numTypes) {
  cs.name = r.str();
  cs.vertices.resize(r.count(7));
  for (auto &v : cs.vertices) {
    v.id = r.pod<unsigned>();
    v.type = r.pod<unsigned>();
    if (v.type >= numTypes)
      throw DecodeError("a vertex has a type that is not in the file");
    v.tile = r.pod<unsigned>();
    v.cycles = r.u64();
    v.flops = r.u64();
    v.hasPerfEstimate = r.pod<bool>();
    v.firstField = checkedIndex(cs.fields.size());
    v.numFields = checkedIndex(r.count(3));
    for (std::uint32_t i = 0; i != v.numFields; ++i) {
      exec::VertexFieldPlan f;
      f.first = checkedIndex(cs.regions.size());
      f.count = checkedIndex(r.count(2));
      for (std::uint32_t e = 0; e != f.count; ++e) {
        cs.regions.emplace_back();
        readRegion(r, cs, cs.regions.back());
      }
      exec::FieldState state;
      r.raw(state.bytes);
      state.elements = r.u64();
      // Only state fields have bytes.
      if (!state.bytes.empty() || state.elements != 0) {
        if (f.count != 0)
          throw DecodeError("a vertex field has both edges and state");
        f.first = checkedIndex(cs.states.size());
        f.count = exec::VertexFieldPlan::stateField;
        cs.states.push_back(std::move(state));
      }
      cs.fields.push_back(f);
    }
  }
}

void writeHandles(Writer &w,
                  const std::map<std::string, exec::TensorAccess, std::less<>> &m) {
  w.u64(m.size());
  for (const auto &[name, access] : m) {
    w.str(name);
    writeAccess(w, access);
  }
}

void readHandles(Reader &r,
                 std::map<std::string, exec::TensorAccess, std::less<>> &m) {
  const std::size_t n = r.count(2);
  for (std::size_t i = 0; i != n; ++i) {
    std::string name = r.str();
    readAccess(r, m[name]);
  }
}

const codelet_interface::VertexInfo *findVertex(const CodeletLibrary &library,
                                                const std::string &name) {
  const auto &table = library.table();
  for (std::size_t i = 0; i != table.numVertices; ++i)
    if (normaliseVertexName(table.vertices[i].name) == name)
      return &table.vertices[i];
  return nullptr;
}

} // namespace

void writeType(Writer &w, const Type &t) { w.pod(typeId(t)); }

Type readType(Reader &r) {
  const auto id = r.pod<TypeId>();
  if (id > TypeId::Double)
    throw DecodeError("an element type is unknown");
  return TypeBuilder::make(id);
}

void writeExecutable(Writer &w, const Executable::Impl &exe,
                     Libraries &libraries) {
  w.u64(exe.replicationFactor);
  {
    std::ostringstream device;
    exe.deviceTarget.serialize(device);
    w.str(device.str());
  }
  w.u64(exe.variables.size());
  for (const auto &v : exe.variables) {
    w.str(v.name);
    writeType(w, v.type);
    w.u64(v.numElements);
    w.u64(v.elementBytes);
    w.pod(v.isConstant);
    w.pod(v.isReplicationIndex);
    w.pod(v.isHwSeedState);
    w.raw(v.initialValue.data(), v.initialValue.size());
  }
  w.u64(exe.streams.size());
  for (const auto &s : exe.streams) {
    w.str(s.handle);
    writeType(w, s.type);
    w.u64(s.numElements);
    w.u64(s.elementBytes);
    w.pod(s.direction);
    w.pod(s.broadcast);
  }
  w.u64(exe.remoteBuffers.size());
  for (const auto &b : exe.remoteBuffers) {
    w.str(b.handle);
    writeType(w, b.type);
    w.u64(b.numElements);
    w.u64(b.repeats);
    w.u64(b.elementBytes);
  }
  writeHandles(w, exe.hostWrites);
  writeHandles(w, exe.hostReads);

  std::map<const CodeletLibrary *, std::size_t> libraryIndex;
  w.u64(exe.vertexTypes.size());
  for (const auto &t : exe.vertexTypes) {
    auto [it, added] = libraryIndex.emplace(t.library.get(), libraries.size());
    if (added)
      libraries.push_back(t.library);
    w.str(t.name);
    w.u64(it->second);
    w.vec(t.elementBytes);
  }
  w.u64(exe.computeSets.size());
  for (const auto &cs : exe.computeSets)
    writeComputeSet(w, cs);
  for (const auto *steps : {&exe.programs, &exe.functions}) {
    w.u64(steps->size());
    for (const auto &s : *steps)
      writeStep(w, s);
  }
  w.u64(exe.streamsUsed.size());
  for (const auto &used : exe.streamsUsed) {
    w.u64(used.size());
    for (auto s : used)
      w.u64(s);
  }
}

void readExecutable(Reader &r, Executable::Impl &exe,
                    const Libraries &libraries) {
  exe.replicationFactor = static_cast<unsigned>(r.u64());
  if (exe.replicationFactor == 0)
    throw DecodeError("its replication factor is 0");
  {
    std::istringstream device(r.str());
    try {
      exe.deviceTarget = Target::deserialize(device);
    } catch (const std::exception &e) {
      throw DecodeError(std::string("its device target cannot be read: ") +
                        e.what());
    }
  }
  exe.variables.resize(r.count(5));
  for (auto &v : exe.variables) {
    v.name = r.str();
    v.type = readType(r);
    v.numElements = r.u64();
    v.elementBytes = r.u64();
    v.isConstant = r.pod<bool>();
    v.isReplicationIndex = r.pod<bool>();
    v.isHwSeedState = r.pod<bool>();
    r.raw(v.initialValue);
    if (!v.initialValue.empty() &&
        v.initialValue.size() != v.numElements * v.elementBytes)
      throw DecodeError("the initial value of variable '" + v.name +
                        "' has the wrong size");
  }
  exe.streams.resize(r.count(5));
  for (auto &s : exe.streams) {
    s.handle = r.str();
    s.type = readType(r);
    s.numElements = r.u64();
    s.elementBytes = r.u64();
    s.direction = r.pod<DataStreamType>();
    s.broadcast = r.pod<bool>();
  }
  exe.remoteBuffers.resize(r.count(5));
  for (auto &b : exe.remoteBuffers) {
    b.handle = r.str();
    b.type = readType(r);
    b.numElements = r.u64();
    b.repeats = r.u64();
    b.elementBytes = r.u64();
  }
  readHandles(r, exe.hostWrites);
  readHandles(r, exe.hostReads);

  exe.vertexTypes.resize(r.count(3));
  for (auto &t : exe.vertexTypes) {
    t.name = r.str();
    const std::uint64_t lib = r.u64();
    if (lib >= libraries.size())
      throw DecodeError("vertex type '" + t.name +
                        "' names a codelet library the file does not have");
    t.library = libraries[lib];
    t.info = findVertex(*t.library, t.name);
    if (!t.info)
      throw DecodeError("vertex type '" + t.name +
                        "' is not in its codelet library");
    r.vec(t.elementBytes);
    if (t.elementBytes.size() != t.info->numFields)
      throw DecodeError("vertex type '" + t.name +
                        "' does not have the fields of its codelet");
  }
  exe.computeSets.resize(r.count(2));
  for (auto &cs : exe.computeSets)
    readComputeSet(r, cs, exe.vertexTypes.size());
  for (auto *steps : {&exe.programs, &exe.functions}) {
    steps->resize(r.count(20));
    for (auto &s : *steps)
      readStep(r, s, 0);
  }
  exe.streamsUsed.resize(r.count());
  if (exe.streamsUsed.size() != exe.programs.size())
    throw DecodeError("its stream table does not match its programs");
  for (auto &used : exe.streamsUsed) {
    const std::size_t n = r.count();
    for (std::size_t i = 0; i != n; ++i) {
      const std::uint64_t s = r.u64();
      if (s >= exe.streams.size())
        throw DecodeError("a program uses a stream the file does not have");
      used.insert(s);
    }
  }
}

} // namespace poplar::codec

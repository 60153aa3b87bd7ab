#include "model/MemoryModel.hpp"

#include "model/CycleModel.hpp"
#include "model/Liveness.hpp"
#include "model/ModelConstants.hpp"
#include "model/SharedBlock.hpp"

#include "core/TypeInfo.hpp"
#include "graph/GraphImpl.hpp"
#include "target/TargetBuilder.hpp"

#include <poplar/VectorLayout.hpp>
#include <poplar/exceptions.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace poplar::model {
namespace {

using codelet_interface::FieldInfo;
using codelet_interface::FieldKind;
using codelet_interface::FieldShape;

std::uint64_t alignUp(std::uint64_t x, std::uint64_t a) {
  return a <= 1 ? x : (x + a - 1) / a * a;
}

// Bytes of vertex state describing a vector with the given layout.
std::uint64_t vectorLayoutBytes(std::uint8_t layout) {
  switch (static_cast<VectorLayout>(layout)) {
  case VectorLayout::SPAN:
    return constants::spanBytes;
  case VectorLayout::ONE_PTR:
    return constants::pointerBytes;
  case VectorLayout::SHORT_SPAN:
  case VectorLayout::COMPACT_PTR:
    return constants::compactBytes;
  case VectorLayout::SCALED_PTR32:
  case VectorLayout::SCALED_PTR64:
  case VectorLayout::SCALED_PTR128:
    return constants::scaledPointerBytes;
  }
  return constants::spanBytes;
}

std::uint64_t elementBytesOf(const FieldInfo &f) {
  static const std::map<std::string, std::uint64_t> sizes = {
      {"float", 4}, {"half", 2}, {"bool", 1}, {"char", 1},
      {"signed char", 1}, {"unsigned char", 1}, {"short", 2},
      {"unsigned short", 2}, {"int", 4}, {"unsigned int", 4},
      {"long long", 8}, {"unsigned long long", 8}};
  auto it = f.elementType ? sizes.find(f.elementType) : sizes.end();
  return it == sizes.end() ? 4 : it->second;
}

// The state of one vertex on the device.
struct VertexBytes {
  std::uint64_t state = 0;       // scalar state and vector state pointers
  std::uint64_t edgePointers = 0;
  std::uint64_t descriptors = 0; // list items
  std::uint64_t fieldData = 0;   // values of vector state
  std::uint64_t padding = 0;
  std::uint64_t instance() const { return state + edgePointers + padding; }
};

// items(f): list items or state vector elements of field f.
template <class ItemsOf>
VertexBytes vertexBytes(const codelet_interface::VertexInfo &info,
                        ItemsOf &&items) {
  VertexBytes b;
  std::uint64_t offset = 0;
  for (std::size_t f = 0; f != info.numFields; ++f) {
    const FieldInfo &fi = info.fields[f];
    if (fi.kind == FieldKind::State) {
      if (fi.shape == FieldShape::Scalar) {
        const std::uint64_t size = elementBytesOf(fi);
        const std::uint64_t aligned = alignUp(offset, size);
        b.padding += aligned - offset;
        b.state += size;
        offset = aligned + size;
      } else {
        const std::uint64_t ptr = vectorLayoutBytes(fi.layout);
        const std::uint64_t aligned = alignUp(offset, constants::wordAlignment);
        b.padding += aligned - offset;
        b.state += ptr;
        offset = aligned + ptr;
        const std::uint64_t data = items(f) * elementBytesOf(fi);
        b.fieldData += data;
        b.padding += alignUp(data, constants::wordAlignment) - data;
      }
      continue;
    }
    std::uint64_t ptr = constants::pointerBytes;
    if (fi.shape == FieldShape::Vector)
      ptr = vectorLayoutBytes(fi.layout);
    if (fi.shape == FieldShape::List) {
      ptr = constants::listHeaderBytes;
      b.descriptors += items(f) * (fi.itemShape == FieldShape::Vector
                                       ? constants::listItemBytes
                                       : constants::pointerBytes);
    }
    const std::uint64_t aligned = alignUp(offset, std::min<std::uint64_t>(ptr, 4));
    b.padding += aligned - offset;
    b.edgePointers += ptr;
    offset = aligned + ptr;
  }
  b.padding += alignUp(offset, constants::wordAlignment) - offset;
  return b;
}

// A tile's data that is not always live, for one shared block: the
// items, and what each holds (a variable, or a step's buffer).
struct SharedItems {
  std::vector<LiveItem> items;
  std::vector<MemoryCategory> category;
  std::vector<std::size_t> variable; // Allocation::noVariable for buffers
  void add(LiveItem item, MemoryCategory c, std::size_t var) {
    items.push_back(std::move(item));
    category.push_back(c);
    variable.push_back(var);
  }
};

std::uint64_t option(const OptionFlags &options, const char *name,
                     std::uint64_t fallback) {
  auto it = options.find(name);
  if (it == options.end())
    return fallback;
  return std::strtoull(it->second.c_str(), nullptr, 0);
}

std::uint64_t vertexCodeBytes(const codelet_interface::VertexInfo *info,
                              unsigned instructionBytes) {
  unsigned instructions = constants::vertexCodeInstructions;
  if (info) {
    instructions += constants::vertexFieldInstructions * unsigned(info->numFields);
    if (info->base != codelet_interface::VertexBase::Vertex)
      instructions += constants::supervisorCodeInstructions;
  } else {
    instructions += constants::supervisorCodeInstructions; // memcpy
  }
  return std::uint64_t(instructions) * instructionBytes;
}

} // namespace

const char *categoryName(MemoryCategory c) {
  switch (c) {
  case MemoryCategory::Variable:
    return "variable";
  case MemoryCategory::Constant:
    return "constant";
  case MemoryCategory::Message:
    return "message";
  case MemoryCategory::OutputEdge:
    return "outputEdge";
  case MemoryCategory::Rearrangement:
    return "rearrangement";
  case MemoryCategory::Stack:
    return "stack";
  case MemoryCategory::VertexInstanceState:
    return "vertexInstanceState";
  case MemoryCategory::VertexFieldData:
    return "vertexFieldData";
  case MemoryCategory::VectorListDescriptor:
    return "vectorListDescriptor";
  case MemoryCategory::CopyDescriptor:
    return "copyDescriptor";
  case MemoryCategory::VertexCode:
    return "vertexCode";
  case MemoryCategory::ControlCode:
    return "controlCode";
  case MemoryCategory::InternalExchangeCode:
    return "internalExchangeCode";
  case MemoryCategory::HostExchangeCode:
    return "hostExchangeCode";
  case MemoryCategory::GlobalExchangeCode:
    return "globalExchangeCode";
  }
  return "unknown";
}

bool isOverlapped(MemoryCategory c) {
  return c == MemoryCategory::Message || c == MemoryCategory::OutputEdge ||
         c == MemoryCategory::Rearrangement;
}

std::uint64_t vertexStateBytes(const codelet_interface::VertexInfo &info) {
  return vertexBytes(info, [](std::size_t) { return std::uint64_t(0); }).instance();
}

TilePlacement placeOnTile(const std::vector<Allocation> &allocations,
                          std::uint64_t interleavedBase,
                          std::uint64_t bytesPerTile) {
  TilePlacement p;
  const std::uint64_t base = std::min(interleavedBase, bytesPerTile);
  std::uint64_t low = 0, high = base;
  auto region = [&](std::uint64_t end) {
    return end <= bytesPerTile ? MemoryRegion::Interleaved : MemoryRegion::Overflowed;
  };
  p.address.assign(allocations.size(), 0);
  p.region.assign(allocations.size(), MemoryRegion::NonInterleaved);
  auto record = [&](std::size_t i, std::uint64_t addr, MemoryRegion r) {
    const Allocation &a = allocations[i];
    p.bytes[unsigned(a.category)][unsigned(r)] += a.bytes;
    p.address[i] = addr;
    p.region[i] = r;
  };
  for (std::size_t i = 0; i != allocations.size(); ++i) {
    const Allocation &a = allocations[i];
    if (!a.interleaved || a.bytes == 0)
      continue;
    const std::uint64_t addr = alignUp(high, a.alignment);
    high = addr + a.bytes;
    record(i, addr, region(high));
  }
  for (std::size_t i = 0; i != allocations.size(); ++i) {
    const Allocation &a = allocations[i];
    if (a.interleaved || a.bytes == 0)
      continue;
    const std::uint64_t addr = alignUp(low, a.alignment);
    if (addr + a.bytes <= base) {
      low = addr + a.bytes;
      record(i, addr, MemoryRegion::NonInterleaved);
      continue;
    }
    const std::uint64_t highAddr = alignUp(high, a.alignment);
    high = highAddr + a.bytes;
    record(i, highAddr, region(high));
  }
  p.extent[unsigned(MemoryRegion::NonInterleaved)] = low;
  p.extent[unsigned(MemoryRegion::Interleaved)] =
      std::min(high, bytesPerTile) > base ? std::min(high, bytesPerTile) - base : 0;
  p.extent[unsigned(MemoryRegion::Overflowed)] =
      high > bytesPerTile ? high - std::max(bytesPerTile, base) : 0;
  p.end = high > base ? high : low;
  return p;
}

MemoryReport computeMemory(const Graph::Impl &graph, const Executable::Impl &exe,
                           const Estimates &est, const MemoryInputs &inputs,
                           const OptionFlags &options) {
  const Target &target = exe.target;
  const unsigned numTiles = target.getNumTiles();
  const unsigned instr = target.getInstructionBytes();
  const bool code = TargetBuilder::compilesIPUCode(target);
  std::vector<std::vector<Allocation>> tiles(numTiles);
  std::map<std::string, std::uint64_t> alwaysLive;
  auto add = [&](unsigned tile, MemoryCategory c, std::uint64_t bytes,
                 std::uint64_t align, bool interleaved = false,
                 std::size_t variable = Allocation::noVariable) {
    if (bytes != 0 && tile < numTiles)
      tiles[tile].push_back({c, bytes, align, interleaved, variable});
  };

  MemoryReport r;
  r.byComputeSet.resize(est.computeSets.size());
  r.byVertexType.resize(est.vertexTypes.size());

  // Stacks: six worker stacks and one supervisor stack on every tile.
  const std::uint64_t stack =
      target.getNumWorkerContexts() *
          option(options, "target.workerStackSizeInBytes", constants::workerStackBytes) +
      option(options, "target.supervisorStackSizeInBytes",
             constants::supervisorStackBytes);
  for (unsigned t = 0; t != numTiles; ++t)
    add(t, MemoryCategory::Stack, alignUp(stack, constants::dataAlignment),
        constants::dataAlignment);
  alwaysLive["stack"] = alignUp(stack, constants::dataAlignment) * numTiles;

  // Vertex state, and which variables interleaved fields need.
  std::set<std::pair<std::size_t, unsigned>> interleavedVars;
  std::vector<std::map<unsigned, std::uint64_t>> launches(est.computeSets.size());
  std::vector<std::map<unsigned, VertexMemory>> byType(est.vertexTypes.size());
  std::vector<std::set<unsigned>> typesOnTile(numTiles);
  for (unsigned cs = 0; cs != graph.computeSets.size(); ++cs) {
    if (!inputs.computeSetUsed[cs])
      continue;
    std::map<unsigned, VertexMemory> perTile;
    std::map<unsigned, std::set<unsigned>> csTypes;
    const auto &plans = exe.computeSets[cs].vertices;
    // The totals of the last tile and type seen: a compute set's vertices
    // come in runs of one tile and type, and a million of them would
    // otherwise search four maps each. No vertex's tile is NoTile here, so
    // the first one always looks its totals up.
    struct Totals {
      unsigned tile = TileMapping::NoTile, type = 0;
      VertexMemory *onTile = nullptr, *ofType = nullptr;
      std::uint64_t *launches = nullptr;
    } last;
    for (std::size_t i = 0; i != plans.size(); ++i) {
      const VertexData &v = graph.vertices[plans[i].id];
      const auto &info = *graph.vertexTypes[v.type].info;
      const unsigned tile = v.tile == TileMapping::NoTile ? 0 : v.tile;
      if (tile != last.tile || v.type != last.type) {
        last.tile = tile;
        last.type = v.type;
        last.onTile = &perTile[tile];
        last.ofType = &byType[inputs.profileType[v.type]][tile];
        last.launches = &launches[cs][tile];
        csTypes[tile].insert(v.type);
      }
      const VertexBytes b = vertexBytes(info, [&](std::size_t f) {
        return std::uint64_t(v.field(f).size());
      });
      add(tile, MemoryCategory::VertexInstanceState, b.instance(),
          constants::wordAlignment);
      add(tile, MemoryCategory::VertexFieldData,
          alignUp(b.descriptors, constants::wordAlignment) +
              alignUp(b.fieldData, constants::wordAlignment),
          constants::wordAlignment);
      VertexMemory m;
      m.edgePointers = b.edgePointers;
      m.descriptors = b.descriptors;
      m.vertexData = b.state + b.fieldData;
      m.padding = b.padding;
      last.onTile->add(m);
      last.ofType->add(m);
      ++*last.launches;
      for (std::size_t f = 0; f != info.numFields; ++f) {
        if (!info.fields[f].interleaved || info.fields[f].kind == FieldKind::State)
          continue;
        for (const auto &region : exe.computeSets[cs].regionsOf(
                 exe.computeSets[cs].fieldsOf(plans[i])[f]))
          exe.computeSets[cs].forEachStorageRange(
              region, [&](const layout::StorageRange &range) {
            interleavedVars.insert({range.var, tile});
          });
      }
    }
    for (auto &[tile, types] : csTypes)
      for (unsigned type : types) {
        typesOnTile[tile].insert(type);
        if (code)
          perTile[tile].code +=
              vertexCodeBytes(graph.vertexTypes[type].info, instr);
      }
    r.byComputeSet[cs].assign(perTile.begin(), perTile.end());
  }
  // On-tile copies: source and destination pointers, a descriptor a piece.
  std::set<unsigned> memcpyTiles;
  for (const auto &c : inputs.copies) {
    std::map<unsigned, VertexMemory> perTile;
    for (const auto &[tile, pieces] : c.piecesPerTile) {
      add(tile, MemoryCategory::VertexInstanceState, constants::copyPointerBytes,
          constants::wordAlignment);
      add(tile, MemoryCategory::CopyDescriptor,
          pieces * constants::copyDescriptorBytes, constants::wordAlignment);
      VertexMemory m;
      m.copyPointers = constants::copyPointerBytes;
      m.descriptors = pieces * constants::copyDescriptorBytes;
      if (code)
        m.code = vertexCodeBytes(nullptr, instr);
      perTile[tile].add(m);
      byType[est.computeSets[c.computeSet].vertexTypes[0]][tile].add(m);
      launches[c.computeSet][tile] = 1;
      memcpyTiles.insert(tile);
    }
    r.byComputeSet[c.computeSet].assign(perTile.begin(), perTile.end());
  }
  for (std::size_t t = 0; t != byType.size(); ++t)
    r.byVertexType[t].assign(byType[t].begin(), byType[t].end());

  // Code: vertex code per type on a tile, control code on every tile,
  // exchange code on the tiles taking part.
  if (code) {
    for (unsigned t = 0; t != numTiles; ++t) {
      std::uint64_t bytes = memcpyTiles.count(t) ? vertexCodeBytes(nullptr, instr) : 0;
      for (unsigned type : typesOnTile[t])
        bytes += vertexCodeBytes(graph.vertexTypes[type].info, instr);
      add(t, MemoryCategory::VertexCode, bytes, constants::wordAlignment);
    }
    std::vector<std::uint64_t> control(numTiles, 0);
    std::uint64_t everyTile = 0;
    for (const auto &node : est.programs) {
      everyTile += constants::controlStepInstructions;
      if (node.type == "OnTileExecute" && node.computeSet >= 0)
        for (const auto &[tile, n] : launches[node.computeSet])
          control[tile] += n * constants::vertexLaunchInstructions;
    }
    for (unsigned t = 0; t != numTiles; ++t)
      add(t, MemoryCategory::ControlCode, (everyTile + control[t]) * instr,
          constants::wordAlignment);
    auto exchangeCode = [&](const std::vector<ExchangeEstimate> &xs,
                            MemoryCategory c) {
      std::vector<std::uint64_t> perTile(numTiles, 0);
      for (const auto &x : xs)
        for (const auto &t : x.tiles)
          perTile[t.tile] += constants::exchangeCodeInstructions +
                             std::uint64_t(constants::exchangePeerInstructions) * t.pieces;
      for (unsigned t = 0; t != numTiles; ++t)
        add(t, c, perTile[t] * instr, constants::wordAlignment);
    };
    exchangeCode(est.exchanges, MemoryCategory::InternalExchangeCode);
    exchangeCode(est.externalExchanges, MemoryCategory::GlobalExchangeCode);
    exchangeCode(est.hostExchanges, MemoryCategory::HostExchangeCode);
  }

  // Variables and constants: each variable's elements on a tile are one
  // allocation there. Those not always live go into the tile's shared
  // blocks (the second for data that must be interleaved) with the
  // buffers of each step, and share addresses where their lives allow.
  const Liveness liveness = analyseLiveness(exe, inputs.liveness);
  std::vector<std::array<SharedItems, 2>> shared(numTiles);
  std::vector<std::int64_t> liveChange(liveness.steps.size() + 1, 0);
  for (std::size_t v = 0; v != graph.variables.size(); ++v) {
    const auto &var = graph.variables[v];
    const std::uint64_t bytes = typeSize(var.type);
    std::map<unsigned, std::uint64_t> elements;
    var.mapping.forEach(0, var.numElements, [&](std::size_t b, std::size_t e, unsigned tile) {
      if (tile != TileMapping::NoTile)
        elements[tile] += e - b;
    });
    const auto category = var.isConstant ? MemoryCategory::Constant : MemoryCategory::Variable;
    const VariableLiveness &live = liveness.variables[v];
    std::uint64_t sharedBytes = 0;
    for (const auto &[tile, n] : elements) {
      const bool interleaved = interleavedVars.count({v, tile}) != 0;
      if (live.alwaysLive) {
        add(tile, category, n * bytes, constants::dataAlignment, interleaved, v);
        alwaysLive[var.name.empty() ? "<anon>" : var.name] += n * bytes;
      } else if (tile < numTiles) {
        shared[tile][interleaved].add({n * bytes, constants::dataAlignment,
                                       live.ranges.data(), live.ranges.size()},
                                      category, v);
        sharedBytes += n * bytes;
      }
    }
    if (sharedBytes == 0)
      continue;
    r.liveVariables.push_back(
        {v, var.name.empty() ? "<anon>" : var.name, sharedBytes, live.ranges});
    for (const auto &[first, last] : live.ranges) {
      liveChange[first] += std::int64_t(sharedBytes);
      liveChange[last + 1] -= std::int64_t(sharedBytes);
    }
  }

  // Buffers live during one step, in the steps that run their compute set.
  static const MemoryCategory overlappedKinds[3] = {
      MemoryCategory::Message, MemoryCategory::OutputEdge,
      MemoryCategory::Rearrangement};
  std::vector<const PhaseBuffers *> buffersOf(graph.computeSets.size(), nullptr);
  std::vector<std::array<std::uint64_t, 3>> overlappedSum(numTiles, {0, 0, 0});
  for (const auto &phase : inputs.phases) {
    buffersOf[phase.computeSet] = &phase;
    for (const auto &[tile, b] : phase.perTile)
      for (unsigned k = 0; k != 3 && tile < numTiles; ++k)
        overlappedSum[tile][k] += b[k];
  }
  r.liveSteps.resize(liveness.steps.size());
  std::vector<StepRange> stepAlone(liveness.steps.size()); // what a buffer is live in
  std::int64_t liveVariableBytes = 0;
  for (std::uint32_t s = 0; s != liveness.steps.size(); ++s) {
    LiveStep &step = r.liveSteps[s];
    step.program = liveness.steps[s].program;
    liveVariableBytes += liveChange[s];
    step.variableBytes = std::uint64_t(liveVariableBytes);
    stepAlone[s] = {s, s};
    const long cs = liveness.steps[s].computeSet;
    if (cs < 0 || std::size_t(cs) >= buffersOf.size() || !buffersOf[cs])
      continue;
    for (const auto &[tile, b] : buffersOf[cs]->perTile)
      for (unsigned k = 0; k != 3; ++k) {
        if (b[k] == 0 || tile >= numTiles)
          continue;
        shared[tile][0].add({b[k], constants::dataAlignment, &stepAlone[s], 1},
                            overlappedKinds[k], Allocation::noVariable);
        step.bufferBytes[k] += b[k];
      }
  }

  // Place everything, tile by tile: the always-live allocations, then the
  // shared blocks, which count their peak without gaps and their extent
  // with them.
  for (auto *perCategory : {&r.nonOverlapped, &r.overlapped})
    for (auto &c : *perCategory)
      for (auto &region : c)
        region.assign(numTiles, 0);
  for (auto &region : r.byRegion)
    region.assign(numTiles, 0);
  for (auto &region : r.byRegionIncludingGaps)
    region.assign(numTiles, 0);
  r.total.assign(numTiles, 0);
  r.totalIncludingGaps.assign(numTiles, 0);
  const std::uint64_t interleavedBase =
      std::uint64_t(target.getInterleavedMemoryElementIndex()) *
      constants::memoryElementBytes;
  for (unsigned t = 0; t != numTiles; ++t) {
    std::vector<Allocation> &allocations = tiles[t];
    const std::size_t alwaysLiveCount = allocations.size();
    std::array<SharedBlock, 2> blocks;
    for (unsigned b = 0; b != 2; ++b) {
      blocks[b] = shareBlock(shared[t][b].items);
      allocations.push_back({MemoryCategory::Variable, blocks[b].size,
                             constants::dataAlignment, b == 1});
    }
    const TilePlacement p = placeOnTile(allocations, interleavedBase, target.getBytesPerTile());
    for (std::size_t i = 0; i != alwaysLiveCount; ++i) {
      const Allocation &a = allocations[i];
      const unsigned reg = unsigned(p.region[i]);
      r.nonOverlapped[unsigned(a.category)][reg][t] += a.bytes;
      r.byRegion[reg][t] += a.bytes;
      if (a.variable != Allocation::noVariable)
        r.variablePlacements.push_back({a.variable, t, p.address[i], a.bytes, p.region[i]});
    }
    for (unsigned b = 0; b != 2; ++b) {
      const std::size_t at = alwaysLiveCount + b;
      const unsigned reg = unsigned(p.region[at]);
      const SharedItems &items = shared[t][b];
      r.byRegion[reg][t] += blocks[b].peak;
      for (std::size_t i = 0; i != items.items.size(); ++i) {
        if (items.variable[i] == Allocation::noVariable)
          continue; // buffers: counted once per compute set below
        r.overlapped[unsigned(items.category[i])][reg][t] += items.items[i].bytes;
        r.variablePlacements.push_back({items.variable[i], t,
                                        p.address[at] + blocks[b].offset[i],
                                        items.items[i].bytes, p.region[at]});
      }
      if (b == 0)
        for (unsigned k = 0; k != 3; ++k)
          r.overlapped[unsigned(overlappedKinds[k])][reg][t] = overlappedSum[t][k];
    }
    for (unsigned reg = 0; reg != 3; ++reg) {
      r.total[t] += r.byRegion[reg][t];
      r.byRegionIncludingGaps[reg][t] = p.extent[reg];
    }
    r.totalIncludingGaps[t] = p.end;
  }

  // Always-live bytes of the non-variable categories.
  for (unsigned c = 0; c != numMemoryCategories; ++c) {
    const auto cat = MemoryCategory(c);
    if (isOverlapped(cat) || cat == MemoryCategory::Variable ||
        cat == MemoryCategory::Constant || cat == MemoryCategory::Stack)
      continue;
    std::uint64_t sum = 0;
    for (unsigned reg = 0; reg != 3; ++reg)
      for (unsigned t = 0; t != numTiles; ++t)
        sum += r.nonOverlapped[c][reg][t];
    if (sum != 0)
      alwaysLive[categoryName(cat)] += sum;
  }
  r.alwaysLive.assign(alwaysLive.begin(), alwaysLive.end());
  return r;
}

std::string outOfMemoryReport(const Graph::Impl &graph, const Estimates &est) {
  const auto &m = est.memory;
  const std::uint64_t limit = est.target.getBytesPerTile();
  std::vector<unsigned> over;
  for (unsigned t = 0; t != m.totalIncludingGaps.size(); ++t)
    if (m.totalIncludingGaps[t] > limit)
      over.push_back(t);
  if (over.empty())
    return {};
  std::sort(over.begin(), over.end(), [&](unsigned a, unsigned b) {
    return m.totalIncludingGaps[a] != m.totalIncludingGaps[b]
               ? m.totalIncludingGaps[a] > m.totalIncludingGaps[b]
               : a < b;
  });
  std::ostringstream os;
  os << "Out of memory: " << over.size() << " tile(s) of "
     << m.totalIncludingGaps.size() << " need more than their " << limit
     << " bytes. The worst:";
  for (std::size_t i = 0; i != std::min<std::size_t>(over.size(), 5); ++i) {
    const unsigned t = over[i];
    os << "\n  tile " << t << ": " << m.totalIncludingGaps[t]
       << " bytes with gaps (" << m.total[t] << " without):";
    // What fills the tile, largest first.
    std::vector<std::pair<std::uint64_t, const char *>> parts;
    for (unsigned c = 0; c != numMemoryCategories; ++c) {
      std::uint64_t bytes = 0;
      for (unsigned reg = 0; reg != 3; ++reg)
        bytes += isOverlapped(MemoryCategory(c)) ? m.overlapped[c][reg][t]
                                                 : m.nonOverlapped[c][reg][t];
      if (bytes != 0)
        parts.push_back({bytes, categoryName(MemoryCategory(c))});
    }
    std::sort(parts.begin(), parts.end(), [](const auto &a, const auto &b) {
      return a.first > b.first;
    });
    for (std::size_t k = 0; k != parts.size(); ++k)
      os << (k ? "," : "") << " " << parts[k].second << " " << parts[k].first;
    // The largest variables and constants on the tile.
    std::vector<std::pair<std::uint64_t, std::string>> vars;
    for (const auto &var : graph.variables) {
      std::uint64_t n = 0;
      var.mapping.forEach(0, var.numElements,
                          [&](std::size_t b, std::size_t e, unsigned tile) {
                            if (tile == t)
                              n += e - b;
                          });
      if (n != 0)
        vars.push_back({n * typeSize(var.type), var.name.empty() ? "<anon>" : var.name});
    }
    std::sort(vars.begin(), vars.end(), [](const auto &a, const auto &b) {
      return a.first > b.first;
    });
    if (!vars.empty()) {
      os << "; largest variables:";
      for (std::size_t k = 0; k != std::min<std::size_t>(vars.size(), 3); ++k)
        os << (k ? "," : "") << " '" << vars[k].second << "' " << vars[k].first;
    }
  }
  os << "\nReduce what these tiles hold, or set the engine option "
        "debug.allowOutOfMemory to \"true\" to compile anyway and profile it";
  return os.str();
}

} // namespace poplar::model

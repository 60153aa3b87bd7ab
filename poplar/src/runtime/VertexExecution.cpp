#include "runtime/VertexExecution.hpp"

#include "runtime/AdjacentRuns.hpp"
#include "runtime/ParallelFor.hpp"

#include <poplar/detail/CodeletInterface.hpp>
#include <poplar/exceptions.hpp>

#include <cfenv>

#include <tbb/blocked_range.h>

#include <algorithm>
#include <cstring>

namespace poplar {
namespace {

using codelet_interface::Binding;
using codelet_interface::FieldKind;
using codelet_interface::FieldShape;
using codelet_interface::VertexBase;
using runtime::Element;

constexpr std::size_t arenaBlockBytes = 1 << 20;
// A compute set runs on the host's threads when it has this many vertices,
// or fewer whose fields hold this many bytes in all (the CPU device's one
// tile has few vertices, each with many elements); chunks of vertices are
// given to a thread at least chunkBytes of fields at a time, and never more
// than maxChunkVertices.
constexpr std::size_t parallelVertices = 64;
constexpr std::size_t parallelBytes = 1 << 17;
constexpr std::size_t chunkBytes = 1 << 16;
constexpr std::size_t maxChunkVertices = 32;

// Copies the elements of runs `order[0..count)` of `runs` (or runs
// [0, count) when `order` is null), which share their variable, length and
// stride (not 1), between storage and the buffer.
//
// Gathers take the runs 16 at a time, in order of their start in storage,
// and copy element i of each of the 16 before element i + 1: where runs
// start next to each other (a transposition, such as weights [outChans]
// [kernel][inChans] read as [kernel][inChans][outChans]) the 16 loads of
// one step share a cache line or two and each run's buffer is written in
// order, rather than one cache line being loaded per element. Scatters
// keep the runs' order, so that when an output's elements repeat the last
// write still wins.
template <bool ToBuffer, std::size_t Bytes>
void transferStrided(unsigned char *base, const layout::FlatRun *runs,
                     const std::uint32_t *order, std::size_t count,
                     unsigned char *buffer) {
  const std::size_t length = runs->length;
  const std::int64_t stride = runs->stride * std::int64_t(Bytes);
  if (!ToBuffer || count == 1 || length == 1) {
    for (std::size_t j = 0; j != count; ++j) {
      const layout::FlatRun &run = runs[order ? order[j] : j];
      unsigned char *s = base + run.start * std::int64_t(Bytes);
      unsigned char *b = buffer + run.begin * Bytes;
      for (std::size_t i = 0; i != length; ++i, s += stride, b += Bytes) {
        if (ToBuffer)
          Element<Bytes>::copy(b, s);
        else
          Element<Bytes>::copy(s, b);
      }
    }
    return;
  }
  if (stride == 0) {
    // A broadcast: each run is one element repeated.
    for (std::size_t j = 0; j != count; ++j) {
      const layout::FlatRun &run = runs[order ? order[j] : j];
      const unsigned char *s = base + run.start * std::int64_t(Bytes);
      unsigned char *b = buffer + run.begin * Bytes;
      for (std::size_t i = 0; i != length; ++i, b += Bytes)
        Element<Bytes>::copy(b, s);
    }
    return;
  }
  constexpr std::size_t block = runtime::adjacentRunBlock;
  const unsigned char *src[block];
  unsigned char *dst[block];
  for (std::size_t j0 = 0; j0 < count; j0 += block) {
    const std::size_t n = std::min(block, count - j0);
    for (std::size_t j = 0; j != n; ++j) {
      const layout::FlatRun &run = runs[order ? order[j0 + j] : j0 + j];
      src[j] = base + run.start * std::int64_t(Bytes);
      dst[j] = buffer + run.begin * Bytes;
    }
    if (n != block) {
      for (std::size_t i = 0; i != length; ++i) {
        const std::int64_t s = std::int64_t(i) * stride;
        const std::size_t b = i * Bytes;
        for (std::size_t j = 0; j != n; ++j)
          Element<Bytes>::copy(dst[j] + b, src[j] + s);
      }
      continue;
    }
    bool adjacent = true;
    for (std::size_t j = 1; j != block; ++j)
      adjacent &= src[j] == src[0] + j * Bytes;
    if (adjacent) {
      // The 16 elements of each step are next to each other: one load.
      runtime::copyAdjacentRuns<Bytes>(src[0], stride, dst, length);
      continue;
    }
    for (std::size_t i = 0; i != length; ++i) {
      const std::int64_t s = std::int64_t(i) * stride;
      const std::size_t b = i * Bytes;
      for (std::size_t j = 0; j != block; ++j)
        Element<Bytes>::copy(dst[j] + b, src[j] + s);
    }
  }
}

template <bool ToBuffer>
void transferStrided(unsigned char *base, const layout::FlatRun *first,
                     const std::uint32_t *order, std::size_t count,
                     std::size_t bytes, unsigned char *buffer) {
  switch (bytes) {
  case 1:
    return transferStrided<ToBuffer, 1>(base, first, order, count, buffer);
  case 2:
    return transferStrided<ToBuffer, 2>(base, first, order, count, buffer);
  case 4:
    return transferStrided<ToBuffer, 4>(base, first, order, count, buffer);
  case 8:
    return transferStrided<ToBuffer, 8>(base, first, order, count, buffer);
  default:
    break;
  }
  for (std::size_t j = 0; j != count; ++j) {
    const layout::FlatRun &run = first[order ? order[j] : j];
    for (std::size_t i = 0; i != run.length; ++i) {
      unsigned char *s = base + (run.start + std::int64_t(i) * run.stride) *
                                    std::int64_t(bytes);
      unsigned char *b = buffer + (run.begin + i) * bytes;
      if (ToBuffer)
        std::memcpy(b, s, bytes);
      else
        std::memcpy(s, b, bytes);
    }
  }
}

} // namespace

void ComputeSetInstance::planGroups(const std::vector<layout::FlatRun> &runs) {
  const std::size_t firstGroup = groups.size();
  auto key = [](const layout::FlatRun &r) {
    // A single element is strided whatever its stride says.
    return r.length == 1 ? std::int64_t(0) : r.stride;
  };
  for (std::size_t i = 0; i != runs.size(); ++i) {
    const auto &r = runs[i];
    const bool contiguous = r.stride == 1 && r.length > 1;
    if (!contiguous && groups.size() != firstGroup &&
        !groups.back().contiguous) {
      const auto &prev = runs[groups.back().first];
      if (prev.var == r.var && prev.length == r.length && key(prev) == key(r)) {
        ++groups.back().count;
        continue;
      }
    }
    groups.push_back({static_cast<std::uint32_t>(i), 1, noOrder, contiguous});
  }
}

void ComputeSetInstance::orderGroups(const std::vector<layout::FlatRun> &runs,
                                     std::size_t firstGroup) {
  for (std::size_t g = firstGroup; g != groups.size(); ++g) {
    RunGroup &group = groups[g];
    if (group.contiguous || group.count < 2 || runs[group.first].length < 2)
      continue;
    const layout::FlatRun *first = runs.data() + group.first;
    bool sorted = true;
    for (std::size_t j = 1; j != group.count && sorted; ++j)
      sorted = first[j - 1].start <= first[j].start;
    if (sorted)
      continue;
    group.order = static_cast<std::uint32_t>(runOrder.size());
    const std::size_t begin = runOrder.size();
    for (std::uint32_t j = 0; j != group.count; ++j)
      runOrder.push_back(j);
    std::stable_sort(runOrder.begin() + begin, runOrder.end(),
                     [&](std::uint32_t a, std::uint32_t b) {
                       return first[a].start < first[b].start;
                     });
  }
}

template <bool ToBuffer>
void ComputeSetInstance::transfer(const Transfer &t) {
  const layout::FlatRun *runs = t.runs->data();
  const RunGroup *g = groups.data() + t.firstGroup;
  const RunGroup *end = g + t.numGroups;
  const std::size_t bytes = t.elementBytes;
  for (; g != end; ++g) {
    const layout::FlatRun *first = runs + g->first;
    unsigned char *base = storage[first->var].data();
    if (!g->contiguous) {
      const std::uint32_t *order =
          ToBuffer && g->order != noOrder ? runOrder.data() + g->order
                                          : nullptr;
      transferStrided<ToBuffer>(base, first, order, g->count, bytes,
                                t.buffer);
      continue;
    }
    unsigned char *s = base + first->start * std::int64_t(bytes);
    unsigned char *b = t.buffer + first->begin * bytes;
    if (ToBuffer)
      std::memcpy(b, s, first->length * bytes);
    else
      std::memcpy(s, b, first->length * bytes);
  }
}

void *Arena::allocate(std::size_t bytes, std::size_t align) {
  align = std::max<std::size_t>(align, 1);
  auto fits = [&] {
    const std::size_t pad =
        (align - reinterpret_cast<std::uintptr_t>(next) % align) % align;
    return next && pad + bytes <= left;
  };
  if (!fits()) {
    const std::size_t size = std::max(arenaBlockBytes, bytes + align);
    // Not zeroed: every piece is constructed, copied or gathered into
    // before it is read, and zeroing faulted in each block at load.
    blocks.push_back(std::unique_ptr<unsigned char[]>(new unsigned char[size]));
    next = blocks.back().get();
    left = size;
  }
  const std::size_t pad =
      (align - reinterpret_cast<std::uintptr_t>(next) % align) % align;
  void *p = next + pad;
  next += pad + bytes;
  left -= pad + bytes;
  return p;
}

ComputeSetInstance::ComputeSetInstance(
    const exec::ComputeSetPlan &plan,
    const std::vector<exec::VertexTypePlan> &types,
    std::vector<std::vector<unsigned char>> &storage,
    std::vector<std::uint32_t> &tileBehaviour)
    // A MultiVertex divides its work by MultiVertex::numWorkers(), the
    // IPU's six contexts, whatever worker count a model target is given
    // for its estimates.
    : plan(plan), types(types), storage(storage), tileBehaviour(tileBehaviour),
      newBehaviour(plan.vertices.size()), behaviourChanged(plan.vertices.size()),
      numWorkers(MultiVertex::numWorkers()) {
  vertices.reserve(plan.vertices.size());
  std::vector<Binding> itemBindings;
  for (const auto &vp : plan.vertices) {
    const auto &type = types[vp.type];
    const auto &info = *type.info;
    Vertex v{arena.allocate(info.size, info.align), &info,
             static_cast<std::uint32_t>(transfers.size()), 0};
    info.construct(v.object);
    vertices.push_back(v);

    auto edge = [&](const exec::EdgeRegion &region, std::size_t bytes,
                    FieldKind kind) {
      Binding b;
      b.size = region.numElements;
      fieldBytes += region.numElements * bytes;
      if (region.direct()) {
        if (region.numElements != 0)
          b.data = storage[region.var].data() + region.offset * bytes;
        return b;
      }
      // Outputs are gathered too, so elements a vertex leaves alone keep
      // their values, as they would with the field pointing at memory.
      auto *buffer = static_cast<unsigned char *>(
          arena.allocate(region.numElements * bytes, 16));
      const std::size_t firstGroup = groups.size();
      const auto &runs = plan.runsOf(region);
      planGroups(runs);
      orderGroups(runs, firstGroup);
      const auto numGroups =
          static_cast<std::uint32_t>(groups.size() - firstGroup);
      transfers.push_back({buffer, &runs, bytes,
                           static_cast<std::uint32_t>(firstGroup), numGroups,
                           kind != FieldKind::Input});
      b.data = buffer;
      return b;
    };

    for (std::size_t f = 0; f != info.numFields; ++f) {
      const auto &fi = info.fields[f];
      const auto &fp = plan.fieldsOf(vp)[f];
      const std::size_t bytes = type.elementBytes[f];
      Binding b;
      if (fi.kind == FieldKind::State) {
        const exec::FieldState &state = plan.stateOf(fp);
        if (fi.shape == FieldShape::Scalar) {
          b.data = const_cast<unsigned char *>(state.bytes.data());
        } else {
          auto *values = static_cast<unsigned char *>(arena.allocate(
              state.bytes.size(), std::max<std::size_t>(bytes, fi.alignBytes)));
          std::copy(state.bytes.begin(), state.bytes.end(), values);
          b.data = values;
          b.size = state.elements;
        }
      } else if (fi.shape == FieldShape::List) {
        itemBindings.clear();
        for (const auto &region : plan.regionsOf(fp))
          itemBindings.push_back(edge(region, bytes, fi.kind));
        b.size = itemBindings.size();
        b.itemStorage =
            arena.allocate(fi.itemSize * itemBindings.size(), fi.itemAlign);
        b.items = itemBindings.data();
      } else {
        b = edge(plan.regionsOf(fp)[0], bytes, fi.kind);
      }
      fi.bind(v.object, b);
    }
    vertices.back().numTransfers =
        static_cast<std::uint32_t>(transfers.size()) -
        vertices.back().firstTransfer;
  }
}

ComputeSetInstance::~ComputeSetInstance() {
  for (auto &v : vertices)
    v.info->destroy(v.object);
}

std::string ComputeSetInstance::describeVertex(std::size_t index) const {
  const auto &vp = plan.vertices[index];
  return "Vertex " + std::to_string(vp.id) + " (" + types[vp.type].name +
         ") of compute set '" + plan.name + "' on tile " +
         std::to_string(vp.tile);
}

namespace {

// The host's exception flags for the behaviour's enabled exceptions.
int enabledExceptions(std::uint32_t behaviour) {
  int flags = 0;
  if (behaviour & detail::fpInvalidException)
    flags |= FE_INVALID;
  if (behaviour & detail::fpDivideByZeroException)
    flags |= FE_DIVBYZERO;
  if (behaviour & detail::fpOverflowException)
    flags |= FE_OVERFLOW;
  return flags;
}

std::string exceptionName(int raised) {
  if (raised & FE_INVALID)
    return "invalid operation (FLOATING_POINT_INVALID_OPERATION)";
  if (raised & FE_DIVBYZERO)
    return "division by zero (FLOATING_POINT_DIVIDE_BY_ZERO)";
  return "overflow (FLOATING_POINT_OVERFLOW)";
}

} // namespace

void ComputeSetInstance::runVertex(std::size_t index) {
  const Vertex &v = vertices[index];
  const Transfer *first = transfers.data() + v.firstTransfer;
  const Transfer *last = first + v.numTransfers;
  for (const Transfer *t = first; t != last; ++t)
    transfer<true>(*t);
  // The tile's floating-point behaviour, for this thread's conversions.
  const unsigned tile = plan.vertices[index].tile;
  const std::uint32_t behaviour =
      tile < tileBehaviour.size() ? tileBehaviour[tile] : 0u;
  detail::FloatingPointControl &control = *v.info->floatingPointControl();
  control.behaviour = behaviour;
  control.randomState = (runs * 0x9e3779b97f4a7c15ull) ^
                        (static_cast<std::uint64_t>(index) << 20) ^
                        (tile + 1ull);
  const int trapped = enabledExceptions(behaviour);
  if (trapped)
    std::feclearexcept(FE_ALL_EXCEPT);
  bool ok = true;
  if (v.info->base == VertexBase::MultiVertex) {
    for (unsigned w = 0; w != numWorkers; ++w)
      ok = v.info->compute(v.object, w) && ok;
  } else {
    ok = v.info->compute(v.object, 0);
  }
  const int raised = trapped ? std::fetestexcept(trapped) : 0;
  newBehaviour[index] = control.behaviour;
  behaviourChanged[index] = control.behaviour != behaviour;
  control.behaviour = 0;
  if (!ok)
    throw application_runtime_error(describeVertex(index) +
                                    " returned false from compute()");
  if (raised)
    throw application_runtime_error(
        "Tiles in excepted state: " + describeVertex(index) +
        " raised a floating-point " + exceptionName(raised) +
        ", an exception its tile's floating-point behaviour enables");
  for (const Transfer *t = first; t != last; ++t)
    if (t->out)
      transfer<false>(*t);
}

void ComputeSetInstance::execute() {
  const std::size_t n = vertices.size();
  ++runs;
  if (n < 2 || (n < parallelVertices && fieldBytes < parallelBytes)) {
    for (std::size_t i = 0; i != n; ++i)
      runVertex(i);
  } else {
    const std::size_t grain = std::clamp<std::size_t>(
        chunkBytes * n / std::max<std::size_t>(fieldBytes, 1), 1,
        maxChunkVertices);
    runtime::parallelForRange(tbb::blocked_range<std::size_t>(0, n, grain),
                      [&](const tbb::blocked_range<std::size_t> &r) {
                        for (std::size_t i = r.begin(); i != r.end(); ++i)
                          runVertex(i);
                      });
  }
  // Behaviour changes take effect after the compute set, as its writes do.
  for (std::size_t i = 0; i != n; ++i)
    if (behaviourChanged[i] && plan.vertices[i].tile < tileBehaviour.size())
      tileBehaviour[plan.vertices[i].tile] = newBehaviour[i];
}

} // namespace poplar

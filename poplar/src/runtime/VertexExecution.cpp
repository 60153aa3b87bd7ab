#include "runtime/VertexExecution.hpp"

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

constexpr std::size_t arenaBlockBytes = 1 << 20;
// Below this many vertices a compute set runs on the calling thread.
constexpr std::size_t parallelVertices = 64;

// Copies a region's elements between storage and a contiguous buffer.
template <bool ToBuffer>
void transferRuns(std::vector<std::vector<unsigned char>> &storage,
                  const exec::EdgeRegion &region, std::size_t bytes,
                  unsigned char *buffer) {
  for (const auto &run : region.runs) {
    unsigned char *base = storage[run.var].data();
    unsigned char *b = buffer + run.begin * bytes;
    if (run.stride == 1) {
      unsigned char *s = base + run.start * std::int64_t(bytes);
      if (ToBuffer)
        std::memcpy(b, s, run.length * bytes);
      else
        std::memcpy(s, b, run.length * bytes);
      continue;
    }
    for (std::size_t i = 0; i != run.length; ++i) {
      unsigned char *s =
          base + (run.start + std::int64_t(i) * run.stride) * std::int64_t(bytes);
      if (ToBuffer)
        std::memcpy(b + i * bytes, s, bytes);
      else
        std::memcpy(s, b + i * bytes, bytes);
    }
  }
}

} // namespace

void *Arena::allocate(std::size_t bytes, std::size_t align) {
  align = std::max<std::size_t>(align, 1);
  auto fits = [&] {
    const std::size_t pad =
        (align - reinterpret_cast<std::uintptr_t>(next) % align) % align;
    return next && pad + bytes <= left;
  };
  if (!fits()) {
    const std::size_t size = std::max(arenaBlockBytes, bytes + align);
    blocks.push_back(std::make_unique<unsigned char[]>(size));
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
      if (region.direct) {
        if (region.numElements != 0)
          b.data = storage[region.var].data() + region.offset * bytes;
        return b;
      }
      // Outputs are gathered too, so elements a vertex leaves alone keep
      // their values, as they would with the field pointing at memory.
      auto *buffer = static_cast<unsigned char *>(
          arena.allocate(region.numElements * bytes, 16));
      transfers.push_back(
          {buffer, &region, bytes, true, kind != FieldKind::Input});
      b.data = buffer;
      return b;
    };

    for (std::size_t f = 0; f != info.numFields; ++f) {
      const auto &fi = info.fields[f];
      const auto &fp = vp.fields[f];
      const std::size_t bytes = type.elementBytes[f];
      Binding b;
      if (fi.kind == FieldKind::State) {
        if (fi.shape == FieldShape::Scalar) {
          b.data = const_cast<unsigned char *>(fp.state.data());
        } else {
          auto *values = static_cast<unsigned char *>(arena.allocate(
              fp.state.size(), std::max<std::size_t>(bytes, fi.alignBytes)));
          std::copy(fp.state.begin(), fp.state.end(), values);
          b.data = values;
          b.size = fp.stateElements;
        }
      } else if (fi.shape == FieldShape::List) {
        itemBindings.clear();
        for (const auto &region : fp.regions)
          itemBindings.push_back(edge(region, bytes, fi.kind));
        b.size = itemBindings.size();
        b.itemStorage =
            arena.allocate(fi.itemSize * itemBindings.size(), fi.itemAlign);
        b.items = itemBindings.data();
      } else {
        b = edge(fp.regions[0], bytes, fi.kind);
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
    if (t->in)
      transferRuns<true>(storage, *t->region, t->elementBytes, t->buffer);
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
      transferRuns<false>(storage, *t->region, t->elementBytes, t->buffer);
}

void ComputeSetInstance::execute() {
  const std::size_t n = vertices.size();
  ++runs;
  if (n < parallelVertices) {
    for (std::size_t i = 0; i != n; ++i)
      runVertex(i);
  } else {
    runtime::parallelForRange(tbb::blocked_range<std::size_t>(0, n, 32),
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

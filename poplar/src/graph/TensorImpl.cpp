#include "graph/TensorImpl.hpp"

#include "graph/TensorLayout.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <utility>

namespace poplar {

using layout::Layout;

std::size_t layout::StridedBox::numElements() const {
  std::size_t n = 1;
  for (std::size_t e : extent)
    n *= e;
  return n;
}

std::size_t Tensor::Impl::numElements() const {
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  return n;
}

namespace {

// Computes the layout of `root` from the nearest nodes whose layouts are
// already known, walking the expression in post-order with explicit stacks
// (views made in loops nest far deeper than the call stack allows).
//
// A node used only by its parent is computed into a temporary that the
// parent consumes by moving, so a chain of n appends costs O(n), not O(n^2).
// A node held elsewhere too (another parent, or a user's Tensor) is likely
// to be asked again, so its layout is published into its own cache.
//
//   cached(node)            -> the node's cached layout, or nullptr
//   publish(node, layout)   -> caches it and returns the cached layout
template <class Cached, class Publish>
Layout materialise(const Tensor::Impl &root, Cached cached, Publish publish) {
  struct Frame {
    const Tensor::Impl *node;
    bool shared;
    std::size_t nextInput;
    std::size_t firstPending; // index in `pending` of this node's inputs
    std::size_t firstValue;   // index in `values` of their layouts
  };
  std::vector<Frame> frames{{&root, false, 0, 0, 0}};
  std::vector<bool> pending; // per visited input: is its layout in values?
  std::vector<layout::InputLayout> values; // finished inputs' layouts

  for (;;) {
    Frame &frame = frames.back();
    const Tensor::Impl &node = *frame.node;
    if (frame.nextInput != node.inputs.size()) {
      const auto &input = node.inputs[frame.nextInput++];
      const bool known = cached(input.get()) != nullptr;
      pending.push_back(!known);
      if (!known)
        frames.push_back(Frame{input.get(), input.use_count() > 1, 0,
                               pending.size(), values.size()});
      continue;
    }

    Layout result;
    if (node.kind == Tensor::Impl::Kind::Variable) {
      result = layout::variableLayout(node.varId, node.shape);
    } else {
      std::vector<layout::InputLayout> inputs(node.inputs.size());
      std::size_t nextValue = frame.firstValue;
      for (std::size_t i = 0; i != node.inputs.size(); ++i) {
        if (pending[frame.firstPending + i])
          inputs[i] = std::move(values[nextValue++]);
        else
          inputs[i].borrowed = cached(node.inputs[i].get());
      }
      result = layout::viewLayout(node, std::move(inputs));
    }

    const Frame done = frame;
    frames.pop_back();
    pending.resize(done.firstPending);
    values.resize(done.firstValue);
    if (frames.empty())
      return result;
    if (done.shared)
      values.push_back({Layout{}, publish(done.node, std::move(result))});
    else
      values.push_back({std::move(result), nullptr});
  }
}

} // namespace

const layout::Layout *Tensor::Impl::keptLayout() const {
  return layoutReady.load(std::memory_order_acquire) ? layoutCache.get()
                                                     : nullptr;
}

layout::Layout Tensor::Impl::computeLayout() const {
  auto cached = [](const Impl *node) { return node->keptLayout(); };
  auto publish = [](const Impl *node, Layout &&layout) -> const Layout * {
    std::call_once(node->layoutOnce, [&] {
      node->layoutCache = std::make_unique<Layout>(std::move(layout));
      layout::indexRows(*node->layoutCache);
      node->layoutReady.store(true, std::memory_order_release);
    });
    return node->layoutCache.get();
  };
  return materialise(*this, cached, publish);
}

const layout::Layout &Tensor::Impl::getLayout() const {
  std::call_once(layoutOnce, [this] {
    layoutCache = std::make_unique<Layout>(computeLayout());
    layout::indexRows(*layoutCache);
    layoutReady.store(true, std::memory_order_release);
  });
  return *layoutCache;
}

namespace layout {

InputLayout transientLayout(const Tensor &t) {
  InputLayout result;
  result.borrowed = t.getImpl().keptLayout();
  if (!result.borrowed)
    result.owned = t.getImpl().computeLayout();
  return result;
}

bool elementStorage(const Tensor &t, std::size_t i, StorageRange &out) {
  const Tensor::Impl &node = t.getImpl();
  if (node.shape.size() != 1 || i >= node.shape[0])
    return false;
  if (node.kind == Tensor::Impl::Kind::Variable) {
    out = {node.varId, i, i + 1}; // a variable's elements in order
    return true;
  }
  const Layout *kept = node.keptLayout();
  if (!kept)
    return false;
  out = elementStorage(*kept, i);
  return true;
}

EdgeLayout edgeLayout(const Tensor &t) {
  const Tensor::Impl *node = &t.getImpl();
  // Flattening keeps the flattened order: the runs of the input read with
  // its own shape are the ones flattenLayout's boxes give.
  if (!node->keptLayout() && node->kind == Tensor::Impl::Kind::Reshape &&
      node->shape.size() == 1)
    node = node->inputs[0].get();
  EdgeLayout result;
  result.shape = &node->shape;
  result.layout.borrowed = node->keptLayout();
  if (!result.layout.borrowed)
    result.layout.owned = node->computeLayout();
  return result;
}

Tensor makeVariable(std::uint64_t graphId, std::size_t varId, Type type,
                    std::vector<std::size_t> shape, bool isConstant,
                    std::string debugName) {
  std::size_t count = 0;
  if (!elementCount(shape, count))
    throw tensor_creation_error("Variable '" + debugName +
                                "': too many elements to index");
  auto impl = std::make_shared<Tensor::Impl>();
  impl->kind = Tensor::Impl::Kind::Variable;
  impl->type = type;
  impl->shape = std::move(shape);
  impl->graphId = graphId;
  impl->varId = varId;
  impl->isConstant = isConstant;
  impl->anyConstant = isConstant;
  impl->debugName = std::move(debugName);
  return Tensor(std::move(impl));
}

namespace {

// Joins `next` onto `run` if the flattened indices and the storage both go
// on with one stride (a run of one element takes any stride).
bool extendRun(FlatRun &run, const FlatRun &next) {
  if (run.begin + run.length != next.begin || run.var != next.var)
    return false;
  const std::int64_t last =
      run.start + static_cast<std::int64_t>(run.length - 1) * run.stride;
  const std::int64_t step = next.start - last;
  std::int64_t stride = step;
  if (run.length > 1)
    stride = run.stride;
  else if (next.length > 1)
    stride = next.stride;
  if (step != stride || (next.length > 1 && next.stride != stride))
    return false;
  run.length += next.length;
  run.stride = stride;
  return true;
}

} // namespace

std::vector<FlatRun> flatRuns(const Tensor &t) {
  const Tensor::Impl &impl = t.getImpl();
  return flatRuns(impl.getLayout(), impl.shape);
}

std::vector<FlatRun> flatRuns(const Layout &layout,
                              const std::vector<std::size_t> &shape) {
  const DimValues<std::size_t> places = placeValues(shape);
  std::vector<FlatRun> runs;
  for (const StridedBox &box : layout.boxes)
    forEachBoxRun(box, places,
                  [&](std::size_t begin, std::size_t length,
                      std::int64_t start, std::int64_t stride) {
                    runs.push_back(FlatRun{begin, length, box.var, start, stride});
                  });
  auto byBegin = [](const FlatRun &a, const FlatRun &b) {
    return a.begin < b.begin;
  };
  if (!std::is_sorted(runs.begin(), runs.end(), byBegin))
    std::sort(runs.begin(), runs.end(), byBegin);

  std::vector<FlatRun> merged;
  merged.reserve(runs.size());
  for (const FlatRun &run : runs) {
    if (merged.empty() || !extendRun(merged.back(), run))
      merged.push_back(run);
  }
  for (FlatRun &run : merged)
    if (run.length == 1)
      run.stride = 1;
  return merged;
}

namespace {

// The set of storage elements a box covers: base plus every combination of
// its modes, which have positive strides in increasing order.
struct StorageBox {
  std::size_t var = 0;
  std::int64_t base = 0;
  Modes modes;
};

bool sameModes(const Modes &a, const Modes &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Mode &x, const Mode &y) {
                      return x.extent == y.extent && x.stride == y.stride;
                    });
}

bool modesBefore(const Modes &a, const Modes &b) {
  return std::lexicographical_compare(
      a.begin(), a.end(), b.begin(), b.end(), [](const Mode &x, const Mode &y) {
        return x.extent < y.extent ||
               (x.extent == y.extent && x.stride < y.stride);
      });
}

void sortByStride(Modes &modes) {
  std::sort(modes.begin(), modes.end(),
            [](const Mode &a, const Mode &b) { return a.stride < b.stride; });
}

StorageBox storageBox(const StridedBox &box) {
  // Repeats (stride 0) add no storage; negative strides are walked from
  // their other end.
  StorageBox result{box.var, box.offset, {}};
  for (std::size_t d = 0; d != box.extent.size(); ++d) {
    if (box.extent[d] <= 1 || box.stride[d] == 0)
      continue;
    std::int64_t stride = box.stride[d];
    if (stride < 0) {
      result.base += static_cast<std::int64_t>(box.extent[d] - 1) * stride;
      stride = -stride;
    }
    result.modes.push_back(Mode{box.extent[d], 0, stride});
  }
  sortByStride(result.modes);
  return result;
}

// Boxes covering the same pattern at bases in arithmetic progression are
// one box with an extra mode: the columns of a flattened transpose are one
// block of storage, found without visiting its elements.
std::vector<StorageBox> combineProgressions(std::vector<StorageBox> boxes) {
  auto before = [](const StorageBox &a, const StorageBox &b) {
    if (a.var != b.var)
      return a.var < b.var;
    if (!sameModes(a.modes, b.modes))
      return modesBefore(a.modes, b.modes);
    return a.base < b.base;
  };
  // The boxes of a view walked in storage order (the usual edge) come
  // sorted already.
  if (!std::is_sorted(boxes.begin(), boxes.end(), before))
    std::sort(boxes.begin(), boxes.end(), before);
  std::vector<StorageBox> combined;
  for (std::size_t i = 0; i != boxes.size();) {
    auto samePattern = [&](std::size_t j) {
      return j != boxes.size() && boxes[j].var == boxes[i].var &&
             sameModes(boxes[j].modes, boxes[i].modes);
    };
    // Skips repeats of the same storage after `at`.
    auto skipRepeats = [&](std::size_t at) {
      std::size_t j = at + 1;
      while (samePattern(j) && boxes[j].base == boxes[at].base)
        ++j;
      return j;
    };
    std::size_t j = skipRepeats(i);
    if (samePattern(j)) {
      const std::int64_t step = boxes[j].base - boxes[i].base;
      std::size_t count = 1;
      while (samePattern(j) &&
             boxes[j].base ==
                 boxes[i].base + step * static_cast<std::int64_t>(count)) {
        ++count;
        j = skipRepeats(j);
      }
      boxes[i].modes.push_back(Mode{count, 0, step});
    }
    combined.push_back(std::move(boxes[i]));
    i = j;
  }
  return combined;
}

} // namespace

std::vector<StorageRange> storageRanges(const Tensor &t) {
  return storageRanges(t.getImpl().getLayout());
}

std::vector<StorageRange> storageRanges(const Layout &layout) {
  std::vector<StorageBox> boxes;
  boxes.reserve(layout.boxes.size());
  for (const StridedBox &box : layout.boxes)
    boxes.push_back(storageBox(box));
  std::vector<StorageRange> ranges;
  for (StorageBox &box : combineProgressions(std::move(boxes))) {
    sortByStride(box.modes);
    // Merge modes that tile storage densely, inner to outer.
    Modes dense;
    for (const Mode &m : box.modes) {
      if (!dense.empty() && dense.back().stride * static_cast<std::int64_t>(
                                                      dense.back().extent) ==
                                m.stride)
        dense.back().extent *= m.extent;
      else
        dense.push_back(m);
    }
    std::size_t length = 1;
    if (!dense.empty() && dense.front().stride == 1) {
      length = dense.front().extent;
      dense.erase(dense.begin());
    }
    // Outermost first, so that storage is visited in increasing order.
    std::reverse(dense.begin(), dense.end());
    forEachCombination(dense, [&](std::size_t, std::int64_t storage) {
      const auto begin = static_cast<std::size_t>(box.base + storage);
      ranges.push_back(StorageRange{box.var, begin, begin + length});
    });
  }
  auto byStart = [](const StorageRange &a, const StorageRange &b) {
    return a.var < b.var || (a.var == b.var && a.begin < b.begin);
  };
  if (!std::is_sorted(ranges.begin(), ranges.end(), byStart))
    std::sort(ranges.begin(), ranges.end(), byStart);
  std::vector<StorageRange> merged;
  for (const StorageRange &r : ranges) {
    if (!merged.empty() && merged.back().var == r.var &&
        merged.back().end >= r.begin)
      merged.back().end = std::max(merged.back().end, r.end);
    else
      merged.push_back(r);
  }
  return merged;
}

bool isContiguous(const std::vector<FlatRun> &runs) {
  if (runs.empty())
    return false;
  for (std::size_t i = 0; i != runs.size(); ++i) {
    if (runs[i].length > 1 && runs[i].stride != 1)
      return false;
    if (i != 0 &&
        (runs[i].var != runs[0].var ||
         runs[i].start !=
             runs[i - 1].start + static_cast<std::int64_t>(runs[i - 1].length)))
      return false;
  }
  return true;
}

bool sameStorage(const std::vector<FlatRun> &a, const std::vector<FlatRun> &b) {
  // Walk both lists together, comparing the pieces where runs overlap.
  std::size_t i = 0, j = 0, doneA = 0, doneB = 0;
  while (i != a.size() && j != b.size()) {
    const FlatRun &p = a[i], &q = b[j];
    const std::size_t n = std::min(p.length - doneA, q.length - doneB);
    const std::int64_t startA =
        p.start + static_cast<std::int64_t>(doneA) * p.stride;
    const std::int64_t startB =
        q.start + static_cast<std::int64_t>(doneB) * q.stride;
    if (p.var != q.var || startA != startB || (n > 1 && p.stride != q.stride))
      return false;
    doneA += n;
    doneB += n;
    if (doneA == p.length) {
      ++i;
      doneA = 0;
    }
    if (doneB == q.length) {
      ++j;
      doneB = 0;
    }
  }
  return i == a.size() && j == b.size();
}

bool intersect(const std::vector<StorageRange> &a,
               const std::vector<StorageRange> &b) {
  auto before = [](const StorageRange &x, const StorageRange &y) {
    return x.var < y.var || (x.var == y.var && x.end <= y.begin);
  };
  for (std::size_t i = 0, j = 0; i != a.size() && j != b.size();) {
    if (before(a[i], b[j]))
      ++i;
    else if (before(b[j], a[i]))
      ++j;
    else
      return true;
  }
  return false;
}

} // namespace layout
} // namespace poplar

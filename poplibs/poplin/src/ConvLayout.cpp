// Folding ConvParams into a ConvGeometry, the transformed views of the
// input and kernel, and tensors built of one variable per tile block.
#include "ConvLayout.hpp"

#include <poputil/exceptions.hpp>

#include <poplar/Graph.hpp>

#include <numeric>
#include <sstream>

using namespace poplar;

namespace poplin {
namespace detail {

namespace {

std::string shapeString(const std::vector<std::size_t> &shape) {
  std::ostringstream os;
  os << "[";
  for (std::size_t i = 0; i != shape.size(); ++i)
    os << (i ? ", " : "") << shape[i];
  os << "]";
  return os.str();
}

// Places (dilation - 1) zeros between neighbouring elements of `dim`.
Tensor dilate(Graph &graph, const Tensor &t, unsigned dim, unsigned dilation,
              unsigned tile) {
  const std::size_t n = t.dim(dim);
  if (dilation == 1 || n <= 1)
    return t;
  std::vector<std::size_t> zeroShape = t.shape();
  zeroShape.insert(zeroShape.begin() + dim + 1, dilation - 1);
  const Tensor spaced =
      concat(t.expand({dim + 1}),
             zeros(graph, t.elementType(), zeroShape, tile), dim + 1);
  std::vector<std::size_t> merged = t.shape();
  merged[dim] = n * dilation;
  return spaced.reshape(merged).slice(0, (n - 1) * dilation + 1, dim);
}

Tensor pad(Graph &graph, const Tensor &t, unsigned dim, unsigned lower,
           unsigned upper, unsigned tile) {
  std::vector<Tensor> parts;
  std::vector<std::size_t> shape = t.shape();
  if (lower) {
    shape[dim] = lower;
    parts.push_back(zeros(graph, t.elementType(), shape, tile));
  }
  if (t.dim(dim))
    parts.push_back(t);
  if (upper) {
    shape[dim] = upper;
    parts.push_back(zeros(graph, t.elementType(), shape, tile));
  }
  if (parts.empty())
    return t;
  return parts.size() == 1 ? parts[0] : concat(parts, dim);
}

// Whether the input transform of `params` truncates and pads only (no zero
// dilation, no flip).
bool truncatesAndPadsOnly(const ConvParams &params) {
  const auto &it = params.inputTransform;
  for (unsigned d = 0; d != params.getNumFieldDims(); ++d) {
    const std::size_t truncated = params.inputFieldShape[d] -
                                  it.truncationLower[d] - it.truncationUpper[d];
    if ((it.dilation[d] != 1 && truncated > 1) || it.flip[d])
      return false;
  }
  return true;
}

} // namespace

ConvGeometry foldGeometry(const ConvParams &params) {
  params.validate();
  const std::size_t nd = params.getNumFieldDims();
  if (nd < 1 || nd > 3)
    throw poputil::poplibs_error("poplin::convolution: " + std::to_string(nd) +
                                 " field dimensions; 1, 2 or 3 are supported");
  ConvGeometry g;
  g.groups = params.numConvGroups;
  g.batch = params.batchSize;
  g.inChans = params.inputChannelsPerConvGroup;
  g.outChans = params.outputChannelsPerConvGroup;
  const unsigned offset = static_cast<unsigned>(3 - nd);
  for (unsigned d = 0; d != nd; ++d) {
    const auto &kt = params.kernelTransform;
    const auto &ot = params.outputTransform;
    const unsigned g3 = d + offset;
    g.inSize[g3] = params.getTransformedInputSize(d);
    g.kernel[g3] = params.getTruncatedKernelSize(d);
    g.kernelDilation[g3] = kt.dilation[d];
    g.stride[g3] = ot.stride[d];
    // Flipping the padded kernel moves its upper padding to the front.
    const unsigned kernelOffset =
        kt.flip[d] ? kt.paddingUpper[d] : kt.paddingLower[d];
    g.base[g3] = ot.truncationLower[d] + kernelOffset;
    g.outSize[g3] =
        params.getOutputSize(d) - ot.paddingLower[d] - ot.paddingUpper[d];
  }
  return g;
}

bool hasNoMacs(const ConvGeometry &g) {
  return g.kernelElems() == 0 || g.inChans == 0;
}

Tensor groupsFirstChannelsLast(const Tensor &t, std::size_t groups) {
  const unsigned rank = t.rank();
  std::vector<std::size_t> split = t.shape();
  split[1] = groups;
  split.insert(split.begin() + 2, t.dim(1) / groups);
  // [B, G, C, field...] -> [G, B, field..., C]
  std::vector<unsigned> perm{1, 0};
  for (unsigned d = 3; d != rank + 1; ++d)
    perm.push_back(d);
  perm.push_back(2);
  return t.reshape(split).dimShuffle(perm);
}

Tensor publicActivations(const Tensor &t) {
  const unsigned rank = t.rank();
  // [G, B, field..., C] -> [B, G, C, field...] -> [B, G * C, field...]
  std::vector<unsigned> perm{1, 0, rank - 1};
  for (unsigned d = 2; d != rank - 1; ++d)
    perm.push_back(d);
  Tensor s = t.dimShuffle(perm);
  std::vector<std::size_t> shape = s.shape();
  shape[1] *= shape[2];
  shape.erase(shape.begin() + 2);
  return s.reshape(shape);
}

Tensor toThreeFieldDims(const Tensor &t) {
  const unsigned nd = t.rank() - 3;
  std::vector<std::size_t> shape{t.dim(0), t.dim(1)};
  for (unsigned d = nd; d != 3; ++d)
    shape.push_back(1);
  for (unsigned d = 0; d != nd; ++d)
    shape.push_back(t.dim(2 + d));
  shape.push_back(t.dim(t.rank() - 1));
  return t.reshape(shape);
}

Tensor transformedInput(Graph &graph, const Tensor &in,
                        const ConvParams &params, unsigned zeroTile) {
  Tensor x = groupsFirstChannelsLast(in, params.numConvGroups);
  const auto &it = params.inputTransform;
  for (unsigned d = 0; d != params.getNumFieldDims(); ++d) {
    const unsigned dim = 2 + d;
    x = x.slice(it.truncationLower[d], x.dim(dim) - it.truncationUpper[d], dim);
    x = dilate(graph, x, dim, it.dilation[d], zeroTile);
    x = pad(graph, x, dim, it.paddingLower[d], it.paddingUpper[d], zeroTile);
    if (it.flip[d])
      x = x.reverse(dim);
  }
  return toThreeFieldDims(x);
}

bool padsOnly(const ConvParams &params) {
  if (!truncatesAndPadsOnly(params))
    return false;
  const auto &it = params.inputTransform;
  for (unsigned d = 0; d != params.getNumFieldDims(); ++d)
    if (it.paddingLower[d] || it.paddingUpper[d])
      return true;
  return false;
}

Tensor unpaddedInput(const Tensor &in, const ConvParams &params,
                     InputPadding &padding) {
  Tensor x = groupsFirstChannelsLast(in, params.numConvGroups);
  const auto &it = params.inputTransform;
  const unsigned nd = static_cast<unsigned>(params.getNumFieldDims());
  padding = InputPadding{};
  for (unsigned d = 0; d != nd; ++d) {
    const unsigned dim = 2 + d;
    x = x.slice(it.truncationLower[d], x.dim(dim) - it.truncationUpper[d], dim);
    padding.lower[3 - nd + d] = it.paddingLower[d];
    padding.stored[3 - nd + d] = x.dim(dim);
  }
  return toThreeFieldDims(x);
}

namespace {

// A zero constant on `tile` (what zeros() makes) broadcast to `shape`.
Tensor broadcastZero(const Tensor &zero,
                     const std::vector<std::size_t> &shape) {
  Tensor t = zero.reshape(std::vector<std::size_t>(shape.size(), 1));
  for (unsigned d = 0; d != shape.size(); ++d)
    t = t.broadcast(static_cast<unsigned>(shape[d]), d);
  return t;
}

Tensor zeroConstant(Graph &graph, const Type &type, unsigned tile) {
  Tensor c = graph.addConstant(type, {}, 0.0f, {"poplin/zero"});
  graph.setTileMapping(c, tile);
  return c;
}

} // namespace

InputBlocks::InputBlocks(Graph &graph, const Tensor &in,
                         const ConvParams &params, unsigned fd)
    : graph(graph), in(in), params(params), fd(fd),
      fromStored(truncatesAndPadsOnly(params)), toFdFirst{1 + fd},
      fromFdFirst(5) {
  if (!fromStored)
    return;
  stored = unpaddedInput(in, params, padding);
  for (unsigned d = 0; d != 5; ++d)
    if (d != 1 + fd)
      toFdFirst.push_back(d);
  for (unsigned d = 0; d != 5; ++d)
    fromFdFirst[toFdFirst[d]] = d;
}

Tensor InputBlocks::block(std::size_t g, std::size_t b0, std::size_t b1,
                          std::size_t ci0, std::size_t ci1, std::size_t start,
                          std::size_t span, unsigned tile) {
  if (!fromStored)
    return transformedInput(graph, in, params, tile)[g]
        .slice(b0, b1, 0)
        .slice(ci0, ci1, 4)
        .slice(start, start + span, 1 + fd);
  // [b1 - b0, Z, Y, X, ci1 - ci0] with dimension 1 + fd first.
  Tensor &shared = fdFirst[{g, b0, b1, ci0, ci1}];
  if (!shared.valid())
    shared =
        stored[g].slice(b0, b1, 0).slice(ci0, ci1, 4).dimShuffle(toFdFirst);
  // The stored positions of the window, and the padding before and after.
  const std::size_t lower = padding.lower[fd], count = padding.stored[fd];
  auto storedIndex = [&](std::size_t p) {
    return std::min(count, p > lower ? p - lower : std::size_t(0));
  };
  const std::size_t s0 = storedIndex(start), s1 = storedIndex(start + span);
  const std::size_t before = std::min(span, lower > start ? lower - start : 0);
  const std::size_t after = span - before - (s1 - s0);
  Tensor x = shared.slice(s0, s1, 0).dimShuffle(fromFdFirst);
  // Padded as transformedInput pads, dimension by dimension in order, a
  // constant for each side that has padding (used or not).
  const auto &it = params.inputTransform;
  const unsigned nd = static_cast<unsigned>(params.getNumFieldDims());
  for (unsigned d = 0; d != nd; ++d) {
    const unsigned g3 = 3 - nd + d, dim = 1 + g3;
    std::vector<Tensor> parts;
    std::vector<std::size_t> shape = x.shape();
    auto side = [&](unsigned padded, std::size_t n) {
      if (!padded)
        return;
      const Tensor zero = zeroConstant(graph, x.elementType(), tile);
      if (n == 0)
        return;
      shape[dim] = n;
      parts.push_back(broadcastZero(zero, shape));
    };
    side(it.paddingLower[d], g3 == fd ? before : it.paddingLower[d]);
    if (x.dim(dim))
      parts.push_back(x);
    side(it.paddingUpper[d], g3 == fd ? after : it.paddingUpper[d]);
    if (!parts.empty())
      x = parts.size() == 1 ? parts[0] : concat(parts, dim);
  }
  return x;
}

Tensor transformedKernel(const Tensor &weights, const ConvParams &params,
                         bool transposeAndFlip) {
  const unsigned nd = static_cast<unsigned>(params.getNumFieldDims());
  Tensor w = weights;
  if (transposeAndFlip)
    for (unsigned d = 0; d != nd; ++d)
      w = w.reverse(3 + d);
  // To [G, kernel..., Ci, Co].
  std::vector<unsigned> perm{0};
  for (unsigned d = 0; d != nd; ++d)
    perm.push_back(3 + d);
  perm.push_back(transposeAndFlip ? 1 : 2);
  perm.push_back(transposeAndFlip ? 2 : 1);
  w = w.dimShuffle(perm);
  const auto &kt = params.kernelTransform;
  for (unsigned d = 0; d != nd; ++d) {
    w = w.slice(kt.truncationLower[d], w.dim(1 + d) - kt.truncationUpper[d],
                1 + d);
    if (kt.flip[d])
      w = w.reverse(1 + d);
  }
  std::vector<std::size_t> shape{w.dim(0)};
  for (unsigned d = nd; d != 3; ++d)
    shape.push_back(1);
  for (unsigned d = 0; d != nd; ++d)
    shape.push_back(w.dim(1 + d));
  shape.push_back(w.dim(nd + 1));
  shape.push_back(w.dim(nd + 2));
  return w.reshape(shape);
}

namespace {

Tensor buildBlocks(Graph &graph, const Type &type,
                   std::vector<std::size_t> shape,
                   const std::vector<BlockSplit> &splits, std::size_t level,
                   std::vector<unsigned> &index, unsigned spread,
                   const BlockTileFn &tileOf, const DebugContext &dc) {
  if (level == splits.size()) {
    Tensor v = graph.addVariable(type, shape, dc);
    const Tensor flat = v.flatten();
    const std::size_t n = flat.numElements();
    for (unsigned s = 0; s != spread; ++s) {
      const std::size_t b = partBegin(n, spread, s),
                        e = partBegin(n, spread, s + 1);
      if (b != e)
        graph.setTileMapping(flat.slice(b, e), tileOf(index, s));
    }
    return v;
  }
  const auto [dim, parts, block] = splits[level];
  const std::size_t size = shape[dim];
  const auto begin = [&, block = block, parts = parts](unsigned p) {
    return block ? std::min(size, block * p) : partBegin(size, parts, p);
  };
  std::vector<Tensor> pieces;
  for (unsigned p = 0; p != parts; ++p) {
    const std::size_t b = begin(p);
    const std::size_t e = begin(p + 1);
    if (b == e)
      continue;
    shape[dim] = e - b;
    index[level] = p;
    pieces.push_back(buildBlocks(graph, type, shape, splits, level + 1, index,
                                 spread, tileOf, dc));
  }
  return pieces.size() == 1 ? pieces[0] : concat(pieces, dim);
}

} // namespace

Tensor addBlockedVariable(Graph &graph, const Type &type,
                          const std::vector<std::size_t> &shape,
                          const std::vector<BlockSplit> &splits,
                          unsigned spread, const BlockTileFn &tileOf,
                          const DebugContext &debugContext) {
  for (std::size_t s : shape)
    if (s == 0) {
      Tensor v = graph.addVariable(type, shape, debugContext);
      return v;
    }
  std::vector<unsigned> index(splits.size(), 0);
  return buildBlocks(graph, type, shape, splits, 0, index, std::max(1u, spread),
                     tileOf, debugContext);
}

Tensor zeros(Graph &graph, const Type &type,
             const std::vector<std::size_t> &shape, unsigned tile) {
  return broadcastZero(zeroConstant(graph, type, tile), shape);
}

void checkShape(const Tensor &t, const std::vector<std::size_t> &want,
                const std::string &what, const std::string &op) {
  if (t.shape() != want)
    throw poputil::poplibs_error("poplin::" + op + ": the " + what +
                                 " tensor has shape " + shapeString(t.shape()) +
                                 " but the convolution's params need " +
                                 shapeString(want));
}

} // namespace detail
} // namespace poplin

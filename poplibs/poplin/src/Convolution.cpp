// The forward convolution (and, with transposed and flipped weights, the
// input gradient), the creation of its operands, biases and plan queries.
#include <poplin/Convolution.hpp>

#include "ConvLayout.hpp"
#include "ConvPasses.hpp"

#include <fmt/ranges.h>
#include <poplibs_support/logging.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <poplar/Program.hpp>

#include <cmath>

using namespace poplar;
using namespace poplar::program;

namespace poplin {

PlanningCache::PlanningCache() : impl(std::make_unique<PlanningCacheImpl>()) {}
PlanningCache::~PlanningCache() = default;
std::size_t PlanningCache::size() const {
  return impl->plans.size() + impl->matmulPlans.size();
}

namespace detail {

ConvPlan getConvPlan(const Target &target, const ConvParams &userParams,
                     const ConvOptions &options, ConvPass pass,
                     PlanningCache *cache) {
  // Plans are made (and cached) for the canonical form, which the passes
  // compute.
  const ConvParams params = userParams.canonicalize();
  const ConvGeometry geometry = foldGeometry(params);
  // Each conv group gets an equal share of the tiles (at least one).
  const unsigned numTiles = convTiles(target, options);
  const unsigned tiles = std::max<unsigned>(
      1, static_cast<unsigned>(numTiles /
                               std::max<std::size_t>(1, params.numConvGroups)));
  PlanningCacheImpl::Key key{
      target.getTargetArchString(), numTiles, tiles,
      target.getBytesPerTile(),     params,   options.availableMemoryProportion,
      static_cast<int>(pass)};
  if (cache) {
    auto it = cache->impl->plans.find(key);
    if (it != cache->impl->plans.end())
      return it->second;
  }
  ConvPlan plan =
      planConv(target, params.inputType, geometry, tiles, options, pass);
  plan.numTiles = numTiles;
  plan.tilesPerGroup = tiles;
  if (cache)
    cache->impl->plans.emplace(key, plan);
  return plan;
}

// The geometry's first 21 elements for a block of `batch` batch elements,
// `outputs` outputs along the field dimension, `ci` input and `co` output
// channels (ConvKernelCommon.hpp): along the field dimension the padded
// window the outputs read, from its start; the other dimensions whole.
std::vector<unsigned> slabGeometry(const ConvGeometry &geo, std::size_t batch,
                                   std::size_t outputs, std::size_t ci,
                                   std::size_t co) {
  const unsigned fd = geo.fieldDim();
  std::vector<unsigned> g{static_cast<unsigned>(batch),
                          static_cast<unsigned>(ci), static_cast<unsigned>(co)};
  for (unsigned d = 0; d != 3; ++d) {
    const bool field = d == fd;
    g.push_back(static_cast<unsigned>(field ? geo.inputSpan(d, outputs)
                                            : geo.inSize[d]));
    g.push_back(static_cast<unsigned>(field ? outputs : geo.outSize[d]));
    g.push_back(static_cast<unsigned>(geo.kernel[d]));
    g.push_back(static_cast<unsigned>(geo.kernelDilation[d]));
    g.push_back(static_cast<unsigned>(geo.stride[d]));
    g.push_back(static_cast<unsigned>(field ? 0 : geo.base[d]));
  }
  return g;
}

SlabBlock inputSlab(const Tensor &x, const ConvGeometry &geo, std::size_t g,
                    std::size_t b0, std::size_t b1, std::size_t o0,
                    std::size_t o1, std::size_t ci0, std::size_t ci1,
                    std::size_t co0, std::size_t co1) {
  const unsigned fd = geo.fieldDim();
  const std::size_t start = geo.base[fd] + o0 * geo.stride[fd];
  Tensor slab = x[g].slice(b0, b1, 0).slice(ci0, ci1, 4);
  slab = slab.slice(start, start + geo.inputSpan(fd, o1 - o0), 1 + fd);
  SlabBlock block;
  block.slabBegin = start;
  block.geometry = slabGeometry(geo, b1 - b0, o1 - o0, ci1 - ci0, co1 - co0);
  block.slab = slab;
  return block;
}

SlabBlock inputSlab(InputBlocks &blocks, unsigned tile, const ConvGeometry &geo,
                    std::size_t g, std::size_t b0, std::size_t b1,
                    std::size_t o0, std::size_t o1, std::size_t ci0,
                    std::size_t ci1, std::size_t co0, std::size_t co1) {
  const unsigned fd = geo.fieldDim();
  SlabBlock block;
  block.slabBegin = geo.base[fd] + o0 * geo.stride[fd];
  block.slab = blocks.block(g, b0, b1, ci0, ci1, block.slabBegin,
                            geo.inputSpan(fd, o1 - o0), tile);
  block.geometry = slabGeometry(geo, b1 - b0, o1 - o0, ci1 - ci0, co1 - co0);
  return block;
}

SlabBlock inputSlab(const Tensor &x, const InputPadding &padding,
                    const ConvGeometry &geo, std::size_t g, std::size_t b0,
                    std::size_t b1, std::size_t o0, std::size_t o1,
                    std::size_t ci0, std::size_t ci1, std::size_t co0,
                    std::size_t co1) {
  const unsigned fd = geo.fieldDim();
  // The padded window [start, start + span) along fd, and the stored
  // elements in it.
  const std::size_t start = geo.base[fd] + o0 * geo.stride[fd];
  const std::size_t span = geo.inputSpan(fd, o1 - o0);
  const std::size_t lower = padding.lower[fd], stored = padding.stored[fd];
  auto storedIndex = [&](std::size_t p) {
    return std::min(stored, p > lower ? p - lower : std::size_t(0));
  };
  const std::size_t first = storedIndex(start),
                    last = storedIndex(start + span);
  SlabBlock block;
  block.slabBegin = first;
  block.slab =
      x[g].slice(b0, b1, 0).slice(ci0, ci1, 4).slice(first, last, 1 + fd);
  block.geometry = slabGeometry(geo, b1 - b0, o1 - o0, ci1 - ci0, co1 - co0);
  block.geometry.push_back(0);
  for (unsigned d = 0; d != 3; ++d)
    block.geometry.push_back(static_cast<unsigned>(
        d == fd ? (lower > start ? lower - start : 0) : padding.lower[d]));
  for (unsigned d = 0; d != 3; ++d)
    block.geometry.push_back(
        static_cast<unsigned>(d == fd ? last - first : padding.stored[d]));
  return block;
}

Tensor PartialSet::destination(Graph &graph, const Tensor &outBlock,
                               bool direct, unsigned tile,
                               const DebugContext &dc) {
  if (direct)
    return outBlock;
  Tensor result = graph.addVariable(FLOAT, outBlock.shape(), {dc, "partials"});
  graph.setTileMapping(result, tile);
  partials.push_back(result);
  tiles.push_back(tile);
  return result;
}

void addReduce(Graph &graph, const ComputeSet &cs,
               const std::vector<Tensor> &partials,
               const std::vector<unsigned> &tiles, const Tensor &out) {
  const Tensor flat = out.flatten();
  const std::size_t n = flat.numElements();
  const unsigned parts = static_cast<unsigned>(partials.size());
  const std::string vertexType =
      poputil::templateVertex("poplin::ConvReduce", out.elementType());
  // Flattened once: each of the parts reads a slice of every partial.
  std::vector<Tensor> flatPartials;
  flatPartials.reserve(parts);
  for (const Tensor &p : partials)
    flatPartials.push_back(p.flatten());
  for (unsigned r = 0; r != parts; ++r) {
    const std::size_t b = partBegin(n, parts, r),
                      e = partBegin(n, parts, r + 1);
    if (b == e)
      continue;
    std::vector<Tensor> slices;
    slices.reserve(parts);
    for (const Tensor &p : flatPartials)
      slices.push_back(p.slice(b, e));
    const Tensor outPart = flat.slice(b, e);
    graph.setTileMapping(outPart, tiles[r]);
    VertexRef v = graph.addVertex(cs, vertexType);
    graph.connect(v["partials"], slices);
    graph.connect(v["out"], outPart);
    graph.setTileMapping(v, tiles[r]);
    graph.setPerfEstimate(v, convReduceCycles(e - b, parts));
  }
}

void checkOperandTypes(
    const ConvParams &params,
    const std::vector<std::pair<std::string, Tensor>> &operands,
    const std::string &op) {
  bool ok = true;
  std::string names;
  for (const auto &[name, t] : operands) {
    ok &= t.elementType() == params.inputType;
    names += std::string(names.empty() ? "" : " and ") + name + " (" +
             std::string(t.elementType().toString()) + ")";
  }
  if (!ok)
    throw poputil::poplibs_error("poplin::" + op + ": the " + names +
                                 " must have the params' input type " +
                                 std::string(params.inputType.toString()));
}

void checkConvType(const Type &t, const std::string &what,
                   const std::string &op) {
  if (t != FLOAT && t != HALF)
    throw poputil::poplibs_error("poplin::" + op + ": the " + what +
                                 " must be FLOAT or HALF, not " +
                                 std::string(t.toString()));
}

} // namespace detail

namespace {

using namespace detail;

std::vector<std::size_t> activationShape(const ConvParams &p,
                                         std::size_t channels,
                                         const std::vector<std::size_t> &f) {
  std::vector<std::size_t> shape{p.batchSize, channels};
  shape.insert(shape.end(), f.begin(), f.end());
  return shape;
}

std::vector<std::size_t> weightShape(const ConvParams &p, bool transposed) {
  std::vector<std::size_t> shape{
      p.numConvGroups,
      transposed ? p.inputChannelsPerConvGroup : p.outputChannelsPerConvGroup,
      transposed ? p.outputChannelsPerConvGroup : p.inputChannelsPerConvGroup};
  shape.insert(shape.end(), p.kernelShape.begin(), p.kernelShape.end());
  return shape;
}

bool hasOutputPadding(const ConvParams &p) {
  for (unsigned d = 0; d != p.getNumFieldDims(); ++d)
    if (p.outputTransform.paddingLower[d] || p.outputTransform.paddingUpper[d])
      return true;
  return false;
}

// The computed outputs [G, B, Z, Y, X, Co], one variable per plan block on
// the tile that finishes it.
Tensor addOutputCore(Graph &graph, const ConvParams &params,
                     const ConvGeometry &geo, const ConvPlan &plan,
                     bool groupsInnermost, const DebugContext &dc) {
  if (groupsInnermost) {
    // One variable [B, Z, Y, X, G, Co] on the plan's one tile.
    Tensor v = graph.addVariable(params.outputType,
                                 {geo.batch, geo.outSize[0], geo.outSize[1],
                                  geo.outSize[2], geo.groups, geo.outChans},
                                 {dc, "output"});
    graph.setTileMapping(v, plan.groupTile(0, plan.tileOf(0, 0, 0, 0)));
    return v.dimShuffle({4, 0, 1, 2, 3, 5});
  }
  return addBlockedVariable(graph, params.outputType,
                            {geo.groups, geo.batch, geo.outSize[0],
                             geo.outSize[1], geo.outSize[2], geo.outChans},
                            {{0, static_cast<unsigned>(geo.groups)},
                             {1, plan.splitB},
                             {2 + plan.fieldDim, plan.splitF},
                             {5, plan.splitCo, plan.blockCo}},
                            1,
                            [&](const std::vector<unsigned> &i, unsigned) {
                              return plan.groupTile(
                                  i[0], plan.tileOf(i[1], i[2], i[3], 0));
                            },
                            {dc, "output"});
}

// [G, B, Z, Y, X, C] as [G, B, field..., C] of the params' rank.
Tensor fromThreeFieldDims(const Tensor &t, std::size_t nd) {
  std::vector<std::size_t> shape{t.dim(0), t.dim(1)};
  for (unsigned d = 3 - nd; d != 3; ++d)
    shape.push_back(t.dim(2 + d));
  shape.push_back(t.dim(5));
  return t.reshape(shape);
}

// The public output of the core, zero-padded as the output transform says.
Tensor finishOutput(Graph &graph, const ConvParams &params, const Tensor &core,
                    Sequence &prog, const DebugContext &dc) {
  const std::size_t nd = params.getNumFieldDims();
  Tensor out = fromThreeFieldDims(core, nd);
  if (!hasOutputPadding(params))
    return publicActivations(out);
  std::vector<std::size_t> shape{out.dim(0), out.dim(1)};
  const auto padded = params.getOutputFieldShape();
  shape.insert(shape.end(), padded.begin(), padded.end());
  shape.push_back(out.dim(nd + 2));
  Tensor full = graph.addVariable(params.outputType, shape, {dc, "output"});
  poputil::mapTensorLinearly(graph, full);
  popops::zero(graph, full, prog, {dc, "outputPadding"});
  Tensor inner = full;
  for (unsigned d = 0; d != nd; ++d)
    inner =
        inner.slice(params.outputTransform.paddingLower[d],
                    padded[d] - params.outputTransform.paddingUpper[d], 2 + d);
  prog.add(Copy(out, inner, false, {dc, "output"}));
  return publicActivations(full);
}

// Output channels a block of weights holds when FLOAT weights are stored in
// blocks on the CPU device (ConvPartial's weightsBlocked).
constexpr std::size_t weightBlock = 16;

// Whether the forward pass lowers to one DepthwiseConvPartial: on the CPU
// device (whose one tile holds the whole convolution; the IPU Model keeps
// one ConvPartial per group and the cycles it is estimated by), FLOAT
// groups of one input and one output channel in an unsplit plan.
bool depthwiseOnHost(const Target &target, const ConvParams &params,
                     const ConvGeometry &geo, const ConvPlan &plan) {
  return target.getTargetType() == TargetType::CPU &&
         params.inputType == FLOAT && params.outputType == FLOAT &&
         geo.groups > 1 && geo.inChans == 1 && geo.outChans == 1 &&
         plan.splitB == 1 && plan.splitF == 1 && plan.splitCo == 1 &&
         plan.splitCi == 1;
}

// Whether a FLOAT ConvPartial on the CPU device whose output channels are
// `outChans` is given its weights in blocks of 16 output channels,
// [Co / 16][kernel...][Ci][16]: the order its kernel reads them in, so that
// weights stored so (addPlannedWeights) are read where they are, with
// nothing packed or gathered each run.
bool weightsInBlocks(const Target &target, const ConvParams &params,
                     std::size_t outChans) {
  return target.getTargetType() == TargetType::CPU &&
         params.inputType == FLOAT && outChans != 0 &&
         outChans % weightBlock == 0;
}

// Weights [G, Co, Ci, kernel...] stored as [G, kernel..., Ci, Co] in one
// variable per (group, input channel block, output channel block) on the
// tile that uses it first, so a block's weights are contiguous rows of Co;
// on the CPU device FLOAT weights of whole blocks of 16 output channels in
// one variable [G][Co / 16][kernel...][Ci][16] (weightsInBlocks).
Tensor addPlannedWeights(Graph &graph, const ConvParams &params,
                         const ConvPlan &plan, const DebugContext &dc) {
  const unsigned nd = static_cast<unsigned>(params.getNumFieldDims());
  std::vector<std::size_t> shape{params.numConvGroups};
  shape.insert(shape.end(), params.kernelShape.begin(),
               params.kernelShape.end());
  shape.push_back(params.inputChannelsPerConvGroup);
  shape.push_back(params.outputChannelsPerConvGroup);
  std::vector<unsigned> perm{0, nd + 2, nd + 1};
  for (unsigned d = 0; d != nd; ++d)
    perm.push_back(1 + d);
  const std::size_t co = params.outputChannelsPerConvGroup;
  if (depthwiseOnHost(graph.getTarget(), params,
                      foldGeometry(params.canonicalize()), plan)) {
    // [kernel...][G], the order DepthwiseConvPartial reads them in.
    std::vector<std::size_t> stored(shape.begin() + 1, shape.end());
    stored.push_back(params.numConvGroups);
    Tensor v = graph.addVariable(params.inputType, stored, {dc, "weights"});
    graph.setTileMapping(v, plan.groupTile(0, plan.tileOf(0, 0, 0, 0)));
    std::vector<unsigned> groupsFirst{nd + 2};
    for (unsigned d = 0; d != nd + 2; ++d)
      groupsFirst.push_back(d);
    return v.dimShuffle(groupsFirst).dimShuffle(perm);
  }
  if (weightsInBlocks(graph.getTarget(), params, co) && plan.splitCo == 1 &&
      plan.splitCi == 1) {
    // [G][Co / 16][kernel...][Ci][16], seen as [G, kernel..., Ci, Co].
    std::vector<std::size_t> blocked{params.numConvGroups, co / weightBlock};
    blocked.insert(blocked.end(), params.kernelShape.begin(),
                   params.kernelShape.end());
    blocked.push_back(params.inputChannelsPerConvGroup);
    blocked.push_back(weightBlock);
    Tensor v = graph.addVariable(params.inputType, blocked, {dc, "weights"});
    for (std::size_t g = 0; g != params.numConvGroups; ++g)
      graph.setTileMapping(v[g], plan.groupTile(g, plan.tileOf(0, 0, 0, 0)));
    // The blocks side by side along Co: a box each, where one reshape of
    // [.., Co / 16, 16] into Co would cut the view into runs of 16.
    std::vector<Tensor> blocks;
    for (std::size_t b = 0; b != co / weightBlock; ++b)
      blocks.push_back(v.slice(b, b + 1, 1).squeeze({1}));
    return poplar::concat(blocks, nd + 2).dimShuffle(perm);
  }
  Tensor w = addBlockedVariable(
      graph, params.inputType, shape,
      {{0, static_cast<unsigned>(params.numConvGroups)},
       {nd + 1, plan.splitCi, plan.blockCi},
       {nd + 2, plan.splitCo, plan.blockCo}},
      // Spread over the splitB * splitF tiles that read the block.
      plan.splitB * plan.splitF,
      [&](const std::vector<unsigned> &i, unsigned s) {
        return plan.groupTile(
            i[0], plan.tileOf(s / plan.splitF, s % plan.splitF, i[2], i[1]));
      },
      {dc, "weights"});
  return w.dimShuffle(perm);
}

// The fields of an epilogue vertex (ConvPartialEpilogue,
// DepthwiseConvPartial) applying `epilogue`, if any, to output channels
// [c0, c1).
void connectEpilogue(Graph &graph, const VertexRef &v,
                     const ConvEpilogue *epilogue, std::size_t c0,
                     std::size_t c1) {
  const bool bias = epilogue && epilogue->biases.valid();
  graph.setFieldSize(v["biases"], bias ? 1 : 0);
  if (bias)
    graph.connect(v["biases"][0], epilogue->biases.slice(c0, c1));
  std::vector<float> clamp;
  if (epilogue && epilogue->clamp)
    clamp = {epilogue->lowerBound, epilogue->upperBound};
  graph.setInitialValue<float>(v["clamp"], clamp);
}

// Whether the vertices can apply `epilogue` as they store the outputs: the
// CPU device's FLOAT vertices, summing each output in one vertex, of an
// output without padding (which the epilogue would reach too); bounds that
// are NaN are left to popops.
bool epilogueInVertices(const Target &target, const ConvParams &params,
                        const ConvPlan &plan, const ConvEpilogue &epilogue) {
  return target.getTargetType() == TargetType::CPU &&
         params.inputType == FLOAT && params.outputType == FLOAT &&
         plan.splitCi == 1 && !hasOutputPadding(params) &&
         !(epilogue.clamp && (std::isnan(epilogue.lowerBound) ||
                              std::isnan(epilogue.upperBound)));
}

// The vertex of a depthwise convolution with the groups innermost: the
// transformed input x [G, B, Z, Y, X, 1], the kernel w [G, kZ, kY, kX, 1, 1]
// and the output core [G, B, Z, Y, X, 1] are read as [..., G].
void addDepthwiseVertex(Graph &graph, const ComputeSet &cs,
                        const ConvParams &params, const ConvGeometry &geo,
                        const ConvPlan &plan, const Tensor &x,
                        const InputPadding *padding, const Tensor &w,
                        const Tensor &core, const ConvEpilogue *epilogue) {
  const unsigned fd = plan.fieldDim;
  // Group 0's slab gives the geometry (every group's is the same); the
  // same slice of every group is the vertex's input.
  SlabBlock s = padding ? inputSlab(x, *padding, geo, 0, 0, geo.batch, 0,
                                    geo.outSize[fd], 0, 1, 0, 1)
                        : inputSlab(x, geo, 0, 0, geo.batch, 0, geo.outSize[fd],
                                    0, 1, 0, 1);
  const Tensor slab =
      x.slice(s.slabBegin, s.slabBegin + s.slab.dim(1 + fd), 2 + fd)
          .dimShuffle({1, 2, 3, 4, 0, 5});
  s.geometry[1] = s.geometry[2] = static_cast<unsigned>(geo.groups);
  const unsigned tile = plan.groupTile(0, plan.tileOf(0, 0, 0, 0));
  VertexRef v = graph.addVertex(cs, "poplin::DepthwiseConvPartial");
  graph.connect(v["in"], slab.flatten());
  graph.connect(v["weights"], w.dimShuffle({1, 2, 3, 4, 5, 0}).flatten());
  graph.connect(v["out"], core.dimShuffle({1, 2, 3, 4, 0, 5}).flatten());
  graph.setInitialValue<unsigned>(v["geometry"], s.geometry);
  connectEpilogue(graph, v, epilogue, 0, geo.groups);
  graph.setTileMapping(v, tile);
  const std::size_t positions = geo.batch * geo.outElems();
  graph.setPerfEstimate(
      v, geo.groups * convPartialCycles(graph.getTarget(), params.inputType,
                                        positions, positions,
                                        geo.kernelElems(), 1, 1));
}

// The convolution, with `*epilogue` applied by its vertices when given
// and they can (`epilogueApplied` says whether they did).
Tensor convolutionImpl(Graph &graph, const Tensor &in, const Tensor &weights,
                       const ConvParams &userParams, bool transposeAndFlip,
                       Sequence &prog, const DebugContext &dc,
                       const OptionFlags &optionFlags, PlanningCache *cache,
                       const ConvEpilogue *epilogue = nullptr,
                       bool *epilogueApplied = nullptr) {
  const std::string op = "convolution";
  const ConvOptions options = parseConvOptions(optionFlags);
  poplibs_support::logging::poplin::info(
      "convolution {}: input [{}], weights [{}], {} partials",
      dc.getPathName(), fmt::join(in.shape(), ", "),
      fmt::join(weights.shape(), ", "), options.partialsType.toString().str());
  // The canonical form computes no output that is only zeros and reads no
  // input that no output uses; its shapes are the user's.
  const ConvParams params = userParams.canonicalize();
  checkConvType(params.inputType, "input type", op);
  checkConvType(params.outputType, "output type", op);
  checkShape(in,
             activationShape(params, params.getNumInputChans(),
                             params.inputFieldShape),
             "input", op);
  checkShape(weights, weightShape(params, transposeAndFlip), "weights", op);
  checkOperandTypes(params, {{"input", in}, {"weights", weights}}, op);
  const Target &target = graph.getTarget();
  const ConvGeometry geo = foldGeometry(params);
  const ConvPlan plan =
      getConvPlan(target, params, options, ConvPass::Forward, cache);
  const bool depthwise = !transposeAndFlip &&
                         depthwiseOnHost(target, params, geo, plan);
  Tensor core = addOutputCore(graph, params, geo, plan, depthwise, dc);
  if (core.numElements() == 0)
    return finishOutput(graph, params, core, prog, dc);
  if (epilogue && !hasNoMacs(geo) &&
      epilogueInVertices(target, params, plan, *epilogue))
    *epilogueApplied = true;
  else
    epilogue = nullptr;
  if (hasNoMacs(geo)) {
    popops::zero(graph, core, prog, {dc, "zeroOutput"});
    return finishOutput(graph, params, core, prog, dc);
  }

  Tensor w;
  if (transposeAndFlip) {
    // Transpose and flip once into the plan's layout rather than have
    // every vertex gather single elements.
    const Tensor planned = addPlannedWeights(graph, params, plan, dc);
    prog.add(Copy(transformedKernel(weights, params, true),
                  transformedKernel(planned, params, false), false,
                  {dc, "transposeWeights"}));
    w = transformedKernel(planned, params, false);
  } else {
    w = transformedKernel(weights, params, false);
  }
  const bool direct = plan.splitCi == 1 && params.outputType == FLOAT;
  const unsigned fd = plan.fieldDim;
  const ComputeSet cs = graph.addComputeSet({dc, "Conv"});
  const ComputeSet rcs = graph.addComputeSet({dc, "ReducePartials"});
  // On the CPU device FLOAT vertices read zeros for the input's padding
  // (but for the single-channel kernel, whose rows are vectors), rather
  // than gathering a padded copy of their input at every run.
  InputPadding padding;
  const bool vertexPads = target.getTargetType() == TargetType::CPU &&
                          params.inputType == FLOAT && padsOnly(params) &&
                          (depthwise || geo.inChans != 1 || geo.outChans != 1);
  const Tensor unpadded =
      vertexPads ? unpaddedInput(in, params, padding) : Tensor();
  if (depthwise) {
    const Tensor x =
        vertexPads
            ? unpadded
            : transformedInput(graph, in, params,
                               plan.groupTile(0, plan.tileOf(0, 0, 0, 0)));
    addDepthwiseVertex(graph, cs, params, geo, plan, x,
                       vertexPads ? &padding : nullptr, w, core, epilogue);
    prog.add(Execute(cs, {dc, "Conv"}));
    return finishOutput(graph, params, core, prog, dc);
  }
  const std::string vertexType =
      epilogue
          ? "poplin::ConvPartialEpilogue"
          : poputil::templateVertex("poplin::ConvPartial", params.inputType);
  InputBlocks inputBlocks(graph, in, params, geo.fieldDim());
  for (std::size_t g = 0; g != geo.groups; ++g) {
    // One view of the group for all its blocks: its layout is worked out
    // once, not for every vertex.
    const Tensor coreG = core[g], wG = w[g];
    for (unsigned ib = 0; ib != plan.splitB; ++ib)
      for (unsigned jf = 0; jf != plan.splitF; ++jf)
        for (unsigned ico = 0; ico != plan.splitCo; ++ico) {
          const std::size_t b0 = partBegin(geo.batch, plan.splitB, ib),
                            b1 = partBegin(geo.batch, plan.splitB, ib + 1);
          const std::size_t o0 = partBegin(geo.outSize[fd], plan.splitF, jf),
                            o1 =
                                partBegin(geo.outSize[fd], plan.splitF, jf + 1);
          const std::size_t co0 = ConvPlan::chanBegin(geo.outChans,
                                                      plan.blockCo, ico),
                            co1 = ConvPlan::chanBegin(geo.outChans,
                                                      plan.blockCo, ico + 1);
          if (b0 == b1 || o0 == o1 || co0 == co1)
            continue;
          const Tensor outBlock =
              coreG.slice(b0, b1, 0).slice(o0, o1, 1 + fd).slice(co0, co1, 4);
          PartialSet partials;
          for (unsigned ici = 0; ici != plan.splitCi; ++ici) {
            const std::size_t ci0 = ConvPlan::chanBegin(geo.inChans,
                                                        plan.blockCi, ici),
                              ci1 = ConvPlan::chanBegin(geo.inChans,
                                                        plan.blockCi, ici + 1);
            if (ci0 == ci1)
              continue;
            const unsigned tile =
                plan.groupTile(g, plan.tileOf(ib, jf, ico, ici));
            const SlabBlock s = vertexPads
                                    ? inputSlab(unpadded, padding, geo, g, b0,
                                                b1, o0, o1, ci0, ci1, co0, co1)
                                    : inputSlab(inputBlocks, tile, geo, g, b0,
                                                b1, o0, o1, ci0, ci1, co0, co1);
            const Tensor result =
                partials.destination(graph, outBlock, direct, tile, dc);
            VertexRef v = graph.addVertex(cs, vertexType);
            graph.connect(v["in"], s.slab.flatten());
            Tensor wBlock = wG.slice(ci0, ci1, 3).slice(co0, co1, 4);
            std::vector<unsigned> geometry = s.geometry;
            if (weightsInBlocks(target, params, co1 - co0)) {
              // [Co / 16, kernel..., Ci, 16]; geometry element 21 says so.
              std::vector<std::size_t> split = wBlock.shape();
              split.back() = (co1 - co0) / weightBlock;
              split.push_back(weightBlock);
              wBlock = wBlock.reshape(split).dimShuffle({4, 0, 1, 2, 3, 5});
              geometry.resize(std::max<std::size_t>(geometry.size(), 22));
              geometry[21] = 1;
            }
            graph.connect(v["weights"], wBlock.flatten());
            graph.connect(v["out"], result.flatten());
            graph.setInitialValue<unsigned>(v["geometry"], geometry);
            if (epilogue)
              connectEpilogue(graph, v, epilogue, g * geo.outChans + co0,
                              g * geo.outChans + co1);
            graph.setTileMapping(v, tile);
            const std::size_t positions = outBlock.numElements() / (co1 - co0);
            graph.setPerfEstimate(
                v, convPartialCycles(target, params.inputType,
                                     positions / outBlock.dim(4), positions,
                                     geo.kernelElems(), ci1 - ci0, co1 - co0));
          }
          if (!direct)
            addReduce(graph, rcs, partials.partials, partials.tiles, outBlock);
        }
  }
  prog.add(Execute(cs, {dc, "Conv"}));
  if (!direct)
    prog.add(Execute(rcs, {dc, "ReducePartials"}));
  return finishOutput(graph, params, core, prog, dc);
}

} // namespace

Tensor convolution(Graph &graph, const Tensor &in, const Tensor &weights,
                   const ConvParams &params, bool transposeAndFlipWeights,
                   Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options, PlanningCache *cache) {
  const DebugContext dc(debugContext, "convolution");
  return convolutionImpl(graph, in, weights, params, transposeAndFlipWeights,
                         prog, dc, options, cache);
}

Tensor convolution(Graph &graph, const Tensor &in, const Tensor &weights,
                   const ConvParams &params, bool transposeAndFlipWeights,
                   const ConvEpilogue &epilogue, Sequence &prog,
                   const DebugContext &debugContext, const OptionFlags &options,
                   PlanningCache *cache) {
  const DebugContext dc(debugContext, "convolution");
  const Tensor &biases = epilogue.biases;
  if (biases.valid() &&
      (biases.rank() != 1 || biases.dim(0) != params.getNumOutputChans() ||
       biases.elementType() != params.outputType))
    throw poputil::poplibs_error(
        "poplin::convolution: the epilogue's biases are " +
        std::string(biases.elementType().toString()) + " " +
        biases.shapeToString() + " but the output needs " +
        std::string(params.outputType.toString()) + " [" +
        std::to_string(params.getNumOutputChans()) + "]");
  bool applied = false;
  Tensor out =
      convolutionImpl(graph, in, weights, params, transposeAndFlipWeights, prog,
                      dc, options, cache, &epilogue, &applied);
  if (applied)
    return out;
  if (biases.valid())
    addBias(graph, out, biases, prog, dc);
  if (epilogue.clamp) {
    namespace pe = popops::expr;
    popops::mapInPlace(graph,
                       pe::Max(pe::Min(pe::_1, pe::Const(epilogue.upperBound)),
                               pe::Const(epilogue.lowerBound)),
                       {out}, prog, {dc, "clamp"});
  }
  return out;
}

void convolutionWithOutput(Graph &graph, const Tensor &in,
                           const Tensor &weights, const Tensor &out,
                           const ConvParams &params,
                           bool transposeAndFlipWeights, Sequence &prog,
                           const DebugContext &debugContext,
                           const OptionFlags &options, PlanningCache *cache) {
  const DebugContext dc(debugContext, "convolutionWithOutput");
  checkShape(out,
             activationShape(params, params.getNumOutputChans(),
                             params.getOutputFieldShape()),
             "output", "convolutionWithOutput");
  if (out.elementType() != params.outputType)
    throw poputil::poplibs_error(
        "poplin::convolutionWithOutput: the output tensor is " +
        std::string(out.elementType().toString()) +
        " but the convolution's params give " +
        std::string(params.outputType.toString()));
  const Tensor result = convolutionImpl(graph, in, weights, params,
                                        transposeAndFlipWeights, prog, dc,
                                        options, cache);
  prog.add(Copy(result, out, false, {dc, "output"}));
}

namespace {

// The forward plan the create* functions lay their tensors out for.
ConvPlan creationPlan(const Graph &graph, const ConvParams &params,
                      const OptionFlags &optionFlags, PlanningCache *cache,
                      const char *op) {
  const ConvOptions options = parseConvOptions(optionFlags);
  checkConvType(params.inputType, "input type", op);
  checkConvType(params.outputType, "output type", op);
  return getConvPlan(graph.getTarget(), params, options, ConvPass::Forward,
                     cache);
}

} // namespace

Tensor createWeights(Graph &graph, const ConvParams &params,
                     const DebugContext &debugContext,
                     const OptionFlags &optionFlags, PlanningCache *cache) {
  const DebugContext dc(debugContext, "createWeights");
  const ConvPlan plan =
      creationPlan(graph, params, optionFlags, cache, "createWeights");
  return addPlannedWeights(graph, params, plan, dc);
}

Tensor createInput(Graph &graph, const ConvParams &params,
                   const DebugContext &debugContext,
                   const OptionFlags &optionFlags, PlanningCache *cache) {
  const DebugContext dc(debugContext, "createInput");
  const ConvPlan plan =
      creationPlan(graph, params, optionFlags, cache, "createInput");
  const unsigned nd = static_cast<unsigned>(params.getNumFieldDims());
  std::vector<std::size_t> shape{params.numConvGroups, params.batchSize};
  shape.insert(shape.end(), params.inputFieldShape.begin(),
               params.inputFieldShape.end());
  shape.push_back(params.inputChannelsPerConvGroup);
  // The plan's field dimension, if it is one of the params' dimensions.
  const int fieldDim = static_cast<int>(plan.fieldDim) - int(3 - nd);
  std::vector<BlockSplit> splits{
      {0, static_cast<unsigned>(params.numConvGroups)}, {1, plan.splitB}};
  splits.push_back({fieldDim >= 0 ? 2 + unsigned(fieldDim) : 2,
                    fieldDim >= 0 ? plan.splitF : 1u});
  splits.push_back({2 + nd, plan.splitCi, plan.blockCi});
  // Spread over the splitCo tiles that read the block.
  Tensor t = addBlockedVariable(
      graph, params.inputType, shape, splits, plan.splitCo,
      [&](const std::vector<unsigned> &i, unsigned s) {
        return plan.groupTile(i[0], plan.tileOf(i[1], i[2], s, i[3]));
      },
      {dc, "input"});
  return publicActivations(t);
}

Tensor createConvOutput(Graph &graph, const ConvParams &params,
                        const DebugContext &debugContext,
                        const OptionFlags &optionFlags, PlanningCache *cache) {
  const DebugContext dc(debugContext, "createConvOutput");
  const ConvPlan plan =
      creationPlan(graph, params, optionFlags, cache, "createConvOutput");
  const ConvGeometry geo = foldGeometry(params);
  if (!hasOutputPadding(params))
    return publicActivations(fromThreeFieldDims(
        addOutputCore(graph, params, geo, plan, false, dc),
        params.getNumFieldDims()));
  Tensor out =
      graph.addVariable(params.outputType,
                        activationShape(params, params.getNumOutputChans(),
                                        params.getOutputFieldShape()),
                        {dc, "output"});
  poputil::mapTensorLinearly(graph, out);
  return out;
}

Tensor createBiases(Graph &graph, const Tensor &activations,
                    const DebugContext &debugContext) {
  if (activations.rank() < 2)
    throw poputil::poplibs_error(
        "poplin::createBiases: the activations must have rank 2 or more "
        "([B, channels, field...]), not " +
        std::to_string(activations.rank()));
  Tensor b = graph.addVariable(activations.elementType(), {activations.dim(1)},
                               {debugContext, "biases"});
  poputil::mapTensorLinearly(graph, b);
  return b;
}

namespace {

// Checks that biases are [C] for acts [B, C, field...].
void checkBiases(const Tensor &acts, const Tensor &biases,
                 const std::string &op) {
  if (acts.rank() < 2 || biases.rank() != 1 || biases.dim(0) != acts.dim(1))
    throw poputil::poplibs_error(
        "poplin::" + op + ": the biases tensor has shape " +
        biases.shapeToString() + " but the activations " +
        acts.shapeToString() + " need [" +
        std::to_string(acts.rank() >= 2 ? acts.dim(1) : 0) + "]");
}

std::vector<std::size_t> allDimsBut1(const Tensor &t) {
  std::vector<std::size_t> dims{0};
  for (unsigned d = 2; d < t.rank(); ++d)
    dims.push_back(d);
  return dims;
}

} // namespace

void addBias(Graph &graph, const Tensor &in, const Tensor &biases,
             Sequence &prog, const DebugContext &debugContext) {
  const DebugContext dc(debugContext, "addBias");
  checkBiases(in, biases, "addBias");
  // Activations stored channels innermost: the biases are added along that
  // dimension, the whole vector at each position.
  std::vector<unsigned> channelsLast{0};
  for (unsigned d = 2; d < in.rank(); ++d)
    channelsLast.push_back(d);
  channelsLast.push_back(1);
  const Tensor stored = in.dimShuffle(channelsLast);
  if (stored.isContiguous()) {
    popops::addInPlace(graph, stored, biases, prog, dc);
    return;
  }
  // [C, 1, ...]: popops broadcasts it, and knows that each bias covers a
  // run of the activations.
  std::vector<std::size_t> shape(in.rank() - 1, 1);
  shape[0] = biases.dim(0);
  popops::addInPlace(graph, in, biases.reshape(shape), prog, dc);
}

namespace {

template <class Scale>
void biasUpdate(Graph &graph, const Tensor &zDeltas, const Tensor &biases,
                Scale scale, Sequence &prog, const DebugContext &debugContext) {
  const DebugContext dc(debugContext, "convolutionBiasUpdate");
  checkBiases(zDeltas, biases, "convolutionBiasUpdate");
  Tensor grads = popops::reduce(graph, zDeltas, FLOAT, allDimsBut1(zDeltas),
                                popops::Operation::ADD, prog, {dc, "reduce"});
  popops::scaledAddTo(graph, biases, grads, scale, prog, {dc, "update"});
}

} // namespace

void convolutionBiasUpdate(Graph &graph, const Tensor &zDeltas,
                           const Tensor &biases, const Tensor &scale,
                           const OptionFlags &, Sequence &prog,
                           const DebugContext &debugContext) {
  biasUpdate(graph, zDeltas, biases, scale, prog, debugContext);
}

void convolutionBiasUpdate(Graph &graph, const Tensor &zDeltas,
                           const Tensor &biases, float scale,
                           const OptionFlags &, Sequence &prog,
                           const DebugContext &debugContext) {
  biasUpdate(graph, zDeltas, biases, scale, prog, debugContext);
}

void weightsTransposeChansFlipXY(Graph &graph, const Tensor &weightsIn,
                                 const Tensor &weightsOut, Sequence &prog,
                                 const DebugContext &debugContext) {
  (void)graph;
  const DebugContext dc(debugContext, "weightsTransposeChansFlipXY");
  if (weightsIn.rank() < 3)
    throw poputil::poplibs_error(
        "poplin::weightsTransposeChansFlipXY: weightsIn must be [G, out, in, "
        "kernel...], not " +
        weightsIn.shapeToString());
  Tensor t = weightsIn;
  for (unsigned d = 3; d != t.rank(); ++d)
    t = t.reverse(d);
  std::vector<unsigned> perm{0, 2, 1};
  for (unsigned d = 3; d != t.rank(); ++d)
    perm.push_back(d);
  t = t.dimShuffle(perm);
  if (t.shape() != weightsOut.shape())
    throw poputil::poplibs_error(
        "poplin::weightsTransposeChansFlipXY: weightsOut has shape " +
        weightsOut.shapeToString() + " but transposing weightsIn " +
        weightsIn.shapeToString() + " gives " + t.shapeToString());
  prog.add(Copy(t, weightsOut, false, dc));
}

std::uint64_t getFwdFlops(const ConvParams &params) {
  const ConvGeometry g = foldGeometry(params.canonicalize());
  return 2 * std::uint64_t(g.groups) * g.batch * g.outElems() * g.outChans *
         g.inChans * g.kernelElems();
}
std::uint64_t getBwdFlops(const ConvParams &params) {
  return getFwdFlops(params);
}
std::uint64_t getWuFlops(const ConvParams &params) {
  return getFwdFlops(params);
}

namespace {
double perfectCycles(const Graph &graph, const ConvParams &params,
                     std::uint64_t flops) {
  const Target &target = graph.getTarget();
  return double(flops) / (2.0 * convMacsPerCycle(target, params.inputType) *
                          target.getNumTiles());
}
} // namespace

double getFwdPerfectCycleCount(const Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params, getFwdFlops(params));
}
double getBwdPerfectCycleCount(const Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params, getBwdFlops(params));
}
double getWuPerfectCycleCount(const Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params, getWuFlops(params));
}

void reportPlanInfo(std::ostream &out, const Graph &graph,
                    const ConvParams &params, const OptionFlags &options,
                    PlanningCache *cache) {
  const ConvOptions opts = parseConvOptions(options);
  const bool wu = opts.pass == "TRAINING_WU" || opts.pass == "FC_TRAINING_WU";
  const ConvPlan plan =
      getConvPlan(graph.getTarget(), params, opts,
                  wu ? ConvPass::WeightUpdate : ConvPass::Forward, cache);
  printPlan(out, plan);
}

std::uint64_t getFwdEstimatedCycles(const Graph &graph,
                                    const ConvParams &params,
                                    const OptionFlags &options,
                                    PlanningCache *cache) {
  return getConvPlan(graph.getTarget(), params, parseConvOptions(options),
                     ConvPass::Forward, cache)
      .totalCycles();
}

void preplanConvolutions(const std::set<ConvPlanParams> &convs,
                         PlanningCache &cache) {
  for (const auto &[target, params, options] : convs) {
    if (target == nullptr)
      throw poputil::poplibs_error(
          "poplin::preplanConvolutions: a ConvPlanParams has no target");
    const ConvOptions opts =
        parseConvOptions(options ? *options : OptionFlags{});
    const bool wu = opts.pass == "TRAINING_WU" || opts.pass == "FC_TRAINING_WU";
    getConvPlan(*target, params, opts,
                wu ? ConvPass::WeightUpdate : ConvPass::Forward, &cache);
  }
}

void preplanConvolutions(Graph &, const std::set<ConvPlanParams> &convs,
                         PlanningCache &cache) {
  preplanConvolutions(convs, cache);
}

} // namespace poplin

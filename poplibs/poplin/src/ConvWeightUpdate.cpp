// The weight-update pass: the gradient of the weights from the output
// gradient and the forward input, and its scaled accumulation.
#include <poplin/Convolution.hpp>

#include "ConvLayout.hpp"
#include "ConvPasses.hpp"

#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <poplar/Program.hpp>

using namespace poplar;
using namespace poplar::program;

namespace poplin {
namespace {

using namespace detail;

std::vector<std::size_t> shapeOf(std::size_t b, std::size_t c,
                                 const std::vector<std::size_t> &field) {
  std::vector<std::size_t> shape{b, c};
  shape.insert(shape.end(), field.begin(), field.end());
  return shape;
}

// zDeltas [B, G * Co, outField...] as [G, B, Z, Y, X, Co] without the
// output padding (which no weight contributes to).
Tensor unpaddedDeltas(const Tensor &zDeltas, const ConvParams &params) {
  Tensor d = groupsFirstChannelsLast(zDeltas, params.numConvGroups);
  const auto &ot = params.outputTransform;
  for (unsigned i = 0; i != params.getNumFieldDims(); ++i)
    d = d.slice(ot.paddingLower[i], d.dim(2 + i) - ot.paddingUpper[i], 2 + i);
  return toThreeFieldDims(d);
}

// The gradient of the raw weights [G, Co, Ci, kernel...] from that of the
// truncated, flipped kernel `core` ([G, KZ, KY, KX, Ci, Co]): truncated
// kernel elements get zero.
Tensor rawWeightGradient(Graph &graph, const ConvParams &params,
                         const Tensor &core3, Sequence &prog,
                         const DebugContext &dc) {
  const unsigned nd = static_cast<unsigned>(params.getNumFieldDims());
  std::vector<std::size_t> shape{core3.dim(0)};
  for (unsigned d = 3 - nd; d != 3; ++d)
    shape.push_back(core3.dim(1 + d));
  shape.push_back(core3.dim(4));
  shape.push_back(core3.dim(5));
  Tensor core = core3.reshape(shape);
  const auto &kt = params.kernelTransform;
  bool truncated = false;
  for (unsigned d = 0; d != nd; ++d) {
    if (kt.flip[d])
      core = core.reverse(1 + d);
    truncated |= kt.truncationLower[d] || kt.truncationUpper[d];
  }
  Tensor raw = core;
  if (truncated) {
    std::vector<std::size_t> full{params.numConvGroups};
    full.insert(full.end(), params.kernelShape.begin(),
                params.kernelShape.end());
    full.push_back(params.inputChannelsPerConvGroup);
    full.push_back(params.outputChannelsPerConvGroup);
    raw = graph.addVariable(params.inputType, full, {dc, "weightDeltas"});
    poputil::mapTensorLinearly(graph, raw);
    popops::zero(graph, raw, prog, {dc, "truncatedKernel"});
    Tensor inner = raw;
    for (unsigned d = 0; d != nd; ++d)
      inner = inner.slice(kt.truncationLower[d],
                          params.kernelShape[d] - kt.truncationUpper[d], 1 + d);
    if (core.numElements())
      prog.add(Copy(core, inner, false, {dc, "weightDeltas"}));
  }
  std::vector<unsigned> perm{0, nd + 2, nd + 1};
  for (unsigned d = 0; d != nd; ++d)
    perm.push_back(1 + d);
  return raw.dimShuffle(perm);
}

} // namespace

Tensor calculateWeightDeltas(Graph &graph, const Tensor &zDeltas,
                             const Tensor &activations,
                             const ConvParams &userParams, Sequence &prog,
                             const DebugContext &debugContext,
                             const OptionFlags &optionFlags,
                             PlanningCache *cache) {
  const DebugContext dc(debugContext, "calculateWeightDeltas");
  const std::string op = "calculateWeightDeltas";
  const ConvOptions options = parseConvOptions(optionFlags);
  // Canonical: unused kernel elements become truncation (zero gradient).
  const ConvParams params = userParams.canonicalize();
  checkConvType(params.inputType, "input type", op);
  checkShape(zDeltas,
             shapeOf(params.batchSize, params.getNumOutputChans(),
                     params.getOutputFieldShape()),
             "zDeltas", op);
  checkShape(activations,
             shapeOf(params.batchSize, params.getNumInputChans(),
                     params.inputFieldShape),
             "activations", op);
  checkOperandTypes(params,
                    {{"zDeltas", zDeltas}, {"activations", activations}}, op);
  const Target &target = graph.getTarget();
  const ConvGeometry geo = foldGeometry(params);
  const ConvPlan plan =
      getConvPlan(target, params, options, ConvPass::WeightUpdate, cache);
  Tensor core = addBlockedVariable(
      graph, params.inputType,
      {geo.groups, geo.kernel[0], geo.kernel[1], geo.kernel[2], geo.inChans,
       geo.outChans},
      {{0, static_cast<unsigned>(geo.groups)},
       {4, plan.splitCi, plan.blockCi},
       {5, plan.splitCo, plan.blockCo}},
      1,
      [&](const std::vector<unsigned> &i, unsigned) {
        return plan.groupTile(i[0], plan.tileOf(0, 0, i[2], i[1]));
      },
      {dc, "weightDeltas"});
  if (core.numElements() == 0)
    return rawWeightGradient(graph, params, core, prog, dc);
  if (geo.batch == 0 || geo.outElems() == 0) {
    popops::zero(graph, core, prog, {dc, "zeroDeltas"});
    return rawWeightGradient(graph, params, core, prog, dc);
  }

  const Tensor deltas = unpaddedDeltas(zDeltas, params);
  const bool direct =
      plan.splitB * plan.splitF == 1 && params.inputType == FLOAT;
  const unsigned fd = plan.fieldDim;
  const ComputeSet cs = graph.addComputeSet({dc, "ConvWeightGrad"});
  const ComputeSet rcs = graph.addComputeSet({dc, "ReducePartials"});
  const std::string vertexType = poputil::templateVertex(
      "poplin::ConvWeightGradPartial", params.inputType);
  InputBlocks inputBlocks(graph, activations, params, geo.fieldDim());
  for (std::size_t g = 0; g != geo.groups; ++g) {
    // One view of the group for all its blocks: its layout is worked out
    // once, not for every vertex.
    const Tensor coreG = core[g], deltasG = deltas[g];
    for (unsigned ico = 0; ico != plan.splitCo; ++ico)
      for (unsigned ici = 0; ici != plan.splitCi; ++ici) {
        const std::size_t co0 =
            ConvPlan::chanBegin(geo.outChans, plan.blockCo, ico);
        const std::size_t co1 =
            ConvPlan::chanBegin(geo.outChans, plan.blockCo, ico + 1);
        const std::size_t ci0 =
            ConvPlan::chanBegin(geo.inChans, plan.blockCi, ici);
        const std::size_t ci1 =
            ConvPlan::chanBegin(geo.inChans, plan.blockCi, ici + 1);
        if (co0 == co1 || ci0 == ci1)
          continue;
        const Tensor outBlock = coreG.slice(ci0, ci1, 3).slice(co0, co1, 4);
        PartialSet partials;
        for (unsigned ib = 0; ib != plan.splitB; ++ib)
          for (unsigned jf = 0; jf != plan.splitF; ++jf) {
            const std::size_t b0 = partBegin(geo.batch, plan.splitB, ib),
                              b1 = partBegin(geo.batch, plan.splitB, ib + 1);
            const std::size_t o0 = partBegin(geo.outSize[fd], plan.splitF, jf),
                              o1 = partBegin(geo.outSize[fd], plan.splitF,
                                             jf + 1);
            if (b0 == b1 || o0 == o1)
              continue;
            const unsigned tile =
                plan.groupTile(g, plan.tileOf(ib, jf, ico, ici));
            const SlabBlock s = inputSlab(inputBlocks, tile, geo, g, b0, b1, o0,
                                          o1, ci0, ci1, co0, co1);
            const Tensor result =
                partials.destination(graph, outBlock, direct, tile, dc);
            const Tensor dBlock = deltasG.slice(b0, b1, 0)
                                      .slice(o0, o1, 1 + fd)
                                      .slice(co0, co1, 4);
            VertexRef v = graph.addVertex(cs, vertexType);
            graph.connect(v["in"], s.slab.flatten());
            graph.connect(v["deltas"], dBlock.flatten());
            graph.connect(v["out"], result.flatten());
            graph.setInitialValue<unsigned>(v["geometry"], s.geometry);
            graph.setTileMapping(v, tile);
            graph.setPerfEstimate(
                v,
                convWeightGradCycles(target, params.inputType,
                                     dBlock.numElements() / (co1 - co0),
                                     geo.kernelElems(), ci1 - ci0, co1 - co0));
          }
        if (!direct && !partials.partials.empty())
          addReduce(graph, rcs, partials.partials, partials.tiles, outBlock);
      }
  }
  prog.add(Execute(cs, {dc, "ConvWeightGrad"}));
  if (!direct)
    prog.add(Execute(rcs, {dc, "ReducePartials"}));
  return rawWeightGradient(graph, params, core, prog, dc);
}

namespace {

template <class Scale>
void weightUpdate(Graph &graph, const Tensor &zDeltas, const Tensor &weights,
                  const Tensor &activations, const ConvParams &params,
                  Scale scale, Sequence &prog, const DebugContext &debugContext,
                  const OptionFlags &options, PlanningCache *cache) {
  const DebugContext dc(debugContext, "convolutionWeightUpdate");
  std::vector<std::size_t> shape{params.numConvGroups,
                                 params.outputChannelsPerConvGroup,
                                 params.inputChannelsPerConvGroup};
  shape.insert(shape.end(), params.kernelShape.begin(),
               params.kernelShape.end());
  checkShape(weights, shape, "weights", "convolutionWeightUpdate");
  Tensor deltas = calculateWeightDeltas(graph, zDeltas, activations, params,
                                        prog, dc, options, cache);
  popops::scaledAddTo(graph, weights, deltas, scale, prog, {dc, "update"});
}

} // namespace

void convolutionWeightUpdate(Graph &graph, const Tensor &zDeltas,
                             const Tensor &weights, const Tensor &activations,
                             ConvParams params, const Tensor &scale,
                             Sequence &prog, const DebugContext &debugContext,
                             const OptionFlags &options, PlanningCache *cache) {
  weightUpdate(graph, zDeltas, weights, activations, params, scale, prog,
               debugContext, options, cache);
}

void convolutionWeightUpdate(Graph &graph, const Tensor &zDeltas,
                             const Tensor &weights, const Tensor &activations,
                             ConvParams params, float scale, Sequence &prog,
                             const DebugContext &debugContext,
                             const OptionFlags &options, PlanningCache *cache) {
  weightUpdate(graph, zDeltas, weights, activations, params, scale, prog,
               debugContext, options, cache);
}

} // namespace poplin

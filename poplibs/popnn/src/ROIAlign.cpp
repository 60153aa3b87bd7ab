// popnn::experimental ROIAlign: one compute set of vertices
// (codelets/ROIAlign.cpp). Forward: a vertex per region and channel, on the
// tile of its output; backward: a vertex per image and channel, which owns
// that plane of the input gradient, so no two vertices write one element.
#include <popnn/experimental/ROIAlign.hpp>

#include "TileWork.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <string>

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace experimental {
namespace {

[[noreturn]] void fail(const std::string &op, const std::string &why) {
  throw poputil::poplibs_error("popnn::experimental::" + op + ": " + why);
}

void checkOperands(const Tensor &data, const Tensor &rois,
                   const Tensor &batchIndex, const roiAlignParams &p,
                   const std::string &op) {
  if (!data.valid() || data.rank() != 4)
    fail(op, "bottomData " + (data.valid() ? detail::describe(data) : "") +
                 " must have shape [N][C][H][W]");
  detail::checkFloatingPoint(data, "popnn::experimental::" + op, "bottomData");
  if (data.dim(0) == 0 || data.dim(2) == 0 || data.dim(3) == 0)
    fail(op, "bottomData " + detail::describe(data) + " has no pixels");
  if (!rois.valid() || rois.rank() != 2 || rois.dim(1) != 4)
    fail(op, "bottomRois " + (rois.valid() ? detail::describe(rois) : "") +
                 " must have shape [numRois][4]");
  if (rois.elementType() != data.elementType())
    fail(op, "bottomRois " + detail::describe(rois) + " must have the type of "
                 "bottomData (" + data.elementType().toString().str() + ")");
  if (!batchIndex.valid() || batchIndex.rank() != 1 ||
      batchIndex.dim(0) != rois.dim(0))
    fail(op, "bottomBatchIndex " +
                 (batchIndex.valid() ? detail::describe(batchIndex) : "") +
                 " must have shape [" + std::to_string(rois.dim(0)) +
                 "], one image per region");
  if (batchIndex.elementType() != INT)
    fail(op, "bottomBatchIndex " + detail::describe(batchIndex) +
                 " must be INT, not " + batchIndex.elementType().toString().str());
  if (p.samplingRatio_ == 0)
    fail(op, "samplingRatio must be greater than 0");
  if (!(p.spatialScale_ > 0.0f))
    fail(op, "spatialScale must be greater than 0");
  if (p.alignedHeight_ == 0 || p.alignedWidth_ == 0)
    fail(op, "alignedHeight and alignedWidth must be greater than 0");
}

void setGeometry(Graph &graph, VertexRef v, const Tensor &data,
                 const roiAlignParams &p) {
  graph.setInitialValue(v["spatialScale"], p.spatialScale_);
  graph.setInitialValue(v["batchSize"], unsigned(data.dim(0)));
  graph.setInitialValue(v["height"], unsigned(data.dim(2)));
  graph.setInitialValue(v["width"], unsigned(data.dim(3)));
  graph.setInitialValue(v["pooledH"], unsigned(p.alignedHeight_));
  graph.setInitialValue(v["pooledW"], unsigned(p.alignedWidth_));
  graph.setInitialValue(v["samplingRatio"], unsigned(p.samplingRatio_));
  graph.setInitialValue(v["aligned"], p.aligned_);
}

// Cycles of a vertex that samples `samples` points (about 30 cycles each:
// the coordinates, four loads and multiply-adds) over `overhead`.
std::uint64_t samplingCycles(std::uint64_t samples, std::uint64_t overhead) {
  return 50 + overhead + samples * 30;
}

} // namespace

Tensor roiAlignFwd(Graph &graph, Sequence &prog, Tensor &bottomData,
                   Tensor &bottomRois, Tensor &bottomBatchIndex,
                   const roiAlignParams &params,
                   const DebugContext &debugContext) {
  const std::string op = "roiAlignFwd";
  checkOperands(bottomData, bottomRois, bottomBatchIndex, params, op);
  DebugContext dc(debugContext, "roiAlignFwd");
  const std::size_t C = bottomData.dim(1), R = bottomRois.dim(0);
  const std::size_t PH = params.alignedHeight_, PW = params.alignedWidth_;
  const Type type = bottomData.elementType();
  Tensor out = graph.addVariable(type, {R, C, PH, PW}, {dc, "topData"});
  ComputeSet cs = graph.addComputeSet({dc, "roiAlign"});
  const std::string vertex = poputil::templateVertex("popnn::ROIAlignForward", type);
  const unsigned tiles = graph.getTarget().getNumTiles();
  const std::uint64_t grid = params.samplingRatio_ * params.samplingRatio_;
  for (std::size_t r = 0; r != R; ++r) {
    for (std::size_t c = 0; c != C; ++c) {
      const unsigned tile = unsigned((r * C + c) % tiles);
      VertexRef v = graph.addVertex(cs, vertex);
      graph.connect(v["data"], bottomData.slice(c, c + 1, 1).flatten());
      graph.connect(v["rois"], bottomRois[r]);
      graph.connect(v["batchIndex"], bottomBatchIndex[r]);
      graph.connect(v["out"], out[r][c].flatten());
      setGeometry(graph, v, bottomData, params);
      graph.setTileMapping(out[r][c], tile);
      graph.setTileMapping(v, tile);
      graph.setPerfEstimate(v, samplingCycles(PH * PW * grid, 0));
    }
  }
  prog.add(Execute(cs, {dc}));
  return out;
}

Tensor roiAlignInputGradient(Graph &graph, Sequence &prog, Tensor &bottomData,
                             Tensor &bottomRois, Tensor &bottomBatchIndex,
                             Tensor &topDataGrad, const roiAlignParams &params,
                             const DebugContext &debugContext) {
  const std::string op = "roiAlignInputGradient";
  checkOperands(bottomData, bottomRois, bottomBatchIndex, params, op);
  const std::size_t N = bottomData.dim(0), C = bottomData.dim(1),
                    R = bottomRois.dim(0);
  const std::size_t PH = params.alignedHeight_, PW = params.alignedWidth_;
  const Type type = bottomData.elementType();
  if (!topDataGrad.valid() ||
      topDataGrad.shape() != std::vector<std::size_t>{R, C, PH, PW} ||
      topDataGrad.elementType() != type)
    fail(op, "topDataGrad " +
                 (topDataGrad.valid() ? detail::describe(topDataGrad) : "") +
                 " must have shape [" + std::to_string(R) + "][" +
                 std::to_string(C) + "][" + std::to_string(PH) + "][" +
                 std::to_string(PW) + "] and the type of bottomData");
  DebugContext dc(debugContext, "roiAlignInputGradient");
  Tensor grad = graph.addVariable(type, bottomData.shape(), {dc, "bottomDiff"});
  ComputeSet cs = graph.addComputeSet({dc, "roiAlignGrad"});
  const std::string vertex =
      poputil::templateVertex("popnn::ROIAlignBackward", type);
  const unsigned tiles = graph.getTarget().getNumTiles();
  const std::uint64_t grid = params.samplingRatio_ * params.samplingRatio_;
  for (std::size_t n = 0; n != N; ++n) {
    for (std::size_t c = 0; c != C; ++c) {
      const unsigned tile = unsigned((n * C + c) % tiles);
      VertexRef v = graph.addVertex(cs, vertex);
      graph.connect(v["topGrad"], topDataGrad.slice(c, c + 1, 1).flatten());
      graph.connect(v["rois"], bottomRois.flatten());
      graph.connect(v["batchIndex"], bottomBatchIndex);
      graph.connect(v["grad"], grad[n][c].flatten());
      setGeometry(graph, v, bottomData, params);
      graph.setInitialValue(v["image"], unsigned(n));
      graph.setTileMapping(grad[n][c], tile);
      graph.setTileMapping(v, tile);
      // Every region is looked at; about 1/N of them are this image's.
      graph.setPerfEstimate(
          v, samplingCycles(R * PH * PW * grid / N,
                            bottomData.dim(2) * bottomData.dim(3) + R * 4));
    }
  }
  prog.add(Execute(cs, {dc}));
  return grad;
}

} // namespace experimental
} // namespace popnn

// popnn::pooling: each (batch, channel) plane of the field is pooled on
// the tile that holds its first element, a few planes per vertex
// (codelets/Pooling.cpp); results are mapped like the planes they come
// from.
#include <popnn/Pooling.hpp>

#include "CycleEstimates.hpp"
#include "TileWork.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <functional>
#include <map>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

namespace poputil {
template <> struct VertexTemplateToString<popnn::PoolingType> {
  static std::string to_string(const popnn::PoolingType &t) {
    switch (t) {
    case popnn::PoolingType::MAX:
      return "popnn::PoolingType::MAX";
    case popnn::PoolingType::AVG:
      return "popnn::PoolingType::AVG";
    case popnn::PoolingType::SUM:
      return "popnn::PoolingType::SUM";
    }
    throw poplibs_error("unknown pooling type");
  }
};
} // namespace poputil

namespace popnn {
namespace pooling {
namespace {

constexpr std::size_t planesPerVertex = 16;

std::string shapeString(const std::vector<std::size_t> &s) {
  std::string r = "[";
  for (std::size_t i = 0; i != s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

void validate(const PoolParams &p, const std::string &opName) {
  const std::size_t n = p.getNumFieldDims();
  auto fail = [&](const std::string &why) {
    std::ostringstream os;
    os << opName << ": invalid PoolParams (" << p << "): " << why;
    throw poputil::poplibs_error(os.str());
  };
  if (n < 1 || n > 3)
    fail("1, 2 or 3 field dimensions are supported");
  if (p.kernelShape.size() != n || p.stride.size() != n ||
      p.inputTruncationOrPaddingLower.size() != n ||
      p.inputTruncationOrPaddingUpper.size() != n)
    fail("kernelShape, stride and the paddings must have one entry per field "
         "dimension");
  if (p.dType != FLOAT && p.dType != HALF)
    fail("dType must be FLOAT or HALF");
  for (std::size_t d = 0; d != n; ++d) {
    if (p.kernelShape[d] == 0 || p.stride[d] == 0)
      fail("kernel sizes and strides must be positive");
    const long padded = long(p.inputFieldShape[d]) +
                        p.inputTruncationOrPaddingLower[d] +
                        p.inputTruncationOrPaddingUpper[d];
    if (padded < long(p.kernelShape[d]))
      fail("the kernel is larger than the padded field in dimension " +
           std::to_string(d));
  }
}

void checkTensor(const PoolParams &p, const Tensor &t,
                 const std::vector<std::size_t> &field, const std::string &what,
                 const std::string &opName) {
  std::vector<std::size_t> want = {p.batchSize, p.numChannels};
  want.insert(want.end(), field.begin(), field.end());
  if (t.shape() != want || t.elementType() != p.dType)
    throw poputil::poplibs_error(
        opName + ": " + what + " " + detail::describe(t) + " of type " +
        t.elementType().toString().str() + " must have shape " +
        shapeString(want) + " and type " + p.dType.toString().str());
}

// The planes of a [batch][channels][field...] tensor, as [planes][field
// elements].
Tensor planes(const Tensor &t) {
  return t.reshape({t.dim(0) * t.dim(1), t.numElements() / std::max<std::size_t>(
                                                              1, t.dim(0) * t.dim(1))});
}

// The tile of each plane's first element (tile 0 when unmapped on the CPU).
std::vector<unsigned> planeTiles(const Graph &graph, const Tensor &p,
                                 const std::string &opName) {
  std::vector<unsigned> tiles(p.dim(0), 0);
  const std::size_t cols = p.dim(1);
  if (cols == 0)
    return tiles;
  bool complete = true;
  const auto mapping = graph.getTileMapping(p, &complete);
  if (!complete && graph.getTarget().getTargetType() != TargetType::CPU)
    throw poputil::poplibs_error(opName + ": tensor " + detail::describe(p) +
                                 " has elements without a tile mapping");
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &iv : mapping[tile])
      for (std::size_t r = (iv.begin() + cols - 1) / cols; r * cols < iv.end(); ++r)
        tiles[r] = tile;
  return tiles;
}

void setGeometry(Graph &graph, const VertexRef &v, const PoolParams &p) {
  const std::size_t n = p.getNumFieldDims();
  const auto out = p.getOutputFieldShape();
  for (unsigned d = 0; d != 3; ++d) {
    // Fewer than three field dimensions: leading dimensions of size 1.
    const bool real = d + n >= 3;
    const std::size_t k = real ? d + n - 3 : 0;
    const std::string s = std::to_string(d);
    graph.setInitialValue(v["in" + s], real ? unsigned(p.inputFieldShape[k]) : 1u);
    graph.setInitialValue(v["out" + s], real ? unsigned(out[k]) : 1u);
    graph.setInitialValue(v["kernel" + s], real ? unsigned(p.kernelShape[k]) : 1u);
    graph.setInitialValue(v["stride" + s], real ? p.stride[k] : 1u);
    graph.setInitialValue(v["padLower" + s],
                          real ? p.inputTruncationOrPaddingLower[k] : 0);
  }
}

std::size_t product(const std::vector<std::size_t> &v) {
  std::size_t n = 1;
  for (auto x : v)
    n *= x;
  return n;
}

// Adds one compute set of vertices over groups of planes. `layout` is the
// tensor whose plane mapping decides the tiles; `fields` are the vertex's
// plane-list fields and the tensors (as planes) they connect to.
void addPlaneVertices(Graph &graph, const PoolParams &p, const Tensor &layout,
                      const std::vector<std::pair<std::string, Tensor>> &fields,
                      const std::string &vertexName, unsigned cyclesPerElement,
                      Sequence &prog, const DebugContext &dc,
                      const std::string &opName) {
  ComputeSet cs = graph.addComputeSet(dc);
  std::map<unsigned, std::vector<std::size_t>> byTile;
  const auto tiles = planeTiles(graph, layout, opName);
  for (std::size_t r = 0; r != tiles.size(); ++r)
    byTile[tiles[r]].push_back(r);
  const std::size_t windowElements = product(p.kernelShape);
  const std::size_t outputs = product(p.getOutputFieldShape());
  for (const auto &[tile, rows] : byTile) {
    for (std::size_t b = 0; b < rows.size(); b += planesPerVertex) {
      const std::size_t e = std::min(rows.size(), b + planesPerVertex);
      VertexRef v = graph.addVertex(cs, vertexName);
      for (const auto &[name, t] : fields) {
        std::vector<Tensor> list;
        for (std::size_t i = b; i != e; ++i)
          list.push_back(t[rows[i]]);
        graph.connect(v[name], list);
      }
      setGeometry(graph, v, p);
      graph.setTileMapping(v, tile);
      graph.setPerfEstimate(v, detail::windowLoopCycles(
                                   (e - b) * outputs, windowElements,
                                   cyclesPerElement));
    }
  }
  prog.add(Execute(cs, {dc}));
}

// A new [batch][channels][field] variable whose planes are on the tiles
// of `like`'s planes.
Tensor createLike(Graph &graph, const PoolParams &p, const Tensor &likePlanes,
                  const std::vector<std::size_t> &field, const DebugContext &dc,
                  const std::string &opName) {
  std::vector<std::size_t> shape = {p.batchSize, p.numChannels};
  shape.insert(shape.end(), field.begin(), field.end());
  Tensor t = graph.addVariable(p.dType, shape, dc);
  const Tensor tp = planes(t);
  const auto tiles = planeTiles(graph, likePlanes, opName);
  for (std::size_t r = 0; r != tiles.size(); ++r)
    graph.setTileMapping(tp[r], tiles[r]);
  return t;
}

// `t` [batch][channels][field...] as [batch][field...][channels].
Tensor channelsLast(const Tensor &t) {
  std::vector<unsigned> perm{0};
  for (unsigned d = 2; d != t.rank(); ++d)
    perm.push_back(d);
  perm.push_back(1);
  return t.dimShuffle(perm);
}

// On the CPU device a FLOAT input stored channels innermost (as its
// convolutions leave activations) is pooled by one PoolingChannelsLast
// that reads it in place, into an output stored the same way; otherwise
// (an empty tensor) the planes are pooled apart.
Tensor poolChannelsLast(Graph &graph, const PoolParams &p, const Tensor &in,
                        Sequence &prog, const DebugContext &dc) {
  const Tensor last = channelsLast(in);
  if (graph.getTarget().getTargetType() != TargetType::CPU ||
      p.dType != FLOAT || in.numElements() == 0 || !last.isContiguous())
    return {};
  std::vector<std::size_t> shape{p.batchSize};
  const auto field = p.getOutputFieldShape();
  shape.insert(shape.end(), field.begin(), field.end());
  shape.push_back(p.numChannels);
  Tensor out = graph.addVariable(p.dType, shape, {dc, "out"});
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet(dc);
  VertexRef v =
      graph.addVertex(cs, poputil::templateVertex("popnn::PoolingChannelsLast",
                                                  p.dType, p.poolingType));
  graph.connect(v["in"], last.flatten());
  graph.connect(v["out"], out.flatten());
  graph.setInitialValue(v["batch"], unsigned(p.batchSize));
  graph.setInitialValue(v["channels"], unsigned(p.numChannels));
  setGeometry(graph, v, p);
  graph.setTileMapping(v, 0);
  graph.setPerfEstimate(v, detail::windowLoopCycles(out.numElements(),
                                                    product(p.kernelShape), 2));
  prog.add(Execute(cs, {dc}));
  // Back to [batch][channels][field...].
  std::vector<unsigned> perm{0, unsigned(shape.size() - 1)};
  for (unsigned d = 1; d + 1 != shape.size(); ++d)
    perm.push_back(d);
  return out.dimShuffle(perm);
}

} // namespace

std::vector<std::size_t> PoolParams::getOutputFieldShape() const {
  std::vector<std::size_t> out(inputFieldShape.size());
  for (std::size_t d = 0; d != out.size(); ++d) {
    const long padded = long(inputFieldShape[d]) +
                        inputTruncationOrPaddingLower.at(d) +
                        inputTruncationOrPaddingUpper.at(d);
    const long k = long(kernelShape.at(d));
    out[d] = padded < k ? 0 : std::size_t((padded - k) / long(stride.at(d)) + 1);
  }
  return out;
}

std::vector<std::size_t> getOutputFieldShape(const PoolParams &params) {
  return params.getOutputFieldShape();
}

const char *asString(const PoolingType &method) {
  switch (method) {
  case PoolingType::MAX:
    return "max";
  case PoolingType::AVG:
    return "avg";
  case PoolingType::SUM:
    return "sum";
  }
  throw poputil::poplibs_error("Unknown pooling method " +
                               std::to_string(int(method)));
}

std::ostream &operator<<(std::ostream &o, const PoolParams &params) {
  auto list = [&o](const char *name, const auto &v) {
    o << "        " << name << ": {";
    for (std::size_t i = 0; i != v.size(); ++i)
      o << (i ? ", " : "") << v[i];
    o << "}\n";
  };
  o << "Pool Params {\n"
    << "        type: " << asString(params.poolingType) << "\n";
  list("inputFieldShape", params.inputFieldShape);
  list("kernelShape", params.kernelShape);
  list("stride", params.stride);
  list("inputTruncationOrPaddingLower", params.inputTruncationOrPaddingLower);
  list("inputTruncationOrPaddingUpper", params.inputTruncationOrPaddingUpper);
  o << "        numChannels: " << params.numChannels << "\n"
    << "        batchSize: " << params.batchSize << "\n"
    << "        dType: " << params.dType.toString().str() << "\n}";
  return o;
}

std::uint64_t getFwdFlops(const PoolParams &params) {
  const std::uint64_t outputs = std::uint64_t(params.batchSize) *
                                params.numChannels *
                                product(params.getOutputFieldShape());
  return outputs * (product(params.kernelShape) +
                    (params.poolingType == PoolingType::AVG ? 1 : 0));
}

std::uint64_t getBwdFlops(const PoolParams &params) {
  return getFwdFlops(params);
}

Tensor pool(Graph &graph, const PoolParams &params, const Tensor &in,
            Sequence &prog, const DebugContext &debugContext,
            const OptionFlags &) {
  const std::string opName = "popnn::pooling::pool";
  validate(params, opName);
  checkTensor(params, in, params.inputFieldShape, "in", opName);
  DebugContext dc(debugContext, std::string("Pool/") + asString(params.poolingType));
  if (Tensor out = poolChannelsLast(graph, params, in, prog, dc); out.valid())
    return out;
  const Tensor inPlanes = planes(in);
  Tensor out = createLike(graph, params, inPlanes, params.getOutputFieldShape(),
                          {dc, "out"}, opName);
  addPlaneVertices(graph, params, inPlanes,
                   {{"in", inPlanes}, {"out", planes(out)}},
                   poputil::templateVertex("popnn::Pooling", params.dType,
                                           params.poolingType),
                   2, prog, dc, opName);
  return out;
}

Tensor poolInputGradient(Graph &graph, const PoolParams &params, const Tensor &in,
                         const Tensor &pooled, const Tensor &pooledGradient,
                         bool useScaledGradient, Sequence &prog,
                         const DebugContext &debugContext,
                         const OptionFlags &options) {
  const std::string opName = "popnn::pooling::poolInputGradient";
  validate(params, opName);
  checkTensor(params, in, params.inputFieldShape, "in", opName);
  const auto outField = params.getOutputFieldShape();
  checkTensor(params, pooled, outField, "pooled", opName);
  checkTensor(params, pooledGradient, outField, "pooledGradient", opName);
  if (params.poolingType != PoolingType::MAX)
    return poolInputGradient(graph, params, 1, pooledGradient, prog,
                             debugContext, options);
  DebugContext dc(debugContext, "PoolGrad/max");
  const Tensor inPlanes = planes(in);
  Tensor inGrad = createLike(graph, params, inPlanes, params.inputFieldShape,
                             {dc, "inGradient"}, opName);
  addPlaneVertices(graph, params, inPlanes,
                   {{"in", inPlanes},
                    {"pooled", planes(pooled)},
                    {"pooledGrad", planes(pooledGradient)},
                    {"inGrad", planes(inGrad)}},
                   poputil::templateVertex("popnn::MaxPoolingGrad", params.dType,
                                           useScaledGradient),
                   useScaledGradient ? 5 : 3, prog, dc, opName);
  return inGrad;
}

Tensor poolInputGradient(Graph &graph, const PoolParams &params,
                         const unsigned fwdChansPerGroup,
                         const Tensor &pooledGradient, Sequence &prog,
                         const DebugContext &debugContext, const OptionFlags &) {
  const std::string opName = "popnn::pooling::poolInputGradient";
  validate(params, opName);
  if (params.poolingType == PoolingType::MAX)
    throw poputil::poplibs_error(opName + ": MAX pooling needs the forward "
                                          "input and output; use the form "
                                          "that takes them");
  checkTensor(params, pooledGradient, params.getOutputFieldShape(),
              "pooledGradient", opName);
  DebugContext dc(debugContext, std::string("PoolGrad/") +
                                    asString(params.poolingType));
  const Tensor gradPlanes = planes(pooledGradient);
  Tensor inGrad = createLike(graph, params, gradPlanes, params.inputFieldShape,
                             {dc, "inGradient"}, opName);
  addPlaneVertices(graph, params, gradPlanes,
                   {{"pooledGrad", gradPlanes}, {"inGrad", planes(inGrad)}},
                   poputil::templateVertex("popnn::SumPoolingGrad", params.dType,
                                           params.poolingType == PoolingType::AVG),
                   params.poolingType == PoolingType::AVG ? 4 : 3, prog, dc,
                   opName);
  return inGrad;
}

} // namespace pooling
} // namespace popnn

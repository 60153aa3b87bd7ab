#include "ops/MultiConvOp.hpp"

#include <popart/error.hpp>

#include <sstream>

namespace popart {

namespace {

// The per-convolution annotation attributes the builder writes: one value
// per convolution, or one value for all (Builder::setPartialsType and
// setAvailableMemoryProportion write a single one).
constexpr const char *sAvailMemAttribute = "__available_memory_proportion";
constexpr const char *sPartialsTypeAttribute = "__partials_type";
constexpr const char *sEnableConvDitheringAttribute = "__enable_conv_dithering";

std::vector<float> floatsOrFloat(const Attributes &a, const char *name) {
  if (!a.has(name))
    return {};
  std::vector<float> v = a.getFloats(name);
  return v.empty() ? std::vector<float>{a.getFloat(name)} : v;
}
std::vector<int64_t> intsOrInt(const Attributes &a, const char *name) {
  if (!a.has(name))
    return {};
  std::vector<int64_t> v = a.getInts(name);
  return v.empty() ? std::vector<int64_t>{a.getInt(name)} : v;
}
std::vector<std::string> stringsOrString(const Attributes &a,
                                         const char *name) {
  if (!a.has(name))
    return {};
  std::vector<std::string> v = a.getStrings(name);
  return v.empty() ? std::vector<std::string>{a.getString(name, "")} : v;
}

// Cuts conv `i`'s values out of a flat attribute holding `perDim` values
// per spatial dimension of every convolution; `def` when it is empty.
std::vector<int64_t> unflatten(const std::vector<int64_t> &flat,
                               std::size_t offset, std::size_t count,
                               int64_t def) {
  if (flat.empty())
    return std::vector<int64_t>(count, def);
  return {flat.begin() + offset, flat.begin() + offset + count};
}

} // namespace

MultiConvOp::MultiConvOp(const OperatorIdentifier &id,
                         const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), numConvsAttr(a.getInt("numConvs")),
      flatStrides(a.getInts("strides", {})), flatPads(a.getInts("pads", {})),
      flatOutPads(a.getInts("outPads", {})),
      flatDilations(a.getInts("dilations", {})),
      flatInDilations(a.getInts("inDilations", {})),
      availableMemoryProportions(floatsOrFloat(a, sAvailMemAttribute)),
      partialsTypes(stringsOrString(a, sPartialsTypeAttribute)),
      enableConvDithering(intsOrInt(a, sEnableConvDitheringAttribute)) {
  if (numConvsAttr < 1)
    throw error("MultiConv '{}': numConvs {} must be at least 1", name(),
                numConvsAttr);
  if (a.has("planType")) {
    const std::string planType = a.getString("planType", "");
    if (planType != "parallel" && planType != "serial")
      throw error("MultiConv '{}': planType '{}' is not 'parallel' or "
                  "'serial'",
                  name(), planType);
    planOptions["planType"] = planType;
  }
  if (a.has("perConvReservedTiles")) {
    const int64_t tiles = a.getInt("perConvReservedTiles");
    if (tiles < 0)
      throw error("MultiConv '{}': perConvReservedTiles {} is negative",
                  name(), tiles);
    planOptions["perConvReservedTiles"] = std::to_string(tiles);
  }
  if (a.has("cycleBackOff")) {
    const float backOff = a.getFloat("cycleBackOff");
    if (!(backOff >= 0.0f) || backOff >= 1.0f)
      throw error("MultiConv '{}': cycleBackOff {} is not in [0, 1)", name(),
                  backOff);
    std::ostringstream text;
    text << backOff;
    planOptions["cycleBackOff"] = text.str();
  }
}

void MultiConvOp::setup() {
  const int n = static_cast<int>(numConvsAttr);
  if (inTensorCount() > 3 * n || outTensorCount() != n)
    throw error("{}: numConvs {} needs up to {} inputs (data, weights and "
                "bias of each convolution) and {} outputs, not {} and {}",
                str(), n, 3 * n, n, inTensorCount(), outTensorCount());
  auto checkCount = [&](std::size_t size, const char *what) {
    if (size != 0 && size != std::size_t(n) && size != 1)
      throw error("{}: {} {} given for {} convolutions", str(), size, what, n);
  };
  checkCount(availableMemoryProportions.size(), "availableMemoryProportions");
  checkCount(partialsTypes.size(), "partialsTypes");
  checkCount(enableConvDithering.size(), "enableConvDithering values");

  convs.assign(n, MultiConvGeometry());
  std::size_t totalDims = 0;
  for (int i = 0; i < n; ++i) {
    for (InIndex in : {getDataInIndex(i), getWeightsInIndex(i)})
      if (!hasInput(in))
        throw error("{}: convolution {} has no {} input", str(), i,
                    in == getDataInIndex(i) ? "data" : "weights");
    const auto type = inInfo(getDataInIndex(i)).dataType();
    if (type != DataType::FLOAT && type != DataType::FLOAT16)
      throw error("{}: data '{}' of convolution {} is {}; convolutions "
                  "support FLOAT and FLOAT16",
                  str(), inId(getDataInIndex(i)), i,
                  inInfo(getDataInIndex(i)).data_type());
    if (inInfo(getWeightsInIndex(i)).dataType() != type)
      throw error("{}: weights '{}' of convolution {} are not of the data's "
                  "type {}",
                  str(), inId(getWeightsInIndex(i)), i,
                  inInfo(getDataInIndex(i)).data_type());
    const Shape x = inShape(getDataInIndex(i)), w = inShape(getWeightsInIndex(i));
    if (x.size() < 3 || x.size() > 5)
      throw error("{}: data '{}' of convolution {} has shape {}: 1 to 3 "
                  "spatial dimensions are supported",
                  str(), inId(getDataInIndex(i)), i, x);
    if (w.size() != x.size())
      throw error("{}: weights '{}' of convolution {} have shape {}, not of "
                  "the data's rank {}",
                  str(), inId(getWeightsInIndex(i)), i, w, x.size());
    if (w[1] < 1 || x[1] % w[1] != 0 || w[0] % (x[1] / w[1]) != 0)
      throw error("{}: convolution {}: data channels {} and weights {} do not "
                  "make whole groups",
                  str(), i, x[1], w);
    totalDims += x.size() - 2;
  }
  auto checkFlat = [&](const std::vector<int64_t> &flat, std::size_t perDim,
                       const char *attr) {
    if (!flat.empty() && flat.size() != perDim * totalDims)
      throw error("{}: {} has {} values; the convolutions' {} spatial "
                  "dimensions need {}",
                  str(), attr, flat.size(), totalDims, perDim * totalDims);
  };
  checkFlat(flatStrides, 1, "strides");
  checkFlat(flatPads, 2, "pads");
  checkFlat(flatOutPads, 2, "outPads");
  checkFlat(flatDilations, 1, "dilations");
  checkFlat(flatInDilations, 1, "inDilations");

  std::size_t offset = 0;
  for (int i = 0; i < n; ++i) {
    MultiConvGeometry &g = convs[i];
    const Shape x = inShape(getDataInIndex(i)), w = inShape(getWeightsInIndex(i));
    const std::size_t d = x.size() - 2;
    g.groups = x[1] / w[1];
    g.field.assign(x.begin() + 2, x.end());
    g.kernel.assign(w.begin() + 2, w.end());
    g.strides = unflatten(flatStrides, offset, d, 1);
    g.dilations = unflatten(flatDilations, offset, d, 1);
    g.inDilations = unflatten(flatInDilations, offset, d, 1);
    const auto pads = unflatten(flatPads, 2 * offset, 2 * d, 0);
    const auto outPads = unflatten(flatOutPads, 2 * offset, 2 * d, 0);
    g.padsLower.assign(pads.begin(), pads.begin() + d);
    g.padsUpper.assign(pads.begin() + d, pads.end());
    g.outPadsLower.assign(outPads.begin(), outPads.begin() + d);
    g.outPadsUpper.assign(outPads.begin() + d, outPads.end());
    offset += d;

    g.outShape = {x[0], w[0]};
    for (std::size_t k = 0; k < d; ++k) {
      if (g.strides[k] < 1 || g.dilations[k] < 1 || g.inDilations[k] < 1)
        throw error("{}: convolution {} has stride {}, dilation {} and input "
                    "dilation {} in dimension {}; each must be at least 1",
                    str(), i, g.strides[k], g.dilations[k], g.inDilations[k],
                    k);
      if (g.padsLower[k] < 0 || g.padsUpper[k] < 0 || g.outPadsLower[k] < 0 ||
          g.outPadsUpper[k] < 0)
        throw error("{}: convolution {} has a negative padding in dimension "
                    "{} (pads {} {}, outPads {} {})",
                    str(), i, k, g.padsLower[k], g.padsUpper[k],
                    g.outPadsLower[k], g.outPadsUpper[k]);
      const int64_t in = g.inDilations[k] * (g.field[k] - 1) + 1 +
                         g.padsLower[k] + g.padsUpper[k];
      const int64_t window = g.dilations[k] * (g.kernel[k] - 1) + 1;
      if (g.field[k] < 1 || g.kernel[k] < 1 || in < window)
        throw error("{}: convolution {}: the kernel (dilated to {}) is larger "
                    "than the input (dilated and padded to {}) in dimension "
                    "{}",
                    str(), i, window, in, k);
      g.outShape.push_back((in - window) / g.strides[k] + 1 +
                           g.outPadsLower[k] + g.outPadsUpper[k]);
    }
    if (hasInput(getBiasInIndex(i)) &&
        inShape(getBiasInIndex(i)) != Shape{w[0]})
      throw error("{}: bias '{}' of convolution {} has shape {}, not [{}]",
                  str(), inId(getBiasInIndex(i)), i,
                  inShape(getBiasInIndex(i)), w[0]);

    auto pick = [&](const auto &values) { return values[values.size() == 1 ? 0 : i]; };
    if (!availableMemoryProportions.empty()) {
      const float p = pick(availableMemoryProportions);
      if (!(p > 0.0f) || p > 1.0f)
        throw error("{}: availableMemoryProportion {} of convolution {} is "
                    "not in (0, 1]",
                    str(), p, i);
      std::ostringstream text;
      text << p;
      g.options["availableMemoryProportion"] = text.str();
    }
    if (!partialsTypes.empty())
      g.options["partialsType"] = partialsTypeOption(
          pick(partialsTypes),
          str() + " partialsType of convolution " + std::to_string(i));
    if (!enableConvDithering.empty())
      g.options["enableConvDithering"] =
          pick(enableConvDithering) != 0 ? "true" : "false";
    outInfo(getOutIndex(i)) =
        TensorInfo(inInfo(getDataInIndex(i)).dataType(), g.outShape);
  }
}

std::vector<std::unique_ptr<Op>> MultiConvOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  ops.push_back(std::make_unique<MultiConvGradOp>(*this,
                                                  MultiConvGradOp::Kind::Data));
  ops.push_back(std::make_unique<MultiConvGradOp>(
      *this, MultiConvGradOp::Kind::Weights));
  for (int i = 0; i < numConvs(); ++i)
    if (hasInput(getBiasInIndex(i))) {
      ops.push_back(std::make_unique<MultiConvGradOp>(
          *this, MultiConvGradOp::Kind::Bias));
      break;
    }
  return ops;
}

namespace {

using Kind = MultiConvGradOp::Kind;

const char *gradType(Kind kind) {
  return kind == Kind::Data      ? "MultiConvDataGrad"
         : kind == Kind::Weights ? "MultiConvWeightsGrad"
                                 : "MultiConvBiasGrad";
}

std::vector<int> convsWithBias(const MultiConvOp &fwd) {
  std::vector<int> convs;
  for (int i = 0; i < fwd.numConvs(); ++i)
    if (fwd.hasInput(MultiConvOp::getBiasInIndex(i)))
      convs.push_back(i);
  return convs;
}

std::vector<GradInOutMapper> gradInputs(const MultiConvOp &fwd, Kind kind) {
  std::vector<GradInOutMapper> ins;
  if (kind == Kind::Bias) {
    int j = 0;
    for (int i : convsWithBias(fwd))
      ins.push_back({j++, MultiConvOp::getOutIndex(i), GradOpInType::GradOut});
    return ins;
  }
  for (int i = 0; i < fwd.numConvs(); ++i) {
    ins.push_back({2 * i, MultiConvOp::getOutIndex(i), GradOpInType::GradOut});
    ins.push_back({2 * i + 1,
                   kind == Kind::Data ? MultiConvOp::getWeightsInIndex(i)
                                      : MultiConvOp::getDataInIndex(i),
                   GradOpInType::In});
  }
  return ins;
}

std::map<int, int> gradOutputs(const MultiConvOp &fwd, Kind kind) {
  std::map<int, int> outToIn;
  if (kind == Kind::Bias) {
    int j = 0;
    for (int i : convsWithBias(fwd))
      outToIn[j++] = MultiConvOp::getBiasInIndex(i);
    return outToIn;
  }
  for (int i = 0; i < fwd.numConvs(); ++i)
    outToIn[i] = kind == Kind::Data ? MultiConvOp::getDataInIndex(i)
                                    : MultiConvOp::getWeightsInIndex(i);
  return outToIn;
}

} // namespace

MultiConvGradOp::MultiConvGradOp(const MultiConvOp &fwd, Kind kind_)
    : GradOp(fwd, gradType(kind_), gradInputs(fwd, kind_),
             gradOutputs(fwd, kind_)),
      kind(kind_), convs(fwd.convs), planOptions(fwd.planOptions),
      biasConvs(kind_ == Kind::Bias ? convsWithBias(fwd) : std::vector<int>()) {
}

} // namespace popart

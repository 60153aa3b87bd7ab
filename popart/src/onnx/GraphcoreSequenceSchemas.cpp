// Schemas of the ai.graphcore sequence-model operators (Ctc,
// CtcBeamSearchDecoder, LSTM, SplineBasis, SplineWeighting): their
// attributes for the checker and their output types and shapes.
#include "onnx/OnnxUtil.hpp"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <cmath>

namespace popart {
namespace onnxutil {
namespace {

const std::vector<std::string> floats = {"tensor(float)", "tensor(float16)"};
const std::vector<std::string> indexTypes = {"tensor(int32)", "tensor(uint32)"};

onnx::OpSchema base(const char *name) {
  onnx::OpSchema s;
  s.SetName(name).SetDomain("ai.graphcore").SinceVersion(1).SetSupportLevel(
      onnx::OpSchema::SupportType::COMMON);
  return s;
}

// The dimension values of input i, or false when its shape is unknown.
bool dims(onnx::InferenceContext &ctx, std::size_t i, std::vector<int64_t> &d) {
  if (!onnx::hasInputShape(ctx, i))
    return false;
  const auto &shape = ctx.getInputType(i)->tensor_type().shape();
  d.clear();
  for (const auto &dim : shape.dim()) {
    if (!dim.has_dim_value())
      return false;
    d.push_back(dim.dim_value());
  }
  return true;
}

void setShape(onnx::InferenceContext &ctx, std::size_t o,
              const std::vector<int64_t> &d) {
  auto *shape = ctx.getOutputType(o)->mutable_tensor_type()->mutable_shape();
  shape->clear_dim();
  for (int64_t v : d)
    shape->add_dim()->set_dim_value(v);
}

void setElemType(onnx::InferenceContext &ctx, std::size_t o, int32_t type) {
  ctx.getOutputType(o)->mutable_tensor_type()->set_elem_type(type);
}

int64_t intAttribute(onnx::InferenceContext &ctx, const char *name,
                     int64_t def) {
  const auto *a = ctx.getAttribute(name);
  return a ? a->i() : def;
}

} // namespace

void registerGraphcoreSequenceSchemas() {
  auto ctc = base("Ctc");
  ctc.Input(0, "log_probs", "[T, N, C]", "T1")
      .Input(1, "targets", "[N, S]", "T2")
      .Input(2, "input_lengths", "[N]", "T2")
      .Input(3, "target_lengths", "[N]", "T2")
      .Output(0, "loss", "reduced, or [N]", "T1")
      .Output(1, "log_probs_gradient", "[T, N, C]", "T1")
      .Attr("reduction", "Sum, Mean or None", onnx::AttributeProto::STRING)
      .Attr("blank", "the blank class", onnx::AttributeProto::INT)
      .Attr("outDataType", "the outputs' ONNX type, 0 for the input's",
            onnx::AttributeProto::INT, static_cast<int64_t>(0))
      .Attr("zeroInfinity", "1: infinite losses zeroed",
            onnx::AttributeProto::INT, static_cast<int64_t>(0))
      .TypeConstraint("T1", floats, "floating-point tensors")
      .TypeConstraint("T2", indexTypes, "integer tensors");
  ctc.TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
    const int64_t outType = intAttribute(ctx, "outDataType", 0);
    for (std::size_t o = 0; o < 2; ++o) {
      if (outType != 0)
        setElemType(ctx, o, static_cast<int32_t>(outType));
      else
        onnx::propagateElemTypeFromInputToOutput(ctx, 0, o);
    }
    std::vector<int64_t> logProbs;
    if (!dims(ctx, 0, logProbs) || logProbs.size() != 3)
      return;
    const auto *reduction = ctx.getAttribute("reduction");
    if (reduction && reduction->s() == "None")
      setShape(ctx, 0, {logProbs[1]});
    else
      setShape(ctx, 0, {});
    setShape(ctx, 1, logProbs);
  });
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce ctcOnce(ctc);

  auto beam = base("CtcBeamSearchDecoder");
  beam.Input(0, "log_probs", "[maxTime, batchSize, numClasses]", "T1")
      .Input(1, "data_lengths", "[batchSize] (UINT32; the op names others)",
             "T3")
      .Output(0, "label_probs", "[batchSize, topPaths]", "T1")
      .Output(1, "label_lengths", "[batchSize, topPaths]", "T2")
      .Output(2, "decoded_labels", "[batchSize, topPaths, maxTime]", "T2")
      .Attr("blank", "the blank class", onnx::AttributeProto::INT,
            static_cast<int64_t>(0))
      .Attr("beam_width", "the beams kept", onnx::AttributeProto::INT,
            static_cast<int64_t>(100))
      .Attr("top_paths", "the labellings returned", onnx::AttributeProto::INT,
            static_cast<int64_t>(1))
      .TypeConstraint("T1", floats, "floating-point tensors")
      .TypeConstraint("T2", {"tensor(uint32)"}, "UINT32 tensors")
      .TypeConstraint("T3", indexTypes, "integer tensors");
  beam.TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    setElemType(ctx, 1, onnx::TensorProto::UINT32);
    setElemType(ctx, 2, onnx::TensorProto::UINT32);
    std::vector<int64_t> logProbs;
    if (!dims(ctx, 0, logProbs) || logProbs.size() != 3)
      return;
    const int64_t topPaths = intAttribute(ctx, "top_paths", 1);
    setShape(ctx, 0, {logProbs[1], topPaths});
    setShape(ctx, 1, {logProbs[1], topPaths});
    setShape(ctx, 2, {logProbs[1], topPaths, logProbs[0]});
  });
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce beamOnce(beam);

  auto lstm = base("LSTM");
  lstm.Input(0, "X", "[seqLength, batch, inputSize]", "T")
      .Input(1, "Weights", "[4, inputSize + hidden, hidden]", "T")
      .Input(2, "Bias", "[4, hidden]", "T", onnx::OpSchema::Optional)
      .Input(3, "InitState", "[2, batch, hidden]", "T",
             onnx::OpSchema::Optional)
      .Input(4, "SeqLengths", "[batch]", "T1", onnx::OpSchema::Optional)
      .Output(0, "Output", "the output sequence, or the last output", "T")
      .Output(1, "CellState", "[batch, hidden]", "T")
      .Attr("output_full_sequence", "1: every step's output",
            onnx::AttributeProto::INT, static_cast<int64_t>(1))
      .TypeConstraint("T", floats, "floating-point tensors")
      .TypeConstraint("T1", {"tensor(int32)"}, "INT32 tensors");
  lstm.TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 1);
    std::vector<int64_t> x, w;
    if (!dims(ctx, 0, x) || !dims(ctx, 1, w) || x.size() != 3 || w.size() != 3)
      return;
    if (intAttribute(ctx, "output_full_sequence", 1) != 0)
      setShape(ctx, 0, {x[0], x[1], w[2]});
    else
      setShape(ctx, 0, {x[1], w[2]});
    setShape(ctx, 1, {x[1], w[2]});
  });
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce lstmOnce(lstm);

  auto basis = base("SplineBasis");
  basis.Input(0, "pseudo", "[numEdges, numDims]", "T")
      .Input(1, "kernel_size", "[numDims]", "Ti")
      .Input(2, "is_open_spline", "[numDims]", "Tc")
      .Output(0, "basis", "[numEdges, numSplines]", "T")
      .Output(1, "weight_index", "[numEdges, numSplines]", "Ti")
      .Attr("degree", "0 to 3", onnx::AttributeProto::INT,
            static_cast<int64_t>(1))
      .TypeConstraint("T", floats, "floating-point tensors")
      .TypeConstraint("Ti", {"tensor(int32)"}, "INT32 tensors")
      .TypeConstraint("Tc", {"tensor(uint8)"}, "UINT8 tensors");
  basis.TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    setElemType(ctx, 1, onnx::TensorProto::INT32);
    std::vector<int64_t> pseudo;
    if (!dims(ctx, 0, pseudo) || pseudo.size() != 2)
      return;
    const int64_t degree = intAttribute(ctx, "degree", 1);
    int64_t splines = 1;
    for (int64_t d = 0; d < pseudo[1]; ++d)
      splines *= degree + 1;
    setShape(ctx, 0, {pseudo[0], splines});
    setShape(ctx, 1, {pseudo[0], splines});
  });
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce basisOnce(basis);

  auto weighting = base("SplineWeighting");
  weighting.Input(0, "input", "[numEdges, inChannels]", "T")
      .Input(1, "weight", "[numWeights, inChannels, outChannels]", "T")
      .Input(2, "basis", "[numEdges, numSplines]", "T")
      .Input(3, "weight_index", "[numEdges, numSplines]", "Ti")
      .Output(0, "output", "[numEdges, outChannels]", "T")
      .TypeConstraint("T", floats, "floating-point tensors")
      .TypeConstraint("Ti", {"tensor(int32)"}, "INT32 tensors");
  weighting.TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    std::vector<int64_t> input, weight;
    if (!dims(ctx, 0, input) || !dims(ctx, 1, weight) || input.size() != 2 ||
        weight.size() != 3)
      return;
    setShape(ctx, 0, {input[0], weight[2]});
  });
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce weightingOnce(weighting);
}

} // namespace onnxutil
} // namespace popart

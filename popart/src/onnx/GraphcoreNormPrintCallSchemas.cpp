// Schemas of the ai.graphcore BatchNormalization, PrintTensor, Call,
// PackedDataBlock and the replicated collectives: their attributes for the checker, and their
// outputs for shape inference.
#include "onnx/OnnxUtil.hpp"

#include <popart/names.hpp>

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

namespace popart {
namespace onnxutil {
namespace {

const std::vector<std::string> anyTypes = {
    "tensor(float)",  "tensor(float16)", "tensor(int32)",  "tensor(int64)",
    "tensor(uint32)", "tensor(int8)",    "tensor(uint8)",  "tensor(int16)",
    "tensor(uint16)", "tensor(bool)",    "tensor(uint64)"};
const std::vector<std::string> collectiveTypes = {
    "tensor(float)", "tensor(float16)", "tensor(int32)", "tensor(uint32)"};

void add(onnx::OpSchema &s) {
  s.SetDomain("ai.graphcore")
      .SinceVersion(1)
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce once(s);
}

onnx::OpSchema batchNormalization() {
  onnx::OpSchema s;
  s.SetName("BatchNormalization")
      .Input(0, "X", "[N, C, ...]", "T")
      .Input(1, "scale", "[C]", "T")
      .Input(2, "B", "[C]", "T")
      .Input(3, "mean", "[C], the running mean", "T")
      .Input(4, "var", "[C], the running variance", "T")
      .Output(0, "Y", "X normalised", "T")
      .Output(1, "mean", "the running mean updated", "T",
              onnx::OpSchema::Optional)
      .Output(2, "var", "the running variance updated", "T",
              onnx::OpSchema::Optional)
      .Output(3, "saved_mean", "the batch's mean", "T",
              onnx::OpSchema::Optional)
      .Output(4, "saved_var", "the batch's (unbiased) variance", "T",
              onnx::OpSchema::Optional)
      .Attr("epsilon", "added to the variance", onnx::AttributeProto::FLOAT,
            1e-5f)
      .Attr("momentum", "of the running statistics",
            onnx::AttributeProto::FLOAT, 0.9f)
      .Attr("unbiased_variance", "written by the original's builder, unread",
            onnx::AttributeProto::INT, false)
      .Attr("spatial", "1 only", onnx::AttributeProto::INT,
            static_cast<int64_t>(1))
      .TypeConstraint("T", {"tensor(float)", "tensor(float16)"},
                      "float tensors")
      .TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
        for (std::size_t o = 0; o < ctx.getNumOutputs(); ++o)
          onnx::propagateElemTypeFromInputToOutput(ctx, 0, o);
        onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
        for (std::size_t o = 1; o < ctx.getNumOutputs(); ++o)
          if (onnx::hasInputShape(ctx, 1))
            onnx::propagateShapeFromInputToOutput(ctx, 1, o);
      });
  return s;
}

onnx::OpSchema printTensor() {
  onnx::OpSchema s;
  s.SetName("PrintTensor")
      .Input(0, "X", "the tensor printed", "T")
      .Output(0, "Y", "X", "T")
      .Attr("print_gradient", "1: its gradient is printed too",
            onnx::AttributeProto::INT, static_cast<int64_t>(1))
      .Attr("title", "printed before the values (default: X's id)",
            onnx::AttributeProto::STRING, std::string())
      .Attr("summariseThreshold", "elements above which edges only show",
            onnx::AttributeProto::INT, static_cast<int64_t>(1000))
      .Attr("edgeItems", "elements shown at each edge when summarised",
            onnx::AttributeProto::INT, static_cast<int64_t>(3))
      .Attr("maxLineWidth", "characters before a line is split",
            onnx::AttributeProto::INT, static_cast<int64_t>(75))
      .Attr("digits", "digits shown", onnx::AttributeProto::INT,
            static_cast<int64_t>(8))
      .Attr("floatFormat", "0 auto, 1 fixed, 2 scientific, 3 none",
            onnx::AttributeProto::INT, static_cast<int64_t>(0))
      .Attr("separator", "the character between values",
            onnx::AttributeProto::INT, static_cast<int64_t>(' '))
      .Attr("openBracket", "the character opening a dimension",
            onnx::AttributeProto::INT, static_cast<int64_t>('['))
      .Attr("closeBracket", "the character closing a dimension",
            onnx::AttributeProto::INT, static_cast<int64_t>(']'))
      .TypeConstraint("T", anyTypes, "tensor types")
      .TypeAndShapeInferenceFunction(onnx::propagateShapeAndTypeFromFirstInput);
  return s;
}

onnx::OpSchema call() {
  onnx::OpSchema s;
  s.SetName("Call")
      .Input(0, "inputs", "the callee's inputs", "T",
             onnx::OpSchema::Variadic, false, 0)
      .Output(0, "outputs", "the callee's outputs", "T",
              onnx::OpSchema::Variadic, false, 0)
      .Attr("callee", "the subgraph called", onnx::AttributeProto::GRAPH)
      .Attr("num_outputs", "the callee's number of outputs",
            onnx::AttributeProto::INT)
      .TypeConstraint("T", anyTypes, "tensor types")
      .TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
        // The callee's outputs, where its builder typed them.
        const auto *callee = ctx.getAttribute("callee");
        if (!callee || !callee->has_g())
          return;
        const auto &g = callee->g();
        for (std::size_t k = 0;
             k < ctx.getNumOutputs() && k < std::size_t(g.output_size()); ++k)
          if (g.output(int(k)).has_type())
            *ctx.getOutputType(k) = g.output(int(k)).type();
      });
  return s;
}

onnx::OpSchema packedDataBlock() {
  onnx::OpSchema s;
  s.SetName("PackedDataBlock")
      .Input(0, "inputs",
             "[data, offsets, lengths] per packed input, then the result's "
             "offsets and lengths (UINT32)",
             "T", onnx::OpSchema::Variadic, false, 5)
      .Output(0, "result", "the callback's outputs packed", "T1")
      .Attr("callback", "the subgraph run on each batch of sequences",
            onnx::AttributeProto::GRAPH)
      .Attr("maxSequenceLengths", "the rows a sequence of each packed input "
            "is padded to",
            onnx::AttributeProto::INTS)
      .Attr("resultSize", "the rows of the result",
            onnx::AttributeProto::INT)
      .Attr("callbackBatchSize", "the sequences of each callback run",
            onnx::AttributeProto::INT)
      .TypeConstraint("T", anyTypes, "tensor types")
      .TypeConstraint("T1", collectiveTypes, "the types sequences are moved in")
      .TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
        // The callback's output from its inputs: callbackBatchSize
        // sequences of each packed input, maxSequenceLengths rows each.
        const auto *lengths = ctx.getAttribute("maxSequenceLengths");
        const auto *batch = ctx.getAttribute("callbackBatchSize");
        const auto *rows = ctx.getAttribute("resultSize");
        if (!lengths || !batch || !rows)
          return;
        const auto packed = static_cast<std::size_t>(lengths->ints_size());
        if (ctx.getNumInputs() != 3 * packed + 2)
          fail_shape_inference("PackedDataBlock has ", ctx.getNumInputs(),
                               " inputs, but ", packed,
                               " maxSequenceLengths need ", 3 * packed + 2);
        std::vector<onnx::TypeProto> types(packed);
        std::vector<const onnx::TypeProto *> typePointers;
        for (std::size_t i = 0; i < packed; ++i) {
          const auto *data = ctx.getInputType(3 * i);
          if (!data || !data->tensor_type().has_shape() ||
              data->tensor_type().shape().dim_size() < 1)
            return;
          auto *tt = types[i].mutable_tensor_type();
          tt->set_elem_type(data->tensor_type().elem_type());
          auto *shape = tt->mutable_shape();
          shape->add_dim()->set_dim_value(batch->i());
          shape->add_dim()->set_dim_value(lengths->ints(int(i)));
          for (int d = 1; d < data->tensor_type().shape().dim_size(); ++d)
            *shape->add_dim() = data->tensor_type().shape().dim(d);
          typePointers.push_back(&types[i]);
        }
        // The callback's output as its builder typed it, or as ONNX infers
        // it from those inputs when it can.
        onnx::TypeProto callbackType;
        const auto *callback = ctx.getAttribute("callback");
        if (callback && callback->has_g() &&
            callback->g().output_size() == 1)
          callbackType = callback->g().output(0).type();
        try {
          auto *inferencer = ctx.getGraphAttributeInferencer("callback");
          const auto outs = inferencer->doInferencing(
              typePointers,
              std::vector<const onnx::TensorProto *>(packed, nullptr));
          if (outs.size() == 1 && outs[0] && outs[0]->has_tensor_type() &&
              outs[0]->tensor_type().has_shape())
            callbackType = *outs[0];
        } catch (const std::exception &) {
          // Left to the IR, which imports the callback with those inputs.
        }
        if (!callbackType.has_tensor_type())
          return;
        const auto &callbackOut = callbackType.tensor_type();
        auto *out = ctx.getOutputType(0)->mutable_tensor_type();
        out->set_elem_type(callbackOut.elem_type());
        if (!callbackOut.has_shape() || callbackOut.shape().dim_size() < 2)
          return;
        auto *shape = out->mutable_shape();
        shape->add_dim()->set_dim_value(rows->i());
        for (int d = 2; d < callbackOut.shape().dim_size(); ++d)
          *shape->add_dim() = callbackOut.shape().dim(d);
      });
  return s;
}

onnx::OpSchema collective(const char *name, bool sameShape) {
  onnx::OpSchema s;
  s.SetName(name)
      .Input(0, "X", "this replica's value", "T")
      .Output(0, "Y", "the combination", "T")
      .Attr(sCollectiveOperator, "a CollectiveOperator (default Add)",
            onnx::AttributeProto::INT, false)
      .Attr(sCollectiveCommGroup, "[CommGroupType, group size]",
            onnx::AttributeProto::INTS, false)
      .TypeConstraint("T", collectiveTypes, "tensor types");
  if (sameShape)
    s.TypeAndShapeInferenceFunction(onnx::propagateShapeAndTypeFromFirstInput);
  else
    // [ceil(elements / group size)]: the group size depends on the
    // session's replication factor.
    s.TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
      onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
      ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape()->add_dim();
    });
  return s;
}

} // namespace

void registerNormPrintCallSchemas() {
  for (onnx::OpSchema s :
       {batchNormalization(), printTensor(), call(), packedDataBlock(),
        collective("ReplicatedAllReduce", true),
        collective("ReplicatedReduceScatter", false)})
    add(s);
}

} // namespace onnxutil
} // namespace popart

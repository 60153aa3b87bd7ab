// Schemas of the ai.graphcore element-wise and data-movement operators
// (Atan2 ... DynamicAdd): their attributes for the checker, and the shapes
// of their outputs for shape inference.
#include "onnx/OnnxUtil.hpp"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <popart/datatype.hpp>

#include <functional>
#include <map>

namespace popart {
namespace onnxutil {
namespace {

using Inference = std::function<void(onnx::InferenceContext &)>;

const std::vector<std::string> allTypes = {
    "tensor(float)",  "tensor(float16)", "tensor(int32)",  "tensor(int64)",
    "tensor(uint32)", "tensor(int8)",    "tensor(uint8)",  "tensor(int16)",
    "tensor(uint16)", "tensor(bool)",    "tensor(double)", "tensor(uint64)"};
const std::vector<std::string> floatTypes = {"tensor(float)", "tensor(float16)"};
const std::vector<std::string> bitwiseTypes = {"tensor(int32)", "tensor(uint32)"};
const std::vector<std::string> offsetTypes = {"tensor(uint32)", "tensor(int32)",
                                              "tensor(int64)"};

onnx::OpSchema schema(const char *name, int inputs,
                      const std::vector<std::string> &types) {
  onnx::OpSchema s;
  s.SetName(name).SetDomain("ai.graphcore").SinceVersion(1);
  const char *names[] = {"A", "B", "C"};
  for (int i = 0; i < inputs; ++i)
    s.Input(i, names[i], "input", "T");
  s.Output(0, "Y", "output", "T")
      .TypeConstraint("T", types, "tensor types")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  return s;
}

void add(onnx::OpSchema s, const Inference &inference) {
  s.TypeAndShapeInferenceFunction(inference);
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce once(s);
}

void binaryBroadcast(onnx::InferenceContext &ctx) {
  onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
  if (onnx::hasNInputShapes(ctx, 2))
    onnx::bidirectionalBroadcastShapeInference(
        ctx.getInputType(0)->tensor_type().shape(),
        ctx.getInputType(1)->tensor_type().shape(),
        *ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape());
}

// The output: the input's type, with the shape `f` makes of the input's
// dimension values (when they are all known).
Inference shapeFrom(std::function<std::vector<int64_t>(
                        onnx::InferenceContext &, std::vector<int64_t>)>
                        f) {
  return [f](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasInputShape(ctx, 0))
      return;
    std::vector<int64_t> in;
    for (const auto &d : ctx.getInputType(0)->tensor_type().shape().dim()) {
      if (!d.has_dim_value())
        return;
      in.push_back(d.dim_value());
    }
    const std::vector<int64_t> out = f(ctx, in);
    auto *shape = ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape();
    for (int64_t v : out)
      shape->add_dim()->set_dim_value(v);
  };
}

std::vector<int64_t> ints(onnx::InferenceContext &ctx, const char *name) {
  std::vector<int64_t> v;
  if (const auto *a = ctx.getAttribute(name))
    v.assign(a->ints().begin(), a->ints().end());
  return v;
}

// Slice of opset 1: starts, ends, axes as attributes, clamped as ONNX does.
std::vector<int64_t> sliceShape(onnx::InferenceContext &ctx,
                                std::vector<int64_t> in) {
  const auto starts = ints(ctx, "starts"), ends = ints(ctx, "ends");
  auto axes = ints(ctx, "axes");
  if (axes.empty())
    for (std::size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  const int64_t rank = static_cast<int64_t>(in.size());
  for (std::size_t i = 0; i < axes.size() && i < starts.size() &&
                          i < ends.size();
       ++i) {
    const int64_t d = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (d < 0 || d >= rank)
      fail_shape_inference("Slice: axis ", axes[i], " out of range");
    auto clamp = [&](int64_t v) {
      if (v < 0)
        v += in[d];
      return std::min(std::max<int64_t>(v, 0), in[d]);
    };
    in[d] = std::max<int64_t>(0, clamp(ends[i]) - clamp(starts[i]));
  }
  return in;
}

} // namespace

void registerGraphcoreOpsetSchemas() {
  for (const char *name : {"Atan2", "Fmod", "Remainder"})
    add(schema(name, 2, name[0] == 'A' ? floatTypes : allTypes),
        binaryBroadcast);
  for (const char *name :
       {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseXnor"})
    add(schema(name, 2, bitwiseTypes), binaryBroadcast);
  add(schema("BitwiseNot", 1, bitwiseTypes),
      onnx::propagateShapeAndTypeFromFirstInput);
  for (const char *name : {"Round", "NearbyInt"})
    add(schema(name, 1, floatTypes), onnx::propagateShapeAndTypeFromFirstInput);

  auto incrementMod = schema("IncrementMod", 1, allTypes);
  incrementMod.Attr("increment", "added", onnx::AttributeProto::FLOAT)
      .Attr("modulus", "the modulus", onnx::AttributeProto::FLOAT);
  add(incrementMod, onnx::propagateShapeAndTypeFromFirstInput);

  onnx::OpSchema bucketize;
  bucketize.SetName("Bucketize")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "input", "the values", "T")
      .Input(1, "boundaries", "increasing boundaries (1-D)", "T")
      .Output(0, "output", "the bucket of each value", "Tout")
      .Attr("right", "whether the right boundary is closed",
            onnx::AttributeProto::INT, static_cast<int64_t>(0))
      .TypeConstraint("T", allTypes, "tensor types")
      .TypeConstraint("Tout", {"tensor(int32)"}, "INT32")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(bucketize, [](onnx::InferenceContext &ctx) {
    ctx.getOutputType(0)->mutable_tensor_type()->set_elem_type(
        onnx::TensorProto::INT32);
    if (onnx::hasInputShape(ctx, 0))
      onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
  });

  onnx::OpSchema sort;
  sort.SetName("Sort")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "X", "input", "T")
      .Output(0, "Values", "the sorted values", "T")
      .Output(1, "Indices", "their indices in X", "I")
      .Attr("axis", "the dimension sorted", onnx::AttributeProto::INT,
            static_cast<int64_t>(-1))
      .Attr("descending", "descending order when 1", onnx::AttributeProto::INT,
            static_cast<int64_t>(0))
      .Attr("stable", "equal values in their order when 1",
            onnx::AttributeProto::INT, static_cast<int64_t>(0))
      .TypeConstraint("T", allTypes, "tensor types")
      .TypeConstraint("I", {"tensor(int64)"}, "INT64")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(sort, [](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    ctx.getOutputType(1)->mutable_tensor_type()->set_elem_type(
        onnx::TensorProto::INT64);
    if (onnx::hasInputShape(ctx, 0)) {
      onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
      onnx::propagateShapeFromInputToOutput(ctx, 0, 1);
    }
  });

  onnx::OpSchema median;
  median.SetName("ReduceMedian")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "data", "input", "T")
      .Output(0, "reduced", "the medians", "T")
      .Output(1, "indices", "their indices among the reduced elements", "I")
      .Attr("axes", "the reduced dimensions (all when absent)",
            onnx::AttributeProto::INTS, false)
      .Attr("keepdims", "keep reduced dimensions as 1",
            onnx::AttributeProto::INT, static_cast<int64_t>(1))
      .TypeConstraint("T", allTypes, "tensor types")
      .TypeConstraint("I", {"tensor(int32)"}, "INT32")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(median, [](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    ctx.getOutputType(1)->mutable_tensor_type()->set_elem_type(
        onnx::TensorProto::INT32);
    if (!onnx::hasInputShape(ctx, 0))
      return;
    const auto &in = ctx.getInputType(0)->tensor_type().shape();
    const int64_t rank = in.dim_size();
    std::vector<bool> reduced(rank, ctx.getAttribute("axes") == nullptr);
    for (int64_t a : ints(ctx, "axes"))
      if (a >= -rank && a < rank)
        reduced[a < 0 ? a + rank : a] = true;
    const auto *keep = ctx.getAttribute("keepdims");
    const bool keepdims = !keep || keep->i() != 0;
    for (int o = 0; o < 2; ++o) {
      auto *shape = ctx.getOutputType(o)->mutable_tensor_type()->mutable_shape();
      for (int64_t d = 0; d < rank; ++d)
        if (!reduced[d])
          *shape->add_dim() = in.dim(static_cast<int>(d));
        else if (keepdims)
          shape->add_dim()->set_dim_value(1);
    }
  });

  auto reverse = schema("Reverse", 1, allTypes);
  reverse.Attr("dimensions", "the dimensions reversed",
               onnx::AttributeProto::INTS, false);
  add(reverse, onnx::propagateShapeAndTypeFromFirstInput);

  auto slice = schema("Slice", 1, allTypes);
  slice.Attr("starts", "first indices", onnx::AttributeProto::INTS)
      .Attr("ends", "ends (exclusive)", onnx::AttributeProto::INTS)
      .Attr("axes", "the dimensions sliced", onnx::AttributeProto::INTS, false);
  add(slice, shapeFrom(sliceShape));

  auto subsample = schema("Subsample", 1, allTypes);
  subsample.Attr("strides", "one stride per dimension",
                 onnx::AttributeProto::INTS);
  add(subsample, shapeFrom([](onnx::InferenceContext &ctx,
                              std::vector<int64_t> in) {
        const auto strides = ints(ctx, "strides");
        for (std::size_t d = 0; d < in.size() && d < strides.size(); ++d)
          if (strides[d] > 0)
            in[d] = (in[d] + strides[d] - 1) / strides[d];
        return in;
      }));

  auto depthToSpace = schema("DepthToSpace", 1, allTypes);
  depthToSpace.Attr("blocksize", "the block size", onnx::AttributeProto::INT)
      .Attr("mode", "DCR or CRD", onnx::AttributeProto::STRING,
            std::string("DCR"));
  add(depthToSpace,
      shapeFrom([](onnx::InferenceContext &ctx, std::vector<int64_t> in) {
        const auto *b = ctx.getAttribute("blocksize");
        if (in.size() != 4 || !b || b->i() < 1)
          return std::vector<int64_t>{};
        const int64_t k = b->i();
        return std::vector<int64_t>{in[0], in[1] / (k * k), in[2] * k,
                                    in[3] * k};
      }));

  // The dynamic ops: [tensor, offset(, slice)].
  for (const char *name :
       {"DynamicSlice", "DynamicUpdate", "DynamicZero", "DynamicAdd"}) {
    const std::string n = name;
    const bool withSlice = n == "DynamicUpdate" || n == "DynamicAdd";
    onnx::OpSchema s;
    s.SetName(name)
        .SetDomain("ai.graphcore")
        .SinceVersion(1)
        .Input(0, "tensor", "the tensor", "T")
        .Input(1, "offset", "one offset per axis", "Toffset");
    if (withSlice)
      s.Input(2, "slice", "the slice", "T");
    s.Output(0, "Y", "output", "T")
        .Attr("axes", "the sliced dimensions", onnx::AttributeProto::INTS)
        .Attr("sizes", "the slice's size along each axis",
              onnx::AttributeProto::INTS)
        .TypeConstraint("T", allTypes, "tensor types")
        .TypeConstraint("Toffset", offsetTypes, "integer tensors")
        .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
    if (n == "DynamicSlice" || n == "DynamicUpdate")
      s.Attr("noOverlap", "whether the slices of a loop do not overlap",
             onnx::AttributeProto::INT, static_cast<int64_t>(0));
    if (n == "DynamicSlice")
      add(s, shapeFrom([](onnx::InferenceContext &ctx, std::vector<int64_t> in) {
            const auto axes = ints(ctx, "axes"), sizes = ints(ctx, "sizes");
            for (std::size_t i = 0; i < axes.size() && i < sizes.size(); ++i)
              if (axes[i] >= 0 && axes[i] < static_cast<int64_t>(in.size()))
                in[axes[i]] = sizes[i];
            return in;
          }));
    else
      add(s, onnx::propagateShapeAndTypeFromFirstInput);
  }

  // GroupNormalization: [X, Scale, Bias] -> [Y, Mean, InvStdDev], the
  // statistics one per (sample, group).
  onnx::OpSchema groupNorm;
  groupNorm.SetName("GroupNormalization")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "X", "[N, C, ...]", "T")
      .Input(1, "Scale", "[C]", "T")
      .Input(2, "Bias", "[C]", "T")
      .Output(0, "Y", "X normalised", "T")
      .Output(1, "Mean", "[N * num_groups]", "T")
      .Output(2, "InvStdDev", "[N * num_groups]", "T")
      .Attr("num_groups", "groups of channels", onnx::AttributeProto::INT)
      .Attr("epsilon", "added to the variance", onnx::AttributeProto::FLOAT,
            1e-5f)
      .TypeConstraint("T", floatTypes, "float tensors")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(groupNorm, [](onnx::InferenceContext &ctx) {
    for (std::size_t o = 0; o < ctx.getNumOutputs(); ++o)
      onnx::propagateElemTypeFromInputToOutput(ctx, 0, o);
    onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
    const auto *groups = ctx.getAttribute("num_groups");
    if (!groups || !onnx::hasInputShape(ctx, 0))
      return;
    const auto &x = ctx.getInputType(0)->tensor_type().shape();
    if (x.dim_size() < 1 || !x.dim(0).has_dim_value())
      return;
    for (std::size_t o = 1; o < ctx.getNumOutputs() && o < 3; ++o)
      ctx.getOutputType(o)
          ->mutable_tensor_type()
          ->mutable_shape()
          ->add_dim()
          ->set_dim_value(x.dim(0).dim_value() * groups->i());
  });

  // ScatterReduce: [src, index(, initial_values)] -> src's shape with
  // axis_size along axis (the index's leading part of it when the index
  // is not broadcast; the initial values' shape when given).
  onnx::OpSchema scatterReduce;
  scatterReduce.SetName("ScatterReduce")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "data", "the source values", "T")
      .Input(1, "indices", "where each goes along axis", "Tind")
      .Input(2, "initial_values", "the output's starting values", "T",
             onnx::OpSchema::Optional)
      .Output(0, "output", "the reduced values", "T")
      .Attr("axis_size", "the output's size along axis",
            onnx::AttributeProto::INT)
      .Attr("axis", "the scattered axis", onnx::AttributeProto::INT,
            static_cast<int64_t>(-1))
      .Attr("reduction", "sum, max, min, mul or none",
            onnx::AttributeProto::STRING, std::string("sum"))
      .Attr("group_size", "independent groups along dimension 0",
            onnx::AttributeProto::INT, static_cast<int64_t>(1))
      .Attr("enable_index_broadcast",
            "1: a vector index is broadcast to the data's shape",
            onnx::AttributeProto::INT, static_cast<int64_t>(1))
      .TypeConstraint("T", allTypes, "tensor types")
      .TypeConstraint("Tind",
                      {"tensor(int8)", "tensor(uint8)", "tensor(int16)",
                       "tensor(uint16)", "tensor(int32)", "tensor(uint32)",
                       "tensor(int64)", "tensor(uint64)"},
                      "integer tensors")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(scatterReduce, [](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (ctx.getNumInputs() > 2 && ctx.getInputType(2) &&
        onnx::hasInputShape(ctx, 2)) {
      onnx::propagateShapeFromInputToOutput(ctx, 2, 0);
      return;
    }
    const auto *size = ctx.getAttribute("axis_size");
    if (!size || !onnx::hasNInputShapes(ctx, 2))
      return;
    std::vector<int64_t> src, index;
    for (const auto &d : ctx.getInputType(0)->tensor_type().shape().dim()) {
      if (!d.has_dim_value())
        return;
      src.push_back(d.dim_value());
    }
    for (const auto &d : ctx.getInputType(1)->tensor_type().shape().dim())
      index.push_back(d.has_dim_value() ? d.dim_value() : -1);
    const int64_t rank = static_cast<int64_t>(src.size());
    const auto *axisAttr = ctx.getAttribute("axis");
    int64_t axis = axisAttr ? axisAttr->i() : -1;
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      fail_shape_inference("ScatterReduce: axis out of range");
    const auto *broadcast = ctx.getAttribute("enable_index_broadcast");
    const auto *groupAttr = ctx.getAttribute("group_size");
    std::vector<int64_t> out = src;
    if (broadcast && broadcast->i() == 0 && index != src) {
      // The index's shape, with missing dimensions as 1.
      const std::size_t g = groupAttr && groupAttr->i() > 1 ? 1 : 0;
      if (index.size() == g + 1)
        index.insert(index.begin() + g, static_cast<std::size_t>(axis) - g, 1);
      index.resize(src.size(), 1);
      out = index;
    }
    out[static_cast<std::size_t>(axis)] = size->i();
    auto *shape = ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape();
    for (int64_t v : out)
      shape->add_dim()->set_dim_value(v);
  });

  // GroupedGather: [data, indices] -> data's shape with the axis replaced
  // by the indices' dimensions (after the group one when group_size > 1).
  onnx::OpSchema groupedGather;
  groupedGather.SetName("GroupedGather")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "data", "[group_size, ...]", "T")
      .Input(1, "indices", "[group_size, ...]", "Tind")
      .Output(0, "output", "the gathered slices", "T")
      .Attr("axis", "the gathered dimension of data", onnx::AttributeProto::INT,
            static_cast<int64_t>(0))
      .Attr("group_size", "groups along dimension 0", onnx::AttributeProto::INT,
            static_cast<int64_t>(1))
      .TypeConstraint("T", allTypes, "tensor types")
      .TypeConstraint("Tind", {"tensor(int32)", "tensor(int64)"},
                      "integer tensors")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(groupedGather, [](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasNInputShapes(ctx, 2))
      return;
    const auto &data = ctx.getInputType(0)->tensor_type().shape();
    const auto &indices = ctx.getInputType(1)->tensor_type().shape();
    const int rank = data.dim_size();
    const auto *axisAttr = ctx.getAttribute("axis");
    const auto *groupAttr = ctx.getAttribute("group_size");
    int axis = axisAttr ? static_cast<int>(axisAttr->i()) : 0;
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      fail_shape_inference("GroupedGather: axis out of range");
    const int first = groupAttr && groupAttr->i() > 1 ? 1 : 0;
    auto *out = ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape();
    for (int d = 0; d < axis; ++d)
      *out->add_dim() = data.dim(d);
    for (int d = first; d < indices.dim_size(); ++d)
      *out->add_dim() = indices.dim(d);
    for (int d = axis + 1; d < rank; ++d)
      *out->add_dim() = data.dim(d);
  });

  // Init: no inputs; the tensor the attributes describe (data_type is a
  // popart::DataType value).
  onnx::OpSchema init;
  init.SetName("Init")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Output(0, "I", "the new tensor", "T")
      .Attr("shape", "its shape", onnx::AttributeProto::INTS)
      .Attr("data_type", "its popart::DataType", onnx::AttributeProto::INT)
      .Attr("init_type", "InitType: 0 NoInit, 1 Zero", onnx::AttributeProto::INT)
      .Attr("tensor_type", "the tensor's TensorType", onnx::AttributeProto::INT,
            false)
      .Attr("batch_axis", "its batch dimension, -1 for none",
            onnx::AttributeProto::INT, static_cast<int64_t>(-1))
      .TypeConstraint("T", {"tensor(float)", "tensor(float16)", "tensor(int32)",
                            "tensor(uint32)"},
                      "tensor types")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(init, [](onnx::InferenceContext &ctx) {
    if (const auto *type = ctx.getAttribute("data_type")) {
      const std::map<DataType, int32_t> onnxType = {
          {DataType::FLOAT, onnx::TensorProto::FLOAT},
          {DataType::FLOAT16, onnx::TensorProto::FLOAT16},
          {DataType::INT32, onnx::TensorProto::INT32},
          {DataType::UINT32, onnx::TensorProto::UINT32}};
      const auto it = onnxType.find(static_cast<DataType>(type->i()));
      if (it == onnxType.end())
        fail_type_inference("Init: data_type ", type->i(),
                            " is not FLOAT, FLOAT16, INT32 or UINT32");
      ctx.getOutputType(0)->mutable_tensor_type()->set_elem_type(it->second);
    }
    const auto *shapeAttr = ctx.getAttribute("shape");
    if (!shapeAttr)
      return;
    auto *shape = ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape();
    for (int64_t d : shapeAttr->ints())
      shape->add_dim()->set_dim_value(d);
  });

  // Abort: an optional scalar condition, no outputs.
  onnx::OpSchema abortSchema;
  abortSchema.SetName("Abort")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "condition", "abort when non-zero", "T",
             onnx::OpSchema::Optional)
      .TypeConstraint("T", allTypes, "tensor types")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(abortSchema, [](onnx::InferenceContext &) {});

  // NormalizeImage: [image, offsets, scales] -> the image with 4 channels.
  onnx::OpSchema normalizeImage;
  normalizeImage.SetName("NormalizeImage")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "image", "[..., 3]", "Timg")
      .Input(1, "offsets", "[3]", "T")
      .Input(2, "scales", "[3]", "T")
      .Output(0, "output", "[..., 4]", "T")
      .Attr("scale", "applied to the image first", onnx::AttributeProto::FLOAT,
            1.0f)
      .TypeConstraint("Timg",
                      {"tensor(uint8)", "tensor(float16)", "tensor(float)"},
                      "image types")
      .TypeConstraint("T", floatTypes, "float tensors")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(normalizeImage, [](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 1, 0);
    if (!onnx::hasInputShape(ctx, 0))
      return;
    const auto &in = ctx.getInputType(0)->tensor_type().shape();
    auto *out = ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape();
    for (int d = 0; d < in.dim_size(); ++d)
      *out->add_dim() = in.dim(d);
    if (in.dim_size() > 0)
      out->mutable_dim(in.dim_size() - 1)->set_dim_value(4);
  });

  // SequenceSlice: [source, destination, N, sourceOffset,
  // destinationOffset] -> destination's type and shape.
  onnx::OpSchema sequenceSlice;
  sequenceSlice.SetName("SequenceSlice")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "source", "rows to copy from", "T")
      .Input(1, "destination", "rows to copy into", "T")
      .Input(2, "N", "rows per entry", "U")
      .Input(3, "sourceOffset", "first source row per entry", "U")
      .Input(4, "destinationOffset", "first destination row per entry", "U")
      .Output(0, "output", "the updated destination", "T")
      .Attr("zeroUnused", "1: rows nothing writes are zeroed",
            onnx::AttributeProto::INT, static_cast<int64_t>(0))
      .TypeConstraint("T", {"tensor(float)", "tensor(float16)", "tensor(int32)",
                            "tensor(uint32)"},
                      "tensor types")
      .TypeConstraint("U", {"tensor(uint32)"}, "UINT32 tensors")
      .SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  add(sequenceSlice, [](onnx::InferenceContext &ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 1, 0);
    if (onnx::hasInputShape(ctx, 1))
      onnx::propagateShapeFromInputToOutput(ctx, 1, 0);
  });

  auto shapedDropout = schema("ShapedDropout", 1, floatTypes);
  shapedDropout
      .Attr("shape", "the mask's shape, broadcast to the input",
            onnx::AttributeProto::INTS)
      .Attr("ratio", "the probability of dropping", onnx::AttributeProto::FLOAT,
            0.5f);
  add(shapedDropout, onnx::propagateShapeAndTypeFromFirstInput);

  auto tensorRemap = schema("TensorRemap", 1, allTypes);
  tensorRemap.Attr("remap_type", "a TensorRemapType value",
                   onnx::AttributeProto::INT, static_cast<int64_t>(0));
  add(tensorRemap, onnx::propagateShapeAndTypeFromFirstInput);
  add(schema("CopyVarUpdate", 2, allTypes),
      onnx::propagateShapeAndTypeFromFirstInput);
}

} // namespace onnxutil
} // namespace popart

// The gradient of every op that has one, checked against central finite
// differences of the same op: for each case of the table, a TrainingSession
// (learning rate 0) runs the op on the inputs and on each input element
// moved by +h and -h, anchoring the loss sum(y * r) of every batch and the
// gradients of the inputs of the first.
#include "PopartTestDevice.hpp"

#include <popart/builder.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>
#include <popart/tensornames.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace popart;

namespace {

using Ids = std::vector<TensorId>;

struct Input {
  Shape shape;
  float lo = -1.0f, hi = 1.0f;
  /// Values spread evenly over [lo, hi] in a random order, so that no two
  /// lie within the finite difference of each other (max, pools).
  bool distinct = false;
  /// Integer data (indices, labels): not differentiated.
  std::vector<int> ints;
  /// Float data that has no gradient (running statistics).
  bool differentiable = true;
};

struct Ops {
  Builder &b;
  AiOnnxOpset13 o;
  AiGraphcoreOpset1 gc;
  TensorId ints(const std::vector<int64_t> &v) {
    return o.constant(ConstVoidData(v.data(), TensorInfo(DataType::INT64,
                                                         Shape{int64_t(v.size())})));
  }
};

struct GradCase {
  std::string name;
  std::vector<Input> inputs;
  std::function<TensorId(Ops &, const Ids &)> build;
  /// The ai.onnx opset the case's ops (and the loss) are built with.
  int opset = 13;
};

Input in(Shape s, float lo = -1.0f, float hi = 1.0f) {
  Input i;
  i.shape = std::move(s);
  i.lo = lo;
  i.hi = hi;
  return i;
}
Input distinct(Shape s, float lo = -1.0f, float hi = 1.0f) {
  Input i = in(std::move(s), lo, hi);
  i.distinct = true;
  return i;
}
Input ints(Shape s, std::vector<int> values) {
  Input i;
  i.shape = std::move(s);
  i.ints = std::move(values);
  return i;
}

Input noGradient(Input i) {
  i.differentiable = false;
  return i;
}

// Away from 0 (kinks at 0): magnitudes in [0.2, 1] with random signs.
Input signedIn(Shape s) { return in(std::move(s), 0.2f, 1.0f); }

const float kClipMin = -0.5f, kClipMax = 0.6f;

#define UNARY(NAME, CALL, LO, HI)                                              \
  GradCase {                                                                   \
    NAME, {in({2, 3}, LO, HI)}, [](Ops &ops, const Ids &x) { return CALL; }    \
  }

std::vector<GradCase> gradCases() {
  return {
      // One input, element-wise.
      UNARY("Abs", ops.o.abs({x[0]}), 0.2f, 1.0f),
      UNARY("Neg", ops.o.neg({x[0]}), -1.0f, 1.0f),
      UNARY("Exp", ops.o.exp({x[0]}), -1.0f, 1.0f),
      UNARY("Log", ops.o.log({x[0]}), 0.5f, 2.0f),
      UNARY("Sqrt", ops.o.sqrt({x[0]}), 0.5f, 2.0f),
      UNARY("Relu", ops.o.relu({x[0]}), 0.2f, 1.0f),
      UNARY("Sigmoid", ops.o.sigmoid({x[0]}), -2.0f, 2.0f),
      UNARY("Tanh", ops.o.tanh({x[0]}), -2.0f, 2.0f),
      UNARY("Erf", ops.o.erf({x[0]}), -1.5f, 1.5f),
      UNARY("Reciprocal", ops.o.reciprocal({x[0]}), 0.5f, 2.0f),
      UNARY("Sin", ops.o.sin({x[0]}), -2.0f, 2.0f),
      UNARY("Cos", ops.o.cos({x[0]}), -2.0f, 2.0f),
      UNARY("Tan", ops.o.tan({x[0]}), -1.0f, 1.0f),
      UNARY("Asin", ops.o.asin({x[0]}), -0.8f, 0.8f),
      UNARY("Acos", ops.o.acos({x[0]}), -0.8f, 0.8f),
      UNARY("Atan", ops.o.atan({x[0]}), -2.0f, 2.0f),
      UNARY("Sinh", ops.o.sinh({x[0]}), -1.5f, 1.5f),
      UNARY("Cosh", ops.o.cosh({x[0]}), -1.5f, 1.5f),
      UNARY("Asinh", ops.o.asinh({x[0]}), -1.5f, 1.5f),
      UNARY("Acosh", ops.o.acosh({x[0]}), 1.5f, 3.0f),
      UNARY("Atanh", ops.o.atanh({x[0]}), -0.8f, 0.8f),
      UNARY("LeakyRelu", ops.o.leakyrelu({x[0]}, 0.1f), 0.2f, 1.0f),
      UNARY("Elu", ops.o.elu({x[0]}, 0.8f), 0.2f, 1.0f),
      UNARY("Selu", ops.o.selu({x[0]}), 0.2f, 1.0f),
      UNARY("HardSigmoid", ops.o.hardsigmoid({x[0]}, 0.2f, 0.5f), -2.0f, 2.0f),
      UNARY("ThresholdedRelu", ops.o.thresholdedrelu({x[0]}, 0.1f), 0.2f, 1.0f),
      UNARY("Softplus", ops.o.softplus({x[0]}), -2.0f, 2.0f),
      UNARY("Softsign", ops.o.softsign({x[0]}), 0.2f, 1.0f),
      UNARY("Celu", ops.o.celu({x[0]}, 0.8f), -1.0f, 1.0f),
      UNARY("Shrink", ops.o.shrink({x[0]}, 0.3f, 0.5f), 0.6f, 1.0f),
      {"HardSwish", {in({2, 3}, -2.5f, 2.5f)},
       [](Ops &ops, const Ids &x) { return ops.b.aiOnnxOpset14().hardswish({x[0]}); },
       14},
      UNARY("Floor (zero gradient)", ops.o.floor({x[0]}), 0.2f, 0.8f),
      UNARY("Gelu", ops.gc.gelu({x[0]}), -2.0f, 2.0f),
      UNARY("GeluErf", ops.gc.geluerf({x[0]}), -2.0f, 2.0f),
      UNARY("Square", ops.gc.square({x[0]}), -2.0f, 2.0f),
      UNARY("Swish", ops.gc.swish({x[0]}), -2.0f, 2.0f),
      UNARY("Log1p", ops.gc.log1p({x[0]}), -0.5f, 2.0f),
      UNARY("Expm1", ops.gc.expm1({x[0]}), -1.0f, 1.0f),
      UNARY("Scale", ops.gc.scale({x[0]}, -1.5f), -1.0f, 1.0f),
      UNARY("Identity", ops.o.identity({x[0]}), -1.0f, 1.0f),
      UNARY("Nop", ops.gc.nop({x[0]}), -1.0f, 1.0f),
      UNARY("Clip", ops.o.clip({x[0], ops.o.constant(ConstVoidData(&kClipMin, TensorInfo(DataType::FLOAT, Shape{}))), ops.o.constant(ConstVoidData(&kClipMax, TensorInfo(DataType::FLOAT, Shape{})))}), -1.0f, 1.0f),
      {"Clip (bounds as inputs)",
       {in({2, 3}), noGradient(in({}, -0.5f, -0.5f)), noGradient(in({}, 0.6f, 0.6f))},
       [](Ops &ops, const Ids &x) { return ops.o.clip(x); }},
      // Two or more inputs, with broadcasting.
      {"PRelu", {signedIn({2, 3}), in({3}, 0.1f, 0.5f)},
       [](Ops &ops, const Ids &x) { return ops.o.prelu(x); }},
      {"Add", {in({2, 3}), in({3})}, [](Ops &ops, const Ids &x) { return ops.o.add(x); }},
      {"Sub", {in({2, 1}), in({2, 3})}, [](Ops &ops, const Ids &x) { return ops.o.sub(x); }},
      {"Mul", {in({2, 3}), in({1, 3})}, [](Ops &ops, const Ids &x) { return ops.o.mul(x); }},
      {"Div", {in({2, 3}), in({2, 3}, 0.5f, 2.0f)},
       [](Ops &ops, const Ids &x) { return ops.o.div(x); }},
      {"Pow", {in({2, 3}, 0.5f, 2.0f), in({3}, -1.0f, 2.0f)},
       [](Ops &ops, const Ids &x) { return ops.o.pow(x); }},
      // Away from the discontinuities: |a / b| between 1.2 and 1.8.
      {"Mod (fmod)", {in({2, 3}, 3.0f, 4.5f), in({3}, 2.5f, 2.5f)},
       [](Ops &ops, const Ids &x) { return ops.o.mod(x, 1); }},
      {"Mod", {in({2, 3}, -4.5f, -3.0f), in({3}, 2.5f, 2.5f)},
       [](Ops &ops, const Ids &x) { return ops.o.mod(x, 0); }},
      {"Sum", {in({2, 3}), in({3}), in({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.sum(x); }},
      {"Mean", {in({2, 3}), in({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.mean(x); }},
      {"Max", {distinct({2, 3}), distinct({2, 3}, -0.98f, 0.98f)},
       [](Ops &ops, const Ids &x) { return ops.o.max(x); }},
      {"Min", {distinct({2, 3}), distinct({2, 3}, -0.98f, 0.98f)},
       [](Ops &ops, const Ids &x) { return ops.o.min(x); }},
      {"ScaledAdd", {in({2, 3}), in({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.gc.scaledadd(x, 0.5f, -2.0f); }},
      {"Where", {in({2, 3}), in({3})},
       [](Ops &ops, const Ids &x) {
         std::vector<uint8_t> c = {1, 0, 1, 0, 0, 1};
         auto cond = ops.o.constant(
             ConstVoidData(c.data(), TensorInfo(DataType::BOOL, Shape{2, 3})));
         return ops.o.where({cond, x[0], x[1]});
       }},
      // Data movement.
      {"Reshape", {in({2, 3, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.reshape({x[0], ops.ints({3, 4})}); }},
      {"Flatten", {in({2, 3, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.flatten({x[0]}, 2); }},
      {"Unsqueeze", {in({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.unsqueeze({x[0], ops.ints({1})}); }},
      {"Transpose", {in({2, 3, 4})},
       [](Ops &ops, const Ids &x) { return ops.o.transpose({x[0]}, {2, 0, 1}); }},
      {"Concat", {in({2, 3}), in({2, 1})},
       [](Ops &ops, const Ids &x) { return ops.o.concat(x, 1); }},
      {"Slice (steps, negative)", {in({4, 5})},
       [](Ops &ops, const Ids &x) {
         return ops.o.slice({x[0], ops.ints({1, 4}), ops.ints({4, 0}),
                             ops.ints({0, 1}), ops.ints({2, -2})});
       }},
      {"Split", {in({2, 5})},
       [](Ops &ops, const Ids &x) {
         auto parts = ops.o.split({x[0], ops.ints({2, 3})}, 2, 1);
         return ops.o.mul({parts[0], ops.o.slice({parts[1], ops.ints({0}),
                                                  ops.ints({2}), ops.ints({1})})});
       }},
      {"Gather (repeated indices)", {in({4, 3}), ints({5}, {3, 0, 3, 1, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.gather(x, 0); }},
      {"Gather (axis 1)", {in({2, 4}), ints({2, 2}, {1, 3, 3, 0})},
       [](Ops &ops, const Ids &x) { return ops.o.gather(x, 1); }},
      {"GatherElements", {in({3, 4}), ints({2, 4}, {2, 0, 1, 2, 0, 0, -1, 1})},
       [](Ops &ops, const Ids &x) { return ops.o.gatherelements(x, 0); }},
      {"GatherND (repeated)", {in({3, 4}), ints({3, 1}, {2, 0, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.gathernd(x, 0); }},
      {"DepthToSpace (CRD)", {in({1, 8, 2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.depthtospace({x[0]}, 2, "CRD"); }},
      {"SpaceToDepth", {in({1, 2, 4, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.spacetodepth({x[0]}, 2); }},
      {"Trilu (lower)", {in({2, 3, 4})},
       [](Ops &ops, const Ids &x) { return ops.b.aiOnnxOpset14().trilu({x[0]}, 0); },
       14},
      {"CumSum (reverse, exclusive)", {in({2, 5})},
       [](Ops &ops, const Ids &x) {
         auto o = ops.b.aiOnnxOpset14();
         const int32_t axis = 1;
         return o.cumsum({x[0], o.constant(ConstVoidData(
                                    &axis, TensorInfo(DataType::INT32, Shape{})))},
                         1, 1);
       },
       14},
      {"Expand", {in({3, 1})},
       [](Ops &ops, const Ids &x) { return ops.o.expand({x[0], ops.ints({2, 3, 4})}); }},
      {"Tile", {in({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.tile({x[0], ops.ints({2, 3})}); }},
      {"Pad", {in({2, 3})},
       [](Ops &ops, const Ids &x) {
         return ops.o.pad({x[0], ops.ints({1, 0, 0, 2})}, "constant");
       }},
      // Linear algebra, softmax, reductions.
      {"MatMul", {in({3, 4}), in({4, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.matmul(x); }},
      {"MatMul (broadcast batch)", {in({2, 1, 3, 4}), in({3, 4, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.matmul(x); }},
      {"MatMul (vector)", {in({4}), in({2, 4, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.matmul(x); }},
      {"Gemm", {in({4, 3}), in({2, 4}), in({2})},
       [](Ops &ops, const Ids &x) { return ops.o.gemm(x, 0.5f, 2.0f, 1, 1); }},
      {"Softmax", {in({2, 3, 4}, -2.0f, 2.0f)},
       [](Ops &ops, const Ids &x) { return ops.o.softmax({x[0]}, 1); }},
      {"Softmax-11 (2-D)", {in({2, 3, 4}, -2.0f, 2.0f)},
       [](Ops &ops, const Ids &x) { return ops.b.aiOnnxOpset11().softmax({x[0]}, 1); },
       11},
      {"LogSoftmax", {in({2, 5}, -2.0f, 2.0f)},
       [](Ops &ops, const Ids &x) { return ops.o.logsoftmax({x[0]}, -1); }},
      {"ReduceSum", {in({2, 3, 4})},
       [](Ops &ops, const Ids &x) { return ops.o.reducesum({x[0], ops.ints({0, 2})}, 0); }},
      {"ReduceMean", {in({2, 3, 4})},
       [](Ops &ops, const Ids &x) { return ops.o.reducemean({x[0]}, Shape{1}); }},
      {"ReduceMax", {distinct({2, 3, 4})},
       [](Ops &ops, const Ids &x) { return ops.o.reducemax({x[0]}, Shape{2}); }},
      {"ReduceMin", {distinct({2, 3, 4})},
       [](Ops &ops, const Ids &x) { return ops.o.reducemin({x[0]}, Shape{0, 1}, 0); }},
      {"ReduceProd", {in({2, 3}, 0.5f, 1.5f)},
       [](Ops &ops, const Ids &x) { return ops.o.reduceprod({x[0]}, Shape{1}); }},
      {"ReduceSumSquare", {in({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.reducesumsquare({x[0]}); }},
      {"ReduceL1", {signedIn({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.reducel1({x[0]}, Shape{1}); }},
      {"ReduceL2", {in({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.reducel2({x[0]}, Shape{0}); }},
      {"ReduceLogSum", {in({2, 3}, 0.5f, 2.0f)},
       [](Ops &ops, const Ids &x) { return ops.o.reducelogsum({x[0]}, Shape{1}); }},
      {"ReduceLogSumExp", {in({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.reducelogsumexp({x[0]}, Shape{1}); }},
      // Convolutions, pooling, normalisation.
      {"Conv (stride, padding, bias)", {in({2, 2, 5, 5}), in({3, 2, 3, 3}), in({3})},
       [](Ops &ops, const Ids &x) {
         return ops.o.conv(x, {}, 1, {3, 3}, {1, 0, 1, 1}, {2, 1});
       }},
      {"Conv (groups, dilation)", {in({1, 4, 5, 5}), in({4, 2, 2, 2})},
       [](Ops &ops, const Ids &x) {
         return ops.o.conv(x, {2, 1}, 2, {2, 2}, {0, 0, 0, 0}, {1, 1});
       }},
      {"Conv1d", {in({2, 3, 6}), in({2, 3, 3})},
       [](Ops &ops, const Ids &x) { return ops.o.conv(x, {}, 1, {3}, {1, 1}, {1}); }},
      {"MaxPool", {distinct({1, 2, 4, 4})},
       [](Ops &ops, const Ids &x) {
         return ops.o.maxpool({x[0]}, 1, {2, 2}, 0, {}, {0, 0, 0, 0}, 0, {2, 2}).at(0);
       }},
      {"MaxPool (overlapping, padded)", {distinct({1, 1, 5, 5})},
       [](Ops &ops, const Ids &x) {
         return ops.o.maxpool({x[0]}, 1, {3, 3}, 0, {}, {1, 1, 1, 1}, 0, {2, 2}).at(0);
       }},
      {"AveragePool", {in({1, 2, 4, 4})},
       [](Ops &ops, const Ids &x) {
         return ops.o.averagepool({x[0]}, {2, 2}, 0, 0, {}, {2, 2});
       }},
      {"AveragePool (counting the padding)", {in({1, 1, 4, 4})},
       [](Ops &ops, const Ids &x) {
         return ops.o.averagepool({x[0]}, {3, 3}, 0, 1, {1, 1, 1, 1}, {1, 1});
       }},
      {"GlobalAveragePool", {in({2, 3, 2, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.globalaveragepool({x[0]}); }},
      {"GlobalMaxPool", {distinct({2, 3, 2, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.globalmaxpool({x[0]}); }},
      {"BatchNormalization (training)",
       {in({3, 2, 2, 2}), in({2}, 0.5f, 1.5f), in({2}), noGradient(in({2})),
        noGradient(in({2}, 0.5f, 1.5f))},
       [](Ops &ops, const Ids &x) {
         return ops.o.batchnormalization(x, 5, 1e-5f, 0.9f).at(0);
       }},
      {"InstanceNormalization", {in({2, 3, 2, 3}), in({3}, 0.5f, 1.5f), in({3})},
       [](Ops &ops, const Ids &x) {
         return ops.o.instancenormalization(x, 1e-5f);
       }},
      {"LayerNormalization", {in({2, 3, 4}), in({3, 4}, 0.5f, 1.5f), in({3, 4})},
       [](Ops &ops, const Ids &x) {
         return ops.b.aiOnnxOpset17().layernormalization(x, 1, 1).at(0);
       },
       17},
      {"LRN", {in({2, 5, 2, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.lrn({x[0]}, 3, 0.01f, 0.6f, 1.5f); }},
      {"TopK", {distinct({2, 5})},
       [](Ops &ops, const Ids &x) {
         return ops.o.topk({x[0], ops.ints({3})}, 1, 1, 1).at(0);
       }},
      {"ConvTranspose (stride, padding, bias)",
       {in({2, 2, 3, 3}), in({2, 3, 3, 3}), in({3})},
       [](Ops &ops, const Ids &x) {
         return ops.o.convtranspose(x, {}, 1, {3, 3}, {1, 1}, {}, {1, 1, 0, 0},
                                    {2, 2});
       }},
      {"ConvTranspose (groups)", {in({1, 4, 3, 3}), in({4, 1, 2, 2})},
       [](Ops &ops, const Ids &x) { return ops.o.convtranspose(x, {}, 2, {2, 2}); }},
      // Losses.
      {"Nll (mean)", {in({3, 4}, 0.2f, 1.0f), ints({3}, {2, 0, 3})},
       [](Ops &ops, const Ids &x) { return ops.gc.nllloss(x, ReductionType::Mean); }},
      {"Nll (sum, ignored index)", {in({4, 3}, 0.2f, 1.0f), ints({4}, {1, 2, 1, 0})},
       [](Ops &ops, const Ids &x) {
         return ops.gc.nllloss(x, ReductionType::Sum, 1);
       }},
      {"Nll (no reduction, log probabilities)",
       {in({2, 3, 4}, -2.0f, -0.2f), ints({2, 3}, {0, 1, 2, 3, 2, 1})},
       [](Ops &ops, const Ids &x) {
         return ops.gc.nllloss(x, ReductionType::NoReduction, nonstd::nullopt, true);
       }},
      {"Nll (mean, ignored index)", {in({4, 3}, 0.2f, 1.0f), ints({4}, {1, 2, 1, 0})},
       [](Ops &ops, const Ids &x) {
         return ops.gc.nllloss(x, ReductionType::Mean, 1);
       }},
      {"L1 (mean)", {signedIn({2, 3})},
       [](Ops &ops, const Ids &x) { return ops.gc.l1loss(x, 0.3f, ReductionType::Mean); }},
      {"L1 (no reduction)", {signedIn({2, 3})},
       [](Ops &ops, const Ids &x) {
         return ops.gc.l1loss(x, 0.3f, ReductionType::NoReduction);
       }},
      {"IdentityLoss (mean)", {in({2, 3})},
       [](Ops &ops, const Ids &x) {
         return ops.gc.identityloss(x, ReductionType::Mean);
       }},
  };
}

constexpr float kStep = 1e-3f;

// Values of an input: uniform in [lo, hi] (randomly signed magnitudes when
// lo > 0 and the case asks for signed values), or distinct.
std::vector<float> valuesOf(const Input &input, std::mt19937 &gen, bool signedValues) {
  int64_t n = 1;
  for (auto d : input.shape)
    n *= d;
  std::vector<float> v(static_cast<std::size_t>(n));
  std::uniform_real_distribution<float> u(input.lo, input.hi);
  if (input.distinct) {
    std::vector<int> order(v.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = static_cast<int>(i);
    std::shuffle(order.begin(), order.end(), gen);
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = input.lo + (input.hi - input.lo) * (float(order[i]) + 0.5f) / float(n);
    return v;
  }
  std::bernoulli_distribution sign(0.5);
  for (auto &x : v)
    x = u(gen) * (signedValues && sign(gen) ? -1.0f : 1.0f);
  return v;
}

void checkGradient(const GradCase &c) {
  auto builder = Builder::create();
  Ops ops{*builder, builder->aiOnnxOpset13(), builder->aiGraphcoreOpset1()};
  std::mt19937 gen(1234);
  const bool signedCase = c.name == "Abs" || c.name == "Relu" ||
                          c.name == "LeakyRelu" || c.name == "Elu" ||
                          c.name == "Selu" || c.name == "ThresholdedRelu" ||
                          c.name == "Softsign" || c.name.rfind("L1", 0) == 0 ||
                          c.name == "ReduceL1";
  Ids ids;
  std::vector<std::vector<float>> base(c.inputs.size());
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const Input &input = c.inputs[i];
    const bool integer = !input.ints.empty();
    ids.push_back(builder->addInputTensor(
        TensorInfo(integer ? DataType::INT32 : DataType::FLOAT, input.shape),
        "in" + std::to_string(i)));
    if (!integer)
      base[i] = valuesOf(input, gen, signedCase);
  }
  const TensorId y = c.build(ops, ids);
  const Shape yShape = builder->getTensorShape(y);
  const TensorId r = builder->addInputTensor(TensorInfo(DataType::FLOAT, yShape), "r");
  const TensorId product = c.opset == 11   ? builder->aiOnnxOpset11().mul({y, r})
                           : c.opset == 14 ? builder->aiOnnxOpset14().mul({y, r})
                           : c.opset == 17 ? builder->aiOnnxOpset17().mul({y, r})
                                           : ops.o.mul({y, r});
  const TensorId loss = ops.gc.identityloss({product}, ReductionType::Sum);

  // Batches 2k and 2k + 1: element k (of all the float inputs' elements)
  // moved by +h and by -h; the last batch: the inputs themselves, whose
  // gradients the FINAL anchors return.
  std::vector<std::pair<std::size_t, std::size_t>> elements;
  for (std::size_t i = 0; i < c.inputs.size(); ++i)
    if (c.inputs[i].differentiable)
      for (std::size_t e = 0; e < base[i].size(); ++e)
        elements.push_back({i, e});
  const int batches = 1 + 2 * static_cast<int>(elements.size());
  AnchorReturnTypeMap anchors{{loss, AnchorReturnType("All")}};
  for (std::size_t i = 0; i < c.inputs.size(); ++i)
    if (c.inputs[i].ints.empty() && c.inputs[i].differentiable)
      anchors[getGradId(ids[i])] = AnchorReturnType("Final");
  auto session = TrainingSession::createFromOnnxModel(
      builder->getModelProto(), DataFlow(batches, anchors), loss,
      ConstSGD(0.0f), popart_test::createTestDevice());
  session->prepareDevice();
  session->weightsFromHost();

  std::vector<std::vector<float>> data(c.inputs.size());
  std::vector<std::vector<int>> intData(c.inputs.size());
  std::vector<std::unique_ptr<NDArrayWrapper<float>>> floatArrays;
  std::vector<std::unique_ptr<NDArrayWrapper<int>>> intArrays;
  std::map<TensorId, IArray &> ins;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    Shape stepShape = c.inputs[i].shape;
    stepShape.insert(stepShape.begin(), batches);
    if (!c.inputs[i].ints.empty()) {
      for (int b = 0; b < batches; ++b)
        intData[i].insert(intData[i].end(), c.inputs[i].ints.begin(),
                          c.inputs[i].ints.end());
      intArrays.push_back(std::make_unique<NDArrayWrapper<int>>(
          intData[i].data(), TensorInfo(DataType::INT32, stepShape)));
      ins.emplace(ids[i], *intArrays.back());
      continue;
    }
    for (int b = 0; b < batches; ++b) {
      std::vector<float> v = base[i];
      if (b + 1 < batches) {
        const auto &el = elements[static_cast<std::size_t>(b / 2)];
        if (el.first == i)
          v[el.second] += (b % 2 == 0 ? kStep : -kStep);
      }
      data[i].insert(data[i].end(), v.begin(), v.end());
    }
    floatArrays.push_back(std::make_unique<NDArrayWrapper<float>>(
        data[i].data(), TensorInfo(DataType::FLOAT, stepShape)));
    ins.emplace(ids[i], *floatArrays.back());
  }
  int64_t rCount = 1;
  for (auto d : yShape)
    rCount *= d;
  std::vector<float> rOne(static_cast<std::size_t>(rCount));
  std::uniform_real_distribution<float> ru(-1.0f, 1.0f);
  for (auto &v : rOne)
    v = ru(gen);
  std::vector<float> rData;
  for (int b = 0; b < batches; ++b)
    rData.insert(rData.end(), rOne.begin(), rOne.end());
  Shape rShape = yShape;
  rShape.insert(rShape.begin(), batches);
  NDArrayWrapper<float> rArray(rData.data(), TensorInfo(DataType::FLOAT, rShape));
  ins.emplace(r, rArray);

  std::vector<float> losses(static_cast<std::size_t>(batches));
  NDArrayWrapper<float> lossArray(losses.data(),
                                  TensorInfo(DataType::FLOAT, Shape{batches}));
  std::map<TensorId, IArray &> outs{{loss, lossArray}};
  std::vector<std::vector<float>> grads(c.inputs.size());
  std::vector<std::unique_ptr<NDArrayWrapper<float>>> gradArrays;
  for (std::size_t i = 0; i < c.inputs.size(); ++i)
    if (c.inputs[i].ints.empty() && c.inputs[i].differentiable) {
      grads[i].resize(base[i].size());
      gradArrays.push_back(std::make_unique<NDArrayWrapper<float>>(
          grads[i].data(), TensorInfo(DataType::FLOAT, c.inputs[i].shape)));
      outs.emplace(getGradId(ids[i]), *gradArrays.back());
    }
  StepIO io(ins, outs);
  session->run(io);

  double worst = 0.0, scale = 1e-3;
  for (std::size_t k = 0; k < elements.size(); ++k) {
    const auto &el = elements[k];
    const double fd =
        (double(losses[2 * k]) - double(losses[2 * k + 1])) / (2.0 * kStep);
    const double an = grads[el.first][el.second];
    worst = std::max(worst, std::fabs(fd - an));
    scale = std::max(scale, std::fabs(an));
    INFO("input " << el.first << " element " << el.second << ": finite "
                  << "difference " << fd << ", gradient " << an);
    CHECK(std::fabs(fd - an) <= 2e-2 * std::max(1.0, std::fabs(an)));
  }
  INFO(c.name << ": worst difference " << worst << " for gradients up to "
              << scale);
  CHECK(worst / scale < 2e-2);
}

} // namespace

TEST_CASE("Every op's gradient agrees with finite differences",
          "[popart][training][gradients]") {
  for (const auto &c : gradCases())
    DYNAMIC_SECTION(c.name) { checkGradient(c); }
}

// Identifiers of the ai.graphcore operators (all version 1), and the
// default opset versions of the builder's domains.
#ifndef POPART_GRAPHCOREOPERATORS_HPP
#define POPART_GRAPHCOREOPERATORS_HPP

#include <popart/operatoridentifier.hpp>

namespace popart {

static constexpr int defaultAiOnnxOpset = 10;
static constexpr int defaultAiOnnxMlOpset = 1;
static constexpr int defaultAiGraphcoreOpset = 1;

namespace Onnx {
namespace CustomOperators {
const static OperatorIdentifier Detach_1(Domain::ai_graphcore, "Detach", 1, 1, 1);
const static OperatorIdentifier Expm1_1(Domain::ai_graphcore, "Expm1", 1, 1, 1);
const static OperatorIdentifier Gelu_1(Domain::ai_graphcore, "Gelu", 1, 1, 1);
const static OperatorIdentifier GeluErf_1(Domain::ai_graphcore, "GeluErf", 1, 1, 1);
const static OperatorIdentifier IdentityLoss_1(Domain::ai_graphcore, "IdentityLoss", 1, 1, 1);
const static OperatorIdentifier L1_1(Domain::ai_graphcore, "L1", 1, 1, 1);
const static OperatorIdentifier Log1p_1(Domain::ai_graphcore, "Log1p", 1, 1, 1);
const static OperatorIdentifier Nll_1(Domain::ai_graphcore, "Nll", 1, 2, 1);
const static OperatorIdentifier Nop_1(Domain::ai_graphcore, "Nop", 1, 1, 1);
const static OperatorIdentifier Reshape_1(Domain::ai_graphcore, "Reshape", 1, 1, 1);
const static OperatorIdentifier Scale_1(Domain::ai_graphcore, "Scale", 1, 1, 1);
const static OperatorIdentifier ScaledAdd_1(Domain::ai_graphcore, "ScaledAdd", 1, 2, 1);
const static OperatorIdentifier Square_1(Domain::ai_graphcore, "Square", 1, 1, 1);
const static OperatorIdentifier Swish_1(Domain::ai_graphcore, "Swish", 1, 1, 1);
// Ops of IRs built op by op (popart.ir): calls of subgraphs, loops, the
// host copies, and a variable update.
const static OperatorIdentifier Call_1(Domain::ai_graphcore, "Call", 1, -1, -1);
const static OperatorIdentifier Loop_1(Domain::ai_graphcore, "Loop", 1, -1, -1);
const static OperatorIdentifier HostLoad_1(Domain::ai_graphcore, "HostLoad", 1, 1, 1);
const static OperatorIdentifier HostStore_1(Domain::ai_graphcore, "HostStore", 1, 1, 1);
const static OperatorIdentifier CopyVarUpdate_1(Domain::ai_graphcore, "CopyVarUpdate", 1, 2, 1);
// Element-wise and data-movement ops of the opset (builder methods atan2,
// bitwise*, fmod, remainder, round, nearbyint, reverse, slice, subsample,
// depthtospace, dynamic*, incrementmod, bucketize, sort,
// reducemedian).
const static OperatorIdentifier Atan2_1(Domain::ai_graphcore, "Atan2", 1, 2, 1);
const static OperatorIdentifier BitwiseNot_1(Domain::ai_graphcore, "BitwiseNot", 1, 1, 1);
const static OperatorIdentifier BitwiseAnd_1(Domain::ai_graphcore, "BitwiseAnd", 1, 2, 1);
const static OperatorIdentifier BitwiseOr_1(Domain::ai_graphcore, "BitwiseOr", 1, 2, 1);
const static OperatorIdentifier BitwiseXor_1(Domain::ai_graphcore, "BitwiseXor", 1, 2, 1);
const static OperatorIdentifier BitwiseXnor_1(Domain::ai_graphcore, "BitwiseXnor", 1, 2, 1);
const static OperatorIdentifier Fmod_1(Domain::ai_graphcore, "Fmod", 1, 2, 1);
const static OperatorIdentifier Remainder_1(Domain::ai_graphcore, "Remainder", 1, 2, 1);
const static OperatorIdentifier Round_1(Domain::ai_graphcore, "Round", 1, 1, 1);
const static OperatorIdentifier NearbyInt_1(Domain::ai_graphcore, "NearbyInt", 1, 1, 1);
const static OperatorIdentifier Reverse_1(Domain::ai_graphcore, "Reverse", 1, 1, 1);
const static OperatorIdentifier Slice_1(Domain::ai_graphcore, "Slice", 1, 1, 1);
const static OperatorIdentifier Subsample_1(Domain::ai_graphcore, "Subsample", 1, 1, 1);
const static OperatorIdentifier DepthToSpace_1(Domain::ai_graphcore, "DepthToSpace", 1, 1, 1);
const static OperatorIdentifier DynamicSlice_1(Domain::ai_graphcore, "DynamicSlice", 1, 2, 1);
const static OperatorIdentifier DynamicUpdate_1(Domain::ai_graphcore, "DynamicUpdate", 1, 3, 1);
const static OperatorIdentifier DynamicZero_1(Domain::ai_graphcore, "DynamicZero", 1, 2, 1);
const static OperatorIdentifier DynamicAdd_1(Domain::ai_graphcore, "DynamicAdd", 1, 3, 1);
const static OperatorIdentifier IncrementMod_1(Domain::ai_graphcore, "IncrementMod", 1, 1, 1);
const static OperatorIdentifier Bucketize_1(Domain::ai_graphcore, "Bucketize", 1, 2, 1);
const static OperatorIdentifier Sort_1(Domain::ai_graphcore, "Sort", 1, 1, 2);
const static OperatorIdentifier ReduceMedian_1(Domain::ai_graphcore, "ReduceMedian", 1, 1, 2);
// The rest of the opset (the original's identifier names).
const static OperatorIdentifier GroupNormalization_1(Domain::ai_graphcore, "GroupNormalization", 1, 3, 3);
const static OperatorIdentifier ScatterReduce(Domain::ai_graphcore, "ScatterReduce", 1, {2, 3}, 1);
const static OperatorIdentifier GroupedGather(Domain::ai_graphcore, "GroupedGather", 1, 2, 1);
const static OperatorIdentifier Init_1(Domain::ai_graphcore, "Init", 1, 0, 1);
const static OperatorIdentifier Abort(Domain::ai_graphcore, "Abort", 1, {0, 1}, 0);
const static OperatorIdentifier NormalizeImageOpId(Domain::ai_graphcore, "NormalizeImage", 1, 3, 1);
const static OperatorIdentifier SequenceSlice_1(Domain::ai_graphcore, "SequenceSlice", 1, 5, 1);
const static OperatorIdentifier ShapedDropout_1(Domain::ai_graphcore, "ShapedDropout", 1, 1, 1);
const static OperatorIdentifier TensorRemap_1(Domain::ai_graphcore, "TensorRemap", 1, {1, 2}, 1);
// Sequence ops: CTC loss and beam search decoding, the Graphcore LSTM
// (weights [4, input + hidden, hidden]) and the spline convolution ops.
const static OperatorIdentifier Ctc(Domain::ai_graphcore, "Ctc", 1, 4, 2);
const static OperatorIdentifier CtcBeamSearchDecoder(Domain::ai_graphcore, "CtcBeamSearchDecoder", 1, 2, 3);
const static OperatorIdentifier LSTM_1(Domain::ai_graphcore, "LSTM", 1, {2, 5}, 2);
const static OperatorIdentifier SplineBasis(Domain::ai_graphcore, "SplineBasis", 1, 3, 2);
const static OperatorIdentifier SplineWeighting(Domain::ai_graphcore, "SplineWeighting", 1, 4, 1);
// Several convolutions in one op: data, weights and an optional bias each.
const static OperatorIdentifier MultiConv_1(Domain::ai_graphcore, "MultiConv", 1, -1, -1);
// Normalisation, printing, calls of subgraphs and collectives (builder
// methods batchnormalization, printtensor, call, replicatedallreduce,
// replicatedreducescatter).
const static OperatorIdentifier BatchNormalization_1(Domain::ai_graphcore, "BatchNormalization", 1, 5, 5);
const static OperatorIdentifier PrintTensor_1(Domain::ai_graphcore, "PrintTensor", 1, 1, 1);
const static OperatorIdentifier ReplicatedAllReduce(Domain::ai_graphcore, "ReplicatedAllReduce", 1, 1, 1);
const static OperatorIdentifier ReplicatedReduceScatter(Domain::ai_graphcore, "ReplicatedReduceScatter", 1, 1, 1);
} // namespace CustomOperators
} // namespace Onnx

} // namespace popart

#endif

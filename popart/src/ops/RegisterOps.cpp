// Every built-in op with the definitions (ONNX versions) supported. Adding
// an op: its class in ops/ (a file pair), a line here, and its lowering
// (lowering/XLowering.cpp and a line in RegisterLowerings.cpp).
#include "ir/OpManager.hpp"
#include "ops/BatchNormOp.hpp"
#include "ops/BinaryOp.hpp"
#include "ops/CastOp.hpp"
#include "ops/ClipOp.hpp"
#include "ops/ConcatOp.hpp"
#include "ops/ConstantOfShapeOp.hpp"
#include "ops/ConvOp.hpp"
#include "ops/ConvTransposeOp.hpp"
#include "ops/ExpandOp.hpp"
#include "ops/GatherOp.hpp"
#include "ops/GemmOp.hpp"
#include "ops/IdentityOp.hpp"
#include "ops/InstanceNormOp.hpp"
#include "ops/LRNOp.hpp"
#include "ops/LayerNormOp.hpp"
#include "ops/MatMulOp.hpp"
#include "ops/PadOp.hpp"
#include "ops/PoolOp.hpp"
#include "ops/RangeOp.hpp"
#include "ops/ReduceOp.hpp"
#include "ops/ReshapeOp.hpp"
#include "ops/ScaleOp.hpp"
#include "ops/ScaledAddOp.hpp"
#include "ops/ShapeOp.hpp"
#include "ops/SizeOp.hpp"
#include "ops/SliceOp.hpp"
#include "ops/SoftmaxOp.hpp"
#include "ops/SplitOp.hpp"
#include "ops/TileOp.hpp"
#include "ops/TopKOp.hpp"
#include "ops/TransposeOp.hpp"
#include "ops/UnaryOp.hpp"
#include "ops/VariadicOp.hpp"
#include "ops/WhereOp.hpp"

#include <popart/graphcoreoperators.hpp>
#include <popart/onnxoperators.gen.hpp>

namespace popart {

void registerBuiltinOps(OpManager &m) {
  using namespace Onnx::Operators;
  namespace gc = Onnx::CustomOperators;

  // Element-wise, one input.
  registerOp<UnaryOp>(m, {Abs_6, Abs_13});
  registerOp<UnaryOp>(m, {Neg_6, Neg_13});
  registerOp<UnaryOp>(m, {Exp_6, Exp_13});
  registerOp<UnaryOp>(m, {Log_6, Log_13});
  registerOp<UnaryOp>(m, {Sqrt_6, Sqrt_13});
  registerOp<UnaryOp>(m, {Relu_6, Relu_13, Relu_14});
  registerOp<UnaryOp>(m, {Sigmoid_6, Sigmoid_13});
  registerOp<UnaryOp>(m, {Tanh_6, Tanh_13});
  registerOp<UnaryOp>(m, {Reciprocal_6, Reciprocal_13});
  registerOp<UnaryOp>(m, {Floor_6, Floor_13});
  registerOp<UnaryOp>(m, {Ceil_6, Ceil_13});
  registerOp<UnaryOp>(m, {LeakyRelu_6, LeakyRelu_16});
  registerOp<UnaryOp>(m, {Erf_9, Erf_13});
  registerOp<UnaryOp>(m, {Not_1});
  registerOp<UnaryOp>(m, {Sign_9, Sign_13});
  registerOp<UnaryOp>(m, {Sin_7});
  registerOp<UnaryOp>(m, {Cos_7});
  registerOp<UnaryOp>(m, {Tan_7});
  registerOp<UnaryOp>(m, {Asin_7});
  registerOp<UnaryOp>(m, {Acos_7});
  registerOp<UnaryOp>(m, {Atan_7});
  registerOp<UnaryOp>(m, {Sinh_9});
  registerOp<UnaryOp>(m, {Cosh_9});
  registerOp<UnaryOp>(m, {Asinh_9});
  registerOp<UnaryOp>(m, {Acosh_9});
  registerOp<UnaryOp>(m, {Atanh_9});
  registerOp<UnaryOp>(m, {Round_11});
  registerOp<UnaryOp>(m, {IsNaN_9, IsNaN_13});
  registerOp<UnaryOp>(m, {IsInf_10});
  registerOp<UnaryOp>(m, {Elu_6});
  registerOp<UnaryOp>(m, {Selu_6});
  registerOp<UnaryOp>(m, {HardSigmoid_6});
  registerOp<UnaryOp>(m, {ThresholdedRelu_10});
  registerOp<UnaryOp>(m, {Softplus_1});
  registerOp<UnaryOp>(m, {Softsign_1});
  for (const auto &id : {gc::Gelu_1, gc::GeluErf_1, gc::Square_1, gc::Swish_1,
                         gc::Log1p_1, gc::Expm1_1})
    registerOp<UnaryOp>(m, {id});

  // Element-wise, two or more inputs.
  registerOp<BinaryOp>(m, {Add_6, Add_7, Add_13, Add_14});
  registerOp<BinaryOp>(m, {Sub_6, Sub_7, Sub_13, Sub_14});
  registerOp<BinaryOp>(m, {Mul_6, Mul_7, Mul_13, Mul_14});
  registerOp<BinaryOp>(m, {Div_6, Div_7, Div_13, Div_14});
  registerOp<BinaryOp>(m, {Pow_7, Pow_12, Pow_13, Pow_15});
  registerOp<BinaryOp>(m, {Equal_7, Equal_11, Equal_13});
  registerOp<BinaryOp>(m, {Less_7, Less_9, Less_13});
  registerOp<BinaryOp>(m, {Greater_7, Greater_9, Greater_13});
  registerOp<BinaryOp>(m, {LessOrEqual_12, LessOrEqual_16});
  registerOp<BinaryOp>(m, {GreaterOrEqual_12, GreaterOrEqual_16});
  registerOp<BinaryOp>(m, {And_7});
  registerOp<BinaryOp>(m, {Or_7});
  registerOp<BinaryOp>(m, {Xor_7});
  registerOp<BinaryOp>(m, {Mod_10, Mod_13});
  registerOp<VariadicOp>(m, {Max_6, Max_8, Max_12, Max_13});
  registerOp<VariadicOp>(m, {Min_6, Min_8, Min_12, Min_13});
  registerOp<VariadicOp>(m, {Sum_6, Sum_8, Sum_13});
  registerOp<VariadicOp>(m, {Mean_6, Mean_8, Mean_13});
  registerOp<WhereOp>(m, {Where_9, Where_16});
  registerOp<ClipOp>(m, {Clip_6, Clip_11, Clip_12, Clip_13});
  registerOp<ScaleOp>(m, {gc::Scale_1});
  registerOp<ScaledAddOp>(m, {gc::ScaledAdd_1});

  // Identities in inference.
  registerOp<IdentityOp>(m, {Identity_1, Identity_13, Identity_14, Identity_16});
  registerOp<IdentityOp>(m, {Dropout_6, Dropout_7, Dropout_10, Dropout_12, Dropout_13});
  registerOp<IdentityOp>(m, {gc::Detach_1});
  registerOp<IdentityOp>(m, {gc::Nop_1});

  // Data movement.
  registerOp<ReshapeOp>(m, {Reshape_5, Reshape_13, Reshape_14});
  registerOp<ReshapeOp>(m, {gc::Reshape_1});
  registerOp<ReshapeOp>(m, {Flatten_1, Flatten_9, Flatten_11, Flatten_13});
  registerOp<ReshapeOp>(m, {Squeeze_1, Squeeze_11, Squeeze_13});
  registerOp<ReshapeOp>(m, {Unsqueeze_1, Unsqueeze_11, Unsqueeze_13});
  registerOp<TransposeOp>(m, {Transpose_1, Transpose_13});
  registerOp<ConcatOp>(m, {Concat_4, Concat_11, Concat_13});
  registerOp<GatherOp>(m, {Gather_1, Gather_11, Gather_13});
  registerOp<SliceOp>(m, {Slice_1, Slice_10, Slice_11, Slice_13});
  registerOp<SplitOp>(m, {Split_2, Split_11, Split_13});
  registerOp<CastOp>(m, {Cast_6, Cast_9, Cast_13});
  registerOp<ShapeOp>(m, {Shape_1, Shape_13, Shape_15});
  registerOp<ConstantOfShapeOp>(m, {ConstantOfShape_9});
  registerOp<RangeOp>(m, {Range_11});
  registerOp<ExpandOp>(m, {Expand_8, Expand_13});
  registerOp<TileOp>(m, {Tile_6, Tile_13});
  registerOp<PadOp>(m, {Pad_2, Pad_11, Pad_13});
  registerOp<TopKOp>(m, {TopK_1, TopK_10, TopK_11});
  registerOp<TopKOp>(m, {ArgMax_1, ArgMax_11, ArgMax_12, ArgMax_13});
  registerOp<TopKOp>(m, {ArgMin_1, ArgMin_11, ArgMin_12, ArgMin_13});

  // Linear algebra, softmax, reductions.
  registerOp<MatMulOp>(m, {MatMul_1, MatMul_9, MatMul_13});
  registerOp<GemmOp>(m, {Gemm_6, Gemm_7, Gemm_9, Gemm_11, Gemm_13});
  registerOp<SoftmaxOp>(m, {Softmax_1, Softmax_11, Softmax_13});
  registerOp<SoftmaxOp>(m, {LogSoftmax_1, LogSoftmax_11, LogSoftmax_13});
  registerOp<ReduceOp>(m, {ReduceSum_1, ReduceSum_11, ReduceSum_13});
  registerOp<ReduceOp>(m, {ReduceMean_1, ReduceMean_11, ReduceMean_13});
  registerOp<ReduceOp>(m, {ReduceMax_1, ReduceMax_11, ReduceMax_12, ReduceMax_13});
  registerOp<ReduceOp>(m, {ReduceMin_1, ReduceMin_11, ReduceMin_12, ReduceMin_13});
  registerOp<ReduceOp>(m, {ReduceProd_1, ReduceProd_11, ReduceProd_13});
  registerOp<ReduceOp>(m, {ReduceSumSquare_1, ReduceSumSquare_11, ReduceSumSquare_13});
  registerOp<ReduceOp>(m, {ReduceL1_1, ReduceL1_11, ReduceL1_13});
  registerOp<ReduceOp>(m, {ReduceL2_1, ReduceL2_11, ReduceL2_13});
  registerOp<ReduceOp>(m, {ReduceLogSum_1, ReduceLogSum_11, ReduceLogSum_13});
  registerOp<ReduceOp>(m, {ReduceLogSumExp_1, ReduceLogSumExp_11, ReduceLogSumExp_13});

  // Convolutions, pooling, normalisations.
  registerOp<ConvOp>(m, {Conv_1, Conv_11});
  registerOp<ConvTransposeOp>(m, {ConvTranspose_1, ConvTranspose_11});
  registerOp<PoolOp>(m, {MaxPool_1, MaxPool_8, MaxPool_10, MaxPool_11, MaxPool_12});
  registerOp<PoolOp>(m, {AveragePool_1, AveragePool_7, AveragePool_10, AveragePool_11});
  registerOp<PoolOp>(m, {GlobalMaxPool_1});
  registerOp<PoolOp>(m, {GlobalAveragePool_1});
  registerOp<BatchNormOp>(m, {BatchNormalization_6, BatchNormalization_7,
                              BatchNormalization_9, BatchNormalization_14,
                              BatchNormalization_15});
  registerOp<InstanceNormOp>(m, {InstanceNormalization_6});
  registerOp<LRNOp>(m, {LRN_1, LRN_13});
  registerOp<LayerNormOp>(m, {LayerNormalization_17});
  registerOp<SizeOp>(m, {Size_1, Size_13});
}

} // namespace popart

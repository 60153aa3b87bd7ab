// Every built-in op with the definitions (ONNX versions) supported, and
// the lowering of each op class. Adding an op: its class with its grad
// ops (ops/XOp.hpp, XOp.cpp) and their lowerings (ops/XLowering.cpp), and
// its lines here.
#include "ir/OpManager.hpp"
#include "lowering/Lowering.hpp"
#include "ops/BatchNormOp.hpp"
#include "ops/BinaryOp.hpp"
#include "ops/CallOp.hpp"
#include "ops/CollectiveOps.hpp"
#include "ops/IfOp.hpp"
#include "ops/OnnxLoopOp.hpp"
#include "ops/PackedDataBlockOp.hpp"
#include "ops/ScanOp.hpp"
#include "ops/CastOp.hpp"
#include "ops/ClipOp.hpp"
#include "ops/CompressOp.hpp"
#include "ops/ConcatOp.hpp"
#include "ops/ConstantOfShapeOp.hpp"
#include "ops/ConvOp.hpp"
#include "ops/ConvTransposeOp.hpp"
#include "ops/CumSumOp.hpp"
#include "ops/DepthToSpaceOp.hpp"
#include "ops/DFTOp.hpp"
#include "ops/DetOp.hpp"
#include "ops/DropoutOp.hpp"
#include "ops/DynamicSliceOp.hpp"
#include "ops/EinsumOp.hpp"
#include "ops/ElementIndexOps.hpp"
#include "ops/ExpandOp.hpp"
#include "ops/GatherOp.hpp"
#include "ops/GemmOp.hpp"
#include "ops/GraphcoreElementwiseOp.hpp"
#include "ops/GridSampleOp.hpp"
#include "ops/RoiAlignOp.hpp"
#include "ops/GeneratorOps.hpp"
#include "ops/HostIOOp.hpp"
#include "ops/IdentityOp.hpp"
#include "ops/InstanceNormOp.hpp"
#include "ops/LRNOp.hpp"
#include "ops/LayerNormOp.hpp"
#include "ops/GroupNormOp.hpp"
#include "ops/ScatterReduceOp.hpp"
#include "ops/GroupedGatherOp.hpp"
#include "ops/CtcOp.hpp"
#include "ops/MultiConvOp.hpp"
#include "ops/PopartLstmOp.hpp"
#include "ops/SplineOps.hpp"
#include "ops/InitOp.hpp"
#include "ops/AbortOp.hpp"
#include "ops/NormalizeImageOp.hpp"
#include "ops/SequenceSliceOp.hpp"
#include "ops/ShapedDropoutOp.hpp"
#include "ops/TensorRemapOp.hpp"
#include "ops/LossOps.hpp"
#include "ops/MatMulOp.hpp"
#include "ops/MaxUnpoolOp.hpp"
#include "ops/MelWeightMatrixOp.hpp"
#include "ops/MeanVarianceNormOp.hpp"
#include "ops/NdIndexOps.hpp"
#include "ops/NonMaxSuppressionOp.hpp"
#include "ops/NonZeroOp.hpp"
#include "ops/OneHotOp.hpp"
#include "ops/OnnxLossOps.hpp"
#include "ops/IpuCopyOp.hpp"
#include "ops/OptimizerOps.hpp"
#include "ops/PadOp.hpp"
#include "ops/PoolOp.hpp"
#include "ops/PreviewTrainingOps.hpp"
#include "ops/PrintTensorOp.hpp"
#include "ops/QuantizeOps.hpp"
#include "ops/RandomOps.hpp"
#include "ops/RangeOp.hpp"
#include "ops/ReduceMedianOp.hpp"
#include "ops/RecurrentOp.hpp"
#include "ops/ReduceOp.hpp"
#include "ops/ReshapeOp.hpp"
#include "ops/ReverseSequenceOp.hpp"
#include "ops/ResizeOp.hpp"
#include "ops/ReverseSubsampleOp.hpp"
#include "ops/ScaleOp.hpp"
#include "ops/ScaledAddOp.hpp"
#include "ops/ShapeOp.hpp"
#include "ops/SizeOp.hpp"
#include "ops/SliceOp.hpp"
#include "ops/SoftmaxOp.hpp"
#include "ops/SplitOp.hpp"
#include "ops/TileOp.hpp"
#include "ops/TfIdfVectorizerOp.hpp"
#include "ops/TopKOp.hpp"
#include "ops/TransposeOp.hpp"
#include "ops/TriluOp.hpp"
#include "ops/UnaryOp.hpp"
#include "ops/UniqueOp.hpp"
#include "ops/VariadicOp.hpp"
#include "ops/WhereOp.hpp"

#include <popart/graphcoreoperators.hpp>
#include <popart/onnxoperators.gen.hpp>

namespace popart {

void registerBuiltinOps() {
  using namespace Onnx::Operators;
  namespace gc = Onnx::CustomOperators;

  // Element-wise, one input.
  registerOp<UnaryOp>({Abs_6, Abs_13});
  registerOp<UnaryOp>({Neg_6, Neg_13});
  registerOp<UnaryOp>({Exp_6, Exp_13});
  registerOp<UnaryOp>({Log_6, Log_13});
  registerOp<UnaryOp>({Sqrt_6, Sqrt_13});
  registerOp<UnaryOp>({Relu_6, Relu_13, Relu_14});
  registerOp<UnaryOp>({Sigmoid_6, Sigmoid_13});
  registerOp<UnaryOp>({Tanh_6, Tanh_13});
  registerOp<UnaryOp>({Reciprocal_6, Reciprocal_13});
  registerOp<UnaryOp>({Floor_6, Floor_13});
  registerOp<UnaryOp>({Ceil_6, Ceil_13});
  registerOp<UnaryOp>({LeakyRelu_6, LeakyRelu_16});
  registerOp<UnaryOp>({Erf_9, Erf_13});
  registerOp<UnaryOp>({Not_1});
  registerOp<UnaryOp>({Sign_9, Sign_13});
  registerOp<UnaryOp>({Sin_7});
  registerOp<UnaryOp>({Cos_7});
  registerOp<UnaryOp>({Tan_7});
  registerOp<UnaryOp>({Asin_7});
  registerOp<UnaryOp>({Acos_7});
  registerOp<UnaryOp>({Atan_7});
  registerOp<UnaryOp>({Sinh_9});
  registerOp<UnaryOp>({Cosh_9});
  registerOp<UnaryOp>({Asinh_9});
  registerOp<UnaryOp>({Acosh_9});
  registerOp<UnaryOp>({Atanh_9});
  registerOp<UnaryOp>({Round_11});
  registerOp<UnaryOp>({IsNaN_9, IsNaN_13});
  registerOp<UnaryOp>({IsInf_10});
  registerOp<UnaryOp>({Elu_6});
  registerOp<UnaryOp>({Selu_6});
  registerOp<UnaryOp>({HardSigmoid_6});
  registerOp<UnaryOp>({ThresholdedRelu_10});
  registerOp<UnaryOp>({Softplus_1});
  registerOp<UnaryOp>({Softsign_1});
  registerOp<UnaryOp>({Celu_12});
  registerOp<UnaryOp>({HardSwish_14});
  registerOp<UnaryOp>({Shrink_9});
  for (const auto &id : {gc::Gelu_1, gc::GeluErf_1, gc::Square_1, gc::Swish_1,
                         gc::Log1p_1, gc::Expm1_1})
    registerOp<UnaryOp>({id});

  // Element-wise, two or more inputs.
  registerOp<BinaryOp>({Add_6, Add_7, Add_13, Add_14});
  registerOp<BinaryOp>({Sub_6, Sub_7, Sub_13, Sub_14});
  registerOp<BinaryOp>({Mul_6, Mul_7, Mul_13, Mul_14});
  registerOp<BinaryOp>({Div_6, Div_7, Div_13, Div_14});
  registerOp<BinaryOp>({Pow_1, Pow_7, Pow_12, Pow_13, Pow_15});
  registerOp<BinaryOp>({Equal_7, Equal_11, Equal_13});
  registerOp<BinaryOp>({Less_7, Less_9, Less_13});
  registerOp<BinaryOp>({Greater_7, Greater_9, Greater_13});
  registerOp<BinaryOp>({LessOrEqual_12, LessOrEqual_16});
  registerOp<BinaryOp>({GreaterOrEqual_12, GreaterOrEqual_16});
  registerOp<BinaryOp>({And_7});
  registerOp<BinaryOp>({Or_7});
  registerOp<BinaryOp>({Xor_7});
  registerOp<BinaryOp>({Mod_10, Mod_13});
  registerOp<BinaryOp>({BitShift_11});
  registerOp<BinaryOp>({PRelu_6, PRelu_7, PRelu_9, PRelu_16});
  registerOp<VariadicOp>({Max_6, Max_8, Max_12, Max_13});
  registerOp<VariadicOp>({Min_6, Min_8, Min_12, Min_13});
  registerOp<VariadicOp>({Sum_6, Sum_8, Sum_13});
  registerOp<VariadicOp>({Mean_6, Mean_8, Mean_13});
  registerOp<WhereOp>({Where_9, Where_16});
  registerOp<ClipOp>({Clip_6, Clip_11, Clip_12, Clip_13});
  registerOp<ScaleOp>({gc::Scale_1});
  registerOp<ScaledAddOp>({gc::ScaledAdd_1});

  // Identities in inference.
  registerOp<IdentityOp>({Identity_1, Identity_13, Identity_14, Identity_16});
  registerOp<DropoutOp>({Dropout_6, Dropout_7, Dropout_10, Dropout_12, Dropout_13});
  registerOp<IdentityOp>({gc::Detach_1});
  registerOp<IdentityOp>({gc::Nop_1});

  // Data movement.
  registerOp<ReshapeOp>({Reshape_5, Reshape_13, Reshape_14});
  registerOp<ReshapeOp>({gc::Reshape_1});
  registerOp<ReshapeOp>({Flatten_1, Flatten_9, Flatten_11, Flatten_13});
  registerOp<ReshapeOp>({Squeeze_1, Squeeze_11, Squeeze_13});
  registerOp<ReshapeOp>({Unsqueeze_1, Unsqueeze_11, Unsqueeze_13});
  registerOp<TransposeOp>({Transpose_1, Transpose_13});
  registerOp<ConcatOp>({Concat_4, Concat_11, Concat_13});
  registerOp<GatherOp>({Gather_1, Gather_11, Gather_13});
  registerOp<GatherElementsOp>({GatherElements_11, GatherElements_13});
  registerOp<ScatterElementsOp>({Scatter_9, Scatter_11, ScatterElements_11,
                                 ScatterElements_13, ScatterElements_16});
  registerOp<TriluOp>({Trilu_14});
  registerOp<GatherNDOp>({GatherND_11, GatherND_12, GatherND_13});
  registerOp<ScatterNDOp>({ScatterND_11, ScatterND_13, ScatterND_16});
  registerOp<CompressOp>({Compress_9, Compress_11});
  registerOp<NonZeroOp>({NonZero_9, NonZero_13});
  registerOp<UniqueOp>({Unique_11});
  registerOp<NonMaxSuppressionOp>({NonMaxSuppression_10, NonMaxSuppression_11});
  registerOp<ReverseSequenceOp>({ReverseSequence_10});
  registerOp<CumSumOp>({CumSum_11, CumSum_14});
  registerOp<OneHotOp>({OneHot_9, OneHot_11});
  registerOp<DepthToSpaceOp>({DepthToSpace_1, DepthToSpace_11, DepthToSpace_13});
  registerOp<DepthToSpaceOp>({SpaceToDepth_1, SpaceToDepth_13});
  registerOp<EyeLikeOp>({EyeLike_9});

  // Random numbers (poprand).
  registerOp<RandomOp>({RandomUniform_1, RandomNormal_1, RandomUniformLike_1,
                        RandomNormalLike_1});
  registerOp<BernoulliOp>({Bernoulli_15});
  registerOp<MultinomialOp>({Multinomial_7});

  registerOp<WindowOp>({HannWindow_17, HammingWindow_17, BlackmanWindow_17});
  registerOp<MelWeightMatrixOp>({MelWeightMatrix_17});
  registerOp<DFTOp>({DFT_17});
  registerOp<TfIdfVectorizerOp>({TfIdfVectorizer_9});
  registerOp<SliceOp>({Slice_1, Slice_10, Slice_11, Slice_13});
  registerOp<SplitOp>({Split_2, Split_11, Split_13});
  registerOp<CastOp>({Cast_6, Cast_9, Cast_13});
  registerOp<CastOp>({CastLike_15});
  registerOp<ShapeOp>({Shape_1, Shape_13, Shape_15});
  registerOp<ConstantOfShapeOp>({ConstantOfShape_9});
  registerOp<RangeOp>({Range_11});
  registerOp<ExpandOp>({Expand_8, Expand_13});
  registerOp<TileOp>({Tile_6, Tile_13});
  registerOp<PadOp>({Pad_2, Pad_11, Pad_13});
  registerOp<ResizeOp>({Resize_10, Resize_11, Resize_13});
  registerOp<ResizeOp>({Upsample_7, Upsample_9});
  registerOp<GridSampleOp>({GridSample_16});
  registerOp<RoiAlignOp>({RoiAlign_10, RoiAlign_16});
  registerOp<TopKOp>({TopK_1, TopK_10, TopK_11});
  registerOp<TopKOp>({ArgMax_1, ArgMax_11, ArgMax_12, ArgMax_13});
  registerOp<TopKOp>({ArgMin_1, ArgMin_11, ArgMin_12, ArgMin_13});

  // Linear algebra, softmax, reductions.
  registerOp<MatMulOp>({MatMul_1, MatMul_9, MatMul_13});
  registerOp<DetOp>({Det_11});
  registerOp<EinsumOp>({Einsum_12});
  registerOp<GemmOp>({Gemm_6, Gemm_7, Gemm_9, Gemm_11, Gemm_13});
  registerOp<SoftmaxOp>({Softmax_1, Softmax_11, Softmax_13});
  registerOp<SoftmaxOp>({LogSoftmax_1, LogSoftmax_11, LogSoftmax_13});
  registerOp<SoftmaxOp>({Hardmax_1, Hardmax_11, Hardmax_13});
  registerOp<ReduceOp>({ReduceSum_1, ReduceSum_11, ReduceSum_13});
  registerOp<ReduceOp>({ReduceMean_1, ReduceMean_11, ReduceMean_13});
  registerOp<ReduceOp>({ReduceMax_1, ReduceMax_11, ReduceMax_12, ReduceMax_13});
  registerOp<ReduceOp>({ReduceMin_1, ReduceMin_11, ReduceMin_12, ReduceMin_13});
  registerOp<ReduceOp>({ReduceProd_1, ReduceProd_11, ReduceProd_13});
  registerOp<ReduceOp>({ReduceSumSquare_1, ReduceSumSquare_11, ReduceSumSquare_13});
  registerOp<ReduceOp>({ReduceL1_1, ReduceL1_11, ReduceL1_13});
  registerOp<ReduceOp>({ReduceL2_1, ReduceL2_11, ReduceL2_13});
  registerOp<ReduceOp>({ReduceLogSum_1, ReduceLogSum_11, ReduceLogSum_13});
  registerOp<ReduceOp>({ReduceLogSumExp_1, ReduceLogSumExp_11, ReduceLogSumExp_13});

  // Convolutions, pooling, normalisations.
  registerOp<ConvOp>({Conv_1, Conv_11});
  registerOp<ConvTransposeOp>({ConvTranspose_1, ConvTranspose_11});
  registerOp<PoolOp>({MaxPool_1, MaxPool_8, MaxPool_10, MaxPool_11, MaxPool_12});
  registerOp<PoolOp>({AveragePool_1, AveragePool_7, AveragePool_10, AveragePool_11});
  registerOp<PoolOp>({GlobalMaxPool_1});
  registerOp<PoolOp>({GlobalAveragePool_1});
  registerOp<MaxUnpoolOp>({MaxUnpool_9, MaxUnpool_11});
  registerOp<BatchNormOp>({BatchNormalization_6, BatchNormalization_7,
                              BatchNormalization_9, BatchNormalization_14,
                              BatchNormalization_15});
  registerOp<InstanceNormOp>({InstanceNormalization_6});
  registerOp<LRNOp>({LRN_1, LRN_13});
  registerOp<LayerNormOp>({LayerNormalization_17});
  registerOp<MeanVarianceNormOp>({MeanVarianceNormalization_9,
                                  MeanVarianceNormalization_13});
  registerOp<SizeOp>({Size_1, Size_13});

  // Recurrent.
  registerOp<RecurrentOp>({RNN_7, RNN_14, GRU_7, GRU_14, LSTM_7, LSTM_14});

  // Quantised.
  registerOp<QuantizeLinearOp>({QuantizeLinear_10, QuantizeLinear_13});
  registerOp<DequantizeLinearOp>({DequantizeLinear_10, DequantizeLinear_13});
  registerOp<DynamicQuantizeLinearOp>({DynamicQuantizeLinear_11});
  registerOp<QuantizedMatMulOp>({MatMulInteger_10, QLinearMatMul_10});
  registerOp<QuantizedConvOp>({ConvInteger_10, QLinearConv_10});

  // The optimisers of the ai.onnx.preview.training domain.
  for (const char *type : {"Adagrad", "Momentum", "Adam"})
    registerOp<PreviewOptimizerOp>({OperatorIdentifier(
        "ai.onnx.preview.training", type, 1, {4, 2147483647}, -1)});

  // Losses.
  registerOp<NllOp>({gc::Nll_1});
  registerOp<L1Op>({gc::L1_1});
  registerOp<IdentityLossOp>({gc::IdentityLoss_1});
  registerOp<OnnxLossOp>({NegativeLogLikelihoodLoss_12,
                          NegativeLogLikelihoodLoss_13});
  registerOp<OnnxLossOp>({SoftmaxCrossEntropyLoss_12, SoftmaxCrossEntropyLoss_13});

  // Subgraphs, host copies and variable updates (IRs built op by op).
  registerOp<CallOp>({gc::Call_1});
  registerOp<LoopOp>({gc::Loop_1});
  registerOp<HostIOOp>({gc::HostLoad_1, gc::HostStore_1});
  registerOp<CopyVarUpdateOp>({gc::CopyVarUpdate_1});

  // The rest of the ai.graphcore opset: its element-wise ops, its forms of
  // ONNX ops with attributes (Round, Slice, DepthToSpace), and data
  // movement.
  for (const auto &id : {gc::Atan2_1, gc::Fmod_1, gc::Remainder_1,
                         gc::BitwiseNot_1, gc::BitwiseAnd_1, gc::BitwiseOr_1,
                         gc::BitwiseXor_1, gc::BitwiseXnor_1, gc::NearbyInt_1,
                         gc::IncrementMod_1, gc::Bucketize_1})
    registerOp<GraphcoreElementwiseOp>({id});
  registerOp<UnaryOp>({gc::Round_1});
  registerOp<SliceOp>({gc::Slice_1});
  registerOp<DepthToSpaceOp>({gc::DepthToSpace_1});
  registerOp<ReverseOp>({gc::Reverse_1});
  registerOp<SubsampleOp>({gc::Subsample_1});
  registerOp<SortOp>({gc::Sort_1});
  registerOp<ReduceMedianOp>({gc::ReduceMedian_1});
  for (const auto &id : {gc::DynamicSlice_1, gc::DynamicUpdate_1,
                         gc::DynamicZero_1, gc::DynamicAdd_1})
    registerOp<DynamicSliceOp>({id});
  registerOp<GroupNormOp>({gc::GroupNormalization_1});
  registerOp<ScatterReduceOp>({gc::ScatterReduce});
  registerOp<GroupedGatherOp>({gc::GroupedGather});
  registerOp<InitOp>({gc::Init_1});
  registerOp<AbortOp>({gc::Abort});
  registerOp<NormalizeImageOp>({gc::NormalizeImageOpId});
  registerOp<SequenceSliceOp>({gc::SequenceSlice_1});
  registerOp<ShapedDropoutOp>({gc::ShapedDropout_1});
  registerOp<TensorRemapOp>({gc::TensorRemap_1});
  // Sequence models.
  registerOp<MultiConvOp>({gc::MultiConv_1});
  registerOp<CtcOp>({gc::Ctc});
  registerOp<CtcBeamSearchDecoderOp>({gc::CtcBeamSearchDecoder});
  registerOp<PopartLSTMOp>({gc::LSTM_1});
  registerOp<SplineBasisOp>({gc::SplineBasis});
  registerOp<SplineWeightingOp>({gc::SplineWeighting});
  registerOp<BatchNormOp>({gc::BatchNormalization_1});
  registerOp<ReplicatedAllReduceOp>({gc::ReplicatedAllReduce});
  registerOp<ReplicatedReduceScatterOp>({gc::ReplicatedReduceScatter});
  registerOp<PrintTensorOp>({gc::PrintTensor_1});
}

// The lowering of every op class.
void registerBuiltinLowerings(LoweringRegistry &r) {
  r.add<UnaryOp>(growUnary);
  r.add<BinaryOp>(growBinary);
  r.add<VariadicOp>(growVariadic);
  r.add<WhereOp>(growWhere);
  r.add<ClipOp>(growClip);
  r.add<ScaleOp>(growScale);
  r.add<ScaledAddOp>(growScaledAdd);
  r.add<IdentityOp>(growIdentity);
  r.add<ReshapeOp>(growReshape);
  r.add<TransposeOp>(growTranspose);
  r.add<ConcatOp>(growConcat);
  r.add<SliceOp>(growSlice);
  r.add<SplitOp>(growSplit);
  r.add<GatherOp>(growGather);
  r.add<GatherElementsOp>(growGatherElements);
  r.add<ScatterElementsOp>(growScatterElements);
  r.add<TriluOp>(growTrilu);
  r.add<GatherNDOp>(growGatherND);
  r.add<ScatterNDOp>(growScatterND);
  r.add<CompressOp>(growCompress);
  r.add<UniqueOp>(growUnique);
  r.add<ReverseSequenceOp>(growReverseSequence);
  r.add<CumSumOp>(growCumSum);
  r.add<OneHotOp>(growOneHot);
  r.add<DepthToSpaceOp>(growDepthToSpace);
  r.add<CastOp>(growCast);
  r.add<ExpandOp>(growExpand);
  r.add<TileOp>(growTile);
  r.add<PadOp>(growPad);
  r.add<ResizeOp>(growResize);
  r.add<GridSampleOp>(growGridSample);
  r.add<DFTOp>(growDFT);
  r.add<TfIdfVectorizerOp>(growTfIdfVectorizer);
  r.add<TopKOp>(growTopK);
  r.add<MatMulOp>(growMatMul);
  r.add<DetOp>(growDet);
  r.add<EinsumOp>(growEinsum);
  r.add<GemmOp>(growGemm);
  r.add<SoftmaxOp>(growSoftmax);
  r.add<ReduceOp>(growReduce);
  r.add<ConvOp>(growConv);
  r.addCreator<ConvOp>(createConvWeights);
  r.add<ConvTransposeOp>(growConvTranspose);
  r.add<PoolOp>(growPool);
  r.add<MaxUnpoolOp>(growMaxUnpool);
  r.add<BatchNormOp>(growBatchNorm);
  r.add<InstanceNormOp>(growInstanceNorm);
  r.add<LRNOp>(growLRN);
  r.add<LayerNormOp>(growLayerNorm);
  r.add<GroupNormOp>(growGroupNorm);
  r.add<ScatterReduceOp>(growScatterReduce);
  r.add<GroupedGatherOp>(growGroupedGather);
  r.add<InitOp>(growInit);
  r.add<AbortOp>(growAbort);
  r.add<NormalizeImageOp>(growNormalizeImage);
  r.add<SequenceSliceOp>(growSequenceSlice);
  r.add<ShapedDropoutOp>(growShapedDropout);
  r.add<ShapedDropoutGradOp>(growShapedDropoutGrad);
  r.add<TensorRemapOp>(growTensorRemap);
  r.add<TensorRemapGradOp>(growTensorRemapGrad);
  r.add<MeanVarianceNormOp>(growMeanVarianceNorm);
  r.add<PreviewOptimizerOp>(growPreviewOptimizer);
  r.add<RecurrentOp>(growRecurrent);
  r.add<QuantizeLinearOp>(growQuantizeLinear);
  r.add<DequantizeLinearOp>(growDequantizeLinear);
  r.add<DynamicQuantizeLinearOp>(growDynamicQuantizeLinear);
  r.add<QuantizedMatMulOp>(growQuantizedMatMul);
  r.add<QuantizedConvOp>(growQuantizedConv);
  r.add<DropoutOp>(growDropout);
  r.add<RandomOp>(growRandom);
  r.add<BernoulliOp>(growBernoulli);
  r.add<MultinomialOp>(growMultinomial);
  r.add<NllOp>(growNll);
  r.add<L1Op>(growL1);
  r.add<IdentityLossOp>(growIdentityLoss);
  r.add<OnnxLossOp>(growOnnxLoss);
  r.add<CallOp>(growCall);
  r.add<LoopOp>(growLoop);
  r.add<IfOp>(growIf);
  r.add<OnnxLoopOp>(growOnnxLoop);
  r.add<ScanOp>(growScan);
  r.add<PackedDataBlockOp>(growPackedDataBlock);
  r.add<RoiAlignOp>(growRoiAlign);
  r.add<HostIOOp>(growHostIO);
  r.add<CopyVarUpdateOp>(growCopyVarUpdate);
  r.add<GraphcoreElementwiseOp>(growGraphcoreElementwise);
  r.add<GraphcoreElementwiseGradOp>(growGraphcoreElementwiseGrad);
  r.add<ReverseOp>(growSlice);
  r.add<SubsampleOp>(growSlice);
  r.add<SortOp>(growTopK);
  r.add<ReduceMedianOp>(growReduceMedian);
  r.add<ReduceMedianGradOp>(growReduceMedianGrad);
  r.add<DynamicSliceOp>(growDynamicSlice);
  r.add<DynamicSliceGradOp>(growDynamicSliceGrad);
  // Sequence models.
  r.add<MultiConvOp>(growMultiConv);
  r.add<MultiConvGradOp>(growMultiConvGrad);
  r.add<CtcOp>(growCtc);
  r.add<CtcGradOp>(growCtcGrad);
  r.add<CtcBeamSearchDecoderOp>(growCtcBeamSearchDecoder);
  r.add<PopartLSTMOp>(growPopartLstm);
  r.add<PopartLSTMGradOp>(growPopartLstmGrad);
  r.add<SplineBasisOp>(growSplineBasis);
  r.add<SplineWeightingOp>(growSplineWeighting);

  // Gradients.
  r.add<UnaryGradOp>(growUnaryGrad);
  r.add<BinaryGradOp>(growBinaryGrad);
  r.add<VariadicGradOp>(growVariadicGrad);
  r.add<WhereGradOp>(growWhereGrad);
  r.add<ClipGradOp>(growClipGrad);
  r.add<ScaleGradOp>(growScaleGrad);
  r.add<CastGradOp>(growCastGrad);
  r.add<IdentityGradOp>(growIdentity);
  r.add<ReshapeGradOp>(growReshape);
  r.add<TransposeGradOp>(growTransposeGrad);
  r.add<ConcatGradOp>(growConcatGrad);
  r.add<SliceGradOp>(growSliceGrad);
  r.add<SplitGradOp>(growSplitGrad);
  r.add<GatherGradOp>(growGatherGrad);
  r.add<GatherElementsGradOp>(growGatherElementsGrad);
  r.add<TriluGradOp>(growTriluGrad);
  r.add<GatherNDGradOp>(growGatherNDGrad);
  r.add<CumSumGradOp>(growCumSumGrad);
  r.add<DepthToSpaceGradOp>(growDepthToSpaceGrad);
  r.add<ExpandGradOp>(growExpandGrad);
  r.add<TileGradOp>(growTileGrad);
  r.add<PadGradOp>(growPadGrad);
  r.add<MatMulGradOp>(growMatMulGrad);
  r.add<GemmGradOp>(growGemmGrad);
  r.add<SoftmaxGradOp>(growSoftmaxGrad);
  r.add<ReduceGradOp>(growReduceGrad);
  r.add<ConvGradOp>(growConvGrad);
  r.add<PoolGradOp>(growPoolGrad);
  r.add<BatchNormGradOp>(growBatchNormGrad);
  r.add<LayerNormGradOp>(growLayerNormGrad);
  r.add<GroupNormGradOp>(growGroupNormGrad);
  r.add<ScatterReduceGradOp>(growScatterReduceGrad);
  r.add<GroupedGatherGradOp>(growGroupedGatherGrad);
  r.add<InstanceNormGradOp>(growInstanceNormGrad);
  r.add<LRNGradOp>(growLRNGrad);
  r.add<TopKGradOp>(growTopKGrad);
  r.add<ConvTransposeGradOp>(growConvTransposeGrad);
  r.add<NllGradOp>(growNllGrad);
  r.add<SoftmaxGradDirectOp>(growSoftmaxGradDirect);
  r.add<NlllWithSoftmaxGradDirectOp>(growNlllWithSoftmaxGradDirect);
  r.add<L1GradOp>(growL1Grad);
  r.add<IdentityLossGradOp>(growIdentityLossGrad);
  r.add<DropoutGradOp>(growDropoutGrad);

  // The weight update.
  r.add<ScaledUpdateOp>(growScaledUpdate);
  r.add<AccumulatorZeroOp>(growAccumulatorZero);
  r.add<ReplicatedAllReduceOp>(growReplicatedAllReduce);
  r.add<ReplicatedReduceScatterOp>(growReplicatedReduceScatter);
  r.add<ReplicatedAllGatherGradOp>(growReplicatedAllGatherGrad);
  r.add<PrintTensorOp>(growPrintTensor);
  r.add<PrintTensorGradOp>(growPrintTensorGrad);
  r.add<CallGradOp>(growCall);
  r.add<HostReduceOp>(growHostReduce);
  r.add<ReplicatedAllGatherOp>(growReplicatedAllGather);
  r.add<IpuCopyOp>(growIpuCopy);
  r.add<AdamUpdateOp>(growAdamUpdate);
  r.add<AdaptiveUpdateOp>(growAdaptiveUpdate);
}

} // namespace popart

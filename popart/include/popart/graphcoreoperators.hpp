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
} // namespace CustomOperators
} // namespace Onnx

} // namespace popart

#endif

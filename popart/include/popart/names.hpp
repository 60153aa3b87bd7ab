// The basic names PopART's interfaces are written with.
#ifndef POPART_NAMES_HPP
#define POPART_NAMES_HPP

#include <popart/vendored/any.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace popart {

using TensorId = std::string;
using Shape = std::vector<int64_t>;
using OpType = std::string;
using OpDomain = std::string;
using OpVersion = unsigned;
using OpId = int;
using InIndex = int;
using OutIndex = int;
using VGraphId = int64_t;
using PipelineStage = int64_t;
using ExecutionPhase = int64_t;
using GraphId = std::string;
using any = nonstd::any;

static constexpr VGraphId unusedVGraphId = -1;
static constexpr PipelineStage unusedPipelineStage = -1;
static constexpr ExecutionPhase unusedExecutionPhase = -2;

/// Separates name scopes in tensor and op names ("scope/Add:0").
static constexpr const char *sNameDelimiter = "/";
/// The model's metadata key (with sNameDelimiter and the input's id) of an
/// input's InputSettings::replicatedStreamMode.
static constexpr const char *sReplicatedStreamMode = "__replicated_stream_mode";

/// The node attributes of the collective operations: the
/// CollectiveOperator (an int) and the CommGroup ([type, group size]).
static constexpr const char *sCollectiveOperator = "__collectiveOperator";
static constexpr const char *sCollectiveCommGroup = "__collectiveCommGroup";

// The arguments of AiGraphcoreOpset1::multiconv: one entry per convolution.
using ConvInputs = std::vector<TensorId>;
using ConvDilations = std::vector<int64_t>;
using ConvGroup = int64_t;
using ConvPads = std::vector<int64_t>;
using ConvStrides = std::vector<int64_t>;
using ConvTruncs = std::vector<int64_t>;
using MultiConvInputs = std::vector<ConvInputs>;
using MultiConvDilations = std::vector<ConvDilations>;
using MultiConvGroups = std::vector<ConvGroup>;
using MultiConvPads = std::vector<ConvPads>;
using MultiConvStrides = std::vector<ConvStrides>;

} // namespace popart

#endif

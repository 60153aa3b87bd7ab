// Helpers for transforms that add built-in ops to a graph: an op made
// from its identity and ONNX-style attributes, and scalar constants.
#ifndef POPART_SRC_TRANSFORMS_GRAPHBUILDING_HPP
#define POPART_SRC_TRANSFORMS_GRAPHBUILDING_HPP

#include "ir/Graph.hpp"

#include <popart/attributes.hpp>
#include <popart/operatoridentifier.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace popart {

/// Attributes of an op made by a transform, as ONNX would give them.
struct OpAttributes {
  std::vector<std::pair<std::string, int64_t>> ints;
  std::vector<std::pair<std::string, std::vector<int64_t>>> intLists = {};
  std::vector<std::pair<std::string, float>> floats = {};
  std::vector<std::pair<std::string, std::string>> strings = {};
};

/// The attributes as an op reads them.
Attributes makeAttributes(const OpAttributes &attributes);

/// Makes the built-in op `opid` named `name` with `attributes`, connects
/// it, creates its outputs and sets it up. It takes the placement of
/// `like` (virtual graph, pipeline stage, recomputation) when given.
Op &addBuiltinOp(Graph &graph, const OperatorIdentifier &opid,
                 const std::string &name, const std::vector<TensorId> &ins,
                 const std::vector<TensorId> &outs,
                 const OpAttributes &attributes = {}, const Op *like = nullptr);

/// A scalar constant of `type` holding `value`, with an unused id from
/// `base`.
TensorId addScalarConst(Graph &graph, const TensorId &base, DataType type,
                        double value);

/// A constant of `type` and `shape` holding zeros, with an unused id from
/// `base`.
TensorId addZerosConst(Graph &graph, const TensorId &base, const TensorInfo &info);

} // namespace popart

#endif

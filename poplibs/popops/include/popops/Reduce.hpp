#ifndef POPOPS_REDUCE_HPP
#define POPOPS_REDUCE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/Operation.hpp>
#include <popops/popops_export.hpp>
#include <poputil/exceptions.hpp>

#include <string>
#include <vector>

namespace popops {

/// What a reduction computes: the operation, whether the result updates
/// the output (ADD, SQUARE_ADD and LOG_ADD add to it; the others combine
/// with it by the operation) and an optional FLOAT scalar that scales the
/// result.
struct POPOPS_API ReduceParams {
  ReduceParams() = default;
  ReduceParams(Operation op, bool update = false) : op(op), update(update) {}
  ReduceParams(Operation op, bool update, poplar::Tensor scale)
      : op(op), update(update), useScale(true), scale(std::move(scale)) {}
  // A float scale must be a tensor so that it can change at run time.
  ReduceParams(Operation op, float constantScale, bool update = false) = delete;

  Operation op = Operation::ADD;
  bool update = false;
  bool useScale = false;
  poplar::Tensor scale;
};

/// Reduces `in` over `dims` (any set of dimensions) into a new tensor of
/// the remaining dimensions.
POPOPS_API poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                                 const poplar::Type &outType,
                                 const std::vector<std::size_t> &dims,
                                 ReduceParams params,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
POPOPS_API poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                                 const std::vector<std::size_t> &dims,
                                 ReduceParams params,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
/// Reduces into `out`, whose shape is that of `in` without `dims`.
POPOPS_API void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in,
                                 const poplar::Tensor &out,
                                 const std::vector<std::size_t> &dims,
                                 ReduceParams params,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

/// The same, adding compute sets to `css` (to run in order) instead of
/// programs to a sequence.
POPOPS_API poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                                 const poplar::Type &outType,
                                 const std::vector<std::size_t> &dims,
                                 ReduceParams params,
                                 std::vector<poplar::ComputeSet> &css,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
POPOPS_API poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                                 const std::vector<std::size_t> &dims,
                                 ReduceParams params,
                                 std::vector<poplar::ComputeSet> &css,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
POPOPS_API void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in,
                                 const poplar::Tensor &out,
                                 const std::vector<std::size_t> &dims,
                                 ReduceParams params,
                                 std::vector<poplar::ComputeSet> &css,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

/// One reduction of a reduceMany call.
struct POPOPS_API SingleReduceOp {
  poplar::Tensor in;
  std::vector<std::size_t> dims;
  ReduceParams params;
  bool useOutType = false;
  poplar::Type outType;
  std::string debugName;

  SingleReduceOp(poplar::Tensor in, std::vector<std::size_t> dims,
                 ReduceParams params, poplar::Type outType,
                 std::string debugName = "")
      : in(std::move(in)), dims(std::move(dims)), params(std::move(params)),
        useOutType(true), outType(outType), debugName(std::move(debugName)) {}
  SingleReduceOp(poplar::Tensor in, std::vector<std::size_t> dims,
                 ReduceParams params, std::string debugName = "")
      : in(std::move(in)), dims(std::move(dims)), params(std::move(params)),
        debugName(std::move(debugName)) {}
};

/// Several reductions whose stages share compute sets. `outputs` gets the
/// new outputs, or, if given the same number of tensors, is reduced into.
POPOPS_API void reduceMany(poplar::Graph &graph,
                           const std::vector<SingleReduceOp> &reductions,
                           std::vector<poplar::Tensor> &outputs,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});

} // namespace popops

#endif // POPOPS_REDUCE_HPP

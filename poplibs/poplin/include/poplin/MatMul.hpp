// Matrix multiplication: A [m, k] x B [k, n] -> [m, n], and the grouped
// form [g, m, k] x [g, k, n] -> [g, m, k]. The work is split over tiles by
// a plan (src/MatMulPlan.hpp, described in poplin's README).
//
// Options (all end the argument lists as `const poplar::OptionFlags &`):
//   availableMemoryProportion  the fraction of a tile's memory the plan may
//                              use for its operands and partials [0.6]
//   partialsType               "float" or "half" [float]; the partial sums
//                              are always accumulated in float
//   fullyConnectedPass         NONE, INFERENCE_FWD, TRAINING_FWD,
//                              TRAINING_BWD, TRAINING_WU [NONE]
//   inputRHSIsPreArranged      true, false [false]; with TRAINING_BWD,
//                              preArrangeMatMulInputRHS lays B out
//   use128BitConvUnitLoad, enableMultiStageReduce [true], enableFastReduce,
//   remapOutputTensor [true], gatherOutput, disableSRForAMPVertices
//                              true or false; validated (the plan and the
//                              vertices here have no such variants)
//   planConstraints            a JSON object; validated
// Any other option, or a bad value, is a poputil::poplibs_error naming it.
#ifndef POPLIN_MATMUL_HPP
#define POPLIN_MATMUL_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/poplin_export.hpp>

#include <cstddef>
#include <memory>
#include <ostream>
#include <set>
#include <tuple>
#include <vector>

namespace poplin {

class PlanningCache;

namespace matmul {

/// Remembers the plans made for the shapes, types, options and target it
/// saw, so that creating operands and multiplying with the same arguments
/// plans once. Not thread safe.
class POPLIN_API PlanningCache {
public:
  PlanningCache();
  ~PlanningCache();
  /// The number of plans held.
  std::size_t size() const;
  /// The planning cache the plans are kept in. poplin::preplan
  /// (poplin/ConvPreplan.hpp) plans convolutions and matmuls into it, and
  /// convolutions given it find their plans there.
  poplin::PlanningCache &getImpl();

private:
  std::unique_ptr<poplin::PlanningCache> impl;
};

} // namespace matmul

/// The description of one product C = A . B that preplanMatMuls takes.
struct MatMulParams {
  /// Element type of A and B.
  poplar::Type inputType;
  /// Element type of C.
  poplar::Type outputType;
  /// Shape of A ([m, k], or [g, m, k] grouped).
  std::vector<std::size_t> aShape;
  /// Shape of B ([k, n], or [g, k, n] grouped).
  std::vector<std::size_t> bShape;

  friend POPLIN_API bool operator<(const MatMulParams &a,
                                   const MatMulParams &b);
};

/// What preplanMatMuls plans: the target (its tiles and memory), the
/// product and the options its matMul will be given.
using MatMulPlanParams = std::tuple<const poplar::Target *, const MatMulParams,
                                    const poplar::OptionFlags *>;

POPLIN_API poplar::Tensor
matMul(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
       poplar::program::Sequence &prog, const poplar::Type &outputType,
       const poplar::DebugContext &debugContext = {},
       const poplar::OptionFlags &options = {},
       matmul::PlanningCache *cache = nullptr);
/// The output has the type of A.
POPLIN_API poplar::Tensor
matMul(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
       poplar::program::Sequence &prog,
       const poplar::DebugContext &debugContext = {},
       const poplar::OptionFlags &options = {},
       matmul::PlanningCache *cache = nullptr);
/// Writes A . B into out ([m, n]).
POPLIN_API void
matMulWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                 const poplar::Tensor &B, poplar::Tensor &out,
                 poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = {},
                 matmul::PlanningCache *cache = nullptr);

/// C += k . A . B
POPLIN_API void matMulAcc(poplar::Graph &graph, const poplar::Tensor &C,
                          float k, const poplar::Tensor &A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {},
                          matmul::PlanningCache *cache = nullptr);
POPLIN_API void matMulAcc(poplar::Graph &graph, const poplar::Tensor &C,
                          const poplar::Tensor &k, const poplar::Tensor &A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {},
                          matmul::PlanningCache *cache = nullptr);

/// [g, m, k] x [g, k, n] -> [g, m, n]
POPLIN_API poplar::Tensor
matMulGrouped(poplar::Graph &graph, const poplar::Tensor &A,
              const poplar::Tensor &B, poplar::program::Sequence &prog,
              const poplar::Type &outputType,
              const poplar::DebugContext &debugContext = {},
              const poplar::OptionFlags &options = {},
              matmul::PlanningCache *cache = nullptr);
POPLIN_API void matMulGroupedWithOutput(
    poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
    poplar::Tensor &out, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);
POPLIN_API void matMulGroupedAcc(poplar::Graph &graph, const poplar::Tensor &C,
                                 float k, const poplar::Tensor &A,
                                 const poplar::Tensor &B,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {},
                                 matmul::PlanningCache *cache = nullptr);

/// Operands laid out over the tiles as the plan for aShape x bShape reads
/// them, so the multiplication moves as little data as it can.
POPLIN_API poplar::Tensor createMatMulInputLHS(
    poplar::Graph &graph, const poplar::Type &inputType,
    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);
POPLIN_API poplar::Tensor createMatMulInputLHS(
    poplar::Graph &graph, const poplar::Type &dataType,
    const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);
POPLIN_API poplar::Tensor createMatMulInputRHS(
    poplar::Graph &graph, const poplar::Type &inputType,
    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);
POPLIN_API poplar::Tensor createMatMulInputRHS(
    poplar::Graph &graph, const poplar::Type &dataType,
    const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);
POPLIN_API poplar::Tensor createMatMulOutput(
    poplar::Graph &graph, const poplar::Type &inputType,
    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);

/// createMatMulOutput with one type for the operands and the output.
POPLIN_API poplar::Tensor createMatMulOutput(
    poplar::Graph &graph, const poplar::Type &dataType,
    const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);
POPLIN_API poplar::Tensor createMatMulGroupedInputLHS(
    poplar::Graph &graph, const poplar::Type &inputType,
    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);
POPLIN_API poplar::Tensor createMatMulGroupedInputRHS(
    poplar::Graph &graph, const poplar::Type &inputType,
    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);
POPLIN_API poplar::Tensor createMatMulGroupedOutput(
    poplar::Graph &graph, const poplar::Type &inputType,
    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);

/// [g, m, k] -> [g, k, m]
POPLIN_API poplar::Tensor transposeGroupedMatrix(const poplar::Tensor &A);

/// Prints the plan chosen for aShape x bShape.
POPLIN_API void matMulReportPlan(std::ostream &out, const poplar::Graph &graph,
                                 const poplar::Type &inputType,
                                 const poplar::Type &outputType,
                                 const std::vector<std::size_t> &aShape,
                                 const std::vector<std::size_t> &bShape,
                                 const poplar::OptionFlags &options = {},
                                 matmul::PlanningCache *cache = nullptr);

/// Prints the plan chosen for the grouped aShape x bShape.
POPLIN_API void matMulGroupedReportPlan(
    std::ostream &out, const poplar::Graph &graph,
    const poplar::Type &inputType, const poplar::Type &outputType,
    const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape,
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);

/// Lays B [k, n] out once for the products with an A of shape aShape that
/// follow, as createMatMulInputRHS would have (a copy added to prog), when
/// the options say inputRHSIsPreArranged and fullyConnectedPass is
/// TRAINING_BWD; otherwise returns B itself, as the original does.
POPLIN_API poplar::Tensor preArrangeMatMulInputRHS(
    poplar::Graph &graph, const std::vector<std::size_t> &aShape,
    const poplar::Tensor &B, poplar::program::Sequence &prog,
    const poplar::Type &outputType,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);

/// preArrangeMatMulInputRHS with the output type of B.
POPLIN_API poplar::Tensor preArrangeMatMulInputRHS(
    poplar::Graph &graph, const std::vector<std::size_t> &aShape,
    const poplar::Tensor &B, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);

/// The grouped form: B [g, k, n], aShape [g, m, k].
POPLIN_API poplar::Tensor preArrangeMatMulGroupedInputRHS(
    poplar::Graph &graph, const std::vector<std::size_t> &aShape,
    const poplar::Tensor &B, poplar::program::Sequence &prog,
    const poplar::Type &outputType,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    matmul::PlanningCache *cache = nullptr);

/// Plans the given products into `cache`, so that the matMul and
/// createMatMul* calls with the same target, shapes, types and options
/// find their plans made. Bad options or shapes throw as matMul would.
POPLIN_API void preplanMatMuls(const std::set<MatMulPlanParams> &matmuls,
                               matmul::PlanningCache &cache);

/// Throws poputil::poplibs_error naming the first unknown option or bad
/// value of `options`.
POPLIN_API void matmulValidateOptions(const poplar::OptionFlags &options);

} // namespace poplin

#endif // POPLIN_MATMUL_HPP

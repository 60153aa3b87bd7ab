// Cholesky factors and triangular solves: each matrix of the batch on a
// tile, in one compute set of one vertex per matrix (codelets/Solvers.cpp).
//
// Cycle estimates, on one worker: a multiply-add a cycle, 30 cycles for a
// square root or a division, 10 cycles of loop overhead per row and 20 per
// vertex. The Cholesky factor of n x n: for each column j, a square root,
// then n - 1 - j rows of j multiply-adds and a division. A triangular
// solve of n x n with k right-hand sides: k times, n rows of up to n - 1
// multiply-adds (n (n - 1) / 2 in all) and a division.
#include <poplin/Cholesky.hpp>
#include <poplin/TriangularSolve.hpp>

#include <poplibs_support/logging.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <fmt/ranges.h>

#include <memory>
#include <string>

namespace poplin {
namespace {

using poplar::Tensor;

constexpr std::uint64_t vertexOverhead = 20, rowOverhead = 10,
                        divideCycles = 30;

std::uint64_t choleskyCycles(std::uint64_t n) {
  std::uint64_t cycles = vertexOverhead;
  for (std::uint64_t j = 0; j != n; ++j)
    cycles += divideCycles + (n - 1 - j) * (j + divideCycles + rowOverhead);
  return cycles;
}

std::uint64_t triangularSolveCycles(std::uint64_t n, std::uint64_t k) {
  return vertexOverhead +
         k * (n * (n - 1) / 2 + n * (divideCycles + rowOverhead));
}

void fail(const char *fn, const std::string &what) {
  throw poputil::poplibs_error(std::string("poplin::") + fn + ": " + what);
}

void checkNoOptions(const char *fn, const poplar::OptionFlags &options) {
  for (const auto &o : options)
    fail(fn, "unknown option '" + o.first +
                 "' (each matrix is solved on one tile; no options apply)");
}

void checkType(const char *fn, const poplar::Type &type, const char *what) {
  if (type != poplar::FLOAT && type != poplar::HALF)
    fail(fn, std::string(what) + " must be FLOAT or HALF, not " +
                 type.toString().str());
}

std::string shapeString(const std::vector<std::size_t> &shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

// The number of matrices of a [..., N, N] shape; throws if it is not one.
std::size_t batchOf(const char *fn, const std::vector<std::size_t> &shape,
                    const char *what) {
  if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2])
    fail(fn, std::string(what) + " must be [..., N, N], not " +
                 shapeString(shape));
  std::size_t batch = 1;
  for (std::size_t d = 0; d + 2 < shape.size(); ++d)
    batch *= shape[d];
  return batch;
}

// Maps each [rows x cols] matrix of t (flattened to [batch, elements]) to
// a tile, round robin.
void mapByMatrix(poplar::Graph &graph, const Tensor &t, std::size_t batch) {
  const Tensor flat = t.reshape({batch, t.numElements() / std::max<std::size_t>(batch, 1)});
  const unsigned tiles = graph.getTarget().getNumTiles();
  for (std::size_t m = 0; m != batch; ++m)
    graph.setTileMapping(flat[m], unsigned(m % tiles));
}

Tensor createByMatrix(poplar::Graph &graph, const poplar::Type &type,
                      const std::vector<std::size_t> &shape, std::size_t batch,
                      const poplar::DebugContext &dc) {
  Tensor t = graph.addVariable(type, shape, dc);
  mapByMatrix(graph, t, batch);
  return t;
}

// The [batch, N, K] (leftSide) or [batch, K, N] shape B must have.
void checkSolveShapes(const std::vector<std::size_t> &aShape,
                      const std::vector<std::size_t> &bShape, bool leftSide) {
  const char *fn = "triangularSolve";
  batchOf(fn, aShape, "a");
  const std::size_t n = aShape.back();
  const bool ok =
      bShape.size() == aShape.size() &&
      std::equal(aShape.begin(), aShape.end() - 2, bShape.begin()) &&
      (leftSide ? bShape[bShape.size() - 2] == n : bShape.back() == n);
  if (!ok)
    fail(fn, "b " + shapeString(bShape) + " does not match a " +
                 shapeString(aShape) + (leftSide ? " (a x = b: b is [..., N, K])"
                                                 : " (x a = b: b is [..., K, N])"));
}

} // namespace

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getCholeskyMatMulPrePlanParameters(const poplar::Type &type,
                                   const std::vector<std::size_t> &shape,
                                   bool, poplar::OptionFlags options) {
  checkType("getCholeskyMatMulPrePlanParameters", type, "the type");
  batchOf("getCholeskyMatMulPrePlanParameters", shape, "the shape");
  checkNoOptions("getCholeskyMatMulPrePlanParameters", options);
  return {};
}

Tensor createCholeskyInput(poplar::Graph &graph, const poplar::Type &type,
                           const std::vector<std::size_t> &shape, bool,
                           const poplar::DebugContext &debugContext,
                           const poplar::OptionFlags &options, PlanningCache *) {
  checkType("createCholeskyInput", type, "the type");
  checkNoOptions("createCholeskyInput", options);
  const std::size_t batch = batchOf("createCholeskyInput", shape, "the shape");
  return createByMatrix(graph, type, shape, batch,
                        {debugContext, "choleskyInput"});
}

void choleskyInPlace(poplar::Graph &graph, const Tensor &a, bool lower,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext,
                     poplar::OptionFlags options, PlanningCache *) {
  const char *fn = "cholesky";
  const poplar::DebugContext dc(debugContext, fn);
  checkType(fn, a.elementType(), ("a ('" + a.getDebugStr() + "')").c_str());
  checkNoOptions(fn, options);
  const auto shape = a.shape();
  const std::size_t batch = batchOf(fn, shape, "a");
  const std::size_t n = shape.back();
  poplibs_support::logging::poplin::info("cholesky {}: {} {}, {}",
                                         dc.getPathName(), shapeString(shape),
                                         a.elementType().toString().str(),
                                         lower ? "lower" : "upper");
  const Tensor flat = a.reshape({batch, n * n});
  const unsigned tiles = graph.getTarget().getNumTiles();
  poplar::ComputeSet cs = graph.addComputeSet({dc, "factor"});
  for (std::size_t m = 0; m != batch; ++m) {
    auto v = graph.addVertex(
        cs, poputil::templateVertex("poplin::Cholesky", a.elementType()));
    graph.connect(v["a"], flat[m]);
    graph.setInitialValue(v["n"], unsigned(n));
    graph.setInitialValue(v["lower"], lower);
    graph.setTileMapping(v, unsigned(m % tiles));
    graph.setPerfEstimate(v, choleskyCycles(n));
  }
  prog.add(poplar::program::Execute(cs, {dc}));
}

Tensor cholesky(poplar::Graph &graph, const Tensor &a, bool lower,
                poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext,
                poplar::OptionFlags options, PlanningCache *cache) {
  const poplar::DebugContext dc(debugContext, "cholesky");
  checkType("cholesky", a.elementType(),
            ("a ('" + a.getDebugStr() + "')").c_str());
  const auto shape = a.shape();
  const std::size_t batch = batchOf("cholesky", shape, "a");
  Tensor factor = createByMatrix(graph, a.elementType(), shape, batch,
                                 {dc, "factor"});
  prog.add(poplar::program::Copy(a, factor, false, {dc}));
  choleskyInPlace(graph, factor, lower, prog, dc, std::move(options), cache);
  return factor;
}

Tensor createTriangularSolveInputLHS(poplar::Graph &graph,
                                     const poplar::Type &inputType,
                                     const poplar::Type &outputType,
                                     const std::vector<std::size_t> &aShape,
                                     const std::vector<std::size_t> &bShape,
                                     bool leftSide,
                                     const poplar::DebugContext &debugContext,
                                     const poplar::OptionFlags &options,
                                     PlanningCache *) {
  checkType("createTriangularSolveInputLHS", inputType, "the input type");
  checkType("createTriangularSolveInputLHS", outputType, "the output type");
  checkNoOptions("createTriangularSolveInputLHS", options);
  checkSolveShapes(aShape, bShape, leftSide);
  return createByMatrix(graph, inputType, aShape,
                        batchOf("triangularSolve", aShape, "a"),
                        {debugContext, "triangularSolveLHS"});
}

Tensor createTriangularSolveInputRHS(poplar::Graph &graph,
                                     const poplar::Type &inputType,
                                     const poplar::Type &outputType,
                                     const std::vector<std::size_t> &aShape,
                                     const std::vector<std::size_t> &bShape,
                                     bool leftSide,
                                     const poplar::DebugContext &debugContext,
                                     const poplar::OptionFlags &options,
                                     PlanningCache *) {
  checkType("createTriangularSolveInputRHS", inputType, "the input type");
  checkType("createTriangularSolveInputRHS", outputType, "the output type");
  checkNoOptions("createTriangularSolveInputRHS", options);
  checkSolveShapes(aShape, bShape, leftSide);
  return createByMatrix(graph, inputType, bShape,
                        batchOf("triangularSolve", aShape, "a"),
                        {debugContext, "triangularSolveRHS"});
}

Tensor triangularMask(poplar::Graph &graph, const Tensor &a, bool lower,
                      bool unitDiagonal, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext) {
  const poplar::DebugContext dc(debugContext, "triangularMask");
  const auto shape = a.shape();
  batchOf("triangularMask", shape, "a");
  const std::size_t n = shape.back();
  // Where to keep a's element, and the diagonal, as BOOL masks [N, N].
  std::unique_ptr<bool[]> keep(new bool[n * n]), diagonal(new bool[n * n]);
  for (std::size_t i = 0; i != n; ++i)
    for (std::size_t j = 0; j != n; ++j) {
      keep[i * n + j] = lower ? j <= i : j >= i;
      diagonal[i * n + j] = i == j;
    }
  auto mask = [&](const std::unique_ptr<bool[]> &values, const char *name) {
    Tensor t = graph.addConstant<bool>(poplar::BOOL, {n, n}, values.get(),
                                       {dc, name});
    graph.setTileMapping(t, 0);
    return t;
  };
  using namespace popops::expr;
  const Tensor keepMask = mask(keep, "keep");
  if (!unitDiagonal)
    return popops::map(graph, Select(_1, Const(0), _2), {a, keepMask}, prog,
                       {dc});
  const Tensor diagonalMask = mask(diagonal, "diagonal");
  return popops::map(graph, Select(Const(1), Select(_1, Const(0), _2), _3),
                     {a, keepMask, diagonalMask}, prog, {dc});
}

Tensor triangularSolve(poplar::Graph &graph, const Tensor &a, const Tensor &b,
                       bool leftSide, bool lower, bool unitDiagonal,
                       poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext,
                       const poplar::OptionFlags &options, PlanningCache *) {
  const char *fn = "triangularSolve";
  const poplar::DebugContext dc(debugContext, fn);
  checkType(fn, a.elementType(), ("a ('" + a.getDebugStr() + "')").c_str());
  if (b.elementType() != a.elementType())
    fail(fn, "b ('" + b.getDebugStr() + "') is " +
                 b.elementType().toString().str() + ", a is " +
                 a.elementType().toString().str());
  checkNoOptions(fn, options);
  checkSolveShapes(a.shape(), b.shape(), leftSide);
  const std::size_t batch = batchOf(fn, a.shape(), "a");
  const std::size_t n = a.shape().back();
  const std::size_t k = b.numElements() / (batch * n);
  poplibs_support::logging::poplin::info(
      "triangularSolve {}: a {}, b {}, {}{}{}", dc.getPathName(),
      shapeString(a.shape()), shapeString(b.shape()),
      leftSide ? "left side" : "right side", lower ? ", lower" : ", upper",
      unitDiagonal ? ", unit diagonal" : "");
  Tensor x = createByMatrix(graph, b.elementType(), b.shape(), batch, {dc, "x"});
  const Tensor aFlat = a.reshape({batch, n * n});
  const Tensor bFlat = b.reshape({batch, n * k});
  const Tensor xFlat = x.reshape({batch, n * k});
  const unsigned tiles = graph.getTarget().getNumTiles();
  poplar::ComputeSet cs = graph.addComputeSet({dc, "solve"});
  for (std::size_t m = 0; m != batch; ++m) {
    auto v = graph.addVertex(
        cs, poputil::templateVertex("poplin::TriangularSolve", a.elementType()));
    graph.connect(v["a"], aFlat[m]);
    graph.connect(v["b"], bFlat[m]);
    graph.connect(v["x"], xFlat[m]);
    graph.setInitialValue(v["n"], unsigned(n));
    graph.setInitialValue(v["k"], unsigned(k));
    graph.setInitialValue(v["leftSide"], leftSide);
    graph.setInitialValue(v["lower"], lower);
    graph.setInitialValue(v["unitDiagonal"], unitDiagonal);
    graph.setTileMapping(v, unsigned(m % tiles));
    graph.setPerfEstimate(v, triangularSolveCycles(n, k));
  }
  prog.add(poplar::program::Execute(cs, {dc}));
  return x;
}

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getTriangularSolveMatMulPrePlanParameters(
    const poplar::Type &inputType, const poplar::Type &outputType,
    const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape, bool leftSide, bool,
    const poplar::OptionFlags &options) {
  checkType("getTriangularSolveMatMulPrePlanParameters", inputType,
            "the input type");
  checkType("getTriangularSolveMatMulPrePlanParameters", outputType,
            "the output type");
  checkNoOptions("getTriangularSolveMatMulPrePlanParameters", options);
  checkSolveShapes(aShape, bShape, leftSide);
  return {};
}

} // namespace poplin

// poplin's matrix multiplication: plan, lay out the blocks over the tiles,
// compute partials (float, or half with partialsType half) with MatMulPartial
// vertices and sum those of the k blocks with MatMulReduce vertices on the
// tiles that hold them.
#include <poplin/MatMul.hpp>

#include "MatMulPlan.hpp"
#include "PlanningCacheImpl.hpp"

#include <poplin/Convolution.hpp>

#include <popops/Cast.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <fmt/ranges.h>
#include <poplibs_support/logging.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <poplar/Program.hpp>

#include <map>
#include <set>
#include <sstream>
#include <tuple>

using namespace poplar;
using namespace poplar::program;

namespace poplin {
namespace matmul {

PlanningCache::PlanningCache()
    : impl(std::make_unique<poplin::PlanningCache>()) {}
PlanningCache::~PlanningCache() = default;
std::size_t PlanningCache::size() const { return impl->size(); }
poplin::PlanningCache &PlanningCache::getImpl() { return *impl; }

} // namespace matmul

namespace {

using detail::MatMulOptions;
using detail::MatMulPlan;

// The b-th of p balanced parts of [0, size): never empty when p <= size.
std::size_t partBegin(std::size_t size, unsigned p, unsigned b) {
  return size * b / p;
}

struct Problem {
  std::size_t groups, m, k, n;
};

void checkType(const Type &t, const char *what) {
  if (t != FLOAT && t != HALF)
    throw poputil::poplibs_error(std::string("poplin: ") + what +
                                 " must be FLOAT or HALF, not " +
                                 std::string(t.toString()));
}

Problem problemOf(const std::vector<std::size_t> &aShape,
                  const std::vector<std::size_t> &bShape, bool grouped) {
  const std::size_t rank = grouped ? 3 : 2;
  if (aShape.size() != rank || bShape.size() != rank)
    throw poputil::poplibs_error(
        std::string("poplin: matmul operands must have rank ") +
        std::to_string(rank));
  const std::size_t off = grouped ? 1 : 0;
  if (grouped && aShape[0] != bShape[0])
    throw poputil::poplibs_error("poplin: grouped matmul operands have "
                                 "different numbers of groups");
  if (aShape[off + 1] != bShape[off])
    throw poputil::poplibs_error(
        "poplin: matmul inner dimensions differ: [" +
        std::to_string(aShape[off]) + ", " + std::to_string(aShape[off + 1]) +
        "] x [" + std::to_string(bShape[off]) + ", " +
        std::to_string(bShape[off + 1]) + "]");
  return Problem{grouped ? aShape[0] : 1, aShape[off], aShape[off + 1],
                 bShape[off + 1]};
}

// A product with no elements in its result has nothing to plan.
bool emptyResult(const Problem &p) {
  return p.groups == 0 || p.m == 0 || p.n == 0;
}

// The problem that is planned: a product over k = 0 (all zeros) is laid
// out as one over k = 1.
Problem plannedProblem(Problem p) {
  p.k = std::max<std::size_t>(p.k, 1);
  return p;
}

unsigned tilesPerGroup(const Target &target, const Problem &p) {
  return std::max<unsigned>(
      1, target.getNumTiles() / std::max<std::size_t>(p.groups, 1));
}

unsigned tilesPerGroup(const Graph &graph, const Problem &p) {
  return tilesPerGroup(graph.getTarget(), p);
}

unsigned groupTileOffset(const Graph &graph, const Problem &p, std::size_t g) {
  const unsigned numTiles = graph.getTarget().getNumTiles();
  return static_cast<unsigned>((g * tilesPerGroup(graph, p)) % numTiles);
}

MatMulPlan getPlan(const Target &target, const Type &inputType,
                   const Problem &problem, const MatMulOptions &options,
                   PlanningCache *cache) {
  const Problem p = plannedProblem(problem);
  const unsigned tiles = tilesPerGroup(target, p);
  // Every group starts on the first tile of a supertile when there is one
  // group or the groups' tile counts are multiples of the supertile size.
  const bool aligned =
      p.groups == 1 || tiles % target.getTilesPerSuperTile() == 0;
  PlanningCacheImpl::MatMulKey key{target.getTargetArchString(),
                                       aligned,
                                       tiles,
                                       std::string(inputType.toString()),
                                       std::string(detail::matMulPartialsType(
                                                       inputType, options)
                                                       .toString()),
                                       p.m,
                                       p.k,
                                       p.n,
                                       options.availableMemoryProportion,
                                       target.getBytesPerTile()};
  if (cache) {
    auto it = cache->impl->matmulPlans.find(key);
    if (it != cache->impl->matmulPlans.end())
      return it->second;
  }
  MatMulPlan plan = detail::planMatMul(target, inputType, p.m, p.k, p.n,
                                       tiles, options, aligned);
  if (cache)
    cache->impl->matmulPlans.emplace(key, plan);
  return plan;
}

MatMulPlan getPlan(const Target &target, const Type &inputType,
                   const Problem &problem, const MatMulOptions &options,
                   matmul::PlanningCache *cache) {
  return getPlan(target, inputType, problem, options,
                 cache ? &cache->getImpl() : nullptr);
}

unsigned tileOf(const Graph &graph, const Problem &p, const MatMulPlan &plan,
                std::size_t g, unsigned im, unsigned in, unsigned ik) {
  const unsigned numTiles = graph.getTarget().getNumTiles();
  return (groupTileOffset(graph, p, g) + plan.tileOf(im, in, ik)) % numTiles;
}

// Maps t ([groups, rows, cols]) by blocks: block (r, c) of group g is cut
// (flattened) into `spread` balanced pieces, piece s going to
// tileFn(g, r, c, s). An operand block is used by several tiles; spreading
// it over them balances the memory and the exchange.
template <class TileFn>
void mapBlocks(Graph &graph, const Tensor &t, unsigned splitRows,
               unsigned splitCols, unsigned spread, TileFn tileFn) {
  const std::size_t rows = t.dim(1), cols = t.dim(2);
  for (std::size_t g = 0; g != t.dim(0); ++g)
    for (unsigned r = 0; r != splitRows; ++r)
      for (unsigned c = 0; c != splitCols; ++c) {
        const Tensor block =
            t[g]
                .slice({partBegin(rows, splitRows, r),
                        partBegin(cols, splitCols, c)},
                       {partBegin(rows, splitRows, r + 1),
                        partBegin(cols, splitCols, c + 1)})
                .flatten();
        const std::size_t size = block.numElements();
        for (unsigned s = 0; s != spread; ++s) {
          const std::size_t b = size * s / spread, e = size * (s + 1) / spread;
          if (b != e)
            graph.setTileMapping(block.slice(b, e), tileFn(g, r, c, s));
        }
      }
}

Tensor createLHS(Graph &graph, const Type &inputType, const Problem &p,
                 const DebugContext &dc, const OptionFlags &options,
                 matmul::PlanningCache *cache) {
  checkType(inputType, "the input type");
  const MatMulOptions parsed = detail::parseMatMulOptions(options);
  Tensor a = graph.addVariable(inputType, {p.groups, p.m, p.k}, {dc, "lhs"});
  if (a.numElements() == 0)
    return a;
  const MatMulPlan plan =
      getPlan(graph.getTarget(), inputType, p, parsed, cache);
  mapBlocks(graph, a, plan.splitM, plan.splitK, plan.splitN,
            [&](std::size_t g, unsigned im, unsigned ik, unsigned in) {
              return tileOf(graph, p, plan, g, im, in, ik);
            });
  return a;
}

Tensor createRHS(Graph &graph, const Type &inputType, const Problem &p,
                 const DebugContext &dc, const OptionFlags &options,
                 matmul::PlanningCache *cache) {
  checkType(inputType, "the input type");
  const MatMulOptions parsed = detail::parseMatMulOptions(options);
  Tensor b = graph.addVariable(inputType, {p.groups, p.k, p.n}, {dc, "rhs"});
  if (b.numElements() == 0)
    return b;
  const MatMulPlan plan =
      getPlan(graph.getTarget(), inputType, p, parsed, cache);
  mapBlocks(graph, b, plan.splitK, plan.splitN, plan.splitM,
            [&](std::size_t g, unsigned ik, unsigned in, unsigned im) {
              return tileOf(graph, p, plan, g, im, in, ik);
            });
  return b;
}

// Calls f(g, im, in, ik, rowBegin, rowEnd, colBegin, colEnd) for the part
// of each output block that tile (im, in, ik) sums: the block's rows are
// shared by its splitK tiles (a part may be empty).
template <class F>
void forEachOutputPart(const Problem &p, const MatMulPlan &plan, F f) {
  for (std::size_t g = 0; g != p.groups; ++g)
    for (unsigned im = 0; im != plan.splitM; ++im) {
      const std::size_t m0 = partBegin(p.m, plan.splitM, im);
      const std::size_t m1 = partBegin(p.m, plan.splitM, im + 1);
      for (unsigned in = 0; in != plan.splitN; ++in) {
        const std::size_t n0 = partBegin(p.n, plan.splitN, in);
        const std::size_t n1 = partBegin(p.n, plan.splitN, in + 1);
        for (unsigned ik = 0; ik != plan.splitK; ++ik) {
          const std::size_t r0 = m0 + partBegin(m1 - m0, plan.splitK, ik);
          const std::size_t r1 = m0 + partBegin(m1 - m0, plan.splitK, ik + 1);
          if (r0 != r1)
            f(g, im, in, ik, r0, r1, n0, n1);
        }
      }
    }
}

// Maps the output [groups, m, n] where the reduction leaves it.
void mapOutput(Graph &graph, const Tensor &c, const Problem &p,
               const MatMulPlan &plan) {
  forEachOutputPart(p, plan,
                    [&](std::size_t g, unsigned im, unsigned in, unsigned ik,
                        std::size_t r0, std::size_t r1, std::size_t n0,
                        std::size_t n1) {
                      graph.setTileMapping(c[g].slice({r0, n0}, {r1, n1}),
                                           tileOf(graph, p, plan, g, im, in,
                                                  ik));
                    });
}

Tensor createOut(Graph &graph, const Type &inputType, const Type &outputType,
                 const Problem &p, const DebugContext &dc,
                 const OptionFlags &options, matmul::PlanningCache *cache) {
  checkType(inputType, "the input type");
  checkType(outputType, "the output type");
  const MatMulOptions parsed = detail::parseMatMulOptions(options);
  Tensor c =
      graph.addVariable(outputType, {p.groups, p.m, p.n}, {dc, "output"});
  if (emptyResult(p))
    return c;
  const MatMulPlan plan =
      getPlan(graph.getTarget(), inputType, p, parsed, cache);
  mapOutput(graph, c, p, plan);
  return c;
}

// The product of A [g, m, k] and B [g, k, n]; writes into *out when given,
// else returns a new tensor of outputType.
Tensor matMulImpl(Graph &graph, Tensor A, Tensor B, const Type &outputType,
                  const Tensor *out, Sequence &prog, const DebugContext &dc,
                  const OptionFlags &optionFlags,
                  matmul::PlanningCache *cache,
                  const Tensor *A2d = nullptr, const Tensor *B2d = nullptr) {
  const MatMulOptions options = detail::parseMatMulOptions(optionFlags);
  checkType(A.elementType(), "the type of A");
  checkType(outputType, "the output type");
  if (B.elementType() != A.elementType())
    throw poputil::poplibs_error("poplin: matmul operands have different "
                                 "types: " +
                                 std::string(A.elementType().toString()) + " and " +
                                 std::string(B.elementType().toString()));
  const Problem p = problemOf(A.shape(), B.shape(), true);
  const Type inputType = A.elementType();
  if (out && out->shape() != std::vector<std::size_t>{p.groups, p.m, p.n})
    throw poputil::poplibs_error("poplin: the matmul output has the wrong "
                                 "shape");
  // Degenerate products: no result elements, or a sum over nothing.
  if (emptyResult(p))
    return out ? *out
               : graph.addVariable(outputType, {p.groups, p.m, p.n},
                                   {dc, "output"});
  if (p.k == 0) {
    Tensor result = out ? *out
                        : createOut(graph, inputType, outputType, p, dc,
                                    optionFlags, cache);
    popops::zero(graph, result, prog, {dc, "zeroOutput"});
    return result;
  }
  const MatMulPlan plan =
      getPlan(graph.getTarget(), inputType, p, options, cache);
  const Target &target = graph.getTarget();

  // The partials, block by block: block (g, ik, im, in) is one contiguous
  // [rows, cols] piece of one variable, on its tile, so that each vertex
  // writes, and each reduction reads, whole runs of memory.
  const Type partialsType = plan.partialsType;
  Tensor partialStore = graph.addVariable(
      partialsType, {p.groups * plan.splitK * p.m * p.n}, {dc, "partials"});
  std::vector<Tensor> partialBlocks;
  partialBlocks.reserve(p.groups * plan.splitK * plan.splitM * plan.splitN);
  {
    std::size_t offset = 0;
    for (std::size_t g = 0; g != p.groups; ++g)
      for (unsigned ik = 0; ik != plan.splitK; ++ik)
        for (unsigned im = 0; im != plan.splitM; ++im) {
          const std::size_t rows = partBegin(p.m, plan.splitM, im + 1) -
                                   partBegin(p.m, plan.splitM, im);
          for (unsigned in = 0; in != plan.splitN; ++in) {
            const std::size_t cols = partBegin(p.n, plan.splitN, in + 1) -
                                     partBegin(p.n, plan.splitN, in);
            Tensor block = partialStore.slice(offset, offset + rows * cols)
                               .reshape({rows, cols});
            graph.setTileMapping(block, tileOf(graph, p, plan, g, im, in, ik));
            partialBlocks.push_back(block);
            offset += rows * cols;
          }
        }
  }
  auto partialBlock = [&](std::size_t g, unsigned ik, unsigned im,
                          unsigned in) -> const Tensor & {
    return partialBlocks[((g * plan.splitK + ik) * plan.splitM + im) *
                             plan.splitN +
                         in];
  };
  const ComputeSet cs = graph.addComputeSet({dc, "MatMul"});
  const std::string vertexType =
      poputil::templateVertex("poplin::MatMulPartial", inputType,
                              partialsType);
  // Views are made from the block of each operand (not from the whole
  // operand for every row) to keep the graph's view layouts small.
  for (std::size_t g = 0; g != p.groups; ++g) {
    // The 2-D operands themselves when given: views of them are cheaper
    // than views of their expanded forms.
    const Tensor Ag = A2d ? *A2d : A[g], Bg = B2d ? *B2d : B[g];
    for (unsigned ik = 0; ik != plan.splitK; ++ik) {
      const std::size_t k0 = partBegin(p.k, plan.splitK, ik);
      const std::size_t k1 = partBegin(p.k, plan.splitK, ik + 1);
      for (unsigned im = 0; im != plan.splitM; ++im) {
        const std::size_t m0 = partBegin(p.m, plan.splitM, im);
        const std::size_t m1 = partBegin(p.m, plan.splitM, im + 1);
        const Tensor aBlock = Ag.slice({m0, k0}, {m1, k1});
        std::vector<Tensor> aRows;
        for (std::size_t i = 0; i != m1 - m0; ++i)
          aRows.push_back(aBlock[i]);
        for (unsigned in = 0; in != plan.splitN; ++in) {
          const std::size_t n0 = partBegin(p.n, plan.splitN, in);
          const std::size_t n1 = partBegin(p.n, plan.splitN, in + 1);
          const unsigned tile = tileOf(graph, p, plan, g, im, in, ik);
          const Tensor bBlock = Bg.slice({k0, n0}, {k1, n1});
          const Tensor &cBlock = partialBlock(g, ik, im, in);
          std::vector<Tensor> bRows, cRows;
          for (std::size_t i = 0; i != m1 - m0; ++i)
            cRows.push_back(cBlock[i]);
          for (std::size_t kk = 0; kk != k1 - k0; ++kk)
            bRows.push_back(bBlock[kk]);
          VertexRef v = graph.addVertex(cs, vertexType);
          graph.connect(v["A"], aRows);
          graph.connect(v["B"], bRows);
          graph.connect(v["C"], cRows);
          graph.setTileMapping(v, tile);
          graph.setPerfEstimate(v, detail::matMulPartialCycles(
                                       target, inputType, m1 - m0, n1 - n0,
                                       k1 - k0));
        }
      }
    }
  }
  prog.add(Execute(cs, {dc, "MatMul"}));

  if (plan.splitK == 1) {
    // The partials are the product: [groups, m, n] viewed from the blocks.
    std::vector<Tensor> groupsOut;
    for (std::size_t g = 0; g != p.groups; ++g) {
      std::vector<Tensor> blockRows;
      for (unsigned im = 0; im != plan.splitM; ++im) {
        std::vector<Tensor> row;
        for (unsigned in = 0; in != plan.splitN; ++in)
          row.push_back(partialBlock(g, 0, im, in));
        blockRows.push_back(concat(row, 1));
      }
      groupsOut.push_back(concat(blockRows, 0).expand({0}));
    }
    Tensor sum = concat(groupsOut, 0);
    if (out) {
      if (out->elementType() == partialsType)
        prog.add(Copy(sum, *out, false, {dc, "output"}));
      else
        popops::castWithOutput(graph, sum, *out, prog, {dc, "output"});
      return *out;
    }
    if (outputType == partialsType)
      return sum;
    return popops::cast(graph, sum, outputType, prog, {dc, "output"});
  }
  // Sum the k partials of each output block where the output is laid
  // out: the splitK tiles of the block each sum a part of its rows with a
  // MatMulReduce vertex.
  const Type resultType = out ? out->elementType() : outputType;
  Tensor result =
      graph.addVariable(resultType, {p.groups, p.m, p.n}, {dc, "output"});
  mapOutput(graph, result, p, plan);
  const ComputeSet rcs = graph.addComputeSet({dc, "ReducePartials"});
  const std::string reduceType =
      poputil::templateVertex("poplin::MatMulReduce", partialsType,
                              resultType);
  forEachOutputPart(
      p, plan,
      [&](std::size_t g, unsigned im, unsigned in, unsigned ik,
          std::size_t r0, std::size_t r1, std::size_t n0, std::size_t n1) {
        const std::size_t m0 = partBegin(p.m, plan.splitM, im);
        std::vector<Tensor> inRows, outRows;
        for (std::size_t i = r0; i != r1; ++i) {
          outRows.push_back(result[g][i].slice(n0, n1));
          for (unsigned q = 0; q != plan.splitK; ++q)
            inRows.push_back(partialBlock(g, q, im, in)[i - m0]);
        }
        VertexRef v = graph.addVertex(rcs, reduceType);
        graph.connect(v["In"], inRows);
        graph.connect(v["Out"], outRows);
        graph.setTileMapping(v, tileOf(graph, p, plan, g, im, in, ik));
        graph.setPerfEstimate(v, detail::matMulReduceCycles(
                                     r1 - r0, n1 - n0, plan.splitK,
                                     partialsType));
      });
  prog.add(Execute(rcs, {dc, "ReducePartials"}));
  if (out) {
    prog.add(Copy(result, *out, false, {dc, "output"}));
    return *out;
  }
  return result;
}

void checkRank(const Tensor &t, unsigned rank, const char *what) {
  if (t.rank() != rank)
    throw poputil::poplibs_error(std::string("poplin: ") + what +
                                 " must have rank " + std::to_string(rank) +
                                 ", not " + std::to_string(t.rank()));
}

Tensor matMul2D(Graph &graph, const Tensor &A, const Tensor &B,
                const Type &outputType, const Tensor *out, Sequence &prog,
                const DebugContext &dc, const OptionFlags &options,
                matmul::PlanningCache *cache) {
  checkRank(A, 2, "A");
  checkRank(B, 2, "B");
  poplibs_support::logging::poplin::info(
      "matMul {}: A [{}] x B [{}], {} output", dc.getPathName(),
      fmt::join(A.shape(), ", "), fmt::join(B.shape(), ", "),
      outputType.toString().str());
  Tensor out3;
  if (out) {
    checkRank(*out, 2, "the output");
    if (out->dim(0) != A.dim(0) || out->dim(1) != B.dim(1))
      throw poputil::poplibs_error("poplin: the matmul output has the wrong "
                                   "shape");
    out3 = out->expand({0});
  }
  return matMulImpl(graph, A.expand({0}), B.expand({0}), outputType,
                    out ? &out3 : nullptr, prog, dc, options, cache, &A, &B)
      .squeeze({0});
}

} // namespace

Tensor matMul(Graph &graph, const Tensor &A, const Tensor &B, Sequence &prog,
              const Type &outputType, const DebugContext &debugContext,
              const OptionFlags &options, matmul::PlanningCache *cache) {
  const DebugContext dc(debugContext, "matMul");
  return matMul2D(graph, A, B, outputType, nullptr, prog, dc, options, cache);
}

Tensor matMul(Graph &graph, const Tensor &A, const Tensor &B, Sequence &prog,
              const DebugContext &debugContext, const OptionFlags &options,
              matmul::PlanningCache *cache) {
  return matMul(graph, A, B, prog, A.elementType(), debugContext, options,
                cache);
}

void matMulWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                      Tensor &out, Sequence &prog,
                      const DebugContext &debugContext,
                      const OptionFlags &options,
                      matmul::PlanningCache *cache) {
  const DebugContext dc(debugContext, "matMulWithOutput");
  matMul2D(graph, A, B, out.elementType(), &out, prog, dc, options, cache);
}

void matMulAcc(Graph &graph, const Tensor &C, float k, const Tensor &A,
               const Tensor &B, Sequence &prog,
               const DebugContext &debugContext, const OptionFlags &options,
               matmul::PlanningCache *cache) {
  const DebugContext dc(debugContext, "matMulAcc");
  Tensor product =
      matMul2D(graph, A, B, C.elementType(), nullptr, prog, dc, options, cache);
  popops::scaledAddTo(graph, C, product, k, prog, {dc, "accumulate"});
}

void matMulAcc(Graph &graph, const Tensor &C, const Tensor &k,
               const Tensor &A, const Tensor &B, Sequence &prog,
               const DebugContext &debugContext, const OptionFlags &options,
               matmul::PlanningCache *cache) {
  const DebugContext dc(debugContext, "matMulAcc");
  Tensor product =
      matMul2D(graph, A, B, C.elementType(), nullptr, prog, dc, options, cache);
  popops::scaledAddTo(graph, C, product, k, prog, {dc, "accumulate"});
}

Tensor matMulGrouped(Graph &graph, const Tensor &A, const Tensor &B,
                     Sequence &prog, const Type &outputType,
                     const DebugContext &debugContext,
                     const OptionFlags &options,
                     matmul::PlanningCache *cache) {
  const DebugContext dc(debugContext, "matMulGrouped");
  checkRank(A, 3, "A");
  checkRank(B, 3, "B");
  return matMulImpl(graph, A, B, outputType, nullptr, prog, dc, options,
                    cache);
}

void matMulGroupedWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                             Tensor &out, Sequence &prog,
                             const DebugContext &debugContext,
                             const OptionFlags &options,
                             matmul::PlanningCache *cache) {
  const DebugContext dc(debugContext, "matMulGroupedWithOutput");
  checkRank(A, 3, "A");
  checkRank(B, 3, "B");
  checkRank(out, 3, "the output");
  matMulImpl(graph, A, B, out.elementType(), &out, prog, dc, options, cache);
}

void matMulGroupedAcc(Graph &graph, const Tensor &C, float k, const Tensor &A,
                      const Tensor &B, Sequence &prog,
                      const DebugContext &debugContext,
                      const OptionFlags &options,
                      matmul::PlanningCache *cache) {
  const DebugContext dc(debugContext, "matMulGroupedAcc");
  checkRank(A, 3, "A");
  checkRank(B, 3, "B");
  Tensor product = matMulImpl(graph, A, B, C.elementType(), nullptr, prog, dc,
                              options, cache);
  popops::scaledAddTo(graph, C, product, k, prog, {dc, "accumulate"});
}

Tensor createMatMulInputLHS(Graph &graph, const Type &inputType,
                            const Type &outputType,
                            const std::vector<std::size_t> &aShape,
                            const std::vector<std::size_t> &bShape,
                            const DebugContext &debugContext,
                            const OptionFlags &options,
                            matmul::PlanningCache *cache) {
  checkType(outputType, "the output type");
  return createLHS(graph, inputType, problemOf(aShape, bShape, false),
                   {debugContext, "createMatMulInputLHS"}, options, cache)
      .squeeze({0});
}

Tensor createMatMulInputLHS(Graph &graph, const Type &dataType,
                            const std::vector<std::size_t> &aShape,
                            const std::vector<std::size_t> &bShape,
                            const DebugContext &debugContext,
                            const OptionFlags &options,
                            matmul::PlanningCache *cache) {
  return createMatMulInputLHS(graph, dataType, dataType, aShape, bShape,
                              debugContext, options, cache);
}

Tensor createMatMulInputRHS(Graph &graph, const Type &inputType,
                            const Type &outputType,
                            const std::vector<std::size_t> &aShape,
                            const std::vector<std::size_t> &bShape,
                            const DebugContext &debugContext,
                            const OptionFlags &options,
                            matmul::PlanningCache *cache) {
  checkType(outputType, "the output type");
  return createRHS(graph, inputType, problemOf(aShape, bShape, false),
                   {debugContext, "createMatMulInputRHS"}, options, cache)
      .squeeze({0});
}

Tensor createMatMulInputRHS(Graph &graph, const Type &dataType,
                            const std::vector<std::size_t> &aShape,
                            const std::vector<std::size_t> &bShape,
                            const DebugContext &debugContext,
                            const OptionFlags &options,
                            matmul::PlanningCache *cache) {
  return createMatMulInputRHS(graph, dataType, dataType, aShape, bShape,
                              debugContext, options, cache);
}

Tensor createMatMulOutput(Graph &graph, const Type &inputType,
                          const Type &outputType,
                          const std::vector<std::size_t> &aShape,
                          const std::vector<std::size_t> &bShape,
                          const DebugContext &debugContext,
                          const OptionFlags &options,
                          matmul::PlanningCache *cache) {
  return createOut(graph, inputType, outputType,
                   problemOf(aShape, bShape, false),
                   {debugContext, "createMatMulOutput"}, options, cache)
      .squeeze({0});
}

Tensor createMatMulGroupedInputLHS(Graph &graph, const Type &inputType,
                                   const Type &outputType,
                                   const std::vector<std::size_t> &aShape,
                                   const std::vector<std::size_t> &bShape,
                                   const DebugContext &debugContext,
                                   const OptionFlags &options,
                                   matmul::PlanningCache *cache) {
  checkType(outputType, "the output type");
  return createLHS(graph, inputType, problemOf(aShape, bShape, true),
                   {debugContext, "createMatMulGroupedInputLHS"}, options,
                   cache);
}

Tensor createMatMulGroupedInputRHS(Graph &graph, const Type &inputType,
                                   const Type &outputType,
                                   const std::vector<std::size_t> &aShape,
                                   const std::vector<std::size_t> &bShape,
                                   const DebugContext &debugContext,
                                   const OptionFlags &options,
                                   matmul::PlanningCache *cache) {
  checkType(outputType, "the output type");
  return createRHS(graph, inputType, problemOf(aShape, bShape, true),
                   {debugContext, "createMatMulGroupedInputRHS"}, options,
                   cache);
}

Tensor createMatMulGroupedOutput(Graph &graph, const Type &inputType,
                                 const Type &outputType,
                                 const std::vector<std::size_t> &aShape,
                                 const std::vector<std::size_t> &bShape,
                                 const DebugContext &debugContext,
                                 const OptionFlags &options,
                                 matmul::PlanningCache *cache) {
  return createOut(graph, inputType, outputType,
                   problemOf(aShape, bShape, true),
                   {debugContext, "createMatMulGroupedOutput"}, options,
                   cache);
}

Tensor transposeGroupedMatrix(const Tensor &A) {
  checkRank(A, 3, "the grouped matrix");
  return A.dimShuffle({0, 2, 1});
}

void matMulReportPlan(std::ostream &out, const Graph &graph,
                      const Type &inputType, const Type &outputType,
                      const std::vector<std::size_t> &aShape,
                      const std::vector<std::size_t> &bShape,
                      const OptionFlags &options,
                      matmul::PlanningCache *cache) {
  checkType(inputType, "the input type");
  checkType(outputType, "the output type");
  const Problem p = problemOf(aShape, bShape, aShape.size() == 3);
  const MatMulPlan plan = getPlan(
      graph.getTarget(), inputType, p, detail::parseMatMulOptions(options), cache);
  out << "poplin matmul plan: " << p.groups << " x [" << p.m << ", " << p.k
      << "] x [" << p.k << ", " << p.n << "]\n";
  detail::printPlan(out, plan);
}

} // namespace poplin

namespace poplin {

bool operator<(const MatMulParams &a, const MatMulParams &b) {
  auto key = [](const MatMulParams &p) {
    return std::make_tuple(std::string(p.inputType.toString()),
                           std::string(p.outputType.toString()), p.aShape,
                           p.bShape);
  };
  return key(a) < key(b);
}

Tensor createMatMulOutput(Graph &graph, const Type &dataType,
                          const std::vector<std::size_t> &aShape,
                          const std::vector<std::size_t> &bShape,
                          const DebugContext &debugContext,
                          const OptionFlags &options,
                          matmul::PlanningCache *cache) {
  return createMatMulOutput(graph, dataType, dataType, aShape, bShape,
                            debugContext, options, cache);
}

void matMulGroupedReportPlan(std::ostream &out, const Graph &graph,
                             const Type &inputType, const Type &outputType,
                             const std::vector<std::size_t> &aShape,
                             const std::vector<std::size_t> &bShape,
                             const OptionFlags &options,
                             matmul::PlanningCache *cache) {
  if (aShape.size() != 3)
    throw poputil::poplibs_error("poplin: matMulGroupedReportPlan: aShape "
                                 "must have rank 3");
  matMulReportPlan(out, graph, inputType, outputType, aShape, bShape, options,
                   cache);
}

namespace {

Tensor preArrange(Graph &graph, const std::vector<std::size_t> &aShape,
                  const Tensor &B, Sequence &prog, const Type &outputType,
                  const DebugContext &dc, const OptionFlags &optionFlags,
                  matmul::PlanningCache *cache, bool grouped) {
  const MatMulOptions options = detail::parseMatMulOptions(optionFlags);
  checkType(B.elementType(), "the type of B");
  checkType(outputType, "the output type");
  const Problem p = problemOf(aShape, B.shape(), grouped);
  if (!options.inputRHSIsPreArranged ||
      options.fullyConnectedPass != "TRAINING_BWD")
    return B;
  Tensor arranged = createRHS(graph, B.elementType(), p, dc, optionFlags,
                              cache);
  if (!grouped)
    arranged = arranged.squeeze({0});
  if (B.numElements() != 0)
    prog.add(Copy(B, arranged, false, {dc, "preArrange"}));
  return arranged;
}

} // namespace

Tensor preArrangeMatMulInputRHS(Graph &graph,
                                const std::vector<std::size_t> &aShape,
                                const Tensor &B, Sequence &prog,
                                const Type &outputType,
                                const DebugContext &debugContext,
                                const OptionFlags &options,
                                matmul::PlanningCache *cache) {
  return preArrange(graph, aShape, B, prog, outputType,
                    {debugContext, "preArrangeMatMulInputRHS"}, options, cache,
                    false);
}

Tensor preArrangeMatMulInputRHS(Graph &graph,
                                const std::vector<std::size_t> &aShape,
                                const Tensor &B, Sequence &prog,
                                const DebugContext &debugContext,
                                const OptionFlags &options,
                                matmul::PlanningCache *cache) {
  return preArrangeMatMulInputRHS(graph, aShape, B, prog, B.elementType(),
                                  debugContext, options, cache);
}

Tensor preArrangeMatMulGroupedInputRHS(Graph &graph,
                                       const std::vector<std::size_t> &aShape,
                                       const Tensor &B, Sequence &prog,
                                       const Type &outputType,
                                       const DebugContext &debugContext,
                                       const OptionFlags &options,
                                       matmul::PlanningCache *cache) {
  return preArrange(graph, aShape, B, prog, outputType,
                    {debugContext, "preArrangeMatMulGroupedInputRHS"}, options,
                    cache, true);
}

namespace detail {

void preplanMatMulsInto(const std::set<MatMulPlanParams> &matmuls,
                        PlanningCache &cache) {
  for (const auto &[target, params, options] : matmuls) {
    if (target == nullptr)
      throw poputil::poplibs_error(
          "poplin: preplanning: a MatMulPlanParams has no target");
    checkType(params.inputType, "the input type");
    checkType(params.outputType, "the output type");
    const Problem p = problemOf(params.aShape, params.bShape,
                                params.aShape.size() == 3);
    const MatMulOptions parsed =
        detail::parseMatMulOptions(options ? *options : OptionFlags{});
    if (!emptyResult(p))
      getPlan(*target, params.inputType, p, parsed, &cache);
  }
}

} // namespace detail

void preplanMatMuls(const std::set<MatMulPlanParams> &matmuls,
                    matmul::PlanningCache &cache) {
  detail::preplanMatMulsInto(matmuls, cache.getImpl());
}

void matmulValidateOptions(const OptionFlags &options) {
  detail::parseMatMulOptions(options);
}

} // namespace poplin

// splineBasis and splineWeighting from element-wise maps, multiSlice and
// reduce: the splines and dimensions are few and known when the graph is
// built, so each (dimension, piece) pair is one map over the edges.
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/SplineBasis.hpp>
#include <popops/SplineWeighting.hpp>

#include "Messages.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using poplar::Tensor;
namespace pe = popops::expr;

namespace {

void require(bool ok, const std::string &op, const std::string &what) {
  if (!ok)
    throw poputil::poplibs_error(op + ": " + what);
}

std::string describe(const Tensor &t) {
  return shapeString(t.shape()) + " of " + t.elementType().toString().str();
}

bool isFloat(const poplar::Type &t) {
  return t == poplar::FLOAT || t == poplar::HALF;
}

// Piece k of the B-spline of `degree` at the fraction x (_1).
pe::Any piece(unsigned degree, unsigned k) {
  const pe::PlaceHolder &x = pe::_1;
  const auto c = [](float v) { return pe::Const(v); };
  if (degree == 1)
    return k == 0 ? pe::Any(c(1.0f) - x) : pe::Any(x);
  if (degree == 2) {
    if (k == 0)
      return c(0.5f) * x * x - x + c(0.5f);
    if (k == 1)
      return -(x * x) + x + c(0.5f);
    return c(0.5f) * x * x;
  }
  if (k == 0)
    return (c(1.0f) - x) * (c(1.0f) - x) * (c(1.0f) - x) / c(6.0f);
  if (k == 1)
    return (c(3.0f) * x * x * x - c(6.0f) * x * x + c(4.0f)) / c(6.0f);
  if (k == 2)
    return (c(-3.0f) * x * x * x + c(3.0f) * x * x + c(3.0f) * x + c(1.0f)) /
           c(6.0f);
  return x * x * x / c(6.0f);
}

} // namespace

void splineBasis(poplar::Graph &graph, const Tensor &pseudo,
                 const Tensor &kernelSize, const Tensor &isOpenSpline,
                 const Tensor &basis, const Tensor &weightIndex,
                 unsigned degree, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "splineBasis");
  require(pseudo.rank() == 2 && isFloat(pseudo.elementType()), op,
          "pseudo " + describe(pseudo) +
              " must be [numEdges, numDims] of float or half");
  const std::size_t E = pseudo.dim(0), D = pseudo.dim(1);
  require(D >= 1, op, "pseudo " + describe(pseudo) + " has no dimension");
  require(kernelSize.shape() == std::vector<std::size_t>{D} &&
              kernelSize.elementType() == poplar::INT,
          op, "kernelSize " + describe(kernelSize) + " must be {" +
                  std::to_string(D) + "} of int");
  require(isOpenSpline.shape() == std::vector<std::size_t>{D} &&
              isOpenSpline.elementType() == poplar::UNSIGNED_CHAR,
          op, "isOpenSpline " + describe(isOpenSpline) + " must be {" +
                  std::to_string(D) + "} of unsigned char");
  require(degree >= 1 && degree <= 3, op,
          "degree " + std::to_string(degree) + " must be 1, 2 or 3");
  std::size_t S = 1;
  for (std::size_t d = 0; d < D; ++d)
    S *= degree + 1;
  require(basis.shape() == std::vector<std::size_t>{E, S} &&
              basis.elementType() == pseudo.elementType(),
          op, "basis " + describe(basis) + " must be " +
                  shapeString({E, S}) + " of pseudo's type");
  require(weightIndex.shape() == std::vector<std::size_t>{E, S} &&
              weightIndex.elementType() == poplar::INT,
          op, "weightIndex " + describe(weightIndex) + " must be " +
                  shapeString({E, S}) + " of int");
  const poplar::Type type = pseudo.elementType();

  // v = pseudo * (kernelSize - degree * isOpenSpline), its integer part
  // and its fraction.
  const Tensor open = popops::cast(graph, isOpenSpline, poplar::INT, prog,
                                   {op + "/open"});
  const Tensor scale = popops::map(
      graph,
      pe::Cast(pe::_1 - pe::_2 * pe::Const(static_cast<int>(degree)), type),
      {kernelSize, open}, prog, {op + "/scale"});
  const Tensor v = popops::map(graph, pe::_1 * pe::_2,
                               {pseudo, scale.expand({0}).broadcast(E, 0)},
                               prog, {op + "/v"});
  const Tensor whole = popops::cast(graph, v, poplar::INT, prog, {op + "/int"});
  const Tensor fraction = popops::map(graph, pe::_1 - pe::Floor(pe::_1), {v},
                                      prog, {op + "/fraction"});

  // The index stride of each dimension: the product of the kernel sizes
  // before it.
  std::vector<Tensor> stride(D);
  for (std::size_t d = 0; d < D; ++d) {
    if (d == 0) {
      stride[d] = graph.addConstant(poplar::INT, {1}, 1, {op + "/stride0"});
      graph.setTileMapping(stride[d], 0);
    } else {
      stride[d] = popops::mul(graph, stride[d - 1],
                              kernelSize.slice(d - 1, d), prog,
                              {op + "/stride"});
    }
  }

  // Each piece of each dimension: its basis factor and index term.
  std::vector<std::vector<Tensor>> factor(D), term(D);
  for (std::size_t d = 0; d < D; ++d) {
    const Tensor frac = fraction.slice(d, d + 1, 1).flatten();
    const Tensor base = whole.slice(d, d + 1, 1).flatten();
    const Tensor size = kernelSize.slice(d, d + 1).broadcast(E, 0);
    const Tensor step = stride[d].broadcast(E, 0);
    for (unsigned k = 0; k <= degree; ++k) {
      factor[d].push_back(popops::map(graph, piece(degree, k), {frac}, prog,
                                      {op + "/piece"}));
      term[d].push_back(popops::map(
          graph,
          pe::Rem(pe::_1 + pe::Const(static_cast<int>(k)), pe::_2) * pe::_3,
          {base, size, step}, prog, {op + "/index"}));
    }
  }

  // Each spline: the product of its pieces' factors and the sum of their
  // index terms, the piece of dimension d being digit d of s.
  std::vector<Tensor> basisColumns, indexColumns;
  for (std::size_t s = 0; s < S; ++s) {
    std::size_t rest = s;
    Tensor b, w;
    for (std::size_t d = 0; d < D; ++d) {
      const unsigned k = static_cast<unsigned>(rest % (degree + 1));
      rest /= degree + 1;
      if (d == 0) {
        b = factor[d][k];
        w = term[d][k];
      } else {
        b = popops::mul(graph, b, factor[d][k], prog, {op + "/basis"});
        w = popops::add(graph, w, term[d][k], prog, {op + "/weightIndex"});
      }
    }
    basisColumns.push_back(b.expand({1}));
    indexColumns.push_back(w.expand({1}));
  }
  prog.add(poplar::program::Copy(poplar::concat(basisColumns, 1), basis));
  prog.add(poplar::program::Copy(poplar::concat(indexColumns, 1), weightIndex));
}

Tensor splineWeighting(poplar::Graph &graph, const Tensor &input,
                       const Tensor &weight, const Tensor &basis,
                       const Tensor &weightIndex,
                       poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "splineWeighting");
  require(input.rank() == 2 && isFloat(input.elementType()), op,
          "input " + describe(input) +
              " must be [numEdges, numInputChannels] of float or half");
  const poplar::Type type = input.elementType();
  const std::size_t E = input.dim(0), I = input.dim(1);
  require(weight.rank() == 3 && weight.elementType() == type &&
              weight.dim(1) == I,
          op, "weight " + describe(weight) +
                  " must be [numWeights, " + std::to_string(I) +
                  ", numOutputChannels] of input's type");
  const std::size_t K = weight.dim(0), O = weight.dim(2);
  require(basis.rank() == 2 && basis.dim(0) == E && basis.elementType() == type,
          op, "basis " + describe(basis) + " must be [" + std::to_string(E) +
                  ", numSplines] of input's type");
  const std::size_t S = basis.dim(1);
  require(S >= 1, op, "basis " + describe(basis) + " has no spline");
  require(weightIndex.shape() == basis.shape() &&
              weightIndex.elementType() == poplar::INT,
          op, "weightIndex " + describe(weightIndex) + " must be " +
                  shapeString(basis.shape()) + " of int");

  const Tensor table = weight.reshape({K, I * O});
  const Tensor features = input.reshape({E, I, 1}).broadcast(O, 2);
  Tensor output;
  for (std::size_t s = 0; s < S; ++s) {
    // The weights of spline s of each edge, [E, I, O].
    const Tensor offsets = weightIndex.slice(s, s + 1, 1)
                               .reinterpret(poplar::UNSIGNED_INT);
    const Tensor chosen =
        popops::multiSlice(graph, table, offsets, {0}, {1}, prog,
                           popops::SlicePlan(), {}, {op + "/weights"})
            .reshape({E, I, O});
    const Tensor weighted = popops::mul(graph, chosen, features, prog,
                                        {op + "/weighted"});
    Tensor term = popops::reduce(graph, weighted, {1},
                                 {popops::Operation::ADD}, prog,
                                 {op + "/sum"});
    term = popops::mul(graph, term,
                       basis.slice(s, s + 1, 1).broadcast(O, 1), prog,
                       {op + "/basis"});
    output = s == 0 ? term
                    : popops::add(graph, output, term, prog, {op + "/add"});
  }
  return output;
}

} // namespace popops

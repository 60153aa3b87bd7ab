#include <popnn/LogSoftmax.hpp>

#include "TileWork.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;

namespace popnn {
namespace {

// t - max - log(sum(exp(t - max))), the reduction in FLOAT.
Tensor logSoftmaxImpl(Graph &graph, const Tensor &t, bool inPlace,
                      Sequence &prog, const DebugContext &dc,
                      const std::string &opName) {
  detail::checkFloatingPoint(t, opName, "tensor");
  if (t.rank() < 1)
    throw poputil::poplibs_error(opName + ": tensor " + detail::describe(t) +
                                 " must have at least one dimension");
  if (inPlace && !t.isParallelWriteable())
    throw poputil::poplibs_error(opName + ": tensor " + detail::describe(t) +
                                 " cannot be written in parallel");
  const Tensor rows = t.rank() == 1 ? t.expand({0}) : t.flatten(0, t.rank() - 1);
  const Tensor max = popops::reduce(graph, rows, {1}, {popops::Operation::MAX},
                                    prog, {dc, "max"})
                         .expand({1});
  const Tensor sum = popops::reduce(
      graph, popops::map(graph, Exp(_1 - _2), {rows, max}, prog, {dc, "exp"}),
      FLOAT, {1}, {popops::Operation::ADD}, prog, {dc, "sum"});
  // The offset of each row, max + log(sum), in the data's type.
  Tensor offset = popops::map(
      graph, Cast(Cast(_1, FLOAT) + Log(_2), t.elementType()),
      {max.squeeze({1}), sum}, prog, {dc, "offset"});
  if (inPlace) {
    popops::subInPlace(graph, rows, offset.expand({1}), prog, {dc, "sub"});
    return t;
  }
  return popops::sub(graph, rows, offset.expand({1}), prog, {dc, "sub"})
      .reshape(t.shape());
}

} // namespace

Tensor logSoftmax(Graph &graph, Tensor t, Sequence &prog,
                  const DebugContext &debugContext) {
  return logSoftmaxImpl(graph, t, false, prog, {debugContext, "LogSoftmax"},
                        "popnn::logSoftmax");
}

void logSoftmaxInPlace(Graph &graph, Tensor t, Sequence &prog,
                       const DebugContext &debugContext) {
  logSoftmaxImpl(graph, t, true, prog, {debugContext, "LogSoftmax"},
                 "popnn::logSoftmaxInPlace");
}

} // namespace popnn

// normaliseImage: three channels normalised by one fused map written into
// the first three channels of a 4-channel result, the fourth zeroed.
#include <popops/ElementWise.hpp>
#include <popops/NormaliseImage.hpp>
#include <popops/Zero.hpp>

#include "Messages.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using poplar::Tensor;

namespace {

void checkImage(const std::string &op, const poplar::Type &type,
                const std::vector<std::size_t> &shape,
                const std::string &name) {
  if (type != poplar::UNSIGNED_CHAR && type != poplar::HALF &&
      type != poplar::FLOAT)
    throw poputil::poplibs_error(op + ": image '" + name + "' has type " +
                                 type.toString().str() +
                                 "; it must be unsigned char, half or float");
  if (shape.empty() || shape.back() != 3)
    throw poputil::poplibs_error(op + ": image '" + name + "' " +
                                 shapeString(shape) +
                                 " must have an inner dimension of 3 channels");
}

} // namespace

Tensor createNormaliseImageInput(poplar::Graph &graph, const poplar::Type &type,
                                 const poplar::ArrayRef<std::size_t> shape,
                                 const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "createNormaliseImageInput");
  checkImage(op, type, shape.vec(), debugContext.getPathName());
  Tensor t = graph.addVariable(type, shape, debugContext);
  poputil::mapTensorLinearly(graph, t, 3, 3);
  return t;
}

Tensor normaliseImage(poplar::Graph &graph, poplar::program::Sequence &seq,
                      Tensor tIn, float inScale, Tensor offsets, Tensor scales,
                      const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "normaliseImage");
  checkImage(op, tIn.elementType(), tIn.shape(), tIn.getDebugStr());
  const poplar::Type outType = tIn.elementType() == poplar::UNSIGNED_CHAR
                                   ? poplar::HALF
                                   : tIn.elementType();
  for (const Tensor *t : {&offsets, &scales})
    if (t->shape() != std::vector<std::size_t>{3} ||
        t->elementType() != outType)
      throw poputil::poplibs_error(
          op + ": '" + t->getDebugStr() + "' " + shapeString(t->shape()) +
          " of type " + t->elementType().toString().str() + " must be {3} of " +
          outType.toString().str());
  auto shape = tIn.shape();
  shape.back() = 4;
  Tensor out = graph.addVariable(outType, shape, {op + "/out"});
  poputil::mapTensorLinearly(graph, out, 4, 4);
  const unsigned channels = static_cast<unsigned>(shape.size() - 1);
  using namespace popops::expr;
  const Tensor rgb = out.slice(0, 3, channels);
  mapWithOutput(graph, Mul(Sub(Mul(Cast(_1, outType), Const(inScale)), _2), _3),
                {tIn, offsets, scales}, rgb, seq, {op});
  zero(graph, out.slice(3, 4, channels), seq, {op + "/pad"});
  return out;
}

} // namespace popops

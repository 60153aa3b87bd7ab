#include <poplin/MeshGrid.hpp>

#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <string>

namespace poplin {

poplar::Tensor linspace(poplar::Graph &graph, const poplar::Type &type,
                        float left, float right, std::size_t count,
                        const poplar::DebugContext &debugContext) {
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error("poplin::linspace: the type must be FLOAT or "
                                 "HALF, not " + type.toString().str());
  std::vector<float> values(count);
  for (std::size_t i = 0; i != count; ++i)
    values[i] = count == 1 ? left
                           : left + (right - left) * (static_cast<double>(i) /
                                                      (count - 1));
  poplar::Tensor t = graph.addConstant<float>(
      type, {count}, poplar::ArrayRef<float>(values),
      {debugContext, "linspace"});
  poputil::mapTensorLinearly(graph, t);
  return t;
}

std::vector<poplar::Tensor> meshgrid2d(poplar::Graph &, poplar::Tensor x,
                                       poplar::Tensor y) {
  for (const auto *t : {&x, &y})
    if (t->rank() != 1)
      throw poputil::poplibs_error(
          std::string("poplin::meshgrid2d: ") + (t == &x ? "x" : "y") +
          " must be of rank 1, not " + std::to_string(t->rank()));
  const std::size_t nx = x.numElements(), ny = y.numElements();
  return {x.expand({0}).broadcast(static_cast<unsigned>(ny), 0),
          y.expand({1}).broadcast(static_cast<unsigned>(nx), 1)};
}

} // namespace poplin

#include <popnn/SpatialSoftMax.hpp>

#include <poplibs_support/logging.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/MeshGrid.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/exceptions.hpp>

#include <fmt/ranges.h>

namespace popnn {

std::pair<poplar::Tensor, poplar::Tensor>
spatialSoftMax2D(poplar::Graph &graph, poplar::program::Sequence &prog,
                 const poplar::Tensor &fields, float temperature,
                 bool disableSoftmax,
                 const poplar::DebugContext &debugContext) {
  const poplar::DebugContext dc(debugContext, "spatialSoftMax2D");
  const poplar::Type type = fields.elementType();
  if (fields.rank() != 3)
    throw poputil::poplibs_error(
        "popnn::spatialSoftMax2D: the fields '" + fields.getDebugStr() +
        "' must be of rank 3 ([fields, height, width]), not " +
        std::to_string(fields.rank()));
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error("popnn::spatialSoftMax2D: the fields " +
                                 fields.getDebugStr() +
                                 "' must be FLOAT or HALF, not " +
                                 type.toString().str());
  poplibs_support::logging::popnn::info(
      "spatialSoftMax2D {}: fields [{}], temperature {}{}", dc.getPathName(),
      fmt::join(fields.shape(), ", "), temperature,
      disableSoftmax ? ", no softmax" : "");
  const std::size_t numFields = fields.dim(0), height = fields.dim(1),
                    width = fields.dim(2);

  poplar::Tensor t = graph.addVariable(type, {}, {dc, "temperature"});
  graph.setInitialValue(t, temperature);
  graph.setTileMapping(t, 0);

  // The probabilities, [F, H * W].
  poplar::Tensor probabilities;
  if (disableSoftmax) {
    probabilities = fields.reshape({numFields, height * width});
  } else {
    using namespace popops::expr;
    probabilities = popops::map(graph, _1 / _2, {fields, t}, prog,
                                {dc, "fieldsScaled"})
                        .reshape({numFields, height * width});
    // One softmax over every element of every field.
    nonLinearityInPlace(graph, NonLinearityType::SOFTMAX,
                        probabilities.flatten(), prog, {dc, "softmax"});
  }

  // The coordinates of each element, [H * W, 2]: y then x, row-major.
  const poplar::Tensor x = poplin::linspace(graph, type, -1.f, 1.f, width, dc);
  const poplar::Tensor y = poplin::linspace(graph, type, -1.f, 1.f, height, dc);
  const auto grids = poplin::meshgrid2d(graph, x, y);
  const poplar::Tensor coordinates =
      poplar::concat(grids[1].reshape({height * width, 1}),
                     grids[0].reshape({height * width, 1}), 1);

  // The expected coordinates: probabilities x coordinates, with operands
  // laid out for the multiplication.
  const std::vector<std::size_t> lhsShape = {numFields, height * width};
  const std::vector<std::size_t> rhsShape = {height * width, 2};
  poplar::Tensor lhs =
      poplin::createMatMulInputLHS(graph, type, lhsShape, rhsShape, {dc, "lhs"});
  poplar::Tensor rhs =
      poplin::createMatMulInputRHS(graph, type, lhsShape, rhsShape, {dc, "rhs"});
  prog.add(poplar::program::Copy(probabilities, lhs, false, {dc}));
  prog.add(poplar::program::Copy(coordinates, rhs, false, {dc}));
  return {poplin::matMul(graph, lhs, rhs, prog, {dc, "expectation"}), t};
}

} // namespace popnn

#include "ops/ScatterReduceOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <cctype>

namespace popart {

std::string scatterReductionName(ScatterReduction r) {
  switch (r) {
  case ScatterReduction::Sum:
    return "sum";
  case ScatterReduction::Max:
    return "max";
  case ScatterReduction::Min:
    return "min";
  case ScatterReduction::Mul:
    return "mul";
  case ScatterReduction::None:
    return "none";
  }
  throw internal_error("unknown ScatterReduction {}", int(r));
}

namespace {

ScatterReduction reductionFromName(std::string name, const std::string &op) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  for (auto r : {ScatterReduction::Sum, ScatterReduction::Max,
                 ScatterReduction::Min, ScatterReduction::Mul,
                 ScatterReduction::None})
    if (scatterReductionName(r) == name)
      return r;
  throw error("ScatterReduce '{}': reduction '{}' is not one of sum, max, min, "
              "mul, none",
              op, name);
}

} // namespace

ScatterReduceOp::ScatterReduceOp(const OperatorIdentifier &id,
                                 const Op::Settings &settings,
                                 const Attributes &a)
    : Op(id, settings), axis(a.getInt("axis", -1)),
      axisSize(a.getInt("axis_size", 0)),
      reduction(reductionFromName(a.getString("reduction", "sum"), name())),
      groupSize(a.getInt("group_size", 1)),
      indexBroadcastEnabled(a.getInt("enable_index_broadcast", 1) != 0) {
  if (axisSize < 1)
    throw error("ScatterReduce '{}': axis_size = {} is not valid: must be > 0",
                name(), axisSize);
  if (groupSize < 1)
    throw error("ScatterReduce '{}': group_size = {} is not valid: must be > 0",
                name(), groupSize);
  const int64_t broadcast = a.getInt("enable_index_broadcast", 1);
  if (broadcast != 0 && broadcast != 1)
    throw error("ScatterReduce '{}': enable_index_broadcast = {} is not valid: "
                "must be either 0 or 1",
                name(), broadcast);
}

void ScatterReduceOp::setup() {
  const Shape src = inShape(0);
  const DataType type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16 &&
      type != DataType::INT32)
    throw error("{}: src '{}' is {}; FLOAT, FLOAT16 and INT32 are supported",
                str(), inTensor(0)->id, inInfo(0).data_type());
  if (!isIntegerType(inInfo(1).dataType()))
    throw error("{}: index '{}' is {}, not an integer type", str(),
                inTensor(1)->id, inInfo(1).data_type());
  const int64_t rank = int64_t(src.size());
  axis = normaliseAxis(axis, rank, *this);
  const bool grouped = groupSize > 1;
  if (grouped && (rank < 2 || src[0] != groupSize || axis == 0))
    throw error("{}: with group_size {} src '{}' must have the groups in "
                "dimension 0 (shape {}) and the axis ({}) after it",
                str(), groupSize, inTensor(0)->id, src, axis);

  // The index's shape with its missing dimensions as 1: before the axis
  // for a vector (after the group dimension), and at the end.
  indexShape = inShape(1);
  const std::size_t g = grouped ? 1 : 0;
  if (indexShape.size() > src.size())
    throw error("{}: index '{}' of rank {} has more dimensions than src ({})",
                str(), inTensor(1)->id, indexShape.size(), src.size());
  if (indexShape.size() == g + 1)
    indexShape.insert(indexShape.begin() + g, std::size_t(axis) - g, 1);
  indexShape.resize(src.size(), 1);
  for (std::size_t d = 0; d < src.size(); ++d)
    if (indexShape[d] > src[d])
      throw error("{}: failed to expand index '{}' shape {} to match src shape "
                  "{} using reduction axis = {}",
                  str(), inTensor(1)->id, inShape(1), src, axis);
  usedShape = src;
  if (indexShape != src) {
    if (indexBroadcastEnabled) {
      for (std::size_t d = 0; d < src.size(); ++d) {
        const bool kept = int64_t(d) == axis || (grouped && d == 0);
        if (kept ? indexShape[d] != src[d] : indexShape[d] != 1)
          throw error("{}: index '{}' of shape {} is a partial broadcast of src "
                      "shape {} (only a vector along axis {} is broadcast)",
                      str(), inTensor(1)->id, inShape(1), src, axis);
      }
    } else {
      usedShape = indexShape;
    }
  }
  Shape outShape = usedShape;
  outShape[std::size_t(axis)] = axisSize;
  if (hasInput(2)) {
    if (inInfo(2).dataType() != type || inShape(2) != outShape)
      throw error("{}: initial_values '{}' is {} {}, not the output's {} {}",
                  str(), inTensor(2)->id, inInfo(2).data_type(), inShape(2),
                  inInfo(0).data_type(), outShape);
  }
  outInfo(0) = TensorInfo(type, outShape);
}

std::vector<std::unique_ptr<Op>> ScatterReduceOp::getGradOps() {
  if (inInfo(0).dataType() == DataType::INT32)
    throw error("{}: no gradient for an INT32 src", str());
  return gradOps<ScatterReduceGradOp>(*this);
}

namespace {
std::vector<GradInOutMapper> scatterGradInputs(const ScatterReduceOp &fwd) {
  std::vector<GradInOutMapper> in = {{0, 0, GradOpInType::GradOut},
                                     {1, 1, GradOpInType::In},
                                     {2, 0, GradOpInType::In},
                                     {3, 0, GradOpInType::Out}};
  if (fwd.hasInput(2))
    in.push_back({4, 2, GradOpInType::In});
  return in;
}
std::map<int, int> scatterGradOutputs(const ScatterReduceOp &fwd) {
  if (fwd.hasInput(2))
    return {{0, 0}, {1, 2}};
  return {{0, 0}};
}
} // namespace

ScatterReduceGradOp::ScatterReduceGradOp(const ScatterReduceOp &fwd)
    : GradOp(fwd, "ScatterReduceGrad", scatterGradInputs(fwd),
             scatterGradOutputs(fwd)),
      axis(fwd.axis), axisSize(fwd.axisSize), reduction(fwd.reduction),
      groupSize(fwd.groupSize), indexShape(fwd.indexShape),
      usedShape(fwd.usedShape), hasInitialValues(fwd.hasInput(2)) {}

} // namespace popart

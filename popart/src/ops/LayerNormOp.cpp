#include "ops/LayerNormOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

LayerNormOp::LayerNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
                         const Attributes &a)
    : Op(id, settings), axis(a.getInt("axis", -1)),
      epsilon(a.getFloat("epsilon", 1e-5f)) {
  if (a.getInt("stash_type", 1) != 1)
    throw error("LayerNormalization '{}': only stash_type 1 (FLOAT "
                "statistics) is supported",
                name());
}

void LayerNormOp::setup() {
  const Shape x = inShape(0);
  const auto type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16)
    throw error("{}: input '{}' is {}; FLOAT and FLOAT16 are supported", str(),
                inTensor(0)->id, inInfo(0).data_type());
  axis = normaliseAxis(axis, int64_t(x.size()), *this);
  inner = outer = 1;
  for (std::size_t d = 0; d < x.size(); ++d)
    (int64_t(d) < axis ? outer : inner) *= x[d];
  const Shape normalised(x.begin() + axis, x.end());
  for (int i = 1; i <= 2; ++i)
    if (hasInput(i) && inInfo(i).nelms() != inner)
      throw error("{}: '{}' has shape {}, not the normalised shape {}", str(),
                  inTensor(i)->id, inShape(i), normalised);
  if (!hasInput(1))
    throw error("{}: the Scale input is missing", str());
  outInfo(0) = inInfo(0);
  Shape statShape = x;
  for (std::size_t d = std::size_t(axis); d < x.size(); ++d)
    statShape[d] = 1;
  for (std::size_t i = 1; i < outputs.size() && i < 3; ++i)
    if (outputs[i])
      outInfo(int(i)) = TensorInfo(DataType::FLOAT, statShape);
}


std::vector<std::unique_ptr<Op>> LayerNormOp::getGradOps() {
  return gradOps<LayerNormGradOp>(*this);
}

} // namespace popart

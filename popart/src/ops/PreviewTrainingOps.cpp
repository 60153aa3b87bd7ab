#include "ops/PreviewTrainingOps.hpp"

#include <popart/error.hpp>

namespace popart {

PreviewOptimizerOp::PreviewOptimizerOp(const OperatorIdentifier &id,
                                       const Op::Settings &settings,
                                       const Attributes &a)
    : Op(id, settings), normCoefficient(a.getFloat("norm_coefficient", 0.0f)) {
  if (id.type == "Adagrad") {
    decayFactor = a.getFloat("decay_factor", 0.0f);
    epsilon = a.getFloat("epsilon", 1e-6f);
  } else if (id.type == "Momentum") {
    alpha = a.getFloat("alpha");
    beta = a.getFloat("beta");
    mode = a.getString("mode", "");
    normCoefficient = a.getFloat("norm_coefficient");
    if (mode != "standard" && mode != "nesterov")
      throw error("Momentum '{}': mode '{}' is neither 'standard' nor "
                  "'nesterov'",
                  settings.name, mode);
  } else {
    alpha = a.getFloat("alpha", 0.9f);
    beta = a.getFloat("beta", 0.999f);
    epsilon = a.getFloat("epsilon", 1e-6f);
    normCoefficientPost = a.getFloat("norm_coefficient_post", 0.0f);
  }
}

void PreviewOptimizerOp::setup() {
  const int groups = 2 + states();
  if (inTensorCount() < 2 + groups || (inTensorCount() - 2) % groups != 0)
    throw error("{}: {} inputs are not R, T and {} lists of equal length",
                str(), inTensorCount(), groups);
  if (inInfo(0).nelms() != 1 || inInfo(1).nelms() != 1)
    throw error("{}: R '{}' and T '{}' must be scalars", str(),
                inTensor(0)->id, inTensor(1)->id);
  if (inInfo(0).dataType() != DataType::FLOAT)
    throw error("{}: R '{}' is {}, not FLOAT", str(), inTensor(0)->id,
                inInfo(0).data_type());
  if (inInfo(1).dataType() != DataType::INT64)
    throw error("{}: T '{}' is {}, not INT64", str(), inTensor(1)->id,
                inInfo(1).data_type());
  const int n = tensors();
  if (outTensorCount() != n * (1 + states()))
    throw error("{}: {} outputs for {} tensors and {} states", str(),
                outTensorCount(), n, states());
  for (int i = 0; i < n; ++i) {
    const TensorInfo &x = inInfo(2 + i);
    if (x.dataType() != DataType::FLOAT)
      throw error("{}: X '{}' is {}, not FLOAT", str(), inTensor(2 + i)->id,
                  x.data_type());
    for (int g = 1; g < groups; ++g)
      if (inInfo(2 + g * n + i) != x)
        throw error("{}: '{}' is {}, its X '{}' {}", str(),
                    inTensor(2 + g * n + i)->id, inInfo(2 + g * n + i),
                    inTensor(2 + i)->id, x);
    for (int o = 0; o <= states(); ++o)
      outInfo(o * n + i) = x;
  }
}

} // namespace popart

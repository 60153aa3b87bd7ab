#include "ops/OnnxLoopOp.hpp"
#include "core/Describe.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

#include <algorithm>
#include <limits>

namespace popart {

OnnxLoopOp::OnnxLoopOp(const OperatorIdentifier &id,
                       const Op::Settings &settings, std::string body_,
                       int numCarried_)
    : Op(id, settings), body(std::move(body_)), numCarried(numCarried_) {}

const Graph &OnnxLoopOp::getBodyGraph() const {
  return getGraph().getIr().getGraph(body);
}

int OnnxLoopOp::getNumScanOutputs() const {
  return static_cast<int>(getBodyGraph().outputs.size()) - 1 - numCarried;
}

void OnnxLoopOp::setup() {
  const Graph &g = getBodyGraph();
  constTripCount = -1;
  if (hasInput(getMaximumTripCountInIndex())) {
    const TensorInfo &m = inInfo(getMaximumTripCountInIndex());
    if (m.dataType() != DataType::INT64 || m.nelms() != 1)
      throw error("{}: the maximum trip count M ('{}') must be one INT64, not "
                  "{}",
                  str(), inId(getMaximumTripCountInIndex()), describe(m));
    if (hasConstInput(getMaximumTripCountInIndex())) {
      // The device counts iterations in INT32 (exporters write "no
      // limit" as INT64's maximum).
      const double m0 =
          constInputValues(getMaximumTripCountInIndex(), "M").at(0);
      constTripCount = static_cast<int64_t>(std::clamp<double>(
          m0, 0, std::numeric_limits<int32_t>::max()));
    }
  }
  if (hasInput(getTerminationConditionInIndex())) {
    const TensorInfo &c = inInfo(getTerminationConditionInIndex());
    if (c.dataType() != DataType::BOOL || c.nelms() != 1)
      throw error("{}: the condition '{}' must be one BOOL, not {}", str(),
                  inId(getTerminationConditionInIndex()), describe(c));
  }
  if (static_cast<int>(g.inputs.size()) != inTensorCount())
    throw error("{}: body '{}' has {} inputs, but the op gives {} (with M and "
                "cond)",
                str(), body, g.inputs.size(), inTensorCount());
  if (static_cast<int>(g.outputs.size()) < 1 + numCarried)
    throw error("{}: body '{}' has {} outputs, fewer than the condition and "
                "the {} carried values",
                str(), body, g.outputs.size(), numCarried);
  auto bodyIn = [&](int i) -> const TensorInfo & {
    return g.getTensor(g.inputs[static_cast<std::size_t>(i)]).info;
  };
  auto bodyOut = [&](int i) -> const TensorInfo & {
    return g.getTensor(g.outputs[static_cast<std::size_t>(i)]).info;
  };
  if (bodyIn(0) != TensorInfo(DataType::INT64, {}))
    throw error("{}: the iteration count '{}' of body '{}' must be an INT64 "
                "scalar, not {}",
                str(), g.inputs[0], body, describe(bodyIn(0)));
  if (bodyIn(1).dataType() != DataType::BOOL || bodyIn(1).nelms() != 1 ||
      bodyOut(0).dataType() != DataType::BOOL || bodyOut(0).nelms() != 1)
    throw error("{}: the condition input '{}' and output '{}' of body '{}' "
                "must be one BOOL each, not {} and {}",
                str(), g.inputs[1], g.outputs[0], body, describe(bodyIn(1)),
                describe(bodyOut(0)));
  for (int i = getFirstInputInIndex(); i < inTensorCount(); ++i)
    if (inInfo(i) != bodyIn(i))
      throw error("{}: input {} ('{}') is {}, but the input '{}' of body '{}' "
                  "is {}",
                  str(), i, inId(i), describe(inInfo(i)), g.inputs[i], body,
                  describe(bodyIn(i)));
  for (int c = 0; c < numCarried; ++c) {
    const TensorInfo &in = bodyIn(getFirstInputInIndex() + c);
    const TensorInfo &out = bodyOut(1 + c);
    if (in != out)
      throw error("{}: the carried value '{}' enters body '{}' as {} but "
                  "leaves it ('{}') as {}: the IR has static shapes, a "
                  "carried value keeps its type and shape",
                  str(), g.inputs[getFirstInputInIndex() + c], body,
                  describe(in), g.outputs[1 + c], describe(out));
    outInfo(c) = out;
  }
  const int scans = getNumScanOutputs();
  if (scans > 0 && constTripCount < 0)
    throw error("{}: its {} scan outputs have a row per iteration, so the "
                "maximum trip count M must be a constant (give the input '{}' "
                "as a constant)",
                str(), scans,
                hasInput(getMaximumTripCountInIndex())
                    ? inId(getMaximumTripCountInIndex())
                    : std::string("M"));
  if (outTensorCount() != numCarried + scans)
    throw error("{}: {} outputs, but body '{}' gives {} carried values and {} "
                "scan outputs",
                str(), outTensorCount(), body, numCarried, scans);
  for (int k = 0; k < scans; ++k) {
    const TensorInfo &element = bodyOut(1 + numCarried + k);
    Shape shape = element.shape();
    shape.insert(shape.begin(), constTripCount);
    outInfo(numCarried + k) = TensorInfo(element.dataType(), shape);
  }
}

void OnnxLoopOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("body", body);
  os.appendAttribute("tripCountValue", constTripCount);
}

} // namespace popart

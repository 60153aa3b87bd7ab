#include "ops/ScanOp.hpp"
#include "core/Describe.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

namespace popart {

namespace {

// An axis of a tensor of `rank` dimensions, negative ones counted from the
// end.
int64_t normalisedAxis(int64_t axis, int64_t rank, const Op &op,
                       const char *what) {
  if (axis < -rank || axis >= rank)
    throw error("{}: {} {} is out of range for rank {}", op.str(), what, axis,
                rank);
  return axis < 0 ? axis + rank : axis;
}
} // namespace

ScanOp::ScanOp(const OperatorIdentifier &id, const Op::Settings &settings,
               std::string body_, int numStates_, int numScanInputs_,
               std::vector<int64_t> inputAxes_,
               std::vector<int64_t> inputDirections_,
               std::vector<int64_t> outputAxes_,
               std::vector<int64_t> outputDirections_)
    : Op(id, settings), body(std::move(body_)), numStates(numStates_),
      numScanInputs(numScanInputs_), inputAxes(std::move(inputAxes_)),
      inputDirections(std::move(inputDirections_)),
      outputAxes(std::move(outputAxes_)),
      outputDirections(std::move(outputDirections_)) {}

const Graph &ScanOp::getBodyGraph() const {
  return getGraph().getIr().getGraph(body);
}

int ScanOp::getNumScanOutputs() const {
  return static_cast<int>(getBodyGraph().outputs.size()) - numStates;
}

void ScanOp::setup() {
  const Graph &g = getBodyGraph();
  if (hasSequenceLens() && (inInfo(0).dataType() != DataType::INT64 ||
                            inShape(0).size() != 1))
    throw error("{}: sequence_lens ('{}') is {}; it must be an INT64 vector "
                "of one length per batch entry",
                str(), inId(0), describe(inInfo(0)));
  const InIndex first = getFirstStateInIndex();
  if (numScanInputs < 1)
    throw error("{}: num_scan_inputs must be at least 1, not {}", str(),
                numScanInputs);
  if (inTensorCount() - first < numStates + numScanInputs)
    throw error("{}: {} inputs, fewer than the {} states and {} scan inputs",
                str(), inTensorCount() - first, numStates, numScanInputs);
  if (static_cast<int>(g.inputs.size()) != inTensorCount() - first)
    throw error("{}: body '{}' has {} inputs, but the op gives {}", str(), body,
                g.inputs.size(), inTensorCount() - first);
  const int scans = getNumScanOutputs();
  if (scans < 0)
    throw error("{}: body '{}' has {} outputs, fewer than its {} states",
                str(), body, g.outputs.size(), numStates);
  inputAxes.resize(static_cast<std::size_t>(numScanInputs), 0);
  inputDirections.resize(static_cast<std::size_t>(numScanInputs), 0);
  outputAxes.resize(static_cast<std::size_t>(scans), 0);
  outputDirections.resize(static_cast<std::size_t>(scans), 0);

  // What one batch entry holds (opset 8: the batch axis left out).
  int64_t batch = -1;
  auto perEntry = [&](InIndex in) {
    Shape shape = inShape(in);
    if (hasBatchAxis()) {
      if (shape.empty())
        throw error("{}: input {} ('{}') has no batch axis", str(), in,
                    inId(in));
      if (batch >= 0 && shape[0] != batch)
        throw error("{}: input {} ('{}') has a batch of {}, others {}", str(),
                    in, inId(in), shape[0], batch);
      batch = shape[0];
      shape.erase(shape.begin());
    }
    return TensorInfo(inInfo(in).dataType(), shape);
  };
  auto bodyIn = [&](int i) -> const TensorInfo & {
    return g.getTensor(g.inputs[static_cast<std::size_t>(i)]).info;
  };
  auto bodyOut = [&](int i) -> const TensorInfo & {
    return g.getTensor(g.outputs[static_cast<std::size_t>(i)]).info;
  };
  auto expectBodyInput = [&](int i, const TensorInfo &info, InIndex in) {
    if (bodyIn(i) != info)
      throw error("{}: input {} ('{}') gives {} to the input '{}' of body "
                  "'{}', which is {}",
                  str(), in, inId(in), describe(info), g.inputs[i], body,
                  describe(bodyIn(i)));
  };
  for (int s = 0; s < numStates; ++s)
    expectBodyInput(s, perEntry(first + s), first + s);
  sequenceLength = -1;
  for (int i = 0; i < numScanInputs; ++i) {
    const InIndex in = first + numStates + i;
    const TensorInfo entry = perEntry(in);
    Shape shape = entry.shape();
    const int64_t axis = normalisedAxis(
        inputAxes[i], static_cast<int64_t>(shape.size()), *this,
        "scan input axis");
    inputAxes[i] = axis;
    if (sequenceLength >= 0 && shape[axis] != sequenceLength)
      throw error("{}: scan input '{}' has {} elements along axis {}, the "
                  "others {}",
                  str(), inId(in), shape[axis], axis, sequenceLength);
    sequenceLength = shape[axis];
    shape.erase(shape.begin() + axis);
    expectBodyInput(numStates + i, TensorInfo(entry.dataType(), shape), in);
  }
  for (int i = numStates + numScanInputs;
       i < static_cast<int>(g.inputs.size()); ++i)
    expectBodyInput(i, inInfo(first + i), first + i);
  if (sequenceLength < 1)
    throw error("{}: the scan inputs have no elements to scan", str());
  if (hasSequenceLens() && inShape(0)[0] != batch)
    throw error("{}: sequence_lens ('{}') has {} lengths for a batch of {}",
                str(), inId(0), inShape(0)[0], batch);

  if (outTensorCount() != numStates + scans)
    throw error("{}: {} outputs, but body '{}' gives {} states and {} scan "
                "outputs",
                str(), outTensorCount(), body, numStates, scans);
  auto withBatch = [&](const TensorInfo &info) {
    if (!hasBatchAxis())
      return info;
    Shape shape = info.shape();
    shape.insert(shape.begin(), batch);
    return TensorInfo(info.dataType(), shape);
  };
  for (int s = 0; s < numStates; ++s) {
    if (bodyOut(s) != bodyIn(s))
      throw error("{}: the state '{}' enters body '{}' as {} but leaves it "
                  "('{}') as {}",
                  str(), g.inputs[s], body, describe(bodyIn(s)), g.outputs[s],
                  describe(bodyOut(s)));
    outInfo(s) = withBatch(bodyOut(s));
  }
  for (int j = 0; j < scans; ++j) {
    const TensorInfo &element = bodyOut(numStates + j);
    Shape shape = element.shape();
    const int64_t axis = normalisedAxis(
        outputAxes[j], static_cast<int64_t>(shape.size()) + 1, *this,
        "scan output axis");
    outputAxes[j] = axis;
    shape.insert(shape.begin() + axis, sequenceLength);
    outInfo(numStates + j) = withBatch(TensorInfo(element.dataType(), shape));
  }
}

void ScanOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("body", body);
  os.appendAttribute("num_scan_inputs", static_cast<int64_t>(numScanInputs));
  os.appendAttribute("scan_input_axes", inputAxes);
  os.appendAttribute("scan_input_directions", inputDirections);
  os.appendAttribute("scan_output_axes", outputAxes);
  os.appendAttribute("scan_output_directions", outputDirections);
}

} // namespace popart

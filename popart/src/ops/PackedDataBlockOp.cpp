#include "ops/PackedDataBlockOp.hpp"
#include "core/Describe.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

#include <utility>

namespace popart {

PackedDataBlockOp::PackedDataBlockOp(const OperatorIdentifier &id,
                                     const Op::Settings &settings,
                                     const std::string &callback,
                                     std::vector<int64_t> maxSequenceLengths,
                                     int64_t resultSize,
                                     int64_t callbackBatchSize)
    : SubgraphOp(id, settings, callback),
      maxSequenceLengths(std::move(maxSequenceLengths)),
      resultSize(resultSize), callbackBatchSize(callbackBatchSize) {}

TensorInfo PackedDataBlockOp::callbackInputInfo(const TensorInfo &data,
                                                int64_t maxSequenceLength,
                                                int64_t callbackBatchSize) {
  Shape shape{callbackBatchSize, maxSequenceLength};
  for (std::size_t d = 1; d < data.shape().size(); ++d)
    shape.push_back(data.shape()[d]);
  return TensorInfo(data.dataType(), shape);
}

int64_t PackedDataBlockOp::getCallbackIterations() const {
  return inShape(offsetsIndex(0)).at(0) / callbackBatchSize;
}

namespace {

// The types popops::sequenceSlice moves.
bool isSliceable(DataType t) {
  return t == DataType::FLOAT || t == DataType::FLOAT16 ||
         t == DataType::INT32 || t == DataType::UINT32;
}

} // namespace

void PackedDataBlockOp::setup() {
  const int64_t n = numDataInputs();
  if (n < 1)
    throw error("{}: maxSequenceLengths is empty: it needs one length per "
                "packed data input",
                str());
  if (inTensorCount() < firstImplicitIndex())
    throw error("{}: {} inputs given, but {} maxSequenceLengths need {} "
                "([data, offsets, lengths] per packed input, then the "
                "result's offsets and lengths)",
                str(), inTensorCount(), n, firstImplicitIndex());
  for (InIndex i = 0; i < inTensorCount(); ++i)
    if (!hasInput(i))
      throw error("{}: input {} is missing", str(), i);
  if (callbackBatchSize < 1)
    throw error("{}: callbackBatchSize must be at least 1, not {}", str(),
                callbackBatchSize);
  if (resultSize < 0)
    throw error("{}: resultSize must not be negative, not {}", str(),
                resultSize);

  // Every offsets and lengths tensor: UINT32, one entry per sequence.
  const Shape sequences = inShape(offsetsIndex(0));
  const auto checkIndices = [&](InIndex i) {
    if (inInfo(i).dataType() != DataType::UINT32 || inShape(i).size() != 1)
      throw error("{}: input {} ('{}', offsets or lengths) is {}; it must be "
                  "a UINT32 vector",
                  str(), i, inId(i), describe(inInfo(i)));
    if (inShape(i) != sequences)
      throw error("{}: input {} ('{}') has {} entries, but '{}' has {}: "
                  "every offsets and lengths tensor has one per sequence",
                  str(), i, inId(i), inShape(i).at(0), inId(offsetsIndex(0)),
                  sequences.empty() ? 0 : sequences.at(0));
  };
  for (int64_t i = 0; i < n; ++i) {
    checkIndices(offsetsIndex(i));
    checkIndices(lengthsIndex(i));
  }
  checkIndices(resultOffsetsIndex());
  checkIndices(resultLengthsIndex());
  if (sequences.at(0) % callbackBatchSize != 0)
    throw error("{}: {} sequences are not a whole number of callback batches "
                "of {}",
                str(), sequences.at(0), callbackBatchSize);

  const Graph &g = getCalledGraph();
  const int64_t implicit = inTensorCount() - firstImplicitIndex();
  if (static_cast<int64_t>(g.inputs.size()) != n + implicit)
    throw error("{}: the callback '{}' has {} inputs, but {} packed inputs "
                "are given",
                str(), getCalleeId(), g.inputs.size() - implicit, n);
  for (int64_t i = 0; i < n; ++i) {
    const TensorInfo &data = inInfo(dataIndex(i));
    if (data.shape().empty())
      throw error("{}: packed data '{}' is a scalar; its sequences are rows "
                  "of its outer dimension",
                  str(), inId(dataIndex(i)));
    if (!isSliceable(data.dataType()))
      throw error("{}: packed data '{}' is {}; FLOAT, FLOAT16, INT32 and "
                  "UINT32 are supported",
                  str(), inId(dataIndex(i)), describe(data));
    if (maxSequenceLengths[static_cast<std::size_t>(i)] < 1)
      throw error("{}: maxSequenceLengths[{}] must be at least 1, not {}",
                  str(), i, maxSequenceLengths[static_cast<std::size_t>(i)]);
    const TensorInfo expected = callbackInputInfo(
        data, maxSequenceLengths[static_cast<std::size_t>(i)],
        callbackBatchSize);
    const TensorInfo &given =
        g.getTensor(g.inputs[static_cast<std::size_t>(i)]).info;
    if (given != expected)
      throw error("{}: the callback's input {} ('{}') is {}, but the "
                  "sequences of '{}' unpacked are {}",
                  str(), i, g.inputs[static_cast<std::size_t>(i)],
                  describe(given), inId(dataIndex(i)), describe(expected));
  }
  for (int64_t k = 0; k < implicit; ++k)
    checkInput(firstImplicitIndex() + static_cast<InIndex>(k),
               static_cast<int>(n + k));

  if (g.outputs.size() != 1)
    throw error("{}: the callback '{}' must have one output, not {}", str(),
                getCalleeId(), g.outputs.size());
  const TensorInfo &out = g.getTensor(g.outputs[0]).info;
  if (out.shape().size() < 2 || out.shape()[0] != callbackBatchSize)
    throw error("{}: the callback's output '{}' is {}; it must be "
                "[callbackBatchSize ({}), sequence length, ...]",
                str(), g.outputs[0], describe(out), callbackBatchSize);
  if (!isSliceable(out.dataType()))
    throw error("{}: the callback's output '{}' is {}; FLOAT, FLOAT16, INT32 "
                "and UINT32 are supported",
                str(), g.outputs[0], describe(out));
  Shape result{resultSize};
  result.insert(result.end(), out.shape().begin() + 2, out.shape().end());
  outInfo(0) = TensorInfo(out.dataType(), result);
}

void PackedDataBlockOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("maxSequenceLengths", maxSequenceLengths);
  os.appendAttribute("resultSize", resultSize);
  os.appendAttribute("callbackBatchSize", callbackBatchSize);
  os.appendAttribute("callback", getCalleeId());
}

} // namespace popart

// PackedDataBlockOp: the callback is lowered once into a poplar function
// (SubgraphLowering.hpp) and called from a Repeat over the callback
// batches, as the original's PackedDataBlock pattern does with a loop.
// Each iteration takes its batch's entries of every offsets and lengths
// tensor with popops::dynamicSlice, unpacks the sequences into the
// callback's inputs with popops::sequenceSlice (sequence j of the batch at
// row j * maxSequenceLength, the rows past its length zeroed), calls the
// callback, and packs the rows of its output into the result with
// sequenceSlice again.
#include "ir/Graph.hpp"
#include "lowering/Lowering.hpp"
#include "ops/PackedDataBlockOp.hpp"
#include "ops/SubgraphLowering.hpp"

#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/SequenceSlice.hpp>
#include <popops/Zero.hpp>

#include <map>

namespace popart {

namespace {

namespace pe = popops::expr;
using poplar::program::Copy;
using poplar::program::Sequence;

// `t` as [rows, elements per row] (a vector as a column).
poplar::Tensor asRows(const poplar::Tensor &t, std::size_t rows) {
  return t.reshape({rows, rows == 0 ? 0 : t.numElements() / rows});
}

// [batch] UNSIGNED_INT: j * rowsPerEntry, where entry j of the batch starts.
poplar::Tensor entryStarts(LoweringContext &ctx, std::size_t batch,
                           std::size_t rowsPerEntry, const std::string &name) {
  std::vector<float> starts;
  for (std::size_t j = 0; j < batch; ++j)
    starts.push_back(static_cast<float>(j * rowsPerEntry));
  return hostConstant(ctx, poplar::UNSIGNED_INT, {batch}, starts, name);
}

} // namespace

void growPackedDataBlock(const Op &op_, LoweringContext &ctx, Sequence &prog) {
  const auto &op = dynamic_cast<const PackedDataBlockOp &>(op_);
  const auto &lg = lowerSubgraph(op.getCalledGraph(), ctx);
  const std::string name = op.name();
  const auto batch = static_cast<std::size_t>(op.getCallbackBatchSize());
  const auto iterations = static_cast<std::size_t>(op.getCallbackIterations());
  const auto n = static_cast<std::size_t>(op.numDataInputs());

  // Rows no sequence writes stay 0.
  poplar::Tensor result = ctx.addLinearVariable(
      deviceType(op.outInfo(0).dataType()), dims(op.outShape(0)),
      name + "/result");
  popops::zero(ctx.graph, result, prog, name + "/result");
  ctx.set(op.outputs[0], result);
  if (iterations == 0)
    return;

  // The values of the enclosing graph the callback reads, copied in once.
  for (InIndex i = op.firstImplicitIndex(); i < op.inTensorCount(); ++i)
    prog.add(Copy(ctx.get(op.inTensor(i)),
                  lg.inputs[n + static_cast<std::size_t>(
                                    i - op.firstImplicitIndex())]));

  poplar::Tensor iteration =
      ctx.addLinearVariable(poplar::UNSIGNED_INT, {1}, name + "/iteration");
  popops::zero(ctx.graph, iteration, prog, name + "/iteration");

  Sequence body;
  // This iteration's entries of an offsets or lengths tensor (sliced once
  // when several inputs share it).
  std::map<TensorId, poplar::Tensor> sliced;
  const auto batchOf = [&](InIndex i) {
    const TensorId &id = op.inId(i);
    auto found = sliced.find(id);
    if (found != sliced.end())
      return found->second;
    poplar::Tensor entries = popops::dynamicSlice(
        ctx.graph, ctx.get(op.inTensor(i)).reshape({iterations, batch}),
        iteration, {0}, {1}, body, name + "/" + id);
    return sliced.emplace(id, entries.flatten()).first->second;
  };

  for (std::size_t k = 0; k < n; ++k) {
    const auto i = static_cast<int64_t>(k);
    const poplar::Tensor data = ctx.get(op.inTensor(op.dataIndex(i)));
    const auto maxLength =
        static_cast<std::size_t>(op.getMaxSequenceLengths()[k]);
    popops::sequenceSlice(
        ctx.graph, asRows(data, data.dim(0)),
        asRows(lg.inputs[k], batch * maxLength), batchOf(op.lengthsIndex(i)),
        batchOf(op.offsetsIndex(i)),
        entryStarts(ctx, batch, maxLength, name + "/unpackStarts"), true, body,
        name + "/unpack");
  }
  body.add(poplar::program::Call(lg.function, name));
  const poplar::Tensor out = lg.outputs[0];
  const std::size_t outLength = out.dim(1);
  std::size_t rowElements = 1;
  for (std::size_t d = 1; d < result.rank(); ++d)
    rowElements *= result.dim(d);
  popops::sequenceSlice(
      ctx.graph, out.reshape({batch * outLength, rowElements}),
      result.reshape({result.dim(0), rowElements}),
      batchOf(op.resultLengthsIndex()),
      entryStarts(ctx, batch, outLength, name + "/packStarts"),
      batchOf(op.resultOffsetsIndex()), false, body, name + "/pack");
  popops::mapInPlace(ctx.graph, pe::_1 + pe::Const(1u), {iteration}, body,
                     name + "/count");
  prog.add(poplar::program::Repeat(static_cast<unsigned>(iterations), body,
                                   name));
}

} // namespace popart

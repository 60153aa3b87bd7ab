"""builder.aiGraphcore.packedDataBlock: sequences packed back to back,
unpacked into batches for a callback subgraph and packed back, against a
NumPy loop over the batches; and the errors that name the op."""

import numpy as np
import popart
import pytest
from onnx import TensorProto, helper


def run(builder, outputs, inputs, patterns=None):
    for o in outputs:
        builder.addOutputTensor(o)
    flow = popart.DataFlow(1, {o: popart.AnchorReturnType("ALL") for o in outputs})
    kwargs = {} if patterns is None else {"patterns": patterns}
    session = popart.InferenceSession(fnModel=builder.getModelProto(),
                                      dataFlow=flow,
                                      deviceInfo=popart.DeviceManager().createCpuDevice(),
                                      **kwargs)
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO(inputs, anchors))
    return [anchors[o] for o in outputs]


def packed_block_reference(packed, result_offsets, result_lengths, max_lengths,
                           result_size, batch, callback):
    """packed: [(data, offsets, lengths)] per callback input. Each batch of
    `batch` sequences is zero-padded to max_lengths rows, given to
    callback, and the first result_lengths[s] rows of its entry for
    sequence s are written at result_offsets[s]."""
    sequences = len(result_offsets)
    result = None
    for first in range(0, sequences, batch):
        args = []
        for (data, offsets, lengths), max_length in zip(packed, max_lengths):
            block = np.zeros((batch, max_length) + data.shape[1:], data.dtype)
            for j in range(batch):
                s = first + j
                rows = data[offsets[s]:offsets[s] + lengths[s]][:max_length]
                block[j, :len(rows)] = rows
            args.append(block)
        out = callback(*args)
        if result is None:
            result = np.zeros((result_size, ) + out.shape[2:], out.dtype)
        for j in range(batch):
            s = first + j
            rows = out[j, :result_lengths[s]]
            end = min(result_size, result_offsets[s] + len(rows))
            result[result_offsets[s]:end] = rows[:end - result_offsets[s]]
    return result


def packed_sequences(rng, lengths, inner_shape):
    lengths = np.array(lengths, np.uint32)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.uint32)
    data = rng.integers(1, 10, size=(int(lengths.sum()), ) + tuple(inner_shape))
    return data.astype(np.float32), offsets, lengths


@pytest.mark.parametrize("batch", [1, 2, 3])
def test_self_attention_scores_of_packed_sequences(batch):
    """The callback multiplies each sequence by its transpose: [L, 5] ->
    [L, L]; the rows of the result are each sequence's rows, packed as the
    input is."""
    rng = np.random.default_rng(batch)
    data, offsets, lengths = packed_sequences(rng, [3, 5, 7, 4, 6, 2], [5])
    max_length = 10
    builder = popart.Builder()
    d = builder.addInputTensor(popart.TensorInfo("FLOAT", list(data.shape)), "data")
    o = builder.addInputTensor(popart.TensorInfo("UINT32", [6]), "offsets")
    n = builder.addInputTensor(popart.TensorInfo("UINT32", [6]), "lengths")
    callback = builder.createSubgraphBuilder()
    x = callback.addUntypedInputTensor()
    callback.addOutputTensor(
        callback.aiOnnx.matmul([x, callback.aiOnnx.transpose([x], [0, 2, 1])]))
    out = builder.aiGraphcore.packedDataBlock([d, o, n, o, n], [max_length],
                                              data.shape[0], batch, callback)
    (got, ) = run(builder, [out], {d: data, o: offsets, n: lengths})
    expected = packed_block_reference(
        [(data, offsets, lengths)], offsets, lengths, [max_length],
        data.shape[0], batch, lambda x: x @ x.transpose(0, 2, 1))
    np.testing.assert_array_equal(got, expected)
    # Row r of sequence s: the products of its row r with the sequence's
    # rows, then zeros to max_length.
    s = 2
    rows = data[offsets[s]:offsets[s] + lengths[s]]
    np.testing.assert_array_equal(got[offsets[s]:offsets[s] + lengths[s], :lengths[s]],
                                  rows @ rows.T)
    assert not got[offsets[s]:offsets[s] + lengths[s], lengths[s]:].any()


def test_two_packed_inputs_an_outer_value_and_a_result_with_gaps():
    """An ONNX model of the op: two inputs of different packings, a
    callback that also reads a value of the main graph (w), and results
    written at other offsets (the rows between them stay 0)."""
    rng = np.random.default_rng(7)
    a, a_off, a_len = packed_sequences(rng, [2, 4, 1, 3], [3])
    b = rng.normal(size=(12, 3)).astype(np.float32)
    b_off = np.array([8, 0, 5, 2], np.uint32)
    b_len = np.array([3, 2, 4, 1], np.uint32)
    r_off = np.array([0, 6, 12, 20], np.uint32)
    r_len = np.array([2, 4, 1, 3], np.uint32)
    w = rng.normal(size=(3, )).astype(np.float32)
    values = {"a": a, "ao": a_off, "al": a_len, "b": b, "bo": b_off,
              "bl": b_len, "ro": r_off, "rl": r_len, "w": w}
    callback = helper.make_graph(
        [helper.make_node("Add", ["x", "y"], ["sum"]),
         helper.make_node("Mul", ["sum", "w"], ["out"])],
        "callback",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 3]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 3])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [2, 4, 3])])
    node = helper.make_node(
        "PackedDataBlock", ["a", "ao", "al", "b", "bo", "bl", "ro", "rl"],
        ["result"], "pdb", domain="ai.graphcore", callback=callback,
        maxSequenceLengths=[4, 4], resultSize=24, callbackBatchSize=2)
    graph = helper.make_graph(
        [node], "packed",
        [helper.make_tensor_value_info(
            k, TensorProto.UINT32 if v.dtype == np.uint32 else TensorProto.FLOAT,
            list(v.shape)) for k, v in values.items()],
        [helper.make_tensor_value_info("result", TensorProto.FLOAT, [24, 3])])
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 11), helper.make_opsetid("ai.graphcore", 1)])
    session = popart.InferenceSession(
        fnModel=model.SerializeToString(),
        dataFlow=popart.DataFlow(1, {"result": popart.AnchorReturnType("ALL")}),
        deviceInfo=popart.DeviceManager().createCpuDevice())
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO(values, anchors))
    expected = packed_block_reference(
        [(a, a_off, a_len), (b, b_off, b_len)], r_off, r_len, [4, 4], 24, 2,
        lambda x, y: (x + y) * w)
    np.testing.assert_allclose(anchors["result"], expected, rtol=1e-6)
    assert not expected[2:6].any() and not expected[10:12].any()


def test_vectors_summed_per_sequence():
    """Rank-1 data: each sequence a [L] slice; the callback's sums give
    one row per sequence."""
    rng = np.random.default_rng(3)
    lengths = np.array([4, 1, 3, 6], np.uint32)
    offsets = np.array([0, 4, 5, 8], np.uint32)
    data = rng.integers(-9, 9, size=(14, )).astype(np.int32)
    builder = popart.Builder()
    d = builder.addInputTensor(popart.TensorInfo("INT32", [14]))
    o = builder.addInputTensor(popart.TensorInfo("UINT32", [4]))
    n = builder.addInputTensor(popart.TensorInfo("UINT32", [4]))
    ro = builder.addInputTensor(popart.TensorInfo("UINT32", [4]))
    ones = builder.addInputTensor(popart.TensorInfo("UINT32", [4]))
    callback = builder.createSubgraphBuilder()
    x = callback.addUntypedInputTensor()
    callback.addOutputTensor(callback.aiOnnx.reducesum([x], axes=[1], keepdims=1))
    out = builder.aiGraphcore.packedDataBlock([d, o, n, ro, ones], [6], 4, 2,
                                              callback)
    (got, ) = run(builder, [out], {
        d: data, o: offsets, n: lengths,
        ro: np.arange(4, dtype=np.uint32), ones: np.ones(4, np.uint32)})
    sums = [data[s:s + k].sum() for s, k in zip(offsets, lengths)]
    np.testing.assert_array_equal(got, sums)


def packed_model(batch=2, offsets_type="UINT32", sequences=4, typed=None):
    builder = popart.Builder()
    d = builder.addInputTensor(popart.TensorInfo("FLOAT", [10, 3]), "data")
    o = builder.addInputTensor(popart.TensorInfo(offsets_type, [sequences]), "offsets")
    n = builder.addInputTensor(popart.TensorInfo("UINT32", [sequences]), "lengths")
    callback = builder.createSubgraphBuilder()
    x = (callback.addInputTensor(popart.TensorInfo("FLOAT", typed))
         if typed else callback.addUntypedInputTensor())
    callback.addOutputTensor(callback.aiOnnx.neg([x]))
    return builder, callback, [d, o, n, o, n]


def test_errors_name_the_op():
    builder, callback, args = packed_model()
    with pytest.raises(popart.popart_exception,
                       match=r"PackedDataBlock 'p': 4 inputs given, but 1 "
                       r"maxSequenceLengths need 5"):
        builder.aiGraphcore.packedDataBlock(args[:4], [4], 10, 2, callback, "p")
    with pytest.raises(popart.popart_exception,
                       match=r"PackedDataBlock 'q': the callback has 1 inputs, "
                       r"but 2 maxSequenceLengths"):
        builder.aiGraphcore.packedDataBlock(args[:3] + args, [4, 4], 10, 2,
                                            callback, "q")

    def fails(match, **model):
        builder, callback, args = packed_model(**model)
        out = builder.aiGraphcore.packedDataBlock(args, [4], 10, 2, callback, "pdb")
        with pytest.raises(popart.popart_exception, match=match):
            run(builder, [out], {})

    fails(r"PackedDataBlock:1 'pdb': input 1 \('offsets'.*must be a UINT32 vector",
          offsets_type="INT32")
    fails(r"PackedDataBlock:1 'pdb': 5 sequences are not a whole number of "
          r"callback batches of 2", sequences=5)
    fails(r"Node 'pdb' \(PackedDataBlock\): the callback's input 0 .* but the "
          r"sequences of 'data' unpacked are FLOAT \[2 4 3\]",
          typed=[2, 5, 3])


def test_off_with_its_pattern():
    builder, callback, args = packed_model()
    out = builder.aiGraphcore.packedDataBlock(args, [4], 10, 2, callback, "pdb")
    patterns = popart.Patterns()
    assert patterns.isPatternEnabled("PackedDataBlock")
    patterns.enablePattern("PackedDataBlock", False)
    with pytest.raises(popart.popart_exception,
                       match=r"PackedDataBlock:1 'pdb' cannot be lowered: the "
                       r"pattern PackedDataBlock"):
        run(builder, [out], {}, patterns=patterns)

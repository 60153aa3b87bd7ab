"""STRING tensors through the Python builder and InferenceSession on the
CPU device and the IPU Model: StringNormalizer, and Cast to and from
STRING (run on the host at the session's boundary), against results
computed in Python; and the errors of STRING tensors used where they cannot
be."""

import numpy as np
import popart
import pytest

DEVICES = ["cpu", "ipumodel"]


def device(kind):
    manager = popart.DeviceManager()
    if kind == "cpu":
        return manager.createCpuDevice()
    return manager.createIpuModelDevice({"tilesPerIPU": 4})


def session_of(builder, anchors, kind="cpu", batchesPerStep=1, art="All"):
    dataFlow = popart.DataFlow(batchesPerStep,
                               {a: popart.AnchorReturnType(art) for a in anchors})
    session = popart.InferenceSession(fnModel=builder.getModelProto(),
                                      dataFlow=dataFlow, deviceInfo=device(kind))
    session.prepareDevice()
    return session


def run(session, inputs):
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO(inputs, anchors))
    return anchors


def normalize(words, stopwords, action, case_sensitive):
    """StringNormalizer as the ONNX operator text says, in Python."""
    if case_sensitive:
        kept = [w for w in words if w not in stopwords]
    else:
        lowered = {s.lower() for s in stopwords}
        kept = [w for w in words if w.lower() not in lowered]
    if action == "UPPER":
        kept = [w.upper() for w in kept]
    elif action == "LOWER":
        kept = [w.lower() for w in kept]
    return kept or [""]


WORDS = ["Monday", "tuesday", "ÉCOLE", "monday", "Ärger", "wednesday"]


@pytest.mark.parametrize("kind", DEVICES)
@pytest.mark.parametrize("action", ["NONE", "LOWER", "UPPER"])
@pytest.mark.parametrize("case_sensitive", [0, 1])
@pytest.mark.parametrize("two_dims", [False, True])
def test_string_normalizer(kind, action, case_sensitive, two_dims):
    shape = [1, len(WORDS)] if two_dims else [len(WORDS)]
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", shape))
    y = builder.aiOnnx.stringnormalizer([x], case_change_action=action,
                                        is_case_sensitive=case_sensitive,
                                        stopwords=["monday", "École"])
    builder.addOutputTensor(y)
    session = session_of(builder, [y], kind)
    # Before a run, the largest shape the output can have.
    assert session.getInfo(y).shape() == shape
    words = np.array(WORDS, dtype=object).reshape(shape)
    anchors = run(session, {x: words})
    expected = normalize(WORDS, ["monday", "École"], action, case_sensitive)
    out = anchors[y]
    assert out.dtype == object
    assert list(out.shape) == ([1, len(expected)] if two_dims else [len(expected)])
    assert out.ravel().tolist() == expected
    assert session.getInfo(y).shape() == list(out.shape)


@pytest.mark.parametrize("two_dims", [False, True])
def test_string_normalizer_everything_removed(two_dims):
    # ONNX: one empty string, of shape [1] for a [C] input, [1, 1] for [1, C].
    shape = [1, 3] if two_dims else [3]
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", shape))
    y = builder.aiOnnx.stringnormalizer([x], case_change_action="UPPER",
                                        stopwords=["a", "b"])
    builder.addOutputTensor(y)
    session = session_of(builder, [y])
    # numpy str arrays (dtype '<U1') are strings too.
    anchors = run(session, {x: np.array(["a", "B", "a"]).reshape(shape)})
    assert anchors[y].shape == ((1, 1) if two_dims else (1,))
    assert anchors[y].ravel().tolist() == [""]
    # The next run, with a larger result, gets an array of its own shape.
    anchors = run(session, {x: np.array([b"a", b"c", b"d"], dtype=object).reshape(shape)})
    assert anchors[y].ravel().tolist() == ["C", "D"]


def significant_digits(text):
    mantissa = text.lower().split("e")[0]
    return len(mantissa.replace("-", "").replace(".", "").strip("0"))


@pytest.mark.parametrize("kind", DEVICES)
def test_cast_float_to_string(kind):
    rng = np.random.default_rng(3)
    values = np.concatenate([
        rng.random(9).astype(np.float32),
        np.array([3.0, -2.5, 100.0, 0.1, np.nan, np.inf, -np.inf], np.float32),
        (rng.random(4) * 1e30).astype(np.float32),
        (rng.random(4) * 1e-30).astype(np.float32)])
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [values.size]))
    y = builder.aiOnnx.cast([x], "STRING")
    builder.addOutputTensor(y)
    out = run(session_of(builder, [y], kind), {x: values})[y]
    assert out.dtype == object and out.shape == values.shape
    for v, s in zip(values, out.tolist()):
        if np.isnan(v):
            assert s == "NaN"
        elif np.isinf(v):
            assert s == ("INF" if v > 0 else "-INF")
        else:
            # Reads back to the same float, and no shorter decimal does.
            assert np.float32(s) == v
            assert significant_digits(s) <= significant_digits(
                np.format_float_scientific(v, unique=True))
            if 1e-4 <= abs(v) < 1e6:  # plain notation, as numpy writes it
                assert s == np.format_float_positional(v, unique=True, trim="-")


@pytest.mark.parametrize("kind", DEVICES)
def test_cast_string_to_numbers(kind):
    texts = ["3.14", "1E8", "-1e-5", "+2.5", "NaN", "nan", "INF", "+INF", "-inf",
             "0.47892547", "100.5", "-7", "1e50", "-1e-50", "1e400"]
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", [len(texts)]))
    as_float = builder.aiOnnx.cast([x], "FLOAT")
    as_double = builder.aiOnnx.cast([x], "DOUBLE")
    for t in (as_float, as_double):
        builder.addOutputTensor(t)
    ints = builder.addInputTensor(popart.TensorInfo("STRING", [3]))
    as_int = builder.aiOnnx.cast([ints], "INT32")
    builder.addOutputTensor(as_int)
    session = session_of(builder, [as_float, as_double, as_int], kind)
    anchors = run(session, {x: np.array(texts, dtype=object),
                            ints: np.array(["100.5", "-7", "2147483647"])})
    with np.errstate(over="ignore"):  # 1e50 is infinite as a float
        np.testing.assert_array_equal(anchors[as_float],
                                      np.array([float(t) for t in texts], np.float32))
    np.testing.assert_array_equal(anchors[as_double],
                                  np.array([float(t) for t in texts], np.float64))
    np.testing.assert_array_equal(anchors[as_int], np.array([100, -7, 2147483647], np.int32))


@pytest.mark.parametrize("kind", DEVICES)
def test_strings_around_device_compute(kind):
    # STRING -> FLOAT (host), x * 2 + c (device), FLOAT -> STRING (host), over
    # a step of three batches; a STRING constant folded into a FLOAT one.
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", [4]))
    c = builder.aiOnnx.constant(np.array(["0.5", "1e1", "-2", "0"], dtype=object))
    numbers = builder.aiOnnx.cast([x], "FLOAT")
    twice = builder.aiOnnx.add([numbers, numbers])
    total = builder.aiOnnx.add([twice, builder.aiOnnx.cast([c], "FLOAT")])
    text = builder.aiOnnx.cast([total], "STRING")
    builder.addOutputTensor(text)
    session = session_of(builder, [text, total, x], kind, batchesPerStep=3)
    rng = np.random.default_rng(5)
    values = rng.integers(-50, 50, size=(3, 4)) / 4.0
    given = np.array([[repr(float(v)) for v in row] for row in values], dtype=object)
    anchors = run(session, {x: given})
    expected = (values * 2 + np.array([0.5, 10, -2, 0])).astype(np.float32)
    np.testing.assert_array_equal(anchors[total], expected)
    assert anchors[text].shape == (3, 4)
    assert [[np.float32(s) for s in row] for row in anchors[text].tolist()] == expected.tolist()
    assert anchors[x].tolist() == given.tolist()  # a STRING input anchored


def test_string_into_a_device_op_is_an_error():
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", [2]), "words")
    y = builder.aiOnnx.identity([x], "copy")
    builder.addOutputTensor(y)
    with pytest.raises(popart.popart_exception,
                       match=r"Tensor 'words.*' of type STRING is an input of Identity"):
        session_of(builder, [y])


def test_unknown_locale_is_an_error():
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", [2]))
    y = builder.aiOnnx.stringnormalizer([x], case_change_action="UPPER",
                                        locale="xx_NOWHERE.UTF-8")
    builder.addOutputTensor(y)
    with pytest.raises(popart.popart_exception,
                       match="StringNormalizer.*locale 'xx_NOWHERE.UTF-8' is not available"):
        session_of(builder, [y])
    # The C++ library's own locales are taken.
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", [2]))
    y = builder.aiOnnx.stringnormalizer([x], case_change_action="UPPER",
                                        locale="C.UTF-8")
    builder.addOutputTensor(y)
    anchors = run(session_of(builder, [y]), {x: np.array(["éa", "b"], dtype=object)})
    assert anchors[y].tolist() == ["ÉA", "B"]


def test_data_for_string_inputs_must_be_strings():
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", [2]), "text")
    y = builder.aiOnnx.cast([x], "FLOAT")
    builder.addOutputTensor(y)
    session = session_of(builder, [y])
    anchors = session.initAnchorArrays()
    with pytest.raises(popart.popart_exception,
                       match="Input 'text.*' is a STRING tensor: its data must be strings"):
        session.run(popart.PyStepIO({x: np.array([1.0, 2.0], np.float32)}, anchors))
    with pytest.raises(popart.popart_exception,
                       match="tensor 'text.*': element 1 is a int, not a str or bytes"):
        session.run(popart.PyStepIO({x: np.array(["1", 2], dtype=object)}, anchors))
    with pytest.raises(popart.popart_exception,
                       match=r"Cast.*reading 'text.*': element 0 \(\"one\"\) is not a number"):
        session.run(popart.PyStepIO({x: np.array(["one", "2"], dtype=object)}, anchors))
    # The session is still usable.
    session.run(popart.PyStepIO({x: np.array(["1", "2"], dtype=object)}, anchors))
    np.testing.assert_array_equal(anchors[y], np.array([1, 2], np.float32))


def test_string_anchor_return_types():
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    y = builder.aiOnnx.cast([x], "STRING")
    builder.addOutputTensor(y)
    session = session_of(builder, [y], batchesPerStep=2, art="Final")
    with pytest.raises(popart.popart_exception,
                       match="Anchor '.*' is a STRING tensor computed on the host.*ALL"):
        session.run(popart.PyStepIO({x: np.zeros((2, 2), np.float32)},
                                    session.initAnchorArrays()))


def test_step_io_callback_with_strings():
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", [3]))
    numbers = builder.aiOnnx.cast([x], "INT64")
    y = builder.aiOnnx.cast([builder.aiOnnx.add([numbers, numbers])], "STRING")
    builder.addOutputTensor(y)
    session = session_of(builder, [y], batchesPerStep=2)
    batches = [np.array(["1", "-20", "123456"], dtype=object),
               np.array([b"7", b"0", b"-3"], dtype=object)]
    outputs = [np.full(3, "", dtype=object) for _ in batches]
    given, taken = iter(batches), iter(outputs)
    session.run(popart.PyStepIOCallback(lambda tensor, prefetch: next(given),
                                        lambda tensor: None,
                                        lambda tensor: next(taken),
                                        lambda tensor: None))
    assert outputs[0].tolist() == [str(2 * int(v)) for v in batches[0]]
    assert outputs[1].tolist() == ["14", "0", "-6"]


def test_cast_string_to_64_bit_integers_exactly():
    # Numbers only the host holds are written by it: INT64 and UINT64 keep
    # every digit (the device would hold them as 32-bit integers).
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("STRING", [3]))
    signed = builder.aiOnnx.cast([x], "INT64")
    u = builder.addInputTensor(popart.TensorInfo("STRING", [3]))
    unsigned = builder.aiOnnx.cast([u], "UINT64")
    for t in (signed, unsigned):
        builder.addOutputTensor(t)
    session = session_of(builder, [signed, unsigned])
    anchors = run(session, {
        x: np.array(["9007199254740993", "-9223372036854775808", "-100.9"]),
        u: np.array(["18446744073709551615", "-0.5", "7e3"])})
    assert anchors[signed].tolist() == [2**53 + 1, -2**63, -100]
    assert anchors[unsigned].tolist() == [2**64 - 1, 0, 7000]
    with pytest.raises(popart.popart_exception,
                       match=r'element 1 \("-5.5"\) is out of the range'):
        run(session, {x: np.array(["1", "2", "3"]), u: np.array(["1", "-5.5", "3"])})

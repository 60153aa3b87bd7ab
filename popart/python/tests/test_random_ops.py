"""The ONNX random ops (RandomUniform, RandomNormal and their Like forms,
Bernoulli, Multinomial) and Dropout with its ratio and training_mode read at
run time, on the CPU device and the IPU Model.

The streams are seeded, so every bound below is checked against fixed
numbers: the bounds are many standard errors wide (a different generator or
seed would pass them too), and the tests cannot flake."""

import os

import numpy as np
import popart
import pytest
from onnx import TensorProto, helper, numpy_helper
from session_helpers import DEVICES, anchored, device, run_session

TEST_DATA = "/usr/share/libonnx-testdata/data/node"


def make_model(nodes, inputs, outputs, opset):
    graph = helper.make_graph(nodes, "random", inputs, outputs)
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)]).SerializeToString()


def open_session(proto, outputs, kind="cpu"):
    session = popart.InferenceSession(
        fnModel=proto,
        dataFlow=anchored(outputs), deviceInfo=device(kind))
    session.prepareDevice()
    return session


def run(session, feeds=None):
    return {k: np.array(v) for k, v in run_session(session, feeds or {}).items()}


def one_op(op_type, out_type, out_shape, inputs=(), opset=15, **attributes):
    """A model of one node reading graph inputs `inputs` ((name, type,
    shape) each) and writing `y`."""
    return make_model(
        [helper.make_node(op_type, [i[0] for i in inputs], ["y"], **attributes)],
        [helper.make_tensor_value_info(*i) for i in inputs],
        [helper.make_tensor_value_info("y", out_type, out_shape)], opset)


# ---------------------------------------------------------------------------
# Distributions.


@pytest.mark.parametrize("kind", DEVICES)
def test_uniform_statistics(kind):
    n, low, high = 20000, -2.0, 3.0
    session = open_session(one_op("RandomUniform", TensorProto.FLOAT, [n],
                                  low=low, high=high, shape=[n]), ["y"], kind)
    session.setRandomSeed(11)
    y = run(session)["y"]
    assert y.dtype == np.float32 and y.shape == (n,)
    assert y.min() >= low and y.max() < high
    # Mean (high + low) / 2, variance (high - low)^2 / 12; standard errors
    # 0.010 and 0.013: the bounds are 7 of them.
    assert abs(y.mean() - 0.5) < 0.07
    assert abs(y.var() - 25.0 / 12.0) < 0.1
    # Each tenth of the interval holds a tenth of the values (chi-squared
    # with 9 degrees of freedom; 40 has a probability below 1e-5).
    counts = np.histogram(y, bins=10, range=(low, high))[0]
    expected = n / 10
    assert ((counts - expected) ** 2 / expected).sum() < 40


@pytest.mark.parametrize("kind", DEVICES)
def test_normal_statistics(kind):
    n, mean, scale = 20000, 1.0, 2.0
    session = open_session(one_op("RandomNormal", TensorProto.FLOAT, [100, 200],
                                  mean=mean, scale=scale, shape=[100, 200]),
                           ["y"], kind)
    session.setRandomSeed(5)
    y = run(session)["y"]
    assert y.shape == (100, 200)
    # Standard errors: 2 / sqrt(n) = 0.014 for the mean, sqrt(2 / n) * 4 =
    # 0.04 for the variance.
    assert abs(y.mean() - mean) < 0.1
    assert abs(y.var() - scale ** 2) < 0.28
    # Within one scale of the mean: 68.27 % (standard error 0.33 %).
    assert abs(np.mean(np.abs(y - mean) < scale) - 0.6827) < 0.025


@pytest.mark.parametrize("op_type", ["RandomUniformLike", "RandomNormalLike"])
def test_like_forms_take_shape_and_type(op_type):
    x = np.zeros((3, 7), np.float16)
    proto = one_op(op_type, TensorProto.FLOAT16, [3, 7],
                   [("x", TensorProto.FLOAT16, [3, 7])])
    y = run(open_session(proto, ["y"]), {"x": x})["y"]
    assert y.dtype == np.float16 and y.shape == (3, 7)
    assert len(np.unique(y)) > 10
    # dtype overrides the input's type; the input may be of any type.
    proto = one_op(op_type, TensorProto.FLOAT, [4, 2],
                   [("x", TensorProto.INT32, [4, 2])], dtype=TensorProto.FLOAT)
    y = run(open_session(proto, ["y"]), {"x": np.zeros((4, 2), np.int32)})["y"]
    assert y.dtype == np.float32 and y.shape == (4, 2)


def like_session(patterns=None):
    proto = one_op("RandomNormalLike", TensorProto.FLOAT, [64],
                   [("x", TensorProto.FLOAT, [64])], seed=3.0)
    session = popart.InferenceSession(
        fnModel=proto,
        dataFlow=anchored(["y"]), deviceInfo=device("cpu"),
        patterns=patterns or popart.Patterns())
    session.prepareDevice()
    return session


def test_like_patterns_fold_the_input():
    """RandomUniformLikeOpPattern and RandomNormalLikeOpPattern leave the
    shaped form, which draws the same numbers as the Like form lowered
    with the pattern off."""
    patterns = popart.Patterns()
    assert patterns.isPatternEnabled("RandomNormalLikeOpPattern")
    assert patterns.isPatternEnabled("RandomUniformLikeOpPattern")
    session = like_session()
    ir = session._serializeIr(popart.IrSerializationFormat.JSON)
    assert '"type": "RandomNormal"' in ir and '"type": "RandomNormalLike"' not in ir
    x = {"x": np.zeros(64, np.float32)}
    folded = run(session, x)["y"]
    off = popart.Patterns()
    off.enableRuntimeAsserts(False)
    off.enablePattern("RandomNormalLikeOpPattern", False)
    unfolded = like_session(off)
    assert '"type": "RandomNormalLike"' in unfolded._serializeIr(
        popart.IrSerializationFormat.JSON)
    np.testing.assert_array_equal(folded, run(unfolded, x)["y"])
    shaped = run(open_session(one_op("RandomNormal", TensorProto.FLOAT, [64],
                                     shape=[64], seed=3.0), ["y"]))["y"]
    np.testing.assert_array_equal(folded, shaped)
    # Mandatory, as in the original.
    with pytest.raises(popart.popart_exception,
                       match="Pattern 'RandomNormalLikeOpPattern' must be enabled"):
        p = popart.Patterns()
        p.enablePattern("RandomNormalLikeOpPattern", False)
        like_session(p)


@pytest.mark.parametrize("dtype,numpy_type", [
    (TensorProto.FLOAT, np.float32), (TensorProto.FLOAT16, np.float16),
    (TensorProto.DOUBLE, np.float64)])
def test_dtypes(dtype, numpy_type):
    proto = one_op("RandomUniform", dtype, [1000], shape=[1000], dtype=dtype,
                   low=0.0, high=4.0)
    y = run(open_session(proto, ["y"]))["y"]
    assert y.dtype == numpy_type and y.shape == (1000,)
    assert y.min() >= 0 and y.max() <= 4.0 and abs(y.mean() - 2.0) < 0.25
    if dtype == TensorProto.DOUBLE:
        # DOUBLE is held as FLOAT on the device: FLOAT values come back.
        np.testing.assert_array_equal(y.astype(np.float32).astype(np.float64), y)


# ---------------------------------------------------------------------------
# Seeds.


def two_ops_model():
    return make_model(
        [helper.make_node("RandomUniform", [], ["a"], shape=[256]),
         helper.make_node("RandomUniform", [], ["b"], shape=[256])],
        [], [helper.make_tensor_value_info("a", TensorProto.FLOAT, [256]),
             helper.make_tensor_value_info("b", TensorProto.FLOAT, [256])], 15)


def draws(kind, seed, runs=2):
    session = open_session(two_ops_model(), ["a", "b"], kind)
    session.setRandomSeed(seed)
    return [run(session) for _ in range(runs)]


def test_session_seed_reproducible_on_both_devices():
    cpu = draws("cpu", 42)
    again = draws("cpu", 42)
    model = draws("ipumodel", 42)
    for r in range(2):
        for name in "ab":
            np.testing.assert_array_equal(cpu[r][name], again[r][name])
            np.testing.assert_array_equal(cpu[r][name], model[r][name])
    # Each run draws new numbers, each op its own, each seed others.
    assert not np.array_equal(cpu[0]["a"], cpu[1]["a"])
    assert not np.array_equal(cpu[0]["a"], cpu[0]["b"])
    assert not np.array_equal(cpu[0]["a"], draws("cpu", 43, 1)[0]["a"])


def test_session_seed_independent_of_threads(tmp_path):
    """The IPU Model's tiles run on oneTBB's threads: a process held to one
    core (oneTBB then runs one thread) gives the numbers this one gives."""
    import subprocess
    import sys
    script = (
        "import os\n"
        "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
        "import numpy as np, sys\n"
        f"sys.path.insert(0, {os.path.dirname(__file__)!r})\n"
        "import test_random_ops as t\n"
        "d = t.draws('ipumodel', 42, 1)[0]\n"
        f"np.save({str(tmp_path / 'one.npy')!r}, d['a'])\n")
    reference = draws("ipumodel", 42, 1)[0]["a"]
    result = subprocess.run([sys.executable, "-c", script],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "one.npy"), reference)


@pytest.mark.parametrize("kind", DEVICES)
def test_seed_attribute_fixes_the_stream(kind):
    def values(seed_attribute, session_seed, runs=1):
        session = open_session(one_op("RandomNormal", TensorProto.FLOAT, [128],
                                      shape=[128], seed=seed_attribute), ["y"], kind)
        session.setRandomSeed(session_seed)
        return [run(session)["y"] for _ in range(runs)]

    first, second = values(2.0, 1, runs=2)
    # The same numbers on every run and whatever the session's seed.
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(first, values(2.0, 99)[0])
    assert not np.array_equal(first, values(3.0, 1)[0])


# ---------------------------------------------------------------------------
# Bernoulli and Multinomial.


@pytest.mark.parametrize("kind", DEVICES)
def test_bernoulli_frequencies(kind):
    n = 5000
    probabilities = [0.0, 0.2, 0.7, 1.0]
    p = np.repeat(np.array(probabilities, np.float32)[:, None], n, axis=1)
    proto = one_op("Bernoulli", TensorProto.FLOAT, [4, n],
                   [("p", TensorProto.FLOAT, [4, n])])
    session = open_session(proto, ["y"], kind)
    session.setRandomSeed(3)
    y = run(session, {"p": p})["y"]
    assert y.dtype == np.float32 and set(np.unique(y)) <= {0.0, 1.0}
    assert y[0].sum() == 0 and y[3].sum() == n
    for row, q in ((1, 0.2), (2, 0.7)):
        ones = y[row].sum()
        # Chi-squared with one degree of freedom: 30 has a probability
        # below 1e-7.
        assert (ones - n * q) ** 2 / (n * q * (1 - q)) < 30


@pytest.mark.parametrize("dtype,numpy_type", [
    (TensorProto.INT32, np.int32), (TensorProto.BOOL, np.bool_),
    (TensorProto.DOUBLE, np.float64)])
def test_bernoulli_dtype(dtype, numpy_type):
    p = np.full(400, 0.5, np.float64)
    proto = one_op("Bernoulli", dtype, [400], [("p", TensorProto.DOUBLE, [400])],
                   dtype=dtype)
    y = run(open_session(proto, ["y"]), {"p": p})["y"]
    assert y.dtype == numpy_type
    assert set(np.unique(y.astype(np.int64))) == {0, 1}


@pytest.mark.parametrize("kind", DEVICES)
def test_multinomial_frequencies(kind):
    samples = 6000
    probabilities = np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.0, 0.25, 0.25]])
    logits = np.log(np.maximum(probabilities, 1e-30)).astype(np.float32) + 3.0
    proto = one_op("Multinomial", TensorProto.INT64, [2, samples],
                   [("x", TensorProto.FLOAT, [2, 4])], opset=7,
                   sample_size=samples, dtype=TensorProto.INT64)
    session = open_session(proto, ["y"], kind)
    session.setRandomSeed(8)
    y = run(session, {"x": logits})["y"]
    assert y.dtype == np.int64 and y.shape == (2, samples)
    assert y.min() >= 0 and y.max() <= 3
    assert not np.any(y[1] == 1)  # probability 0
    for row in range(2):
        counts = np.bincount(y[row], minlength=4)
        keep = probabilities[row] > 0
        expected = samples * probabilities[row][keep]
        # Chi-squared with at most 3 degrees of freedom: 40 has a
        # probability below 1e-8.
        assert ((counts[keep] - expected) ** 2 / expected).sum() < 40


def test_multinomial_default_type_and_one_class():
    proto = one_op("Multinomial", TensorProto.INT32, [3, 5],
                   [("x", TensorProto.FLOAT, [3, 1])], opset=7, sample_size=5)
    y = run(open_session(proto, ["y"]), {"x": np.ones((3, 1), np.float32)})["y"]
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y, np.zeros((3, 5), np.int32))


# ---------------------------------------------------------------------------
# Errors name the op.


def test_errors_name_the_op():
    with pytest.raises(popart.popart_exception,
                       match=r"RandomUniform:1 'RandomUniform\(y\)'.*INT32.*not supported"):
        open_session(one_op("RandomUniform", TensorProto.INT32, [4], shape=[4],
                            dtype=TensorProto.INT32), ["y"])
    # ONNX's checker finds the missing shape first.
    with pytest.raises(popart.popart_exception,
                       match=r"'shape' is missing[\s\S]*OpType: RandomNormal"):
        open_session(one_op("RandomNormal", TensorProto.FLOAT, [4]), ["y"])
    with pytest.raises(popart.popart_exception,
                       match=r"Multinomial 'Multinomial\(y\)': the sample_size -2 is not positive"):
        open_session(one_op("Multinomial", TensorProto.INT32, ["b", "s"],
                            [("x", TensorProto.FLOAT, [2, 3])], opset=7,
                            sample_size=-2), ["y"])
    with pytest.raises(popart.popart_exception,
                       match=r"Multinomial 'Multinomial\(y\)'.*FLOAT.*INT32 or INT64"):
        open_session(one_op("Multinomial", TensorProto.FLOAT, [2, 1],
                            [("x", TensorProto.FLOAT, [2, 3])], opset=7,
                            dtype=TensorProto.FLOAT), ["y"])
    with pytest.raises(popart.popart_exception,
                       match=r"RandomUniformLike:1 'RandomUniformLike\(y\)'.*INT32.*the input's"):
        open_session(one_op("RandomUniformLike", TensorProto.INT32, [2],
                            [("x", TensorProto.INT32, [2])]), ["y"])
    with pytest.raises(popart.popart_exception,
                       match=r"RandomNormal:1 'RandomNormal\(y\)': the scale -1 is negative"):
        open_session(one_op("RandomNormal", TensorProto.FLOAT, [2], shape=[2],
                            scale=-1.0), ["y"])


# ---------------------------------------------------------------------------
# Dropout with its ratio and training_mode read at run time.


def dropout_session(kind, mask=True, shape=(200, 100), session_seed=21, **attributes):
    outputs = ["y", "z"] if mask else ["y"]
    proto = make_model(
        [helper.make_node("Dropout", ["x", "r", "t"], outputs, **attributes)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape)),
         helper.make_tensor_value_info("r", TensorProto.FLOAT, []),
         helper.make_tensor_value_info("t", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(shape))] +
        ([helper.make_tensor_value_info("z", TensorProto.BOOL, list(shape))]
         if mask else []), 13)
    session = open_session(proto, outputs, kind)
    session.setRandomSeed(session_seed)
    return session


def check_dropout(x, ratio, y, z):
    kept = z
    scale = np.float32(1) / (np.float32(1) - np.float32(ratio))
    np.testing.assert_array_equal(y[kept], x[kept] * scale)
    np.testing.assert_array_equal(y[~kept], 0)
    dropped = np.mean(~kept)
    n = kept.size
    # Standard error sqrt(r (1 - r) / n) below 0.0035 here: 0.03 is 8 of them.
    assert abs(dropped - ratio) < 0.03, (dropped, ratio, n)


@pytest.mark.parametrize("kind", DEVICES)
def test_runtime_dropout(kind):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((200, 100)) + 5).astype(np.float32)  # no zeros
    session = dropout_session(kind)
    for ratio in (0.3, 0.75):
        out = run(session, {"x": x, "r": np.array(ratio, np.float32),
                            "t": np.array(True)})
        assert out["z"].dtype == np.bool_
        check_dropout(x, ratio, out["y"], out["z"])
    # Mode false: the identity, every element kept, whatever the ratio.
    out = run(session, {"x": x, "r": np.array(0.5, np.float32), "t": np.array(False)})
    np.testing.assert_array_equal(out["y"], x)
    assert out["z"].all()
    # Ratio 0: the identity too.
    out = run(session, {"x": x, "r": np.array(0.0, np.float32), "t": np.array(True)})
    np.testing.assert_array_equal(out["y"], x)
    assert out["z"].all()


def test_runtime_dropout_reproducible():
    x = np.ones((50, 40), np.float32)
    feeds = {"x": x, "r": np.array(0.5, np.float32), "t": np.array(True)}
    cpu = run(dropout_session("cpu", shape=(50, 40)), feeds)
    model = run(dropout_session("ipumodel", shape=(50, 40)), feeds)
    np.testing.assert_array_equal(cpu["z"], model["z"])
    np.testing.assert_array_equal(cpu["y"], model["y"])


def test_dropout_seed_attribute():
    """Dropout's seed attribute fixes its mask: the same on every run and
    whatever the session's seed; without it each run draws a new one."""
    x = np.ones((50, 40), np.float32)
    feeds = {"x": x, "r": np.array(0.5, np.float32), "t": np.array(True)}
    seeded = dropout_session("cpu", shape=(50, 40), session_seed=1, seed=7)
    first, second = run(seeded, feeds)["z"], run(seeded, feeds)["z"]
    np.testing.assert_array_equal(first, second)
    other = dropout_session("cpu", shape=(50, 40), session_seed=2, seed=7)
    np.testing.assert_array_equal(first, run(other, feeds)["z"])
    assert not np.array_equal(
        first, run(dropout_session("cpu", shape=(50, 40), seed=8), feeds)["z"])
    unseeded = dropout_session("cpu", shape=(50, 40))
    assert not np.array_equal(run(unseeded, feeds)["z"], run(unseeded, feeds)["z"])


def test_dropout_training_mode_constant_true_in_inference():
    """A constant training_mode true drops in an InferenceSession too."""
    x = np.full((100, 100), 2.0, np.float32)
    proto = make_model(
        [helper.make_node("Constant", [], ["r"], value=numpy_helper.from_array(
            np.array(0.4, np.float32))),
         helper.make_node("Constant", [], ["t"], value=numpy_helper.from_array(
             np.array(True))),
         helper.make_node("Dropout", ["x", "r", "t"], ["y", "z"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [100, 100])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [100, 100]),
         helper.make_tensor_value_info("z", TensorProto.BOOL, [100, 100])], 13)
    out = run(open_session(proto, ["y", "z"]), {"x": x})
    check_dropout(x, 0.4, out["y"], out["z"])


# ---------------------------------------------------------------------------
# The backend test cases whose values NumPy's generator fixed: what can be
# checked of them.


def read_case(name):
    from onnx import TensorProto as TP
    directory = os.path.join(TEST_DATA, name)
    data = os.path.join(directory, "test_data_set_0")

    def load(path):
        tensor = TP()
        with open(path, "rb") as f:
            tensor.ParseFromString(f.read())
        return numpy_helper.to_array(tensor)

    inputs = sorted(f for f in os.listdir(data) if f.startswith("input_"))
    outputs = sorted(f for f in os.listdir(data) if f.startswith("output_"))
    with open(os.path.join(directory, "model.onnx"), "rb") as f:
        proto = f.read()
    return proto, [load(os.path.join(data, f)) for f in inputs], \
        [load(os.path.join(data, f)) for f in outputs]


def case_io_names(proto):
    import onnx
    model = onnx.load_from_string(proto)
    return [i.name for i in model.graph.input], [o.name for o in model.graph.output]


@pytest.mark.skipif(not os.path.isdir(TEST_DATA), reason="no ONNX test data")
@pytest.mark.parametrize("case", [
    "test_bernoulli", "test_bernoulli_double", "test_bernoulli_seed",
    "test_bernoulli_expanded", "test_bernoulli_double_expanded",
    "test_bernoulli_seed_expanded"])
def test_bernoulli_cases(case):
    proto, inputs, expected = read_case(case)
    in_names, out_names = case_io_names(proto)
    out = run(open_session(proto, out_names),
              dict(zip(in_names, inputs)))[out_names[0]]
    assert out.dtype == expected[0].dtype and out.shape == expected[0].shape
    assert set(np.unique(out)) <= {0, 1}


@pytest.mark.skipif(not os.path.isdir(TEST_DATA), reason="no ONNX test data")
@pytest.mark.parametrize("case", [
    "test_training_dropout", "test_training_dropout_default",
    "test_training_dropout_mask", "test_training_dropout_default_mask"])
def test_training_dropout_cases(case):
    proto, inputs, expected = read_case(case)
    in_names, out_names = case_io_names(proto)
    out = run(open_session(proto, out_names), dict(zip(in_names, inputs)))
    x, ratio = inputs[0], float(inputs[1])
    y = out[out_names[0]]
    assert y.dtype == expected[0].dtype and y.shape == expected[0].shape
    kept = out[out_names[1]] if len(out_names) > 1 else y != 0
    scale = np.float32(1) / (np.float32(1) - np.float32(ratio))
    np.testing.assert_array_equal(y[kept], x[kept] * scale)
    np.testing.assert_array_equal(y[~kept], 0)
    # 60 elements: the number dropped is binomial (60, ratio); 5 standard
    # deviations either side.
    n = x.size
    sd = np.sqrt(n * ratio * (1 - ratio))
    assert abs((~kept).sum() - n * ratio) < 5 * sd


# ---------------------------------------------------------------------------
# Through the builder, and Dropout in a TrainingSession.


def test_builder_random_ops():
    builder = popart.Builder(opsets={"ai.onnx": 15, "ai.graphcore": 1})
    p = builder.addInputTensor(popart.TensorInfo("FLOAT", [2000]), "p")
    u = builder.aiOnnx.randomuniform(shape=[2000], low=1.0, high=2.0)
    b = builder.aiOnnx.bernoulli([p], seed=4.0)
    session = popart.InferenceSession(
        fnModel=builder.getModelProto(),
        dataFlow=anchored([u, b]), deviceInfo=device("cpu"))
    session.prepareDevice()
    out = run(session, {"p": np.full(2000, 0.25, np.float32)})
    assert out[u].min() >= 1.0 and out[u].max() < 2.0
    # Binomial (2000, 0.25): standard deviation 19.4, 6 of them.
    assert abs(out[b].sum() - 500) < 117


def test_runtime_dropout_mode_refused_in_training():
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 4]), "x")
    t = builder.addInputTensor(popart.TensorInfo("BOOL", []), "t")
    w = builder.addInitializedInputTensor(np.ones((4, 4), np.float32), "w")
    r = builder.aiOnnx.constant(np.array(0.5, np.float32))
    y = builder.aiOnnx.dropout([builder.aiOnnx.mul([x, w]), r, t], 1)[0]
    loss = builder.aiGraphcore.identityloss([y], reduction=popart.ReductionType.Sum)
    with pytest.raises(popart.popart_exception,
                       match=r"Dropout:13 '.*': the training_mode \(input 2, 't'\) "
                             r"is read at run time, which only an InferenceSession"):
        popart.TrainingSession(
            fnModel=builder.getModelProto(),
            dataFlow=anchored([loss]), loss=loss, optimizer=popart.ConstSGD(0.1), deviceInfo=device("cpu"))


def test_dropout_seed_attribute_in_training():
    """In a TrainingSession the grad op drops what the forward op dropped,
    from the seed attribute: dL/dw = x * mask / (1 - ratio) for L = sum(y),
    y = dropout(x * w)."""
    from session_helpers import one_step
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [30, 20]), "x")
    w = builder.addInitializedInputTensor(np.ones((30, 20), np.float32), "w")
    r = builder.aiOnnx.constant(np.array(0.25, np.float32))
    y, mask = builder.aiOnnx.dropout([builder.aiOnnx.mul([x, w]), r], 2, seed=5)
    loss = builder.aiGraphcore.identityloss([y], reduction=popart.ReductionType.Sum)
    xs = np.arange(600, dtype=np.float32).reshape(30, 20) / 100 + 1
    first = one_step(builder, [y, mask], {"x": xs}, loss=loss, grads_of=[w])
    again = one_step(builder, [y, mask], {"x": xs}, loss=loss, grads_of=[w])
    _, kept, grad = first
    np.testing.assert_array_equal(kept, again[1])  # the seed's mask
    scale = np.float32(1) / np.float32(0.75)
    np.testing.assert_allclose(grad, np.where(kept, xs * scale, 0), rtol=1e-6)
    assert abs(np.mean(~kept) - 0.25) < 0.1


def test_runtime_dropout_input_errors():
    def dropout_model(r_shape, t_type):
        return make_model(
            [helper.make_node("Dropout", ["x", "r", "t"], ["y"])],
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
             helper.make_tensor_value_info("r", TensorProto.FLOAT, r_shape),
             helper.make_tensor_value_info("t", t_type, [])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])], 13)

    with pytest.raises(popart.popart_exception,
                       match=r"Dropout:13 'Dropout\(y\)': the ratio \(input 1, 'r'\) "
                             r"has 2 elements, not 1"):
        open_session(dropout_model([2], TensorProto.BOOL), ["y"])

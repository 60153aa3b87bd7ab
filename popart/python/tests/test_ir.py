"""popart.ir: IRs built from Python run in sessions and compute what numpy
computes: the ops, Python literals and operators, dtypes, name scopes,
subgraphs called once and from several places, repeated, with inputs by
value and by reference, nested; variables read and written; the errors
of graphs built wrongly."""

import json
import math

import numpy as np
import pytest

import popart
import popart.ir as pir
import popart.ir.ops as ops


def session_of(ir, stores, batches=1, device=None):
    """A session of the IR, prepared and with its weights, whose anchors
    are the d2h streams `stores`."""
    pb = ir._pb_ir
    pb.setDataFlow(popart.DataFlow(batches, {s.tensor_id: popart.AnchorReturnType("All")
                                             for s in stores}))
    opts = pb.getSessionOptions()
    opts.useHostCopyOps = True
    opts.enableExplicitMainLoops = True
    session = popart.InferenceSession.fromIr(
        ir, device or popart.DeviceManager().createCpuDevice())
    session.prepareDevice()
    session.weightsFromHost()
    return session


def run(ir, inputs=None, stores=(), batches=1, device=None, weights=None):
    """Runs the IR for one step; returns the arrays of the d2h streams."""
    session = session_of(ir, stores, batches, device)
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({s.tensor_id: v for s, v in (inputs or {}).items()},
                                anchors))
    if weights is not None:
        session.weightsToHost()
        session.readWeights(popart.PyWeightsIO(weights))
    return [anchors[s.tensor_id] for s in stores], session


def store(t, name=None):
    d2h = pir.d2h_stream(t.shape, t.dtype, name=name or "out")
    ops.host_store(d2h, t)
    return d2h


def gelu(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def test_ops_against_numpy():
    rng = np.random.default_rng(7)
    a_data = rng.standard_normal([2, 3]).astype(np.float32)
    b_data = rng.standard_normal([2, 3]).astype(np.float32) + 3
    m_data = rng.standard_normal([3, 4]).astype(np.float32)
    ir = pir.Ir()
    with ir.main_graph():
        a_in = pir.h2d_stream([2, 3], pir.float32, name="a")
        b_in = pir.h2d_stream([2, 3], pir.float32, name="b")
        a, b = ops.host_load(a_in), ops.host_load(b_in)
        m = pir.constant(m_data, name="m")
        results = {
            "add": ops.add(a, b), "sub": ops.sub(a, b), "mul": ops.mul(a, b),
            "div": ops.div(a, b), "matmul": ops.matmul(a, m), "relu": ops.relu(a),
            "gelu": ops.gelu(a), "softmax": ops.softmax(a, axis=1),
            "reshape": ops.reshape(a, [3, 2]), "transpose": ops.transpose(a),
            "cast": ops.cast(b, pir.int32), "slice": ops.slice(a, 1, 3, axis=1),
            "sum": ops.sum(a, axis=1), "mean": ops.mean(a), "negate": ops.negate(a),
            "identity": ops.identity(a), "gather": ops.gather(a, [2, 0], axis=1),
            "concat": ops.concat([a, b], axis=0),
            "split0": ops.split(a, [1, 2], axis=1)[0],
            "split1": ops.split(a, [1, 2], axis=1)[1],
            "operators": (a + 1) * 2 - a / b, "rsub": 1 - a, "neg": -a, "at": a @ m,
            "index": a[1, 0:3:2],
        }
        stores = {k: store(v, k) for k, v in results.items()}
    outputs, _ = run(ir, {a_in: a_data, b_in: b_data}, list(stores.values()))
    got = dict(zip(stores, outputs))
    a_, b_ = a_data, b_data
    expected = {
        "add": a_ + b_, "sub": a_ - b_, "mul": a_ * b_, "div": a_ / b_,
        "matmul": a_ @ m_data, "relu": np.maximum(a_, 0), "gelu": gelu(a_),
        "softmax": np.exp(a_) / np.exp(a_).sum(axis=1, keepdims=True),
        "reshape": a_.reshape(3, 2), "transpose": a_.T, "cast": b_.astype(np.int32),
        "slice": a_[:, 1:3], "sum": a_.sum(axis=1), "mean": a_.mean(), "negate": -a_,
        "identity": a_, "gather": a_[:, [2, 0]], "concat": np.concatenate([a_, b_]),
        "split0": a_[:, :1], "split1": a_[:, 1:], "operators": (a_ + 1) * 2 - a_ / b_,
        "rsub": 1 - a_, "neg": -a_, "at": a_ @ m_data, "index": a_[1, 0:3:2],
    }
    for name, value in expected.items():
        assert got[name].dtype == value.dtype or name == "cast", name
        np.testing.assert_allclose(got[name], value, rtol=1e-5, atol=1e-6, err_msg=name)


def test_dtypes_table():
    table = [(pir.bool, False, False, False, np.bool_), (pir.int8, True, False, True, np.int8),
             (pir.int32, True, False, True, np.int32), (pir.uint8, True, False, False, np.uint8),
             (pir.uint32, True, False, False, np.uint32),
             (pir.float16, False, True, True, np.float16),
             (pir.float32, False, True, True, np.float32),
             (pir.float64, False, True, True, np.float64)]
    for dtype, is_int, is_float, signed, np_type in table:
        assert (dtype.is_int, dtype.is_floating_point, dtype.is_signed) == \
            (is_int, is_float, signed), dtype
        assert dtype.as_numpy() == np.dtype(np_type)
        assert pir.dtype.as_dtype(np_type) is dtype
    assert pir.half is pir.float16 and pir.float is pir.float32 and pir.double is pir.float64
    assert pir.dtype.as_dtype(float) is pir.float32
    assert pir.dtype.as_dtype(bool) is pir.bool
    with pytest.raises(TypeError, match="complex"):
        pir.dtype.as_dtype(np.complex64)


@pytest.mark.parametrize("dtype", [pir.int8, pir.int32, pir.uint8, pir.uint32,
                                   pir.float16, pir.float32, pir.float64, pir.int64])
def test_variables_of_each_type(dtype):
    data = np.arange(6).reshape(2, 3).astype(dtype.as_numpy())
    ir = pir.Ir()
    with ir.main_graph():
        v = pir.variable(data, name="v")
        assert v.dtype is dtype and v.shape == (2, 3)
        out = store(v + 1)
    (result,), _ = run(ir, stores=[out])
    assert result.dtype == dtype.as_numpy()
    np.testing.assert_array_equal(result, data + 1)


def test_literals_and_name_scopes():
    ir = pir.Ir()
    with ir.main_graph():
        with pir.name_scope("layer1"), pir.name_scope("inner"):
            a = pir.variable(2.5, name="a")
            c = pir.constant([1, 2], dtype=pir.int32)
        assert a.id == "layer1/inner/a" and a.dtype is pir.float32
        assert isinstance(a, pir.Variable) and isinstance(c, pir.Constant)
        b = pir.variable(True)
        assert b.dtype is pir.bool
        out = store(3 * a + 0.5)
        ints = store(c * 3 - 1)
    (x, y), _ = run(ir, stores=[out, ints])
    assert x == np.float32(8.0)
    np.testing.assert_array_equal(y, [2, 5])


def test_subgraph_called_from_two_sites_and_nested():
    def double(x):
        return x + x

    def quad(x, d):
        # A subgraph calling another.
        y, = ops.call(d, x)
        z, = ops.call(d, y)
        return z

    ir = pir.Ir()
    with ir.main_graph():
        s = pir.h2d_stream([3], pir.float32)
        x = ops.host_load(s)
        g = ir.create_graph(double, x)
        y, = ops.call(g, x)
        z, = ops.call(g, y)
        # double inside quad is its own subgraph (made in quad's graph).
        inner_ir_graph = ir.create_graph(double, x)
        q = ir.create_graph(lambda t: quad(t, inner_ir_graph), x)
        w, = ops.call(q, x)
        outs = [store(z, "z"), store(w, "w")]
    assert [t.name for t in g.inputs] == ["x"] and len(g.outputs) == 1
    data = np.array([1, -2, 0.5], np.float32)
    (rz, rw), _ = run(ir, {s: data}, outs)
    np.testing.assert_allclose(rz, 4 * data)
    np.testing.assert_allclose(rw, 4 * data)
    # The subgraph is in the IR once, whatever its calls.
    serialised = json.loads(ir._pb_ir.serialise())
    calls = [op for op in serialised["maingraph"] if op["type"] == "Call"]
    assert g.id.endswith("double") and inner_ir_graph.id == g.id + "_1"
    assert [op["attributes"]["callee"] for op in calls] == [g.id, g.id, q.id]
    assert [op["type"] for op in serialised[g.id]] == ["Add"]
    assert [op["attributes"]["callee"] for op in serialised[q.id]] == \
        [inner_ir_graph.id] * 2


def test_repeat_carries_outputs():
    def body(x, step):
        return x * 2 + step, step

    ir = pir.Ir()
    with ir.main_graph():
        x = pir.variable(np.ones([2], np.float32), name="x")
        step = pir.constant(np.array([1, 0.5], np.float32))
        g = ir.create_graph(body, x, step)
        o, s = ops.repeat(g, 3, x, step)
        zero, = ops.repeat(ir.create_graph(body, x, step), 0, x, step)[:1]
        outs = [store(o, "o"), store(zero, "zero")]
    expected = np.ones(2, np.float32)
    for _ in range(3):
        expected = expected * 2 + np.array([1, 0.5], np.float32)
    (ro, rzero), _ = run(ir, stores=outs)
    np.testing.assert_allclose(ro, expected)
    np.testing.assert_allclose(rzero, np.ones(2))


def test_inputs_by_reference_and_by_value():
    def add_in_place(total: pir.TensorByRef, x):
        ops.var_updates.copy_var_update_(total, total + x)

    def add_to_copy(total, x):
        ops.var_updates.copy_var_update_(total, total + x)

    ir = pir.Ir()
    with ir.main_graph():
        by_ref = pir.variable(np.zeros(2, np.float32), name="by_ref")
        by_value = pir.variable(np.zeros(2, np.float32), name="by_value")
        x = pir.constant(np.array([1.0, 2.0], np.float32))
        ops.call(ir.create_graph(add_in_place, by_ref, x), by_ref, x)
        ops.call(ir.create_graph(add_to_copy, by_value, x), by_value, x)
        # Repeated three times, the update by reference accumulates.
        ops.repeat(ir.create_graph(add_in_place, by_ref, x), 3, by_ref, x)
        # A reader made after the updates sees them.
        seen = store(by_ref * 1.0, "seen")
        # call_with_info: the caller says which input is modified.
        info_v = pir.variable(np.zeros(2, np.float32), name="info_v")
        info = ops.call_with_info(ir.create_graph(add_to_copy, info_v, x), info_v, x)
        info.set_parent_input_modified(info_v)
    weights = {"by_ref": np.empty(2, np.float32), "by_value": np.empty(2, np.float32),
               "info_v": np.empty(2, np.float32)}
    (r_seen,), _ = run(ir, stores=[seen], weights=weights)
    np.testing.assert_allclose(weights["by_ref"], [4, 8])
    np.testing.assert_allclose(r_seen, [4, 8])
    np.testing.assert_allclose(weights["by_value"], [0, 0])
    np.testing.assert_allclose(weights["info_v"], [1, 2])


def test_write_weights_and_batches():
    ir = pir.Ir()
    with ir.main_graph():
        w = pir.variable(np.array([[1, 2], [3, 4]], np.float32), name="w")
        s = pir.h2d_stream([1, 2], pir.float32, name="in")
        y = ops.host_load(s) @ w
        out = store(y)
    session = session_of(ir, [out], batches=3)
    new = np.array([[0, 1], [1, 0]], np.float32)
    session.writeWeights(popart.PyWeightsIO({w.id: new}))
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    data = np.arange(6, dtype=np.float32).reshape(3, 1, 2)
    session.run(popart.PyStepIO({s.tensor_id: data}, anchors))
    np.testing.assert_allclose(anchors[out.tensor_id], data @ new)
    # The IR is the session's now.
    with pytest.raises(popart.popart_exception, match="in a session"):
        with ir.main_graph():
            pir.variable(1.0)


def test_virtual_graphs_on_two_ipus():
    ir = pir.Ir()
    with ir.main_graph():
        s = pir.h2d_stream([4], pir.float32)
        with pir.virtual_graph(0):
            x = ops.host_load(s)
            a = x * 2.0
        with pir.virtual_graph(1):
            b = a + 1.0
            out = store(b)
    pb = ir._pb_ir
    pb.getSessionOptions().virtualGraphMode = popart.VirtualGraphMode.Manual
    device = popart.DeviceManager().createIpuModelDevice({"numIPUs": 2, "tilesPerIPU": 4})
    data = np.arange(4, dtype=np.float32)
    (r,), _ = run(ir, {s: data}, [out], device=device)
    np.testing.assert_allclose(r, data * 2 + 1)


def test_errors():
    ir = pir.Ir()
    main = ir.main_graph()
    with main:
        x = pir.variable(np.ones(2, np.float32), name="x")

        def uses_outer(t):
            return t + x  # x is the main graph's

        with pytest.raises(ValueError, match="'x' is in graph 'main'"):
            ir.create_graph(uses_outer, x)

        def makes_variable(t):
            pir.variable(1.0, name="w")
            return t

        with pytest.raises(ValueError, match="'w'.*subgraph"):
            ir.create_graph(makes_variable, x)
        g = ir.create_graph(lambda a, b: a + b, x, x)
        with pytest.raises(ValueError, match="no value for input"):
            ops.call(g, x)
        with pytest.raises(popart.popart_exception, match="FLOAT.*INT32|INT32.*FLOAT"):
            ops.call(g, x, pir.constant(np.ones(2, np.int32)))
        with pytest.raises(ValueError, match="repeat_count"):
            ops.repeat(g, -1, x, x)
        with pytest.raises(popart.popart_exception, match="Add"):
            ops.add(x, pir.constant(np.ones(3, np.float32)))
        out = pir.d2h_stream([3], pir.float32)
        with pytest.raises(ValueError, match="carries"):
            ops.host_store(out, x)
    with pytest.raises(RuntimeError, match="No graph"):
        pir.constant(1.0)
    pb = ir._pb_ir
    pb.setDataFlow(popart.DataFlow(1, {}))
    with pytest.raises(popart.popart_exception, match="useHostCopyOps"):
        popart.InferenceSession.fromIr(ir, popart.DeviceManager().createCpuDevice())


def test_dropout_from_the_session_seed():
    ir = pir.Ir()
    with ir.main_graph():
        x = pir.variable(np.ones(2000, np.float32), name="x")
        out = store(ops.dropout(x, p=0.25))
    session = session_of(ir, [out])
    anchors = session.initAnchorArrays()

    def draw(seed):
        session.setRandomSeed(seed)
        session.run(popart.PyStepIO({}, anchors))
        return anchors[out.tensor_id].copy()

    first, again, other = draw(11), draw(11), draw(12)
    # Kept elements are scaled by 1 / (1 - p).
    assert set(np.unique(first)) <= {0.0, np.float32(1 / 0.75)}
    assert 0.2 < np.mean(first == 0) < 0.3
    np.testing.assert_array_equal(first, again)
    assert (first != other).any()
    with pytest.raises(ValueError, match="seed_tensor"):
        with pir.Ir().main_graph():
            ops.dropout(pir.constant(1.0), pir.constant(np.zeros(2, np.uint32)), 0.5)


def test_in_sequence_orders_ops_as_made():
    ir = pir.Ir()
    with ir.main_graph(), pir.in_sequence():
        x = pir.variable(np.ones(3, np.float32), name="x")
        names = ["c", "a", "b"]
        for n in names:
            ops.identity(x, name=n)
    order = [op["name"] for op in json.loads(ir._pb_ir.serialise())["maingraph"]]
    assert order == names


def test_supported_data_type_casting_is_required_for_int64():
    ir = pir.Ir()
    with ir.main_graph():
        out = store(pir.variable(np.array([1, 2], np.int64)) * 3)
    pb = ir._pb_ir
    pb.getSessionOptions().enableSupportedDataTypeCasting = False
    with pytest.raises(popart.popart_exception, match="enableSupportedDataTypeCasting"):
        run(ir, stores=[out])

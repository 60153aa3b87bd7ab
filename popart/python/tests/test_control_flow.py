"""ONNX If, Loop and Scan through InferenceSessions on the CPU device and the
IPU Model: trip counts read at run time (one compiled session, several
counts), scan outputs, outer-scope values read from nested subgraphs, Scan's
axes and directions, and the errors of what the static-shape IR cannot
hold. Results are checked against numpy loops."""

import numpy as np
import onnx
import popart
import pytest
from onnx import TensorProto, helper, numpy_helper
from session_helpers import DEVICES, anchored, device, run_session as run


def model_of(graph, opset):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    return model.SerializeToString()


def session_of(proto, outputs, kind):
    session = popart.InferenceSession(
        fnModel=proto,
        dataFlow=anchored(outputs),
        deviceInfo=device(kind))
    session.prepareDevice()
    return session


def const(name, array):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.asarray(array), name))


def doubling_loop_graph():
    """y = x doubled while the iteration count is below M and sum(y) < limit;
    M, the condition and the limit are all streamed from the host."""
    body = helper.make_graph(
        [const("two", np.float32(2.0)),
         helper.make_node("Mul", ["y_in", "two"], ["y_out"]),
         helper.make_node("ReduceSum", ["y_out"], ["total"], keepdims=0),
         helper.make_node("Less", ["total", "limit"], ["cond_out"])],
        "doubling",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("y_in", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("y_out", TensorProto.FLOAT, [3])])
    return helper.make_graph(
        [helper.make_node("Loop", ["M", "cond", "x"], ["y"], body=body)],
        "runtime_trip_count",
        [helper.make_tensor_value_info("M", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
         helper.make_tensor_value_info("limit", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])])


def doubling_reference(m, cond, x, limit):
    y = x.copy()
    i = 0
    while i < m and cond:
        y = y * 2
        cond = y.sum() < limit
        i += 1
    return y


@pytest.mark.parametrize("kind", DEVICES)
def test_loop_trip_count_read_at_run_time(kind):
    # One session runs every trip count: the loop is a device loop, not
    # unrolled for the count the session was built with.
    session = session_of(model_of(doubling_loop_graph(), 13), ["y"], kind)
    x = np.array([1.0, -0.5, 2.0], np.float32)
    for m, cond, limit in [(0, True, 1e9), (3, True, 1e9), (7, True, 1e9),
                           (5, False, 1e9), (50, True, 100.0)]:
        inputs = {"M": np.array(m, np.int64), "cond": np.array(cond),
                  "x": x, "limit": np.array(limit, np.float32)}
        y = run(session, inputs)["y"]
        np.testing.assert_array_equal(y, doubling_reference(m, cond, x, limit))


@pytest.mark.parametrize("kind", DEVICES)
def test_loop_scan_outputs_and_nested_if_reading_outer_values(kind):
    # Each iteration adds row i of the outer `table` (a runtime Slice of
    # the iteration count) and, through an If nested in the body, either
    # the outer `bias` or its negation: values two scopes out.
    then_branch = helper.make_graph(
        [helper.make_node("Add", ["acc", "bias"], ["then_out"])], "then",
        [], [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, [1, 4])])
    else_branch = helper.make_graph(
        [helper.make_node("Sub", ["acc", "bias"], ["else_out"])], "else",
        [], [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, [1, 4])])
    body = helper.make_graph(
        [const("one", np.int64(1)), const("two", np.int64(2)), const("zero", np.int64(0)),
         helper.make_node("Add", ["i", "one"], ["end"]),
         helper.make_node("Unsqueeze", ["i", "axes0"], ["start1"]),
         helper.make_node("Unsqueeze", ["end", "axes0"], ["end1"]),
         helper.make_node("Slice", ["table", "start1", "end1"], ["row"]),
         helper.make_node("Add", ["acc_in", "row"], ["acc"]),
         helper.make_node("Mod", ["i", "two"], ["parity"]),
         helper.make_node("Equal", ["parity", "zero"], ["even"]),
         helper.make_node("If", ["even"], ["acc_out"], then_branch=then_branch,
                          else_branch=else_branch),
         helper.make_node("Identity", ["acc_out"], ["scan_out"]),
         helper.make_node("Identity", ["cond_in"], ["cond_out"])],
        "accumulate",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_in", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, [1, 4]),
         helper.make_tensor_value_info("scan_out", TensorProto.FLOAT, [1, 4])])
    trips = 5
    graph = helper.make_graph(
        [const("M", np.int64(trips)), const("axes0", np.array([0], np.int64)),
         const("true", np.array(True)),
         helper.make_node("Loop", ["M", "true", "init"], ["final", "rows"], body=body)],
        "nested",
        [helper.make_tensor_value_info("init", TensorProto.FLOAT, [1, 4]),
         helper.make_tensor_value_info("table", TensorProto.FLOAT, [6, 4]),
         helper.make_tensor_value_info("bias", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("final", TensorProto.FLOAT, [1, 4]),
         helper.make_tensor_value_info("rows", TensorProto.FLOAT, [trips, 1, 4])])
    rng = np.random.default_rng(3)
    init = rng.standard_normal([1, 4]).astype(np.float32)
    table = rng.standard_normal([6, 4]).astype(np.float32)
    bias = rng.standard_normal([4]).astype(np.float32)
    anchors = run(session_of(model_of(graph, 13), ["final", "rows"], kind),
                  {"init": init, "table": table, "bias": bias})
    acc, rows = init, []
    for i in range(trips):
        acc = acc + table[i:i + 1]
        acc = acc + bias if i % 2 == 0 else acc - bias
        rows.append(acc)
    np.testing.assert_allclose(anchors["final"], acc, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(anchors["rows"], np.stack(rows), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("kind", DEVICES)
def test_loop_scan_rows_past_an_early_stop_are_zero(kind):
    body = helper.make_graph(
        [const("one", np.float32(1.0)),
         helper.make_node("Add", ["v_in", "one"], ["v_out"]),
         helper.make_node("Less", ["v_out", "stop"], ["cond_out"]),
         helper.make_node("Identity", ["v_out"], ["scan"])],
        "count",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, []),
         helper.make_tensor_value_info("scan", TensorProto.FLOAT, [])])
    graph = helper.make_graph(
        [const("M", np.int64(6)), const("true", np.array(True)), const("v0", np.float32(0)),
         helper.make_node("Loop", ["M", "true", "v0"], ["v", "counted"], body=body)],
        "early_stop",
        [helper.make_tensor_value_info("stop", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("v", TensorProto.FLOAT, []),
         helper.make_tensor_value_info("counted", TensorProto.FLOAT, [6])])
    session = session_of(model_of(graph, 13), ["v", "counted"], kind)
    anchors = run(session, {"stop": np.array(3.0, np.float32)})
    assert anchors["v"] == 3.0
    np.testing.assert_array_equal(anchors["counted"], [1, 2, 3, 0, 0, 0])


@pytest.mark.parametrize("kind", DEVICES)
def test_loop_of_a_trip_count_only(kind):
    # No condition input (the body's condition output is then ignored) and
    # no carried value: only scan outputs of the iteration count.
    body = helper.make_graph(
        [helper.make_node("Cast", ["i"], ["f"], to=TensorProto.FLOAT),
         helper.make_node("Mul", ["f", "f"], ["square"]),
         const("false", np.array(False)),
         helper.make_node("Identity", ["false"], ["cond_out"])],
        "squares",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("square", TensorProto.FLOAT, [])])
    graph = helper.make_graph(
        [const("M", np.int64(4)),
         helper.make_node("Loop", ["M", ""], ["squares"], body=body),
         helper.make_node("Add", ["squares", "x"], ["y"])],
        "trip_count_only",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    x = np.array([0.5, 1.5, -2.0, 3.0], np.float32)
    anchors = run(session_of(model_of(graph, 13), ["y"], kind), {"x": x})
    np.testing.assert_array_equal(anchors["y"], x + np.arange(4) ** 2)


def scan_graph(opset_axes):
    """Running sums and products of x along axis 1, scanned backwards, the
    sums stacked forwards along output axis 1 and the products backwards
    along output axis 0."""
    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "x_t"], ["s_out"]),
         helper.make_node("Mul", ["s_out", "w"], ["p"]),
         helper.make_node("Identity", ["s_out"], ["sums"])],
        "scan_body",
        [helper.make_tensor_value_info("s_in", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("sums", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("p", TensorProto.FLOAT, [2])])
    scan = helper.make_node("Scan", ["s0", "x"], ["s", "sums", "products"], body=body,
                            num_scan_inputs=1, scan_input_axes=[opset_axes],
                            scan_input_directions=[1], scan_output_axes=[1, 0],
                            scan_output_directions=[0, 1])
    return helper.make_graph(
        [scan], "scan",
        [helper.make_tensor_value_info("s0", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5]),
         helper.make_tensor_value_info("w", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("s", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("sums", TensorProto.FLOAT, [2, 5]),
         helper.make_tensor_value_info("products", TensorProto.FLOAT, [5, 2])])


@pytest.mark.parametrize("kind", DEVICES)
@pytest.mark.parametrize("axis", [1, -1])
def test_scan_axes_and_directions(kind, axis):
    rng = np.random.default_rng(4)
    s0 = rng.standard_normal([2]).astype(np.float32)
    x = rng.standard_normal([2, 5]).astype(np.float32)
    w = rng.standard_normal([2]).astype(np.float32)
    anchors = run(session_of(model_of(scan_graph(axis), 11), ["s", "sums", "products"], kind),
                  {"s0": s0, "x": x, "w": w})
    s, sums, products = s0, [], []
    for t in reversed(range(5)):
        s = s + x[:, t]
        sums.append(s)
        products.append(s * w)
    np.testing.assert_allclose(anchors["s"], s, rtol=1e-6)
    np.testing.assert_allclose(anchors["sums"], np.stack(sums, axis=1), rtol=1e-6)
    np.testing.assert_allclose(anchors["products"], np.stack(products[::-1]), rtol=1e-6)


def test_errors_name_the_node():
    def expect(graph, opset, match):
        with pytest.raises(popart.popart_exception, match=match):
            session_of(model_of(graph, opset), [graph.output[0].name], "cpu")

    # Branches giving outputs of different shapes.
    then_branch = helper.make_graph(
        [const("a", np.zeros([2], np.float32))], "then", [],
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2])])
    else_branch = helper.make_graph(
        [const("b", np.zeros([3], np.float32))], "else", [],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [3])])
    expect(helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], name="choose", then_branch=then_branch,
                          else_branch=else_branch)], "if_shapes",
        [helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])]),
        13, "choose.*same type and shape")

    # Scan outputs with a trip count streamed at run time.
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Identity", ["v_in"], ["v_out"]),
         helper.make_node("Identity", ["v_in"], ["scan"])], "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, []),
         helper.make_tensor_value_info("scan", TensorProto.FLOAT, [])])
    expect(helper.make_graph(
        [helper.make_node("Loop", ["M", "", "v"], ["v_last", "rows"], name="rows_loop",
                          body=body)],
        "loop_scan",
        [helper.make_tensor_value_info("M", TensorProto.INT64, []),
         helper.make_tensor_value_info("v", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("v_last", TensorProto.FLOAT, [])]),
        13, "rows_loop.*M must be a constant")

    # A slice whose length depends on run-time values.
    expect(helper.make_graph(
        [helper.make_node("Slice", ["x", "s", "e"], ["y"], name="cut")], "slice",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6]),
         helper.make_tensor_value_info("s", TensorProto.INT64, [1]),
         helper.make_tensor_value_info("e", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])]),
        13, "cut.*length of the slice")


def scan8_graph():
    """Opset 8's Scan with sequence_lens: a running sum of x (forwards) and
    r read backwards, per batch entry."""
    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "x_t"], ["s_out"]),
         helper.make_node("Identity", ["s_out"], ["sums"]),
         helper.make_node("Identity", ["r_t"], ["backwards"])],
        "scan8_body",
        [helper.make_tensor_value_info("s_in", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("r_t", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("sums", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("backwards", TensorProto.FLOAT, [])])
    scan = helper.make_node("Scan", ["lens", "s0", "x", "r"], ["s", "sums", "backwards"],
                            name="batched_scan", body=body, num_scan_inputs=2,
                            directions=[0, 1])
    return helper.make_graph(
        [scan], "scan8",
        [helper.make_tensor_value_info("lens", TensorProto.INT64, [3]),
         helper.make_tensor_value_info("s0", TensorProto.FLOAT, [3, 2]),
         helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 5, 2]),
         helper.make_tensor_value_info("r", TensorProto.FLOAT, [3, 5])],
        [helper.make_tensor_value_info("s", TensorProto.FLOAT, [3, 2]),
         helper.make_tensor_value_info("sums", TensorProto.FLOAT, [3, 5, 2]),
         helper.make_tensor_value_info("backwards", TensorProto.FLOAT, [3, 5])])


@pytest.mark.parametrize("kind", DEVICES)
def test_scan8_sequence_lens(kind):
    """Each entry scanned over its own length, read at run time (one
    session, two sets of lengths): states stop there, scan outputs are 0
    past it, a reversed input starts from its last element within it."""
    rng = np.random.default_rng(5)
    s0 = rng.standard_normal([3, 2]).astype(np.float32)
    x = rng.standard_normal([3, 5, 2]).astype(np.float32)
    r = rng.standard_normal([3, 5]).astype(np.float32)
    session = session_of(model_of(scan8_graph(), 8), ["s", "sums", "backwards"], kind)
    for lens in ([3, 5, 1], [5, 2, 4]):
        lens = np.array(lens, np.int64)
        anchors = run(session, {"lens": lens, "s0": s0, "x": x, "r": r})
        s = s0.copy()
        sums = np.zeros_like(x)
        backwards = np.zeros_like(r)
        for b, n in enumerate(lens):
            for t in range(n):
                s[b] = s[b] + x[b, t]
                sums[b, t] = s[b]
                backwards[b, t] = r[b, n - 1 - t]
        np.testing.assert_allclose(anchors["s"], s, rtol=1e-6)
        np.testing.assert_allclose(anchors["sums"], sums, rtol=1e-6)
        np.testing.assert_array_equal(anchors["backwards"], backwards)


def test_scan8_sequence_lens_errors_name_the_op():
    graph = scan8_graph()
    graph.input[0].type.tensor_type.shape.dim[0].dim_value = 2
    with pytest.raises(popart.popart_exception,
                       match=r"batched_scan.*sequence_lens \('lens'\) has 2 lengths "
                       r"for a batch of 3"):
        session_of(model_of(graph, 8), ["s"], "cpu")
    session = session_of(model_of(scan8_graph(), 8), ["s"], "cpu")
    with pytest.raises(popart.poplar_application_runtime_error,
                       match=r"Scan 'batched_scan': an entry of sequence_lens "
                       r"\('lens'\) is outside \[1, 5\]"):
        run(session, {"lens": np.array([3, 0, 2], np.int64),
                      "s0": np.zeros([3, 2], np.float32),
                      "x": np.zeros([3, 5, 2], np.float32),
                      "r": np.zeros([3, 5], np.float32)})

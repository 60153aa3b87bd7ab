# Tensors with a dimension of size 0 through InferenceSessions: Reshape-14
# with allowzero, and SplitToSequence into an empty element, against NumPy.
import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper
import popart
import pytest
from session_helpers import DEVICES, anchored, device, run_session

FLOAT, INT64 = onnx.TensorProto.FLOAT, onnx.TensorProto.INT64


def run(nodes, inputs, outputs, feeds, kind, initializers=()):
    graph = oh.make_graph(nodes, "g", [oh.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                          [oh.make_tensor_value_info(n, t, s) for n, t, s in outputs],
                          initializer=list(initializers))
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 14)])
    session = popart.InferenceSession(fnModel=model.SerializeToString(),
                                      dataFlow=anchored([o[0] for o in outputs]),
                                      deviceInfo=device(kind))
    session.prepareDevice()
    return run_session(session, feeds)


def shape_const(values):
    return onnx.numpy_helper.from_array(np.array(values, np.int64), "shape")


@pytest.mark.parametrize("kind", DEVICES)
def test_reshape_allowzero(kind):
    # allowzero=1: a 0 is a dimension of size 0 (an empty tensor in, an
    # empty one out); allowzero=0 copies the input's dimension.
    empty = np.zeros((0, 3, 4), np.float32)
    got = run([oh.make_node("Reshape", ["x", "shape"], ["y"], allowzero=1)],
              [("x", FLOAT, [0, 3, 4])], [("y", FLOAT, [3, 4, 0])], {"x": empty}, kind,
              [shape_const([3, 4, 0])])
    assert got["y"].shape == (3, 4, 0)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for allowzero, shape in [(1, [4, 6]), (0, [2, 0, 2, -1])]:
        want = x.reshape([x.shape[i] if d == 0 else d for i, d in enumerate(shape)])
        got = run([oh.make_node("Reshape", ["x", "shape"], ["y"], allowzero=allowzero)],
                  [("x", FLOAT, [2, 3, 4])], [("y", FLOAT, list(want.shape))], {"x": x}, kind,
                  [shape_const(shape)])
        np.testing.assert_array_equal(got["y"], want)


@pytest.mark.parametrize("kind", DEVICES)
def test_split_to_sequence_with_an_empty_element(kind):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    split = onnx.numpy_helper.from_array(np.array([2, 0, 1], np.int64), "split")
    nodes = [oh.make_node("SplitToSequence", ["x", "split"], ["seq"], axis=0),
             oh.make_node("SequenceLength", ["seq"], ["n"]),
             oh.make_node("SequenceAt", ["seq", "one"], ["empty"]),
             oh.make_node("SequenceAt", ["seq", "two"], ["last"]),
             oh.make_node("ConcatFromSequence", ["seq"], ["whole"], axis=0)]
    consts = [split, onnx.numpy_helper.from_array(np.array(1, np.int64), "one"),
              onnx.numpy_helper.from_array(np.array(2, np.int64), "two")]
    got = run(nodes, [("x", FLOAT, [3, 4])],
              [("n", INT64, []), ("empty", FLOAT, [0, 4]), ("last", FLOAT, [1, 4]),
               ("whole", FLOAT, [3, 4])], {"x": x}, kind, consts)
    assert got["n"] == 3
    assert got["empty"].shape == (0, 4)
    np.testing.assert_array_equal(got["last"], x[2:])
    np.testing.assert_array_equal(got["whole"], x)


def test_allowzero_with_both_0_and_minus_1_is_an_error_naming_the_op():
    with pytest.raises(popart.popart_exception, match=r"Reshape.*allowzero=1.*0 and -1"):
        run([oh.make_node("Reshape", ["x", "shape"], ["y"], allowzero=1, name="Reshape")],
            [("x", FLOAT, [2, 2])], [("y", FLOAT, [0, 4])], {}, "cpu", [shape_const([0, -1])])

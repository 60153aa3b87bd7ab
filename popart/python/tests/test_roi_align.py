"""ONNX RoiAlign in both modes against a NumPy loop over the regions, bins
and samples. Mode max follows ONNX's reference implementation (and
onnxruntime): a sample is the largest of its four bilinear terms, not
their sum; a bin is the largest of its samples."""

import numpy as np
import popart
import pytest
from onnx import TensorProto, helper


def sample_terms(image, y, x):
    """The four bilinear terms (weight times pixel) of a sample of image
    [H, W] at (y, x), all zero more than a pixel outside."""
    h, w = image.shape
    if y < -1.0 or y > h or x < -1.0 or x > w:
        return np.zeros(4, np.float64)
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= h - 1:
        y0 = y1 = h - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    hy, hx = 1 - ly, 1 - lx
    return np.array([hy * hx * image[y0, x0], hy * lx * image[y0, x1],
                     ly * hx * image[y1, x0], ly * lx * image[y1, x1]])


def roi_align_reference(x, rois, batch_indices, mode, out_h, out_w, ratio,
                        scale, half_pixel):
    regions, channels = rois.shape[0], x.shape[1]
    out = np.zeros((regions, channels, out_h, out_w), np.float64)
    shift = 0.5 if half_pixel else 0.0
    for r in range(regions):
        x1, y1, x2, y2 = (float(v) * scale - shift for v in rois[r])
        width, height = x2 - x1, y2 - y1
        if not half_pixel:
            width, height = max(width, 1.0), max(height, 1.0)
        bin_h, bin_w = height / out_h, width / out_w
        for c in range(channels):
            image = x[batch_indices[r], c].astype(np.float64)
            for ph in range(out_h):
                for pw in range(out_w):
                    values = []
                    for iy in range(ratio):
                        for ix in range(ratio):
                            yy = y1 + ph * bin_h + (iy + 0.5) * bin_h / ratio
                            xx = x1 + pw * bin_w + (ix + 0.5) * bin_w / ratio
                            terms = sample_terms(image, yy, xx)
                            values.append(terms.max() if mode == "max" else terms.sum())
                    out[r, c, ph, pw] = max(values) if mode == "max" else np.mean(values)
    return out


def run_roi_align(x, rois, batch_indices, opset, **attributes):
    out_shape = [rois.shape[0], x.shape[1], attributes["output_height"],
                 attributes["output_width"]]
    graph = helper.make_graph(
        [helper.make_node("RoiAlign", ["x", "rois", "indices"], ["y"], **attributes)],
        "roi_align",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape)),
         helper.make_tensor_value_info("rois", TensorProto.FLOAT, list(rois.shape)),
         helper.make_tensor_value_info("indices", TensorProto.INT64, [rois.shape[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    session = popart.InferenceSession(
        fnModel=model.SerializeToString(),
        dataFlow=popart.DataFlow(1, {"y": popart.AnchorReturnType("ALL")}),
        deviceInfo=popart.DeviceManager().createCpuDevice())
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({"x": x, "rois": rois, "indices": batch_indices},
                                anchors))
    return anchors["y"]


# Regions inside the map, across its edges, past it (more than a pixel
# outside: zero samples) and of zero size.
ROIS = np.array([[0.5, 1.0, 5.5, 6.0],
                 [-2.0, -1.5, 3.0, 2.5],
                 [4.0, 3.5, 9.5, 8.0],
                 [2.0, 2.0, 2.0, 2.0],
                 [-6.0, 0.0, -3.0, 4.0]], np.float32)


@pytest.mark.parametrize("mode", ["max", "avg"])
@pytest.mark.parametrize("opset,transformation",
                         [(10, "output_half_pixel"), (16, "half_pixel"),
                          (16, "output_half_pixel")])
def test_roi_align_against_numpy(mode, opset, transformation):
    rng = np.random.default_rng(11)
    # Negative values too: a max over terms that include zero weights.
    x = rng.normal(size=(2, 3, 7, 8)).astype(np.float32)
    indices = np.array([0, 1, 1, 0, 1], np.int64)
    attributes = dict(mode=mode, output_height=3, output_width=2,
                      sampling_ratio=2, spatial_scale=0.8)
    if opset >= 16:
        attributes["coordinate_transformation_mode"] = transformation
    got = run_roi_align(x, ROIS, indices, opset, **attributes)
    expected = roi_align_reference(x, ROIS, indices, mode, 3, 2, 2, 0.8,
                                   transformation == "half_pixel")
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_max_of_terms_not_of_the_interpolated_value():
    """A sample midway between four pixels of 1: each term is 0.25, so the
    max mode gives 0.25 where the interpolated value (avg) is 1."""
    x = np.ones((1, 1, 4, 4), np.float32)
    rois = np.array([[1.5, 1.5, 2.5, 2.5]], np.float32)
    indices = np.zeros(1, np.int64)
    for mode, expected in [("max", 0.25), ("avg", 1.0)]:
        got = run_roi_align(x, rois, indices, 16, mode=mode, output_height=1,
                            output_width=1, sampling_ratio=1)
        np.testing.assert_allclose(got, [[[[expected]]]], rtol=1e-6)

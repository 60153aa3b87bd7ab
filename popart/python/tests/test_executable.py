"""Executables from Python: the engine cache (SessionOptions and
POPART_CACHE_DIR) skips the second session's compile with bit-identical
results, saveExecutable/loadExecutable carry a training session's weights,
compileAndExport, damaged files, and compilationProgressLogger."""

import os
import subprocess
import sys

import numpy as np
import popart
import pytest

from test_session import DEVICES, device, run


def model():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]), "x")
    w = builder.addInitializedInputTensor(
        np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), "w")
    y = builder.aiOnnx.relu([builder.aiOnnx.matmul([x, w])])
    loss = builder.aiGraphcore.identityloss([y])
    return builder.getModelProto(), x, w, y, loss


X = np.float32([[0.5, -1, 2], [1.5, 0.25, -0.75]])


class Progress:
    def __init__(self, options):
        self.values = []
        options.compilationProgressLogger = lambda p, t: self.values.append((p, t))

    def compiled(self):
        return any(0 < p < t for p, t in self.values)


def inference(proto, y, kind, options):
    return popart.InferenceSession(proto, popart.DataFlow(1, {y: popart.AnchorReturnType("ALL")}),
                                   device(kind), userOptions=options)


@pytest.mark.parametrize("kind", DEVICES)
def test_cached_inference_skips_the_compile(kind, tmp_path):
    proto, x, _, y, _ = model()
    options = popart.SessionOptions()
    options.enableEngineCaching = True
    options.cachePath = str(tmp_path / "cache")
    first = Progress(options)
    a = inference(proto, y, kind, options)
    a.prepareDevice()
    want = run(a, {x: X})[y]
    assert first.compiled()
    assert len(list((tmp_path / "cache").glob("*.popef"))) == 1

    second = Progress(options)
    b = inference(proto, y, kind, options)
    b.prepareDevice()
    assert second.values == [(0, 100), (100, 100)]
    assert run(b, {x: X})[y].tobytes() == want.tobytes()


def test_popart_cache_dir(tmp_path):
    """POPART_CACHE_DIR read by SessionOptions() (in a process of its own)."""
    program = ("import popart; o = popart.SessionOptions(); "
               "print(o.enableEngineCaching, o.cachePath)")
    env = dict(os.environ, POPART_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", program], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == ["True", str(tmp_path)]


@pytest.mark.parametrize("kind", DEVICES)
def test_saved_training_session_keeps_its_weights(kind, tmp_path):
    proto, x, w, _, loss = model()
    optimizer = popart.SGD({"defaultLearningRate": (0.1, False),
                            "defaultMomentum": (0.9, True)})

    def session(options=None):
        return popart.TrainingSession(
            fnModel=proto, dataFlow=popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")}),
            loss=loss, optimizer=optimizer, deviceInfo=device(kind),
            userOptions=options or popart.SessionOptions())

    def weights(s):
        out = {w: np.empty([3, 4], np.float32)}
        s.weightsToHost()
        s.readWeights(popart.PyWeightsIO(out))
        return out[w]

    a = session()
    a.prepareDevice()
    a.weightsFromHost()
    for step in range(2):
        run(a, {x: X + step})
    a.saveExecutable(str(tmp_path))
    assert (tmp_path / "executable.popef").exists()
    a.saveVariables(str(tmp_path / "vars.popef"))
    assert (tmp_path / "vars.popef").exists()

    options = popart.SessionOptions()
    progress = Progress(options)
    b = session(options)
    b.loadExecutable(str(tmp_path / "executable.popef"))
    b.prepareDevice()
    b.weightsFromHost()
    assert not progress.compiled()
    assert weights(b).tobytes() == weights(a).tobytes()
    for step in range(2, 4):
        assert run(a, {x: X + step})[loss].tobytes() == run(b, {x: X + step})[loss].tobytes()
    assert weights(b).tobytes() == weights(a).tobytes()


def test_compile_and_export_and_errors(tmp_path):
    proto, x, _, y, _ = model()
    a = inference(proto, y, "cpu", popart.SessionOptions())
    path = tmp_path / "sub" / "model.popef"
    a.compileAndExport(str(path))
    b = inference(proto, y, "cpu", popart.SessionOptions())
    b.loadExecutable(str(path))
    b.prepareDevice()
    a.prepareDevice()
    assert run(a, {x: X})[y].tobytes() == run(b, {x: X})[y].tobytes()

    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    damaged = tmp_path / "damaged.popef"
    damaged.write_bytes(bytes(data))
    c = inference(proto, y, "cpu", popart.SessionOptions())
    with pytest.raises(popart.popart_exception, match="damaged.popef.*checksum"):
        c.loadExecutable(str(damaged))
        c.prepareDevice()
    with pytest.raises(popart.popart_exception, match="nothing.popef.*cannot be opened"):
        c.loadExecutable(str(tmp_path / "nothing.popef"))


def test_progress_total():
    proto, _, _, y, _ = model()
    options = popart.SessionOptions()
    options.compilationProgressTotal = 20
    progress = Progress(options)
    inference(proto, y, "ipumodel", options).prepareDevice()
    assert progress.values[0] == (0, 20) and progress.values[-1] == (20, 20)
    assert progress.compiled()

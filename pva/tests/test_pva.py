"""The Python module pva on reports written by Engines: tutorial 4's
program (the profile's figures against the graph profile the same Engine
put in archive.a, and its printed summary) and a popart session (against
the session's getGraphReport and getExecutionReport)."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import popart
import pva
import pytest


def read_ar(path):
    """The members of an `ar` archive, by name."""
    members = {}
    with open(path, "rb") as f:
        assert f.read(8) == b"!<arch>\n"
        while True:
            header = f.read(60)
            if len(header) < 60:
                return members
            name = header[:16].decode().strip().rstrip("/")
            size = int(header[48:58].decode().strip())
            members[name] = f.read(size)
            if size % 2:
                f.read(1)


@pytest.fixture(scope="module")
def tut4(tmp_path_factory):
    """Tutorial 4 run with autoReport.all, as its README shows."""
    directory = tmp_path_factory.mktemp("tut4")
    env = dict(os.environ, POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true"}')
    result = subprocess.run([os.environ["TUT4_PROGRAM"]], cwd=directory, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    archive = read_ar(directory / "archive.a")
    tiles = [line.split(",") for line in archive["tiles.csv"].decode().splitlines()[1:]]
    return {
        "report": pva.openReport(str(directory / "profile.pop")),
        "summary": result.stdout,
        "graph": json.loads(archive["graph.json"]),
        "tiles": [[int(v) for v in row] for row in tiles],
        "directory": directory,
    }


def test_walkthrough_figures(tut4):
    """The figures the libpva walkthrough prints."""
    report, graph = tut4["report"], tut4["graph"]
    assert report.compilation.graph.numComputeSets == graph["graph"]["numComputeSets"]
    assert report.compilation.target.numTiles == graph["target"]["numTiles"] == 1472
    assert report.poplarVersion.string == popart.__version__
    # Cycles of every step on IPU 0: the total the summary prints.
    total = int(re.search(r"Total cycles:\s+([\d,]+)", tut4["summary"]).group(1)
                .replace(",", ""))
    assert sum(step.ipus[0].cycles for step in report.execution.steps) == total
    assert sum(run.cycles for run in report.execution.runs) == total


def test_tutorial_examples(tut4):
    """Tutorial 4's libpva examples, in C++ and in Python, print the same
    figures, which are the graph profile's."""
    outputs = []
    for command in ([os.environ["TUT4_LIBPVA_CPP_EXAMPLE"]],
                    [sys.executable, os.environ["TUT4_LIBPVA_PYTHON_EXAMPLE"]]):
        result = subprocess.run(command, cwd=tut4["directory"], capture_output=True,
                                text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    graph = tut4["graph"]
    assert outputs[0].splitlines() == [
        "Example information from profile:",
        f"Number of compute sets: {graph['graph']['numComputeSets']}",
        f"Number of tiles on target: {graph['target']['numTiles']}",
        f"Version of Poplar used: {popart.__version__}"]


def test_memory_by_tile(tut4):
    report = tut4["report"]
    tiles = report.compilation.tiles
    # tiles.csv: tile, ipu, totalBytes, totalBytesIncludingGaps, ...
    assert [t.memory.total.includingGaps for t in tiles] == [row[3] for row in tut4["tiles"]]
    assert [t.memory.total.excludingGaps for t in tiles] == [row[2] for row in tut4["tiles"]]
    by_tile = tut4["graph"]["memory"]["byTile"]
    assert [t.memory.interleaved.excludingGaps for t in tiles] == by_tile["interleaved"]
    categories = tut4["graph"]["memory"]["byCategory"]
    for name, category in categories.items():
        assert [t.memory.category.byName(name).total for t in tiles] == category["total"]
    assert [t.memory.category.vertexCode.total for t in tiles] == \
        categories["vertexCode"]["total"]
    assert sum(t.memory.alwaysLiveBytes for t in tiles) > 0
    assert [t.number for t in report.compilation.ipus[0].tiles] == list(range(1472))


def test_compute_sets(tut4):
    report, graph = tut4["report"], tut4["graph"]
    sets = report.compilation.computeSets
    assert [cs.name for cs in sets] == graph["computeSets"]["names"]
    estimates = graph["computeSets"]["cycleEstimates"]["cyclesByTile"]
    for cs, expected in zip(sets, estimates):
        assert cs.cyclesByTile == expected
        assert cs.cycles == max(expected)
    names = graph["vertexTypes"]["names"]
    for cs, types, counts in zip(sets, graph["computeSets"]["vertexTypes"],
                                 graph["computeSets"]["vertexCounts"]):
        assert sorted((v.type.name, v.count) for v in cs.vertices) == \
            sorted((names[t], c) for t, c in zip(types, counts))


def test_program_visitor(tut4):
    """The walkthrough's visitor: the OnTileExecute programs of compute sets
    with vertices of several types."""
    report, graph = tut4["report"], tut4["graph"]

    class TestVisitor(pva.ProgramVisitor):
        def __init__(self):
            super().__init__()
            self.names = []
            self.programs = set()
            self.types = {}

        def visitOnTileExecute(self, onTileExecute):
            if len(onTileExecute.computeset.vertices) > 1:
                self.names.append(onTileExecute.name)
            self.programs.add(onTileExecute)
            self.types[onTileExecute._id] = len(onTileExecute.computeset.vertices)

    v = TestVisitor()
    for s in report.execution.steps:
        if s.program is not None:
            s.program.accept(v)
    ran = {s.program._id for s in report.execution.steps
           if s.program is not None and s.program.type == pva.Program.Type.OnTileExecute}
    expected = [graph["programs"][s.program._id]["name"] for s in report.execution.steps
                if s.program is not None and s.program._id in ran and
                len(graph["computeSets"]["vertexTypes"]
                    [graph["programs"][s.program._id]["computeSet"]]) > 1]
    assert v.names == expected
    assert {p._id for p in v.programs} == ran and ran
    # The vertex types of each compute set run (one each in tutorial 4).
    assert v.types == {p: len(graph["computeSets"]["vertexTypes"]
                              [graph["programs"][p]["computeSet"]]) for p in ran}


def test_liveness(tut4):
    report, graph = tut4["report"], tut4["graph"]
    live = graph["memory"]["liveness"]
    assert {v.name: v.size for v in report.compilation.alwaysLiveVariables} == \
        live["alwaysLive"]
    steps = report.compilation.livenessProgramSteps
    assert [(s.name, s.notAlwaysLiveMemory.bytes) for s in steps] == \
        [(s["name"], s["liveBytes"]) for s in live["steps"]]
    # Each step's variables are those live in it, and with its buffers
    # they add up to its bytes.
    for i, step in enumerate(steps):
        assert step.program._id == live["steps"][i]["program"]
        memory = step.notAlwaysLiveMemory
        assert sum(v.size for v in memory.variables) == memory.bytes
        assert sorted(v.name for v in memory.variables if not v.name.startswith("<")) == \
            sorted(v["name"] for v in live["notAlwaysLive"]
                   if any(first <= i <= last for first, last in v["live"]))
    assert any(step.notAlwaysLiveMemory.variables for step in steps)


def test_errors(tmp_path):
    with pytest.raises(pva.pva_exception, match="missing.pop"):
        pva.openReport(str(tmp_path / "missing.pop"))
    text = tmp_path / "notes.pop"
    text.write_text("not a profile")
    with pytest.raises(pva.pva_exception, match="notes.pop"):
        pva.openReport(str(text))


def test_popart_session_report(tmp_path):
    """A popart session's profile.pop against the session's own reports, and
    the session's result against numpy."""
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [8, 16]))
    w_data = np.random.rand(16, 4).astype(np.float32)
    w = builder.addInitializedInputTensor(w_data)
    o = builder.aiOnnx.relu([builder.aiOnnx.matmul([x, w])])
    opts = popart.SessionOptions()
    opts.engineOptions["autoReport.outputGraphProfile"] = "true"
    opts.engineOptions["autoReport.outputExecutionProfile"] = "true"
    opts.engineOptions["autoReport.executionProfileProgramRunCount"] = "10"
    opts.engineOptions["autoReport.directory"] = str(tmp_path)
    session = popart.InferenceSession(
        fnModel=builder.getModelProto(),
        dataFlow=popart.DataFlow(2, {o: popart.AnchorReturnType("ALL")}),
        deviceInfo=popart.DeviceManager().createIpuModelDevice({"tilesPerIPU": 8}),
        userOptions=opts)
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    data = np.random.rand(2, 8, 16).astype(np.float32)
    for name in ("first step", "second step"):
        session.run(popart.PyStepIO({x: data}, anchors), name)
        np.testing.assert_allclose(anchors[o], np.maximum(data @ w_data, 0), rtol=1e-5)

    graph = json.loads(session.getGraphReport())
    execution = json.loads(session.getExecutionReport(resetProfile=False))
    # The session's Engine is named "inference": its reports are there.
    report = pva.openReport(str(tmp_path / "inference" / "profile.pop"))
    assert report.compilation.target.numTiles == graph["target"]["numTiles"] == 8
    assert [cs.name for cs in report.compilation.computeSets] == \
        graph["computeSets"]["names"]
    assert [t.memory.total.excludingGaps for t in report.compilation.tiles] == \
        graph["memory"]["byTile"]["total"]
    runs = report.execution.runs
    assert [r.name for r in runs][-2:] == ["first step", "second step"]
    assert sum(r.cycles for r in runs) == execution["simulation"]["cycles"]
    compute = [0] * 8
    for step in report.execution.steps:
        if step.program is not None and step.program.type == pva.Program.Type.OnTileExecute:
            compute = [a + b for a, b in zip(compute, step.cyclesByTile)]
    assert compute == execution["simulation"]["cyclesByTile"]["compute"]


def test_pipelined_steps_run_on_their_ipus(tmp_path):
    """A two-stage pipeline on two IPUs: each compute set runs on one IPU
    (no cycles on the other), and steps of the two IPUs overlap in time,
    as the session's execution report says."""
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 8]))
    label = builder.addInputTensor(popart.TensorInfo("INT32", [2]))
    h = x
    for stage in range(2):
        w = builder.addInitializedInputTensor(
            np.random.default_rng(stage).normal(size=(8, 8)).astype(np.float32))
        with builder.virtualGraph(stage), builder.pipelineStage(stage):
            h = builder.aiOnnx.relu([builder.aiOnnx.matmul([h, w])])
    with builder.virtualGraph(1), builder.pipelineStage(1):
        loss = builder.aiGraphcore.nllloss([builder.aiOnnx.softmax([h], axis=1), label])
    opts = popart.SessionOptions()
    opts.virtualGraphMode = popart.VirtualGraphMode.Manual
    opts.enablePipelining = True
    opts.enableGradientAccumulation = True
    opts.accumulationFactor = 4
    opts.engineOptions["autoReport.outputExecutionProfile"] = "true"
    opts.engineOptions["autoReport.directory"] = str(tmp_path)
    session = popart.TrainingSession(
        fnModel=builder.getModelProto(), dataFlow=popart.DataFlow(1, {}), loss=loss,
        optimizer=popart.ConstSGD(0.1),
        deviceInfo=popart.DeviceManager().createIpuModelDevice(
            {"numIPUs": 2, "tilesPerIPU": 4}),
        userOptions=opts)
    session.prepareDevice()
    session.weightsFromHost()
    data = np.random.default_rng(3)
    session.getExecutionReport()  # the step alone from here
    session.run(popart.PyStepIO({
        x: data.normal(size=(4, 2, 8)).astype(np.float32),
        label: data.integers(0, 8, size=(4, 2)).astype(np.int32)}, {}), "step")
    execution = json.loads(session.getExecutionReport(resetProfile=False))
    del session
    report = pva.openReport(str(tmp_path / "training" / "profile.pop"))
    run = [r for r in report.execution.runs if r.name == "step"][0]
    assert run.cycles == execution["simulation"]["cycles"]
    computes = [s for s in execution["simulation"]["steps"] if s["type"] == "OnTileExecute"]
    spans = {0: [], 1: []}
    seen = 0
    for step in run.steps:
        program = step.program
        if program is None or program.type != pva.Program.Type.OnTileExecute:
            continue
        on = [i for i, ipu in enumerate(step.ipus) if ipu.cycles]
        expected = computes[seen]
        seen += 1
        assert on == expected["ipus"]
        assert step.startCycle == expected["cyclesFrom"]
        if len(on) == 1:
            spans[on[0]].append((step.startCycle, step.startCycle + step.cycles))
    assert seen == len(computes)
    assert any(a0 < b1 and b0 < a1 for a0, a1 in spans[0] for b0, b1 in spans[1])

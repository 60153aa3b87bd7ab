"""The Python examples of the PopART user guide (tutorials/popart/python)
run unchanged with Debian's python3 and give the guide's output; what they
compute is checked against numpy and the models they build against the
ONNX library."""

import ast
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import onnx
import pytest

TUTORIALS = pathlib.Path(__file__).resolve().parents[3] / "tutorials" / "popart" / "python"


def run(script, tmp_path, args=()):
    """Runs a tutorial script in tmp_path; returns its output."""
    result = subprocess.run([sys.executable, str(TUTORIALS / script), *args], cwd=tmp_path,
                            capture_output=True, text=True, timeout=600,
                            env=dict(os.environ))
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def values(line, label):
    match = re.fullmatch(re.escape(label) + r" \[(.*)\]", line)
    assert match, f"'{line}' is not '{label} [...]'"
    return np.array([float(v) for v in match.group(1).split()], np.float32)


def test_simple_addition(tmp_path):
    lines = run("simple_addition.py", tmp_path).splitlines()
    assert len(lines) == 3
    a = values(lines[0], "Input a is")
    b = values(lines[1], "Input b is")
    result = values(lines[2], "Result is")
    # numpy prints float32 with 8 significant digits: enough to tell sums
    # apart, not to compare bit for bit.
    np.testing.assert_allclose(result, a + b, rtol=1e-6)


def test_importing_graphs(tmp_path):
    run("importing_graphs.py", tmp_path)
    model = onnx.load(str(tmp_path / "alexnet.onnx"))
    assert [o.name for o in model.graph.output] == ["output"]


def test_building_graphs(tmp_path):
    run("building_graphs.py", tmp_path)


def test_adding_operations(tmp_path):
    run("adding_operations.py", tmp_path)


def test_virtual_graphs(tmp_path):
    run("virtual_graphs.py", tmp_path)


def test_executing_graphs(tmp_path):
    out = run("executing_graphs.py", tmp_path).splitlines()
    match = re.fullmatch(r"a \+ b: \[(\S+)\] \+ \[(\S+)\] = \[(\S+)\]", out[0])
    assert match, out[0]
    a, b, total = (np.float32(v) for v in match.groups())
    np.testing.assert_allclose(total, a + b, rtol=1e-6)
    assert out[1].startswith("Failed to acquire device with 2 IPUs")
    assert out[2].startswith("Failed to acquire device with id '5'")
    model = onnx.load(str(tmp_path / "onnx.pb"))
    assert [i.name for i in model.graph.input] == ["a", "b"]


def test_profiling_reports(tmp_path):
    out = run("profiling_reports.py", tmp_path)
    assert "Memory Usage:" in out
    # showExecutionSteps lists the steps of the run.
    assert re.search(r"StreamCopy \(cycles [\d,]+ - [\d,]+\)", out)
    last = out.splitlines()[-1]
    match = re.fullmatch(r"Graph report: 16 tiles, execution report: (\d+) cycles", last)
    assert match and int(match.group(1)) > 0, last


def test_execution_tracing(tmp_path):
    result = subprocess.run([sys.executable, str(TUTORIALS / "execution_tracing.py")],
                            cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    log = result.stderr.splitlines()
    line = re.compile(r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] \[popart:(\w+)\] "
                      r"\[(trace|debug|info|warn|error|critical)\] .+")
    modules = set()
    for entry in log:
        match = line.fullmatch(entry)
        assert match, f"not the guide's log format: '{entry}'"
        modules.add(match.group(1))
    # DEBUG everywhere but the session module, which is off.
    assert {"builder", "ir"} <= modules
    assert "session" not in modules


def test_training_session(tmp_path):
    # The guide's AlexNet TrainingSession is made (it prints nothing).
    assert run("training_session.py", tmp_path) == ""
    model = onnx.load(str(tmp_path / "alexnet.onnx"))
    assert [o.name for o in model.graph.output] == ["output"]


def test_training_loop(tmp_path):
    lines = run("training_loop.py", tmp_path).splitlines()
    assert lines[0] == "Creating ipu sim"
    losses = []
    for step, line in enumerate(lines[1:]):
        match = re.fullmatch(rf"Step {step}: mean loss (\S+)", line)
        assert match, line
        losses.append(float(match.group(1)))
    assert len(losses) == 10 and all(np.isfinite(losses))
    # Every batch has label 0: training makes it likelier.
    assert losses[-1] < losses[0]


def test_simple_addition_popart_ir(tmp_path):
    lines = run("simple_addition_popart_ir.py", tmp_path).splitlines()
    a = values(lines[0], "Input a is")
    b = values(lines[1], "Input b is")
    np.testing.assert_allclose(values(lines[2], "Result is"), a + b, rtol=1e-6)


def test_tensor_addition_popart_ir(tmp_path):
    # variable 3 + constant 1, both int8.
    assert run("tensor_addition_popart_ir.py", tmp_path).splitlines() == ["Result is 4"]


def test_subgraphs_popart_ir(tmp_path):
    lines = run("subgraphs_popart_ir.py", tmp_path).splitlines()
    x = np.array(ast.literal_eval(lines[0].split(" is ")[1]), np.float32)
    results = [np.array(ast.literal_eval(line.split(" = ")[-1].split(": ")[-1]))
               for line in lines[1:]]
    z = 2 * (2 * x + 1) + 1
    np.testing.assert_allclose(results[0], z)
    np.testing.assert_allclose(results[1], 16 * x)
    # Two runs, each adding z to the variable passed by reference.
    np.testing.assert_allclose(results[2], 2 * z)


def test_fashion_mnist_twin(tmp_path):
    # The Python network prints what the C++ one prints: the same initial
    # weights, image order, losses and accuracies (two epochs of one step
    # each, on the CPU device).
    program = os.environ.get("POPART_FASHION_MNIST_CNN")
    assert program, ("POPART_FASHION_MNIST_CNN names the C++ program (the build "
                     "sets it; it needs the tutorials built)")
    args = ["/usr/share/datasets/fashion-mnist", "2", "1600", "1000", "cpu"]
    expected = subprocess.run([program] + args, cwd=tmp_path, capture_output=True,
                              text=True, timeout=600)
    assert expected.returncode == 0, expected.stderr
    lines = run("fashion_mnist_cnn.py", tmp_path, args).splitlines()
    assert lines == expected.stdout.splitlines()
    assert lines[0] == "Fashion-MNIST: 1600 training images, 1000 test images"
    losses = [float(re.match(r"Epoch \d: mean loss (\S+),", line).group(1))
              for line in lines[1:3]]
    assert losses[1] < losses[0]


def test_distributed_training_with_horovod(tmp_path):
    # Two processes (loopback only), each with its own random data and
    # initial weights: broadcast_weights and the averaged gradients keep
    # their weights the same to the last bit.
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # Each process's output in a file of its own (the processes' lines
    # would interleave on one pipe).
    result = subprocess.run(
        ["mpirun", "-np", "2", "--oversubscribe", "--mca", "btl", "self,tcp",
         "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include",
         "lo", "--output-filename", str(tmp_path / "out"), sys.executable,
         str(TUTORIALS / "distributed_training.py")],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    outputs = sorted((tmp_path / "out").glob("*/rank.*/stdout"))
    assert len(outputs) == 2, result.stdout + result.stderr
    lines = [line for out in outputs for line in out.read_text().splitlines()]
    assert lines.count("Creating ipu sim") == 2
    weights, losses = {}, {0: [], 1: []}
    for line in lines:
        match = re.fullmatch(r"Rank (\d) step (\d): mean loss (\S+)", line)
        if match:
            losses[int(match.group(1))].append(float(match.group(3)))
        match = re.fullmatch(r"Rank (\d) weights: (.*)", line)
        if match:
            weights[int(match.group(1))] = match.group(2)
    assert len(losses[0]) == len(losses[1]) == 10
    assert losses[0] != losses[1]  # each process's own data
    for rank in (0, 1):
        assert losses[rank][-1] < losses[rank][0]
    assert weights[0] == weights[1]

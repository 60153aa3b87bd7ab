"""Runs a Google Benchmark program and returns its real times by name (the
scripts comparing popart with PyTorch share it)."""
import json
import os
import subprocess
import sys


def real_times(binary, benchmark_filter, **env):
    """The real time of each benchmark matching `benchmark_filter`, run with
    the environment variables `env` added; exits naming a benchmark that
    failed."""
    out = subprocess.run(
        [binary, "--benchmark_format=json",
         f"--benchmark_filter={benchmark_filter}"],
        check=True, capture_output=True, text=True,
        env=dict(os.environ, **{k: str(v) for k, v in env.items()})).stdout
    runs = {}
    for run in json.loads(out)["benchmarks"]:
        if run.get("error_occurred"):
            sys.exit(f"{run['name']} failed: {run.get('error_message', '')}")
        runs[run["name"]] = run["real_time"]
    return runs

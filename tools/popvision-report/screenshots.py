#!/usr/bin/python3
"""Takes the screenshots of popvision-report in docs/images: every view of
tutorial 4's report, and a comparison of two PopART sessions, through the
same headless Chromium as the page test. Run from the repository after a
build:

    /usr/bin/python3 tools/popvision-report/screenshots.py [--build build] [--out docs/images]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import headless_chromium  # noqa: E402

VIEWS = ("summary", "memory", "liveness", "trace", "vertices", "operations")
WIDTH = 1400


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    if result.returncode:
        sys.exit(f"screenshots: {' '.join(map(str, command))} failed:\n{result.stderr}")
    return result


def tutorial4_report(build, directory):
    os.makedirs(directory)
    env = dict(os.environ, POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true"}')
    run([os.path.join(build, "tutorials/poplar/tut4_profiling/tut4_ipu_model")],
        cwd=directory, env=env)
    with open(os.path.join(directory, "app.json"), "w") as f:
        json.dump({"application": "tutorial 4", "matrices": "900x600, 600x300, 300x200"}, f)
    return directory


def popart_reports(build, directory):
    """Two sessions of one MLP layer, batch 4 and batch 16, on 64 tiles."""
    script = f"""
import sys
sys.path.insert(0, {os.path.join(build, 'python')!r})
import numpy as np, popart
for name, batch in (("batch4", 4), ("batch16", 16)):
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [batch, 256]))
    w = b.addInitializedInputTensor(np.ones([256, 512], np.float32))
    o = b.aiOnnx.relu([b.aiOnnx.matmul([x, w])])
    opts = popart.SessionOptions()
    opts.engineOptions["autoReport.all"] = "true"
    opts.engineOptions["autoReport.directory"] = name
    s = popart.InferenceSession(fnModel=b.getModelProto(),
        dataFlow=popart.DataFlow(1, {{o: popart.AnchorReturnType("ALL")}}),
        deviceInfo=popart.DeviceManager().createIpuModelDevice({{"tilesPerIPU": 64}}),
        userOptions=opts)
    s.prepareDevice()
    a = s.initAnchorArrays()
    s.weightsFromHost()
    s.run(popart.PyStepIO({{x: np.ones([batch, 256], np.float32)}}, a))
"""
    run([sys.executable, "-c", script], cwd=directory)
    return [os.path.join(directory, n, "inference") for n in ("batch4", "batch16")]


def shoot(browser, page, view, path):
    browser.driver.set_window_size(WIDTH, 600)  # the page's own height is measured below
    driver = browser.open(page, view)
    # The window is the page's height (its frame included), within bounds.
    height = driver.execute_script("return document.documentElement.scrollHeight")
    inner = driver.execute_script("return window.innerHeight")
    frame = driver.get_window_size()["height"] - inner
    driver.set_window_size(WIDTH, min(max(height, 600), 1600) + frame)
    time.sleep(1.5)  # the charts' entry animation
    driver.save_screenshot(path)
    errors = browser.console_errors()
    if errors:
        sys.exit(f"screenshots: {page}#{view} logged errors: {errors}")
    print(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="docs/images")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    tool = os.path.join(build, "bin", "popvision-report")
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        tut4 = tutorial4_report(build, os.path.join(work, "tut4"))
        single = os.path.join(work, "tut4.html")
        run([tool, tut4, "-o", single])
        pair = popart_reports(build, work)
        compare = os.path.join(work, "compare.html")
        run([tool, *pair, "-o", compare])
        with headless_chromium.Browser(WIDTH, 900) as browser:
            for view in VIEWS:
                shoot(browser, single, view, os.path.join(args.out, f"popvision-report-{view}.png"))
            for view in ("summary", "memory", "trace"):
                shoot(browser, compare, view,
                      os.path.join(args.out, f"popvision-report-compare-{view}.png"))


if __name__ == "__main__":
    main()

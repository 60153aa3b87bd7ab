"""popvision-report's page of tutorial 4's profile, opened in headless
Chromium: it loads without console errors, and the figures it shows are
the Engine's own, read independently of the tool from the archive.a the
same Engine wrote (graph profile and tile memory) and the profile summary
the tutorial prints (total cycles)."""

import json
import os
import re
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import headless_chromium  # noqa: E402

TOOL = os.environ["POPVISION_REPORT"]
APP_JSON = {"application": "tutorial 4", "batch": 1, "notes": "written by the test"}


def read_ar(path):
    """The members of an `ar` archive, by name."""
    members = {}
    with open(path, "rb") as f:
        assert f.read(8) == b"!<arch>\n"
        while header := f.read(60):
            name = header[:16].decode().strip().rstrip("/")
            size = int(header[48:58].decode().strip())
            members[name] = f.read(size)
            f.read(size % 2)
    return members


def number(text):
    return int(text.replace(",", ""))


@pytest.fixture(scope="module")
def tut4(tmp_path_factory):
    """Tutorial 4 run with autoReport.all (its README's capture), an app.json
    beside its report, and the page of it."""
    directory = tmp_path_factory.mktemp("tut4")
    env = dict(os.environ, POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true"}')
    result = subprocess.run([os.environ["TUT4_PROGRAM"]], cwd=directory, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    (directory / "app.json").write_text(json.dumps(APP_JSON))
    archive = read_ar(directory / "archive.a")
    page = directory / "report.html"
    made = subprocess.run([TOOL, str(directory / "profile.pop"), "-o", str(page)],
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    return {
        "directory": directory,
        "page": page,
        "graph": json.loads(archive["graph.json"]),
        # tile, ipu, totalBytes, totalBytesIncludingGaps, ...
        "tiles": [[int(v) for v in line.split(",")]
                  for line in archive["tiles.csv"].decode().splitlines()[1:]],
        "cycles": number(re.search(r"Total cycles:\s+([\d,]+)", result.stdout).group(1)),
    }


@pytest.fixture(scope="module")
def browser():
    # Installed by scripts/install-deps.sh: missing is a failure, not a skip.
    try:
        headless_chromium.check_installed()
    except headless_chromium.MissingBrowser as e:
        pytest.fail(str(e))
    with headless_chromium.Browser() as b:
        yield b


def figures(driver, report=0):
    cells = driver.find_elements("css selector", f'td[data-figure][data-report="{report}"]')
    return {c.get_attribute("data-figure"): c.text for c in cells}


def table_rows(driver, name, report=0):
    table = driver.find_element("css selector",
                                f'table[data-table="{name}"][data-report="{report}"]')
    return [[td.text for td in tr.find_elements("tag name", "td")]
            for tr in table.find_elements("css selector", "tbody tr")]


def chart_option(driver, chart_id):
    return driver.execute_script(
        "const o = echarts.getInstanceByDom(document.getElementById(arguments[0])).getOption();"
        "return {series: o.series.map(s => ({name: s.name, data: s.data}))};", chart_id)


def test_page_is_self_contained(tut4):
    text = tut4["page"].read_text()
    # No file or address is loaded: every script and style is inline.
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=|https?://[^\"'\s]*\.(js|css)\b", text)


def test_summary(tut4, browser):
    driver = browser.open(tut4["page"], "summary")
    shown = figures(driver)
    tiles = tut4["tiles"]
    graph = tut4["graph"]
    assert number(shown["totalMemory"]) == sum(t[3] for t in tiles)
    assert number(shown["totalMemoryExcludingGaps"]) == sum(t[2] for t in tiles)
    assert number(shown["maxTileMemory"]) == max(t[3] for t in tiles)
    assert number(shown["numTiles"]) == graph["target"]["numTiles"] == len(tiles)
    assert number(shown["numVertices"]) == graph["graph"]["numVertices"]
    assert number(shown["numComputeSets"]) == graph["graph"]["numComputeSets"]
    assert number(shown["totalCycles"]) == tut4["cycles"] > 0
    assert number(shown["tilesOutOfMemory"]) == 0
    # app.json beside the profile is shown field by field.
    rows = table_rows(driver, "app.json")
    assert {k: v for k, v in rows} == {k: str(v) for k, v in APP_JSON.items()}
    assert browser.console_errors() == []


def test_memory_per_tile(tut4, browser):
    driver = browser.open(tut4["page"], "memory")
    tiles = tut4["tiles"]
    # The tiles using the most memory, largest first, with their totals.
    rows = table_rows(driver, "top-tiles")
    expected = sorted(tiles, key=lambda t: (-t[3], t[0]))[:len(rows)]
    assert [[number(r[0]), number(r[2]), number(r[3])] for r in rows] == \
        [[t[0], t[3], t[2]] for t in expected]
    # The chart's bars are the graph profile's categories, tile by tile: the
    # bytes of each that no other data shares, stacked with the data live
    # in turn and the gaps up to each tile's total.
    by_category = tut4["graph"]["memory"]["byCategory"]
    series = {s["name"]: s["data"] for s in chart_option(driver, "memory-chart-0")["series"]}
    bars = [name for name in series if name != "out of memory"]
    for name, category in by_category.items():
        alone = [sum(category[region]["nonOverlapped"][t]
                     for region in ("nonInterleaved", "interleaved", "overflowed"))
                 for t in range(len(tiles))]
        if any(alone):
            assert series[name] == alone, name
    assert "variable" in series and "not always live" in series
    assert [sum(series[name][t] for name in bars) for t in range(len(tiles))] == \
        [t[3] for t in tiles]
    assert series["out of memory"] == []
    # One tile's breakdown, picked in the page.
    tile = tiles[700]
    box = driver.find_element("id", "tile-input-0")
    box.clear()
    box.send_keys(str(tile[0]))
    detail = table_rows(driver, "tile-categories")
    assert number(detail[-1][1]) == tile[3]
    assert {r[0]: number(r[1]) for r in detail[:-1]} == \
        {n: c["total"][tile[0]] for n, c in by_category.items() if c["total"][tile[0]]}
    assert {r[0]: number(r[2]) for r in detail[:-1]} == \
        {n: sum(c[region]["overlapped"][tile[0]]
                for region in ("nonInterleaved", "interleaved", "overflowed"))
         for n, c in by_category.items() if c["total"][tile[0]]}
    assert browser.console_errors() == []


def test_liveness(tut4, browser):
    driver = browser.open(tut4["page"], "liveness")
    live = tut4["graph"]["memory"]["liveness"]
    series = {s["name"]: s["data"] for s in chart_option(driver, "liveness-chart-0")["series"]}
    assert series["not always live"] == [s["liveBytes"] for s in live["steps"]]
    assert set(series["always live"]) == {sum(live["alwaysLive"].values())}
    shown = {name: number(size) for name, size in table_rows(driver, "always-live")}
    assert shown == {n: s for n, s in live["alwaysLive"].items() if n in shown}
    # The step shown first is the peak, with the variables and buffers live
    # in it.
    peak = max(range(len(live["steps"])), key=lambda i: (live["steps"][i]["liveBytes"], -i))
    expected = {f"<{k}>": v for k, v in live["steps"][peak]["bufferBytes"].items() if v}
    for v in live["notAlwaysLive"]:
        if any(first <= peak <= last for first, last in v["live"]):
            expected[v["name"]] = expected.get(v["name"], 0) + v["bytes"]
    assert {name: number(size) for name, size in table_rows(driver, "step-variables")} == expected
    assert browser.console_errors() == []


def test_execution_trace(tut4, browser):
    driver = browser.open(tut4["page"], "trace")
    series = chart_option(driver, "trace-chart-0")["series"]
    assert {s["name"] for s in series} == {"compute", "exchange", "sync", "control"}
    steps = [item["value"] for s in series for item in s["data"]]
    # Every step on the IPU, end to end, makes up the run's cycles.
    assert sum(v[3] for v in steps) == tut4["cycles"]
    assert all(v[2] - v[1] == v[3] for v in steps)
    compute = [item["value"][3] for s in series if s["name"] == "compute" for item in s["data"]]
    assert compute and all(c > 0 for c in compute)
    row = table_rows(driver, "cycles-by-activity")[0]
    assert row[0] == "IPU 0" and number(row[-1]) == tut4["cycles"]
    assert sum(number(c) for c in row[1:-1]) == tut4["cycles"]
    assert browser.console_errors() == []


def test_vertices_and_operations(tut4, browser):
    driver = browser.open(tut4["page"], "vertices")
    graph = tut4["graph"]
    names = graph["vertexTypes"]["names"]
    expected = {}
    for types, counts in zip(graph["computeSets"]["vertexTypes"],
                             graph["computeSets"]["vertexCounts"]):
        for t, c in zip(types, counts):
            expected[names[t]] = expected.get(names[t], 0) + c
    shown = {r[0]: number(r[1]) for r in table_rows(driver, "vertices")}
    assert shown == expected
    assert sum(shown.values()) == graph["graph"]["numVertices"]

    browser.show("operations")
    rows = table_rows(driver, "operations")
    by_name = dict(zip(graph["computeSets"]["names"],
                       graph["computeSets"]["cycleEstimates"]["cyclesByTile"]))
    compute = [r for r in rows if r[1] == "OnTileExecute"]
    assert compute
    for r in compute:
        assert number(r[7]) == max(by_name[r[0]])
    assert browser.console_errors() == []


def test_comparison(tut4, browser, tmp_path):
    """Two reports side by side: each column shows its own report's figures
    and the difference column B - A."""
    page = tmp_path / "compare.html"
    made = subprocess.run([TOOL, str(tut4["directory"]), str(tut4["directory"] / "profile.pop"),
                           "-o", str(page)], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    driver = browser.open(page, "memory")
    assert len(driver.find_elements("css selector", ".columns > .panel")) == 2
    for report in (0, 1):
        rows = table_rows(driver, "top-tiles", report)
        assert number(rows[0][2]) == max(t[3] for t in tut4["tiles"])
    browser.show("summary")
    assert figures(driver, 0) == figures(driver, 1)
    assert browser.console_errors() == []


def test_errors(tmp_path):
    missing = subprocess.run([TOOL, str(tmp_path / "nosuch.pop"), "-o", str(tmp_path / "x.html")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 1
    assert "popvision-report: error:" in missing.stderr and "nosuch.pop" in missing.stderr
    assert not (tmp_path / "x.html").exists()
    three = subprocess.run([TOOL, "a.pop", "b.pop", "c.pop"], capture_output=True, text=True,
                           timeout=60)
    assert three.returncode == 2 and "at most two profiles" in three.stderr
    bad_app = tmp_path / "app.json"
    bad_app.write_text("{not json")
    (tmp_path / "profile.pop").write_text("")
    broken = subprocess.run([TOOL, str(tmp_path)], capture_output=True, text=True, timeout=60,
                            cwd=tmp_path)
    assert broken.returncode == 1 and "profile.pop" in broken.stderr


# ---- PopART sessions: framework.json, comparison, tiles out of memory ----

def popart_session(directory, batch, hidden, tiles, out_of_memory=False, cache=None):
    """An inference session (relu(x.W), or relu(W + x) too large for its
    tiles) run once with its reports in `directory`; returns the report
    directory of its engine and the number of nodes of its model."""
    import numpy as np
    import onnx
    import popart
    builder = popart.Builder()
    if out_of_memory:
        x = builder.addInputTensor(popart.TensorInfo("FLOAT", [1]))
        w = builder.addInitializedInputTensor(np.ones([4, 100000], np.float32))
        o = builder.aiOnnx.relu([builder.aiOnnx.add([w, x])])
        feed = np.ones([1], np.float32)
    else:
        x = builder.addInputTensor(popart.TensorInfo("FLOAT", [batch, 64]))
        w = builder.addInitializedInputTensor(np.ones([64, hidden], np.float32))
        o = builder.aiOnnx.relu([builder.aiOnnx.matmul([x, w])])
        feed = np.ones([batch, 64], np.float32)
    opts = popart.SessionOptions()
    opts.engineOptions["autoReport.all"] = "true"
    opts.engineOptions["autoReport.directory"] = str(directory)
    if out_of_memory:
        opts.engineOptions["debug.allowOutOfMemory"] = "true"
    if cache:
        opts.enableEngineCaching = True
        opts.cachePath = str(cache)
    model = builder.getModelProto()
    session = popart.InferenceSession(
        fnModel=model, dataFlow=popart.DataFlow(1, {o: popart.AnchorReturnType("ALL")}),
        deviceInfo=popart.DeviceManager().createIpuModelDevice({"tilesPerIPU": tiles}),
        userOptions=opts)
    session.prepareDevice()
    if not out_of_memory:
        anchors = session.initAnchorArrays()
        session.weightsFromHost()
        session.run(popart.PyStepIO({x: feed}, anchors))
    del session
    return directory / "inference", len(onnx.load_from_string(model).graph.node)


def make_page(profiles, page):
    made = subprocess.run([TOOL] + [str(p) for p in profiles] + ["-o", str(page)],
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    return page


def test_framework_json_and_comparison(browser, tmp_path):
    """PopART writes framework.json beside its engine's reports; the page
    shows it, and a comparison of two sessions shows each one's figures
    and their difference."""
    import pva
    small, nodes = popart_session(tmp_path / "small", 4, 32, 8)
    big, _ = popart_session(tmp_path / "big", 16, 128, 8)
    framework = json.loads((small / "framework.json").read_text())
    assert framework["framework"] == "PopART"
    assert framework["sessionType"] == "InferenceSession"
    assert framework["sessionName"] == "inference"
    assert framework["executable"] == "compiled"
    assert (framework["numIPUs"], framework["tilesPerIPU"], framework["batchesPerStep"],
            framework["onnxNodes"]) == (1, 8, 1, nodes)

    driver = browser.open(make_page([small, big], tmp_path / "compare.html"), "summary")
    for report, directory in enumerate((small, big)):
        shown = dict(table_rows(driver, "framework.json", report))
        assert shown["tilesPerIPU"] == "8" and shown["sessionType"] == "InferenceSession"
        graph = pva.openReport(str(directory / "profile.pop")).compilation.graph
        assert number(figures(driver, report)["numVertices"]) == graph.numVertices
    a, b = (pva.openReport(str(d / "profile.pop")) for d in (small, big))
    total = [sum(t.memory.total.includingGaps for t in r.compilation.tiles) for r in (a, b)]
    assert total[0] != total[1]
    row = [r for r in table_rows(driver, "summary", "all") if r[0].startswith("Total memory (bytes, with")]
    assert row and number(row[0][3].split(" ")[0].lstrip("+")) == total[1] - total[0]
    browser.show("trace")
    assert len(driver.find_elements("css selector", "[id^=trace-chart-]")) == 2
    assert browser.console_errors() == []


def test_out_of_memory_tiles(browser, tmp_path):
    """A graph that does not fit, compiled with debug.allowOutOfMemory: the
    tiles over their memory are marked and counted."""
    directory, _ = popart_session(tmp_path / "oom", 0, 0, 4, out_of_memory=True)
    archive = read_ar(directory / "archive.a")
    limit = json.loads(archive["graph.json"])["target"]["bytesPerTile"]
    tiles = [[int(v) for v in line.split(",")]
             for line in archive["tiles.csv"].decode().splitlines()[1:]]
    over = [t[0] for t in tiles if t[3] > limit]
    assert over
    driver = browser.open(make_page([directory], tmp_path / "oom.html"), "summary")
    assert number(figures(driver)["tilesOutOfMemory"]) == len(over)
    browser.show("memory")
    series = {s["name"]: s["data"] for s in chart_option(driver, "memory-chart-0")["series"]}
    assert series["out of memory"] == [[str(t), tiles[t][3]] for t in over]
    warning = driver.find_element("css selector", "p[data-oom]")
    assert warning.get_attribute("data-oom") == ",".join(map(str, over))
    marked = driver.find_elements("css selector", 'table[data-table="top-tiles"] tr.oom')
    assert sorted(int(r.get_attribute("data-tile")) for r in marked) == over
    assert browser.console_errors() == []


def test_graph_profile_only(browser, tmp_path):
    """A profile without its execution part: every view opens without
    errors, and the trace says there is nothing to show."""
    env = dict(os.environ, POPLAR_ENGINE_OPTIONS='{"autoReport.outputGraphProfile":"true"}')
    result = subprocess.run([os.environ["TUT4_PROGRAM"]], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    driver = browser.open(make_page([tmp_path], tmp_path / "graph.html"), "summary")
    assert number(figures(driver)["runsProfiled"]) == 0
    assert number(figures(driver)["totalCycles"]) == 0
    for view in ("memory", "liveness", "trace", "vertices", "operations"):
        browser.show(view)
    notes = [p.get_attribute("textContent")
             for p in driver.find_elements("css selector", "#view-trace p.note")]
    assert notes == ["The profile has no execution part."]
    assert browser.console_errors() == []


def test_framework_json_of_a_cached_session(tmp_path):
    """framework.json says where the session's executable came from."""
    first, _ = popart_session(tmp_path / "first", 4, 32, 8, cache=tmp_path / "cache")
    second, _ = popart_session(tmp_path / "second", 4, 32, 8, cache=tmp_path / "cache")
    assert json.loads((first / "framework.json").read_text())["executable"] == "compiled"
    assert json.loads((second / "framework.json").read_text())["executable"] == \
        "loaded from the engine cache"

#!@SDK_PYTHON@
"""popvision-report: writes one self-contained HTML page showing one
profile.pop, or two side by side, for reading in any browser without a
network. The figures come from the pva package; the page inlines them as
JSON together with its script, its style and the charting library."""

import argparse
import html
import json
import os
import re
import sys

# Where the page's files and the pva package are, relative to this script
# (the build tree lays them out as the installation does). Set by CMake.
SHARE_DIR = "@POPVISION_REPORT_SHARE_DIR@"
PYTHON_DIR = "@POPVISION_REPORT_PYTHON_DIR@"

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, PYTHON_DIR)))
import pva  # noqa: E402  (found through PYTHON_DIR)

# The files that frameworks and applications put beside profile.pop for the
# Graph Analyser (PopVision guide, "Frameworks Information").
SIDE_FILES = ("framework.json", "app.json")

# How many rows of each list the page carries: enough to read, small enough
# that a page of a large model stays a few megabytes.
TOP_TILES = 12
TOP_VARIABLES = 20
MAX_TRACE_STEPS = 20000

# The program types that move data; each has totalBytes and bytesSentByTile.
EXCHANGE_TYPES = {"DoExchange", "GlobalExchange", "StreamCopyMid"}


def step_kind(program):
    """The row colour of a step in the execution trace."""
    if program is None:
        return "sync"
    name = program.type.name
    if name == "OnTileExecute":
        return "compute"
    if name in EXCHANGE_TYPES:
        return "exchange"
    if name == "Sync":
        return "sync"
    return "control"


def profile_path(argument):
    """A profile.pop, or a report directory holding one."""
    if os.path.isdir(argument):
        return os.path.join(argument, "profile.pop")
    return argument


def read_side_files(directory):
    files = {}
    for name in SIDE_FILES:
        path = os.path.join(directory, name)
        if not os.path.exists(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                files[name] = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError(f"{path}: not a JSON file: {e}") from e
    return files


def memory_data(compilation):
    tiles = compilation.tiles
    bytes_per_tile = compilation.target.bytesPerTile
    categories = list(tiles[0].memory.category.names) if len(tiles) else []
    # A category's total, and its bytes that no other data shares: the
    # overlapped rest (buffers and variables live in some steps only) shares
    # the tile's not-always-live memory with the other categories'.
    by_category = {name: [] for name in categories}
    non_overlapped = {name: [] for name in categories}
    total, excluding, always, not_always, ipu = [], [], [], [], []
    vertex_memory = {}
    for tile in tiles:
        memory = tile.memory
        total.append(memory.total.includingGaps)
        excluding.append(memory.total.excludingGaps)
        always.append(memory.alwaysLiveBytes)
        not_always.append(memory.notAlwaysLiveBytes)
        ipu.append(tile.ipu)
        for name in categories:
            category = memory.category.byName(name)
            by_category[name].append(category.total)
            non_overlapped[name].append(category.nonInterleaved.nonOverlapped +
                                        category.interleaved.nonOverlapped +
                                        category.overflowed.nonOverlapped)
        for v in memory.vertices:
            row = vertex_memory.setdefault(v.type.name, [0, 0])
            row[0] += v.codeBytes
            row[1] += (v.copyPointerBytes + v.descriptorBytes + v.edgePointerBytes +
                       v.paddingBytes + v.vertexDataBytes)
    # Categories with nothing on any tile would only clutter the legend.
    used = [name for name in categories if any(by_category[name])]
    by_category = {name: by_category[name] for name in used}
    non_overlapped = {name: non_overlapped[name] for name in used}
    order = sorted(range(len(tiles)), key=lambda t: (-total[t], t))
    return {
        "bytesPerTile": bytes_per_tile,
        "total": total,
        "excludingGaps": excluding,
        "alwaysLive": always,
        "notAlwaysLive": not_always,
        "ipu": ipu,
        "byCategory": by_category,
        "nonOverlappedByCategory": non_overlapped,
        "outOfMemory": [t for t in range(len(tiles)) if total[t] > bytes_per_tile],
        "topTiles": order[:TOP_TILES],
    }, vertex_memory


def liveness_data(compilation):
    always = sorted(((v.name, v.size) for v in compilation.alwaysLiveVariables),
                    key=lambda v: -v[1])
    steps = []
    for step in compilation.livenessProgramSteps:
        memory = step.notAlwaysLiveMemory
        # Variables of one name (made per tile or per partial) as one row.
        by_name = {}
        for v in memory.variables:
            by_name[v.name] = by_name.get(v.name, 0) + v.size
        variables = sorted(by_name.items(), key=lambda v: (-v[1], v[0]))
        steps.append({"name": step.name, "bytes": memory.bytes,
                      "variables": variables[:TOP_VARIABLES],
                      "numVariables": len(variables)})
    return {"alwaysLiveBytes": sum(size for _, size in always),
            "alwaysLive": always[:TOP_VARIABLES], "numAlwaysLive": len(always),
            "steps": steps}


def execution_data(report, num_ipus):
    runs, trace = [], []
    by_kind = [{"compute": 0, "exchange": 0, "sync": 0, "control": 0} for _ in range(num_ipus)]
    operations = {}
    truncated = False
    for run in report.execution.runs:
        runs.append({"name": run.name, "program": run.programIndex, "startCycle": run.startCycle,
                     "cycles": run.cycles, "steps": len(run.steps),
                     "stepsTruncated": run.stepsTruncated})
        for step in run.steps:
            program = step.program
            kind = step_kind(program)
            start = run.startCycle + step.startCycle
            name = program.name if program is not None else "Sync"
            for ipu, on_ipu in enumerate(step.ipus):
                if on_ipu.cycles == 0:
                    continue
                by_kind[ipu][kind] += on_ipu.cycles
                if len(trace) < MAX_TRACE_STEPS:
                    trace.append([ipu, start, on_ipu.cycles, kind, name])
                else:
                    truncated = True
            if program is not None and kind in ("compute", "exchange"):
                row = operations.setdefault(program._id, {
                    "name": program.name, "kind": kind, "type": program.type.name,
                    "executions": 0, "cycles": 0})
                row["executions"] += 1
                row["cycles"] += step.cycles
    return {"runs": runs, "totalCycles": sum(r["cycles"] for r in runs),
            "cyclesByKind": by_kind, "trace": trace, "traceTruncated": truncated}, operations


def operation_rows(compilation, executed):
    """Every compute set and exchange program of the graph, with what the
    execution profile says of it."""
    rows = []
    for program in compilation.programs:
        kind = step_kind(program)
        if kind not in ("compute", "exchange"):
            continue
        row = {"name": program.name, "kind": kind, "type": program.type.name,
               "executions": 0, "cycles": 0}
        row.update(executed.get(program._id, {}))
        if kind == "compute":
            cs = program.computeset
            row["vertices"] = cs.numVertices
            row["tiles"] = sum(1 for c in cs.cyclesByTile if c)
            row["estimatedCycles"] = cs.cycles
        else:
            row["bytes"] = program.totalBytes
            row["tiles"] = sum(1 for sent, received in
                               zip(program.bytesSentByTile, program.bytesReceivedByTile)
                               if sent or received)
        rows.append(row)
    rows.sort(key=lambda r: (-r["cycles"], r["name"]))
    return rows


def vertex_rows(compilation, vertex_memory):
    counts = {}
    for cs in compilation.computeSets:
        for v in cs.vertices:
            row = counts.setdefault(v.type.name, {"type": v.type.name, "count": 0,
                                                  "computeSets": 0})
            row["count"] += v.count
            row["computeSets"] += 1
    for name, (code, data) in vertex_memory.items():
        row = counts.setdefault(name, {"type": name, "count": 0, "computeSets": 0})
        row["codeBytes"], row["dataBytes"] = code, data
    return sorted(counts.values(), key=lambda r: (-r["count"], r["type"]))


def report_data(argument):
    path = profile_path(argument)
    report = pva.openReport(path)
    compilation = report.compilation
    target, graph = compilation.target, compilation.graph
    memory, vertex_memory = memory_data(compilation)
    execution, executed = execution_data(report, target.numIPUs)
    return {
        "path": os.path.abspath(path),
        "engineName": report.engineName,
        "sdkVersion": report.poplarVersion.string,
        "complete": report.complete,
        "target": {"type": target.type.name, "architecture": target.architecture.name,
                   "numIPUs": target.numIPUs, "tilesPerIpu": target.tilesPerIpu,
                   "numTiles": target.numTiles, "bytesPerTile": target.bytesPerTile,
                   "totalMemory": target.totalMemory,
                   "clockFrequency": target.clockFrequency},
        "graph": {"numVertices": graph.numVertices, "numEdges": graph.numEdges,
                  "numVariables": graph.numVariables, "numComputeSets": graph.numComputeSets},
        "memory": memory,
        "liveness": liveness_data(compilation),
        "execution": execution,
        "vertices": vertex_rows(compilation, vertex_memory),
        "operations": operation_rows(compilation, executed),
        "sideFiles": read_side_files(os.path.dirname(os.path.abspath(path))),
    }


def script_safe(text):
    """Text that cannot end the <script> element it is inlined in."""
    return text.replace("</", "<\\/")


def render_page(reports, title):
    share = os.path.normpath(os.path.join(HERE, SHARE_DIR))

    def read(name):
        with open(os.path.join(share, name), encoding="utf-8") as f:
            return f.read()

    parts = {
        "TITLE": html.escape(title),
        "STYLE": read("report.css"),
        "ECHARTS": script_safe(read("echarts.min.js")),
        "DATA": script_safe(json.dumps(reports, separators=(",", ":"))),
        "SCRIPT": script_safe(read("report.js")),
    }
    # One pass over the template, so text put in is never searched again.
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: parts[m.group(1)], read("report.html"))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="popvision-report",
        description="Write a self-contained HTML page of a profile.pop (or of two, "
                    "side by side for comparison).")
    parser.add_argument("profiles", nargs="+", metavar="profile.pop",
                        help="a profile.pop or the report directory holding it; "
                             "give two to compare them")
    parser.add_argument("-o", "--output", default="report.html",
                        help="the page to write (default: report.html)")
    parser.add_argument("--title", help="the page's title (default: the profiles' paths)")
    args = parser.parse_args(argv)
    if len(args.profiles) > 2:
        parser.error(f"at most two profiles can be compared, {len(args.profiles)} were given")
    try:
        reports = [report_data(p) for p in args.profiles]
    except (pva.pva_exception, ValueError) as e:
        print(f"popvision-report: error: {e}", file=sys.stderr)
        return 1
    title = args.title or " vs ".join(profile_path(p) for p in args.profiles)
    page = render_page(reports, title)
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        print(f"popvision-report: error: cannot write {args.output}: {e.strerror}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

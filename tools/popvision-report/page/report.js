// The views of a popvision-report page. The reports (one, or two to
// compare) are the JSON inlined in #report-data, made by popvision_report.py;
// the charts are ECharts, inlined above. Each view is built the first time
// it is shown, when its charts have a size.
"use strict";

const REPORTS = JSON.parse(document.getElementById("report-data").textContent);
const LABELS = ["A", "B"];
const KIND_COLOURS = {compute: "#2f7ed8", exchange: "#f28f43", sync: "#8d99ae", control: "#6cc24a"};
const CATEGORY_PALETTE = ["#2f7ed8", "#0d233a", "#8bbc21", "#910000", "#1aadce", "#492970",
  "#f28f43", "#77a1e5", "#c42525", "#a6c96a", "#6b5b95", "#e0a30b", "#3b9c9c", "#b56576",
  "#5c7457", "#9e9e9e"];

function fmt(value) {
  return typeof value === "number" ? value.toLocaleString("en-US") : String(value);
}

function el(tag, attributes, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === "text") node.textContent = value;
    else if (key === "className") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children || []) node.appendChild(child);
  return node;
}

// A table: headers are [label, isNumber]; a row is {cells, attributes}.
function table(name, index, headers, rows) {
  const head = el("tr", {}, headers.map(([label, num]) =>
    el("th", {text: label, className: num ? "num" : ""})));
  const body = rows.map(row => el("tr", row.attributes || {}, row.cells.map((cell, i) =>
    el("td", {text: fmt(cell), className: headers[i][1] ? "num" : ""}))));
  return el("table", {"data-table": name, "data-report": String(index)},
    [el("thead", {}, [head]), el("tbody", {}, body)]);
}

function panelTitle(index) {
  return REPORTS.length > 1 ? `Report ${LABELS[index]}: ${REPORTS[index].path}` : "";
}

// One panel per report, side by side when comparing.
function columns(section, render) {
  const row = el("div", {className: "columns"});
  REPORTS.forEach((report, index) => {
    const panel = el("div", {className: "panel", "data-report": String(index)});
    const title = panelTitle(index);
    if (title) panel.appendChild(el("h2", {text: title}));
    row.appendChild(panel);
    render(panel, report, index);
  });
  section.appendChild(row);
}

const charts = [];
function chart(panel, id, option, tall, height) {
  const node = el("div", {className: tall ? "chart tall" : "chart", id});
  if (height) node.style.height = `${height}px`;
  panel.appendChild(node);
  const instance = echarts.init(node);
  instance.setOption(option);
  charts.push(instance);
  return instance;
}

// The next multiple of half a power of ten at or above v (41,102 gives
// 45,000), for the end of an axis.
function roundUp(v) {
  if (v <= 0) return 1;
  const step = Math.pow(10, Math.floor(Math.log10(v))) / 2;
  return Math.ceil(v / step) * step;
}

function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

// ---- Summary -------------------------------------------------------------

const SUMMARY_FIGURES = [
  ["SDK version", r => r.sdkVersion, "sdkVersion"],
  ["Engine name", r => r.engineName || "(none)", "engineName"],
  ["Target", r => `${r.target.type} ${r.target.architecture}`, "target"],
  ["IPUs", r => r.target.numIPUs, "numIPUs"],
  ["Tiles", r => r.target.numTiles, "numTiles"],
  ["Memory per tile (bytes)", r => r.target.bytesPerTile, "bytesPerTile"],
  ["Clock (MHz)", r => r.target.clockFrequency / 1e6, "clockMHz"],
  ["Vertices", r => r.graph.numVertices, "numVertices"],
  ["Edges", r => r.graph.numEdges, "numEdges"],
  ["Variables", r => r.graph.numVariables, "numVariables"],
  ["Compute sets", r => r.graph.numComputeSets, "numComputeSets"],
  ["Total memory (bytes, with gaps)", r => sum(r.memory.total), "totalMemory"],
  ["Total memory (bytes, without gaps)", r => sum(r.memory.excludingGaps), "totalMemoryExcludingGaps"],
  ["Always-live memory (bytes)", r => sum(r.memory.alwaysLive), "alwaysLiveMemory"],
  ["Largest tile memory (bytes)", r => Math.max(...r.memory.total), "maxTileMemory"],
  ["Tiles out of memory", r => r.memory.outOfMemory.length, "tilesOutOfMemory"],
  ["Runs profiled", r => r.execution.runs.length, "runsProfiled"],
  ["Total cycles", r => r.execution.totalCycles, "totalCycles"],
  ["Time at the clock (µs)", r => Math.round(r.execution.totalCycles / r.target.clockFrequency * 1e8) / 100, "microseconds"],
];

function difference(a, b) {
  if (typeof a !== "number" || typeof b !== "number") return a === b ? "same" : "differs";
  const delta = b - a;
  const percent = a ? ` (${delta >= 0 ? "+" : ""}${(100 * delta / a).toFixed(1)}%)` : "";
  return `${delta >= 0 ? "+" : ""}${fmt(delta)}${percent}`;
}

function sideFileView(panel, report, index) {
  const names = Object.keys(report.sideFiles);
  panel.appendChild(el("h3", {text: "Framework and application (framework.json, app.json)"}));
  if (!names.length) {
    panel.appendChild(el("p", {className: "note",
      text: "No framework.json or app.json beside this profile."}));
    return;
  }
  for (const name of names) {
    panel.appendChild(el("div", {className: "note", text: name}));
    const content = report.sideFiles[name];
    const flat = content && typeof content === "object" && !Array.isArray(content) &&
      Object.values(content).every(v => v === null || typeof v !== "object");
    if (flat) {
      panel.appendChild(table(name, index, [["Field", false], ["Value", false]],
        Object.entries(content).map(([k, v]) => ({cells: [k, String(v)]}))));
    } else {
      panel.appendChild(el("pre", {className: "json", "data-file": name, "data-report": String(index),
        text: JSON.stringify(content, null, 2)}));
    }
  }
}

function summaryView(section) {
  const panel = el("div", {className: "panel"});
  const headers = ["Figure"].concat(REPORTS.map((r, i) =>
    REPORTS.length > 1 ? `Report ${LABELS[i]}` : "Value"));
  if (REPORTS.length > 1) headers.push("B − A");
  const head = el("tr", {}, headers.map((h, i) => el("th", {text: h, className: i ? "num" : ""})));
  const rows = SUMMARY_FIGURES.map(([label, value, key]) => {
    const values = REPORTS.map(value);
    const cells = [el("td", {text: label})].concat(values.map((v, i) =>
      el("td", {text: fmt(v), className: "num", "data-figure": key, "data-report": String(i)})));
    if (REPORTS.length > 1) cells.push(el("td", {text: difference(values[0], values[1]), className: "num"}));
    const attributes = key === "tilesOutOfMemory" && values.some(v => v > 0) ? {className: "oom"} : {};
    return el("tr", attributes, cells);
  });
  panel.appendChild(el("h2", {text: "Summary"}));
  panel.appendChild(el("table", {"data-table": "summary", "data-report": "all"}, [el("thead", {}, [head]), el("tbody", {}, rows)]));
  section.appendChild(panel);
  section.appendChild(el("div", {style: "height:16px"}));
  columns(section, (p, report, index) => {
    p.appendChild(el("h3", {text: "Runs"}));
    p.appendChild(table("runs", index,
      [["Run", false], ["Program", true], ["Start cycle", true], ["Cycles", true], ["Steps", true]],
      report.execution.runs.map(run => ({cells: [run.name || "(unnamed)", run.program,
        run.startCycle, run.cycles, run.steps]}))));
    if (!report.execution.runs.length)
      p.appendChild(el("p", {className: "note", text: "The profile has no execution part."}));
    sideFileView(p, report, index);
  });
}

// ---- Memory --------------------------------------------------------------

function memoryView(section) {
  columns(section, (panel, report, index) => {
    const memory = report.memory;
    const tiles = memory.total.map((_, t) => String(t));
    const names = Object.keys(memory.byCategory);
    // Bars stack what adds up to the tile's total: each category's bytes
    // that nothing else shares, then the not-always-live data (live in some
    // steps only, sharing memory in turn), then the gaps.
    const series = names.filter(n => memory.nonOverlappedByCategory[n].some(v => v > 0))
      .map((name, i) => ({
        name, type: "bar", stack: "memory", data: memory.nonOverlappedByCategory[name],
        itemStyle: {color: CATEGORY_PALETTE[names.indexOf(name) % CATEGORY_PALETTE.length]},
        barCategoryGap: "10%",
      }));
    series.push({name: "not always live", type: "bar", stack: "memory", data: memory.notAlwaysLive,
      itemStyle: {color: "#f7a35c"}});
    const gaps = memory.total.map((total, t) => total - memory.excludingGaps[t]);
    if (gaps.some(g => g > 0))
      series.push({name: "gaps", type: "bar", stack: "memory", data: gaps, itemStyle: {color: "#d9d9d9"}});
    // One scale for the reports compared; the tile memory's line when the
    // fullest tile comes near it (else it would flatten the bars).
    const fullest = Math.max(...REPORTS.map(r => Math.max(...r.memory.total)));
    const showLimit = fullest > memory.bytesPerTile / 2;
    series.push({
      name: "out of memory", type: "scatter", symbol: "triangle", symbolSize: 10,
      itemStyle: {color: "#e8484f"},
      data: memory.outOfMemory.map(t => [String(t), memory.total[t]]),
      markLine: showLimit ? {silent: true, symbol: "none", lineStyle: {color: "#e8484f", type: "dashed"},
        label: {formatter: `tile memory ${fmt(memory.bytesPerTile)} B`, position: "insideEndTop"},
        data: [{yAxis: memory.bytesPerTile}]} : undefined,
    });
    panel.appendChild(el("h2", {text: "Memory per tile"}));
    chart(panel, `memory-chart-${index}`, {
      tooltip: {trigger: "axis", axisPointer: {type: "shadow"}, confine: true,
        formatter: items => {
          const t = items[0].dataIndex;
          return `tile ${t} (IPU ${memory.ipu[t]}): ${fmt(memory.total[t])} B<br>` +
            items.filter(i => i.value).map(i => `${i.marker}${i.seriesName}: ${fmt(Array.isArray(i.value) ? i.value[1] : i.value)} B`).join("<br>") +
            "<br>by category, overlapped included:<br>" +
            names.filter(n => memory.byCategory[n][t]).map(n => `${n}: ${fmt(memory.byCategory[n][t])} B`).join("<br>");
        }},
      legend: {top: 0},
      grid: {left: 70, right: 20, top: REPORTS.length > 1 ? 80 : 50, bottom: 70},
      xAxis: {type: "category", data: tiles, name: "tile", nameLocation: "middle", nameGap: 25},
      yAxis: {type: "value", name: "bytes",
        max: roundUp((showLimit ? Math.max(fullest, memory.bytesPerTile) : fullest) * 1.05)},
      dataZoom: [{type: "inside"}, {type: "slider", height: 18, bottom: 8}],
      series,
    }, true);
    const oom = memory.outOfMemory;
    panel.appendChild(el("p", {className: oom.length ? "warning" : "note", "data-oom": oom.join(","),
      text: (oom.length ? `${oom.length} tile(s) out of memory: ${oom.slice(0, 50).join(", ")}` +
        (oom.length > 50 ? ", …" : "") : "No tile is out of memory.") +
        ` Each tile has ${fmt(memory.bytesPerTile)} bytes.`}));

    // One tile's memory by category.
    const lookup = el("input", {type: "number", min: "0", max: String(tiles.length - 1),
      value: String(memory.topTiles[0] || 0), id: `tile-input-${index}`});
    const detail = el("div");
    const showTile = () => {
      const t = Math.min(Math.max(0, Number(lookup.value) | 0), tiles.length - 1);
      detail.replaceChildren(table("tile-categories", index,
        [["Category", false], ["Bytes", true], ["Of which live in some steps only (shared)", true]],
        names.filter(n => memory.byCategory[n][t]).map(n => ({cells: [n, memory.byCategory[n][t],
          memory.byCategory[n][t] - memory.nonOverlappedByCategory[n][t]]}))
          .concat([{cells: [`total of tile ${t} (with gaps)`, memory.total[t], memory.notAlwaysLive[t]],
                    attributes: {"data-tile": String(t)}}])));
    };
    lookup.addEventListener("input", showTile);
    showTile();

    panel.appendChild(el("h3", {text: "Tiles using the most memory"}));
    panel.appendChild(table("top-tiles", index,
      [["Tile", true], ["IPU", true], ["Total (with gaps)", true], ["Without gaps", true],
       ["Always live", true], ["Not always live", true]],
      memory.topTiles.map(t => ({
        cells: [t, memory.ipu[t], memory.total[t], memory.excludingGaps[t], memory.alwaysLive[t],
                memory.notAlwaysLive[t]],
        attributes: Object.assign({"data-tile": String(t)},
          memory.total[t] > memory.bytesPerTile ? {class: "oom"} : {}),
      }))));
    panel.appendChild(el("h3", {}, [document.createTextNode("Memory of tile "), lookup]));
    panel.appendChild(detail);
  });
}

// ---- Liveness ------------------------------------------------------------

function livenessView(section) {
  columns(section, (panel, report, index) => {
    const liveness = report.liveness;
    const steps = liveness.steps;
    panel.appendChild(el("h2", {text: "Liveness over the program"}));
    if (!steps.length) {
      panel.appendChild(el("p", {className: "note", text: "The profile has no liveness steps."}));
      return;
    }
    const peak = steps.reduce((best, s, i) => (s.bytes > steps[best].bytes ? i : best), 0);
    const instance = chart(panel, `liveness-chart-${index}`, {
      tooltip: {trigger: "axis", confine: true,
        formatter: items => `${items[0].dataIndex}: ${steps[items[0].dataIndex].name}<br>` +
          items.map(i => `${i.marker}${i.seriesName}: ${fmt(i.value)} B`).join("<br>")},
      legend: {top: 0},
      grid: {left: 80, right: 20, top: 40, bottom: 70},
      xAxis: {type: "category", data: steps.map((_, i) => String(i)), name: "step",
        nameLocation: "middle", nameGap: 25},
      yAxis: {type: "value", name: "bytes (all tiles)"},
      dataZoom: [{type: "inside"}, {type: "slider", height: 18, bottom: 8}],
      series: [
        {name: "always live", type: "line", stack: "live", areaStyle: {}, symbol: "none",
          step: "middle", data: steps.map(() => liveness.alwaysLiveBytes), itemStyle: {color: "#8d99ae"}},
        {name: "not always live", type: "line", stack: "live", areaStyle: {}, symbol: "none",
          step: "middle", data: steps.map(s => s.bytes), itemStyle: {color: "#2f7ed8"},
          markPoint: {data: [{type: "max", name: "peak"}],
            label: {formatter: p => fmt(p.value + liveness.alwaysLiveBytes), fontSize: 10}}},
      ],
    });
    panel.appendChild(el("p", {className: "note", "data-peak": String(peak),
      text: `Peak: ${fmt(steps[peak].bytes + liveness.alwaysLiveBytes)} bytes live at step ${peak} ` +
        `(${steps[peak].name}); always live: ${fmt(liveness.alwaysLiveBytes)} bytes. ` +
        "Click a step to list its variables."}));
    const stepDetail = el("div");
    const showStep = i => {
      const step = steps[i];
      stepDetail.replaceChildren(
        el("h3", {text: `Step ${i}: ${step.name} — ${fmt(step.bytes)} bytes not always live` +
          (step.numVariables > step.variables.length ? ` (largest ${step.variables.length} of ${step.numVariables} names)` : "")}),
        table("step-variables", index, [["Variable", false], ["Bytes", true]],
          step.variables.map(([name, size]) => ({cells: [name, size]}))));
    };
    instance.getZr().on("click", event => {
      const point = [event.offsetX, event.offsetY];
      if (!instance.containPixel("grid", point)) return;
      const [i] = instance.convertFromPixel("grid", point);
      if (i >= 0 && i < steps.length) showStep(i);
    });
    showStep(peak);
    panel.appendChild(stepDetail);
    panel.appendChild(el("h3", {text: `Always-live data (largest ${liveness.alwaysLive.length} of ${liveness.numAlwaysLive})`}));
    panel.appendChild(table("always-live", index, [["Variable or category", false], ["Bytes", true]],
      liveness.alwaysLive.map(([name, size]) => ({cells: [name, size]}))));
  });
}

// ---- Execution trace -----------------------------------------------------

function traceView(section) {
  columns(section, (panel, report, index) => {
    const execution = report.execution;
    panel.appendChild(el("h2", {text: "Execution trace"}));
    if (!execution.runs.length) {
      panel.appendChild(el("p", {className: "note", text: "The profile has no execution part."}));
      return;
    }
    const ipus = Array.from({length: report.target.numIPUs}, (_, i) => `IPU ${i}`);
    const renderItem = (params, api) => {
      const ipu = api.value(0);
      const start = api.coord([api.value(1), ipu]);
      const end = api.coord([api.value(2), ipu]);
      const height = api.size([0, 1])[1] * 0.6;
      const shape = echarts.graphic.clipRectByRect(
        {x: start[0], y: start[1] - height / 2, width: Math.max(end[0] - start[0], 1), height},
        {x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height});
      return shape && {type: "rect", transition: ["shape"], shape, style: api.style()};
    };
    const series = Object.keys(KIND_COLOURS).map(kind => ({
      name: kind, type: "custom", renderItem, itemStyle: {color: KIND_COLOURS[kind]},
      encode: {x: [1, 2], y: 0, tooltip: [3]},
      data: execution.trace.filter(s => s[3] === kind).map(([ipu, start, cycles, , name]) =>
        ({value: [ipu, start, start + cycles, cycles], name})),
    }));
    chart(panel, `trace-chart-${index}`, {
      tooltip: {confine: true, formatter: p =>
        `${p.seriesName}: ${p.name}<br>start ${fmt(p.value[1])}, ${fmt(p.value[3])} cycles`},
      legend: {top: 0},
      grid: {left: 60, right: 20, top: 40, bottom: 70},
      xAxis: {type: "value", name: "cycle", nameLocation: "middle", nameGap: 25,
        min: 0, max: Math.max(...REPORTS.map(r => r.execution.totalCycles))},
      yAxis: {type: "category", data: ipus, inverse: true},
      dataZoom: [{type: "inside", filterMode: "weakFilter"},
                 {type: "slider", filterMode: "weakFilter", height: 18, bottom: 8}],
      series,
    }, false, 170 + 70 * ipus.length);
    if (execution.traceTruncated)
      panel.appendChild(el("p", {className: "note", text: "The trace shows the first steps only; the totals below cover them all."}));
    panel.appendChild(el("h3", {text: "Cycles by activity"}));
    panel.appendChild(table("cycles-by-activity", index,
      [["IPU", false]].concat(Object.keys(KIND_COLOURS).map(k => [k, true])).concat([["total", true]]),
      execution.cyclesByKind.map((kinds, ipu) => ({
        cells: [`IPU ${ipu}`].concat(Object.keys(KIND_COLOURS).map(k => kinds[k]))
          .concat([sum(Object.values(kinds))]),
        attributes: {"data-ipu": String(ipu)}}))));
  });
}

// ---- Vertices and operations --------------------------------------------

function verticesView(section) {
  columns(section, (panel, report, index) => {
    const rows = report.vertices;
    panel.appendChild(el("h2", {text: "Vertices by type"}));
    const top = rows.slice(0, 20).reverse();
    chart(panel, `vertices-chart-${index}`, {
      tooltip: {trigger: "axis", axisPointer: {type: "shadow"}, confine: true},
      grid: {left: 260, right: 30, top: 10, bottom: 30},
      xAxis: {type: "value", name: "vertices"},
      yAxis: {type: "category", data: top.map(r => r.type),
        axisLabel: {width: 250, overflow: "truncate"}},
      series: [{type: "bar", name: "vertices", data: top.map(r => r.count), itemStyle: {color: "#2f7ed8"}}],
    }, false, 60 + 30 * Math.max(top.length, 3));
    panel.appendChild(table("vertices", index,
      [["Vertex type", false], ["Vertices", true], ["Compute sets", true], ["Code (bytes)", true],
       ["State and edges (bytes)", true]],
      rows.map(r => ({cells: [r.type, r.count, r.computeSets, r.codeBytes || 0, r.dataBytes || 0],
                      attributes: {"data-type": r.type}}))));
  });
}

const MAX_OPERATION_ROWS = 300;

function operationsView(section) {
  columns(section, (panel, report, index) => {
    const rows = report.operations;
    panel.appendChild(el("h2", {text: "Operations: compute sets and exchanges"}));
    const top = rows.filter(r => r.cycles > 0).slice(0, 15).reverse();
    chart(panel, `operations-chart-${index}`, {
      tooltip: {trigger: "axis", axisPointer: {type: "shadow"}, confine: true},
      grid: {left: 260, right: 30, top: 10, bottom: 30},
      xAxis: {type: "value", name: "cycles"},
      yAxis: {type: "category", data: top.map(r => r.name),
        axisLabel: {width: 250, overflow: "truncate"}},
      series: [{type: "bar", name: "cycles run", data: top.map(r => ({value: r.cycles,
        itemStyle: {color: KIND_COLOURS[r.kind]}}))}],
    }, false, 60 + 30 * Math.max(top.length, 3));
    panel.appendChild(el("p", {className: "note",
      text: `${rows.length} operations, by cycles run in the profiled runs` +
        (rows.length > MAX_OPERATION_ROWS ? `; the first ${MAX_OPERATION_ROWS} are listed.` : ".")}));
    const wrapper = el("div", {className: "scroll"});
    wrapper.appendChild(table("operations", index,
      [["Name", false], ["Kind", false], ["Vertices", true], ["Bytes", true], ["Tiles", true],
       ["Executions", true], ["Cycles run", true], ["Estimated cycles", true]],
      rows.slice(0, MAX_OPERATION_ROWS).map(r => ({cells: [r.name, r.type,
        r.vertices ?? "", r.bytes ?? "", r.tiles, r.executions, r.cycles, r.estimatedCycles ?? ""]}))));
    panel.appendChild(wrapper);
  });
}

// ---- Navigation ----------------------------------------------------------

const VIEWS = {summary: summaryView, memory: memoryView, liveness: livenessView,
  trace: traceView, vertices: verticesView, operations: operationsView};
const built = new Set();

function showView(name) {
  if (!VIEWS[name]) name = "summary";
  document.querySelectorAll(".view").forEach(v => v.classList.toggle("active", v.id === `view-${name}`));
  document.querySelectorAll("#tabs a").forEach(a => a.classList.toggle("active", a.dataset.view === name));
  if (!built.has(name)) {
    built.add(name);
    VIEWS[name](document.getElementById(`view-${name}`));
  }
  charts.forEach(c => c.resize());
  document.body.dataset.view = name;
}

document.getElementById("report-names").replaceChildren(...REPORTS.map((r, i) =>
  el("div", {}, [el("span", {className: i ? "tag b" : "tag", text: REPORTS.length > 1 ? LABELS[i] : "profile"}),
                 document.createTextNode(`${r.path}${r.engineName ? ` (engine ${r.engineName})` : ""}`)])));
window.addEventListener("hashchange", () => showView(location.hash.slice(1)));
window.addEventListener("resize", () => charts.forEach(c => c.resize()));
showView(location.hash.slice(1));

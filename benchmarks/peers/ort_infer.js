// Times ONNX Runtime's CPU inference of an ONNX file: the peer of the SDK's
// CPU device in benchmarks/popart/models_vs_peers.py.
//
//   node benchmarks/peers/ort_infer.js MODEL.onnx THREADS MIN_SECONDS NAME=D0xD1x... ...
//
// Feeds each input a tensor of its declared (static) shape filled with a
// fixed pattern, runs three warm-up inferences, then inferences for at least
// MIN_SECONDS, and prints one JSON line: the mean wall time and
// the mean process CPU time (user + system) of one inference in ms, the run
// count, the thread count and ONNX Runtime's version.
'use strict';
const ort = require('onnxruntime-node');
const fs = require('fs');

function usage() {
  console.error('usage: ort_infer.js MODEL.onnx THREADS MIN_SECONDS NAME=D0xD1x...');
  process.exit(2);
}

// ONNX Runtime's Node API gives the inputs' names but not their shapes: the
// caller passes each as NAME=D0xD1x...
function parseShapes(args) {
  const shapes = {};
  for (const arg of args) {
    const [name, dims] = arg.split('=');
    if (!dims) usage();
    shapes[name] = dims.split('x').map(Number);
  }
  return shapes;
}

async function main() {
  const [model, threadsArg, minArg, ...shapeArgs] = process.argv.slice(2);
  if (!model || !threadsArg) usage();
  if (!fs.existsSync(model)) {
    console.error(`ort_infer.js: no model file '${model}'`);
    process.exit(1);
  }
  const threads = Number(threadsArg);
  const minSeconds = Number(minArg);
  if (!(minSeconds > 0)) usage();
  const shapes = parseShapes(shapeArgs);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const feeds = {};
  for (const name of session.inputNames) {
    const dims = shapes[name];
    if (!dims) {
      console.error(`ort_infer.js: give the shape of input '${name}' as ${name}=D0xD1x...`);
      process.exit(1);
    }
    const size = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(size);
    for (let i = 0; i < size; ++i) data[i] = ((i % 17) - 8) * 0.125;
    feeds[name] = new ort.Tensor('float32', data, dims);
  }
  for (let i = 0; i < 3; ++i) await session.run(feeds);
  let runs = 0;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < minSeconds) {
    await session.run(feeds);
    ++runs;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  }
  const cpu = process.cpuUsage(cpuStart);
  console.log(JSON.stringify({
    ms: (1e3 * elapsed) / runs,
    cpu_ms: (cpu.user + cpu.system) / 1e3 / runs,
    runs,
    threads,
    version: ort.env.versions.common,
  }));
}

main().catch((e) => {
  console.error(`ort_infer.js: ${e.message}`);
  process.exit(1);
});

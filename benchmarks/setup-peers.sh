#!/bin/sh
# Installs the peers the benchmark scripts compare the SDK with, and nothing
# the SDK itself needs: ONNX Runtime's CPU build for Node.js (the npm package
# onnxruntime-node, whose Linux x64 binaries are in the package, so its
# install script, which would download GPU variants, is not run), at the
# version pinned in benchmarks/peers/package-lock.json, into
# benchmarks/peers/node_modules. PyTorch and OpenBLAS come from Debian
# (scripts/install-deps.sh).
#
#   sh benchmarks/setup-peers.sh
set -eu
cd "$(dirname "$0")/peers"
npm ci --ignore-scripts --no-audit --no-fund
node -e "const ort = require('onnxruntime-node'); \
  console.log('onnxruntime-node ' + ort.env.versions.common + ' in ' + process.cwd() + '/node_modules')"

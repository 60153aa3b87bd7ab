#!/usr/bin/env bash
# Vendors the npm packages of the SDK's web pages (popvision-report's
# charting library) into tools/popvision-report/web/node_modules, exactly as
# its package-lock.json pins them. The build copies them from there into the
# pages; nothing is fetched at build or run time. Idempotent: when every
# locked package is there at its locked version, it does nothing.
set -euo pipefail
cd "$(dirname "$0")/../tools/popvision-report/web"
if node -e '
  const lock = require("./package-lock.json").packages;
  for (const [path, entry] of Object.entries(lock)) {
    if (!path) continue;
    let installed;
    try { installed = require(`./${path}/package.json`).version; } catch (e) { process.exit(1); }
    if (installed !== entry.version) process.exit(1);
  }' 2>/dev/null; then
  echo "install-web-deps: node_modules matches package-lock.json"
  exit 0
fi
npm ci --no-audit --no-fund --ignore-scripts

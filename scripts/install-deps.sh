#!/usr/bin/env bash
# Installs the Debian packages the SDK builds and tests with.
# Idempotent: packages already present are left alone, so it is safe to re-run.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libspdlog-dev libfmt-dev nlohmann-json3-dev libsqlite3-dev
  catch2 libbenchmark-dev libtbb-dev
  libclang-14-dev
  # The clang builds (scripts/fuzz.sh, sanitize.sh, tsan.sh): clang, its
  # libFuzzer and sanitizer runtimes, and llvm-symbolizer for readable
  # reports.
  clang-14 libclang-rt-14-dev llvm-14
  libprotobuf-dev protobuf-compiler libonnx-dev libopenblas-dev
  zlib1g-dev libboost-dev
  # The Python packages (popart, pva) and their tests, for Debian's python3.
  python3-dev pybind11-dev python3-pybind11 python3-pytest
  # Peers and data for tests, tutorials and benchmarks.
  libonnx-testdata dataset-fashion-mnist
  python3-numpy python3-onnx python3-torch python3-torchvision
  # Distributed training across processes (popart's MPI layer, mpirun).
  openmpi-bin libopenmpi-dev
  # popvision-report's page test and screenshots: headless Chromium driven
  # through selenium.
  chromium chromium-driver python3-selenium
)
# npm vendors popvision-report's charting library (scripts/install-web-deps.sh).
# A Node.js that brings its own npm (as NodeSource's does) is kept.
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

"$(dirname "$0")/install-web-deps.sh"

#!/usr/bin/env bash
# Compiles every public header of the installed SDK alone, as the first
# line of a translation unit, with `g++ -std=c++NN -pedantic` (warnings are
# errors): poplar's and PopLibs' as C++11, 14, 17 and 20, PopART's as
# C++14, 17 and 20, as the original's headers compile.
#   public_headers.sh <sdk prefix>
set -euo pipefail
sdk=$1
inc=$sdk/include
cd "$inc"
# poplar/detail/CodeletInterface.hpp is not for programs: it is included
# by the code popc generates, which popc compiles as C++17.
mapfile -t headers < <(find poplar poputil popops poplin popnn poprand popsolver gcl \
  -type f \( -name '*.hpp' -o -name '*.h' \) ! -path 'poplar/detail/CodeletInterface.hpp' | sort)
headers+=(ipu_builtins.h ipu_vector_math ipu_memory_intrinsics)
mapfile -t popart_headers < <(find popart -type f -name '*.hpp' | sort)
jobs=()
for std in 11 14 17 20; do
  for h in "${headers[@]}"; do jobs+=("$std $h"); done
done
for std in 14 17 20; do
  for h in "${popart_headers[@]}"; do jobs+=("$std $h"); done
done
check() {
  local std=$1 header=$2
  if ! echo "#include <$header>" | g++ -std=c++"$std" -pedantic -Wall -Wextra \
      -Werror -fsyntax-only -I "$PWD" -x c++ - 2> "$TMPDIR_HEADERS/$std-${header//\//_}.log"; then
    echo "FAIL: <$header> as C++$std"
    head -5 "$TMPDIR_HEADERS/$std-${header//\//_}.log"
    return 1
  fi
}
export -f check
TMPDIR_HEADERS=$(mktemp -d)
export TMPDIR_HEADERS
trap 'rm -rf "$TMPDIR_HEADERS"' EXIT
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c 'check $0 $1'
echo "ok: ${#headers[@]} poplar and PopLibs headers as C++11/14/17/20," \
     "${#popart_headers[@]} PopART headers as C++14/17/20"

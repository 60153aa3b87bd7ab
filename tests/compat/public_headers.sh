#!/usr/bin/env bash
# The public headers of the installed SDK compile as the original's do,
# with `g++ -pedantic` and warnings as errors: poplar's and PopLibs' as
# C++11, 14, 17 and 20, PopART's as C++14, 17 and 20.
#  - Each header alone, as the first line of a translation unit, in the
#    oldest standard it supports: it includes what it uses (newer standard
#    libraries include more of each other, not less).
#  - All of them in one translation unit in each newer standard: every
#    declaration is valid C++ of that standard and raises no warning.
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
TMPDIR_HEADERS=$(mktemp -d)
export TMPDIR_HEADERS
trap 'rm -rf "$TMPDIR_HEADERS"' EXIT
jobs=()
for h in "${headers[@]}"; do jobs+=("11 $h"); done
for h in "${popart_headers[@]}"; do jobs+=("14 $h"); done
# One translation unit of every header per newer standard.
all_poplar=$TMPDIR_HEADERS/all_poplar.hpp
all_popart=$TMPDIR_HEADERS/all_popart.hpp
printf '#include <%s>\n' "${headers[@]}" > "$all_poplar"
printf '#include <%s>\n' "${popart_headers[@]}" > "$all_popart"
for std in 14 17 20; do jobs+=("$std $all_poplar"); done
for std in 17 20; do jobs+=("$std $all_popart"); done
check() {
  local std=$1 header=$2
  local log=$TMPDIR_HEADERS/$std-${header//\//_}.log
  if ! echo "#include <$header>" | g++ -std=c++"$std" -pedantic -Wall -Wextra \
      -Werror -fsyntax-only -I "$PWD" -x c++ - 2> "$log"; then
    echo "FAIL: <${header#"$TMPDIR_HEADERS"/}> as C++$std"
    head -5 "$log"
    return 1
  fi
}
export -f check
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c 'check $0 $1'
echo "ok: ${#headers[@]} poplar and PopLibs headers alone as C++11 and together" \
     "as C++14/17/20, ${#popart_headers[@]} PopART headers alone as C++14 and" \
     "together as C++17/20"

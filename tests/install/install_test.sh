#!/usr/bin/env bash
# Installs the SDK from a build tree into a fresh prefix, then builds user
# programs against it (CMake find_package, pkg-config and plain g++ command
# lines, for poplar alone, with popops and with popnn) and checks each prints what it
# should.
#   install_test.sh <build dir> <consumer source dir>
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
expected='v: {1,2.5,-4}'

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$prefix/lib
[ -d "$libdir" ] || libdir=$(dirname "$(find "$prefix" -name 'libpoplar.so' | head -n1)")

# cmake_consumer <name> <source> <package>: builds <source> as the program
# <name> with find_package(<package>) and target <package>::<package>, and
# prints the program's path.
cmake_consumer() {
  local name=$1 source=$2 package=$3 dir=$work/$1-consumer
  mkdir -p "$dir"
  cp "$source" "$dir/"
  cat > "$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(${name}_consumer CXX)
find_package($package REQUIRED)
add_executable($name $(basename "$source"))
target_compile_features($name PRIVATE cxx_std_17)
target_link_libraries($name PRIVATE $package::$package)
CMAKE
  cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$dir/build" >/dev/null
  echo "$dir/build/$name"
}

check() {
  local how=$1 exe=$2 out
  out=$(LD_LIBRARY_PATH="$libdir" "$exe")
  if [ "$out" != "$expected" ]; then
    echo "FAIL ($how): printed '$out', expected '$expected'"
    exit 1
  fi
  echo "ok ($how)"
}

# 1. CMake: find_package(poplar)
cmake -S "$src" -B "$work/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
check find_package "$work/cmake-build/consumer"

# 2. pkg-config
PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --exists poplar
g++ -std=c++17 "$src/consumer.cpp" -o "$work/pc-consumer" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs poplar)
check pkg-config "$work/pc-consumer"

# 3. Plain g++ with the prefix on the compiler's search paths
CPATH="$prefix/include" LIBRARY_PATH="$libdir" \
  g++ -std=c++17 "$src/consumer.cpp" -lpoplar -o "$work/plain-consumer"
check "g++ -lpoplar" "$work/plain-consumer"

# 4. The guide's codelet route with the installed popc: compile tutorial 3's
#    codelets ahead of time and load the .gp instead of the source.
tut3=$(dirname "$src")/../../tutorials/poplar/tut3_vertices/complete
cp "$tut3/tut3_codelets.cpp" "$work/"
sed 's/tut3_codelets\.cpp/tut3_codelets.gp/' "$tut3/tut3_complete.cpp" > "$work/tut3_gp.cpp"
"$prefix/bin/popc" "$work/tut3_codelets.cpp" -o "$work/tut3_codelets.gp"
CPATH="$prefix/include" LIBRARY_PATH="$libdir" \
  g++ -std=c++17 "$work/tut3_gp.cpp" -lpoplar -o "$work/tut3"
out=$(cd "$work" && LD_LIBRARY_PATH="$libdir" POPLAR_CODELET_CACHE_DIR="$work/no-cache" ./tut3)
expected_tut3=$'Running program\nv2: {7,6,4.5,2.5}\nProgram complete'
if [ "$out" != "$expected_tut3" ]; then
  echo "FAIL (popc tut3): printed '$out'"
  exit 1
fi
[ ! -d "$work/no-cache" ] || { echo "FAIL (popc tut3): the .gp run compiled source"; exit 1; }
echo "ok (popc tut3_codelets.cpp -o tut3_codelets.gp)"

# 5. PopLibs: tutorial 2 with the guide's plain command line, using popops'
#    codelets installed beside libpopops (the log names the file loaded).
tut2=$prefix/share/poplar-sdk/tutorials/poplar/tut2_operations
CPATH="$prefix/include" LIBRARY_PATH="$libdir" \
  g++ --std=c++17 "$tut2/complete/tut2_complete.cpp" -lpopops -lpoputil -lpoplar \
  -o "$work/tut2"
out=$(cd "$work" && LD_LIBRARY_PATH="$libdir" POPLAR_LOG_LEVEL=DEBUG \
  POPLAR_LOG_DEST="$work/tut2.log" ./tut2)
if [ "$out" != "$(cat "$tut2/expected_output.txt")" ]; then
  echo "FAIL (g++ tut2 -lpopops -lpoputil -lpoplar): printed '$out'"
  exit 1
fi
grep -q "from '$libdir/popops.gp'" "$work/tut2.log" ||
  { echo "FAIL (tut2): popops.gp was not loaded from $libdir"; exit 1; }
echo "ok (g++ tut2_complete.cpp -lpopops -lpoputil -lpoplar)"

# 6. find_package(poplibs COMPONENTS popops) and pkg-config popops. The
#    program's fused map is compiled by the installed popc, into a cache of
#    its own.
export POPLAR_CODELET_CACHE_DIR="$work/codelet-cache"
expected_popops='z: {3,6,7}'
popops_src=$(dirname "$src")/popops_consumer
cmake -S "$popops_src" -B "$work/popops-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/popops-build" >/dev/null
out=$(LD_LIBRARY_PATH="$libdir" "$work/popops-build/popops_consumer")
[ "$out" = "$expected_popops" ] ||
  { echo "FAIL (find_package popops): printed '$out'"; exit 1; }
echo "ok (find_package(poplibs COMPONENTS popops))"
g++ -std=c++17 "$popops_src/consumer.cpp" -o "$work/pc-popops" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs popops)
out=$(LD_LIBRARY_PATH="$libdir" "$work/pc-popops")
[ "$out" = "$expected_popops" ] ||
  { echo "FAIL (pkg-config popops): printed '$out'"; exit 1; }
echo "ok (pkg-config popops)"

# 7. popnn: tutorial 5 with its plain command line, training briefly on
#    Debian's Fashion-MNIST (unpacked by the tutorial's get_data.sh) when it
#    is installed; popnn.gp is loaded from beside libpopnn.
tut5=$prefix/share/poplar-sdk/tutorials/poplar/tut5_ml
data=/usr/share/datasets/fashion-mnist
if [ -f "$data/t10k-labels-idx1-ubyte.gz" ]; then
  (cd "$work" && "$tut5/get_data.sh" "$data" > /dev/null)
  # (libpoplin's own dependency, libpopsolver, is found through
  # LD_LIBRARY_PATH, as enable.sh sets it)
  CPATH="$prefix/include" LIBRARY_PATH="$libdir" LD_LIBRARY_PATH="$libdir" \
    g++ --std=c++11 "$tut5/complete/regression-demo.cpp" \
    "$tut5/mnist.cpp" -lpopnn -lpoplin -lpopops -lpoputil -lpoplar \
    -o "$work/regression-demo"
  out=$(cd "$work" && LD_LIBRARY_PATH="$libdir" POPLAR_LOG_LEVEL=DEBUG \
    POPLAR_LOG_DEST="$work/tut5.log" ./regression-demo 1 10 | tail -n 1)
  [[ "$out" =~ ^Test\ accuracy:\ [0-9.]+%\ \([0-9]+\ of\ 10000\ images\)$ ]] ||
    { echo "FAIL (g++ regression-demo.cpp mnist.cpp -lpopnn ...): printed '$out'"; exit 1; }
  grep -q "from '$libdir/popnn.gp'" "$work/tut5.log" ||
    { echo "FAIL (tut5): popnn.gp was not loaded from $libdir"; exit 1; }
  echo "ok (g++ regression-demo.cpp mnist.cpp -lpopnn -lpoplin -lpopops -lpoputil -lpoplar)"
fi

# 8. find_package(poplibs COMPONENTS poprand) and pkg-config poprand, with
#    poprand.gp found beside the installed library.
expected_poprand=$'b: {1,1,1}\nd: {2,4,6}'
poprand_src=$(dirname "$src")/poprand_consumer
cmake -S "$poprand_src" -B "$work/poprand-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/poprand-build" >/dev/null
out=$(LD_LIBRARY_PATH="$libdir" "$work/poprand-build/poprand_consumer")
[ "$out" = "$expected_poprand" ] ||
  { echo "FAIL (find_package poprand): printed '$out'"; exit 1; }
echo "ok (find_package(poplibs COMPONENTS poprand))"
g++ -std=c++17 "$poprand_src/consumer.cpp" -o "$work/pc-poprand" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs poprand)
out=$(LD_LIBRARY_PATH="$libdir" "$work/pc-poprand")
[ "$out" = "$expected_poprand" ] ||
  { echo "FAIL (pkg-config poprand): printed '$out'"; exit 1; }
echo "ok (pkg-config poprand)"

# 9. PopART: the simple-addition tutorial with plain g++, pkg-config and
#    find_package(popart).
sa=$prefix/share/poplar-sdk/tutorials/popart/simple_addition
expected_sa=$(cat "$sa/expected_output.txt")
CPATH="$prefix/include" LIBRARY_PATH="$libdir" \
  g++ --std=c++17 "$sa/simple_addition.cpp" -lpopart -lpoplar -o "$work/simple_addition"
out=$(LD_LIBRARY_PATH="$libdir" "$work/simple_addition")
[ "$out" = "$expected_sa" ] || { echo "FAIL (g++ -lpopart): printed '$out'"; exit 1; }
echo "ok (g++ simple_addition.cpp -lpopart -lpoplar)"
g++ -std=c++17 "$sa/simple_addition.cpp" -o "$work/pc-popart" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs popart)
out=$(LD_LIBRARY_PATH="$libdir" "$work/pc-popart")
[ "$out" = "$expected_sa" ] || { echo "FAIL (pkg-config popart): printed '$out'"; exit 1; }
echo "ok (pkg-config popart)"
exe=$(cmake_consumer simple_addition "$sa/simple_addition.cpp" popart)
out=$(LD_LIBRARY_PATH="$libdir" "$exe")
[ "$out" = "$expected_sa" ] || { echo "FAIL (find_package popart): printed '$out'"; exit 1; }
echo "ok (find_package(popart))"

# 10. Python: after `source enable.sh`, Debian's python3 imports popart,
#     popart.ir and pva from the prefix and runs the guide's simple
#     addition, with the ONNX builder and with popart.ir.
out=$(cd "$work" && source "$prefix/enable.sh" && unset LD_LIBRARY_PATH &&
  /usr/bin/python3 -c "import popart, popart.ir, pva; print(popart.__file__, popart.ir.__file__, pva.__file__)")
[ "$out" = "$prefix/python/popart/__init__.py $prefix/python/popart/ir/__init__.py $prefix/python/pva/__init__.py" ] ||
  { echo "FAIL (import popart, popart.ir, pva): printed '$out'"; exit 1; }
out=$(cd "$work" && source "$prefix/enable.sh" &&
  /usr/bin/python3 "$prefix/share/poplar-sdk/tutorials/popart/python/simple_addition.py")
[[ "$out" =~ ^Input\ a\ is\ \[[0-9.e-]+\].Input\ b\ is\ \[[0-9.e-]+\].Result\ is\ \[[0-9.e-]+\]$ ]] ||
  { echo "FAIL (python3 simple_addition.py): printed '$out'"; exit 1; }
out=$(cd "$work" && source "$prefix/enable.sh" &&
  /usr/bin/python3 "$prefix/share/poplar-sdk/tutorials/popart/python/simple_addition_popart_ir.py")
[[ "$out" =~ ^Input\ a\ is\ \[[0-9.e-]+\].Input\ b\ is\ \[[0-9.e-]+\].Result\ is\ \[[0-9.e-]+\]$ ]] ||
  { echo "FAIL (python3 simple_addition_popart_ir.py): printed '$out'"; exit 1; }
echo "ok (python3 -c 'import popart, popart.ir, pva'; python3 simple_addition.py and simple_addition_popart_ir.py)"

# 11. libpva: tutorial 4's report read by its C++ example built with plain
#     g++ and with find_package(pva), and by its Python example.
tut4=$prefix/share/poplar-sdk/tutorials/poplar/tut4_profiling
mkdir -p "$work/tut4"
CPATH="$prefix/include" LIBRARY_PATH="$libdir" \
  g++ --std=c++17 "$tut4/tut4_ipu_model.cpp" -lpoplin -lpopops -lpoputil -lpoplar \
  -o "$work/tut4/tut4"
CPATH="$prefix/include" LIBRARY_PATH="$libdir" \
  g++ --std=c++17 "$tut4/libpva/cpp_example.cpp" -lpva -o "$work/tut4/cpp_example"
(cd "$work/tut4" && LD_LIBRARY_PATH="$libdir" \
  POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true"}' ./tut4 >/dev/null)
cpp=$(cd "$work/tut4" && LD_LIBRARY_PATH="$libdir" ./cpp_example)
py=$(cd "$work/tut4" && source "$prefix/enable.sh" &&
  /usr/bin/python3 "$tut4/libpva/python_example.py")
[[ "$cpp" == *"Number of tiles on target: 1472"* && "$cpp" == "$py" ]] ||
  { echo "FAIL (libpva examples): printed '$cpp' and '$py'"; exit 1; }
echo "ok (g++ cpp_example.cpp -lpva; python3 python_example.py)"
exe=$(cmake_consumer cpp_example "$tut4/libpva/cpp_example.cpp" pva)
out=$(cd "$work/tut4" && LD_LIBRARY_PATH="$libdir" "$exe")
[ "$out" = "$cpp" ] || { echo "FAIL (find_package pva): printed '$out'"; exit 1; }
echo "ok (find_package(pva))"

# 12. popvision-report from the prefix's bin/, without enable.sh: it finds
#     pva and its page files in the installation, and the page of tutorial
#     4's report has the charting library and the report's figures inside.
"$prefix/bin/popvision-report" "$work/tut4" -o "$work/tut4/report.html"
grep -q 'Licensed to the Apache Software Foundation' "$work/tut4/report.html" &&
  grep -q '"numTiles":1472' "$work/tut4/report.html" ||
  { echo "FAIL (popvision-report): the page lacks ECharts or the report"; exit 1; }
echo "ok (popvision-report profile.pop -o report.html)"

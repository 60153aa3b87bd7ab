#!/usr/bin/env bash
# The first command of the README: installs the dependencies, builds the
# SDK, installs it into ./install (or $SDK_PREFIX) and runs the quickstart:
# the tutorials, each built from the installed SDK as the user guide shows.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
prefix=${SDK_PREFIX:-$root/install}

scripts/install-deps.sh
scripts/build.sh
cmake --install build --prefix "$prefix"

echo
echo "== The SDK is installed in $prefix"
echo "== To use it: source $prefix/enable.sh"
# shellcheck disable=SC1091
source "$prefix/enable.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tutorials=$prefix/share/poplar-sdk/tutorials

echo
echo "== Tutorial 1: programs and variables (IPU Model)"
g++ --std=c++11 "$tutorials/poplar/tut1_variables/complete/tut1_ipu_model_complete.cpp" \
  -lpoplar -o "$work/tut1"
"$work/tut1"

echo
echo "== Tutorial 2: using PopLibs (popops element-wise additions)"
g++ --std=c++11 "$tutorials/poplar/tut2_operations/complete/tut2_complete.cpp" \
  -lpopops -lpoputil -lpoplar -o "$work/tut2"
"$work/tut2"

echo
echo "== Tutorial 3: writing vertex code (codelets compiled ahead with popc)"
cp "$tutorials/poplar/tut3_vertices/complete/"*.cpp "$work/"
(cd "$work" && popc tut3_codelets.cpp -o tut3_codelets.gp &&
  g++ --std=c++11 tut3_complete.cpp -lpoplar -o tut3 && ./tut3)

echo
echo "== Tutorial 4: profiling output (poplin::matMul on the IPU Model)"
cp "$tutorials/poplar/tut4_profiling/tut4_ipu_model.cpp" "$work/"
(cd "$work" && g++ --std=c++11 tut4_ipu_model.cpp -lpoplin -lpopops -lpoputil -lpoplar -o tut4 &&
  ./tut4 | grep -E "^(Running program|Program complete|m5|Memory Usage:|  Total cycles)")

echo
echo "== Tutorial 5: logistic regression trained on Fashion-MNIST (IPU Model)"
cp -r "$tutorials/poplar/tut5_ml" "$work/tut5"
(cd "$work/tut5" && ./get_data.sh > /dev/null &&
  g++ --std=c++11 complete/regression-demo.cpp mnist.cpp -lpopnn -lpoplin -lpopops -lpoputil -lpoplar -o regression-demo &&
  ./regression-demo 1 | tail -n 1)

echo
echo "== Tutorial 6: matrix-vector multiplication (codelets compiled on first use)"
cp "$tutorials/poplar/tut6_matrix_vector/complete/"*.cpp "$work/"
(cd "$work" && g++ --std=c++11 tut6_complete.cpp -lpoplar -o matrix-vector &&
  ./matrix-vector 40 50)

echo
echo "== Tutorial 7: matrix-vector multiplication optimisation (IPU Model profile)"
mkdir "$work/tut7"
cp "$tutorials/poplar/tut7_matrix_vector_opt/"*.cpp "$work/tut7/"
(cd "$work/tut7" && g++ --std=c++11 tut7.cpp -lpoplar -o matrix-vector &&
  ./matrix-vector 10000 1000 --device model-ipu1)

echo
echo "== PopART: the simple addition, an ONNX model built and run in an InferenceSession on the IPU Model"
cp "$tutorials/popart/simple_addition/simple_addition.cpp" "$work/"
(cd "$work" && g++ --std=c++14 simple_addition.cpp -lpopart -lpoplar -o simple_addition &&
  ./simple_addition)

echo
echo "== PopART training: a convolutional network on a subset of Fashion-MNIST (IPU Model)"
cp "$tutorials/popart/fashion_mnist/fashion_mnist_cnn.cpp" "$work/"
(cd "$work" && g++ --std=c++14 -O2 fashion_mnist_cnn.cpp -lpopart -lpoplar -lz -o fashion_mnist_cnn &&
  ./fashion_mnist_cnn /usr/share/datasets/fashion-mnist 1 8000 1000)

echo
echo "== PopART in Python: the guide's simple addition, with Debian's python3"
/usr/bin/python3 -c "import popart, popart.ir, pva"
(cd "$work" && /usr/bin/python3 "$tutorials/popart/python/simple_addition.py")

echo
echo "== popart.ir: the same addition built as an IR from Python"
(cd "$work" && /usr/bin/python3 "$tutorials/popart/python/simple_addition_popart_ir.py")

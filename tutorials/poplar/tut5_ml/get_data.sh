#!/usr/bin/env bash
# The data step of the tutorial: unpacks the images and labels into data/
# (in the current directory), under the file names regression-demo reads. They come from Debian's
# dataset-fashion-mnist package (Fashion-MNIST, in MNIST's format:
# `apt-get install dataset-fashion-mnist`), or from the directory given.
#   ./get_data.sh [source directory]
set -euo pipefail
src=${1:-/usr/share/datasets/fashion-mnist}
mkdir -p data
for name in train-images-idx3-ubyte train-labels-idx1-ubyte \
            t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
  if [ -f "$src/$name.gz" ]; then
    gzip -dc "$src/$name.gz" > "data/$name"
  elif [ -f "$src/$name" ]; then
    cp "$src/$name" "data/$name"
  else
    echo "get_data.sh: $src has no $name(.gz); install the" \
         "dataset-fashion-mnist package or name a directory of MNIST files" >&2
    exit 1
  fi
done
echo "Unpacked the data into $(pwd)/data"

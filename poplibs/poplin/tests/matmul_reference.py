"""Reference products for MatMulTorchTest, computed with torch.matmul.

Usage: matmul_reference.py <dir>

<dir>/cases.txt has one line per case, "name g m k n half" (g = 0 for a
2-D product, half = 1 when the inputs are to be rounded to half first);
<dir>/<name>_a.bin and <name>_b.bin hold A and B as little-endian float32
in row-major order. Writes <dir>/<name>_c.bin, torch.matmul(A, B) as
float32.
"""
import os
import sys

import numpy
import torch


def main(directory):
    with open(os.path.join(directory, "cases.txt")) as cases:
        for line in cases:
            if not line.strip():
                continue
            name, g, m, k, n, half = line.split()
            g, m, k, n, half = int(g), int(m), int(k), int(n), int(half)
            lead = (g,) if g else ()

            def load(suffix, shape):
                data = numpy.fromfile(
                    os.path.join(directory, name + suffix), dtype="<f4")
                tensor = torch.from_numpy(data.copy()).reshape(shape)
                # Half inputs: the device sees them rounded to half and
                # accumulates in float.
                return tensor.half().float() if half else tensor

            a = load("_a.bin", lead + (m, k))
            b = load("_b.bin", lead + (k, n))
            c = torch.matmul(a, b).numpy().astype("<f4")
            c.tofile(os.path.join(directory, name + "_c.bin"))


if __name__ == "__main__":
    main(sys.argv[1])

// Tutorial 6, complete: a matrix times a vector, one vertex per row.
#include <poplar/Engine.hpp>

#include <cstdlib>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

// Checks the device's result against the same products summed on the host
// in the same order, so the two agree exactly.
int checkResult(const std::vector<float> &matrix,
                const std::vector<float> &input,
                const std::vector<float> &output, unsigned numRows,
                unsigned numCols) {
  for (unsigned row = 0; row < numRows; ++row) {
    float sum = 0;
    for (unsigned col = 0; col < numCols; ++col)
      sum += matrix[row * numCols + col] * input[col];
    if (output[row] != sum) {
      std::cout << "ERROR: output " << row << ": expected=" << sum
                << ", actual=" << output[row] << "\n";
      return 1;
    }
  }
  std::cout << "Multiplication result OK\n";
  return 0;
}

// Returns a program that multiplies `matrix` by the vector `in`, writing
// the result to `out`.
Program buildMultiplyProgram(Graph &graph, Tensor matrix, Tensor in,
                             Tensor out) {
  // A compute set holds the vertices that perform the calculation.
  ComputeSet mulCS = graph.addComputeSet("mulCS");

  // One vertex per output element: it reads a row of the matrix and the
  // whole input vector. All of them run in parallel when mulCS executes.
  const auto numRows = matrix.dim(0);
  for (unsigned i = 0; i < numRows; ++i) {
    graph.addVertex(mulCS, "DotProductVertex",
                    {{"a", matrix[i]}, {"b", in}, {"out", out[i]}});
  }
  return Execute(mulCS);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " numRows numCols\n";
    return 1;
  }
  const unsigned numRows = std::atoi(argv[1]);
  const unsigned numCols = std::atoi(argv[2]);
  std::cout << "Multiplying matrix of size " << numRows << "x" << numCols
            << " by vector of size " << numCols << "\n";

  std::cout << "Creating environment (compiling vertex programs)\n";
  Graph graph(Target::createCPUTarget());
  graph.addCodelets("matrix-mul-codelets.cpp");

  std::cout << "Constructing compute graph and control program\n";
  // Tensors for the matrix, the input vector and the output vector.
  Tensor matrix = graph.addVariable(FLOAT, {numRows, numCols}, "matrix");
  Tensor inputVector = graph.addVariable(FLOAT, {numCols}, "inputVector");
  Tensor outputVector = graph.addVariable(FLOAT, {numRows}, "outputVector");

  // Host data: matrix[r][c] = r * c and input[c] = c.
  std::vector<float> hMatrix(numRows * numCols);
  std::vector<float> hInput(numCols);
  std::vector<float> hOutput(numRows);
  for (unsigned col = 0; col < numCols; ++col) {
    hInput[col] = col;
    for (unsigned row = 0; row < numRows; ++row)
      hMatrix[row * numCols + col] = float(row) * float(col);
  }

  Program mulProg =
      buildMultiplyProgram(graph, matrix, inputVector, outputVector);

  // Streams to move the data between host and device.
  DataStream inStreamV = graph.addHostToDeviceFIFO("inputVector", FLOAT, numCols);
  DataStream inStreamM =
      graph.addHostToDeviceFIFO("inputMatrix", FLOAT, numCols * numRows);
  DataStream outStream = graph.addDeviceToHostFIFO("out", FLOAT, numRows);

  // Copy the inputs in, multiply, copy the result out.
  Sequence prog(Copy(inStreamV, inputVector), Copy(inStreamM, matrix), mulProg,
                Copy(outputVector, outStream));

  Engine engine(graph, prog);
  engine.load(Device::createCPUDevice());
  engine.connectStream("inputVector", hInput.data());
  engine.connectStream("inputMatrix", hMatrix.data());
  engine.connectStream("out", hOutput.data());

  std::cout << "Running graph program to multiply matrix by vector\n";
  engine.run();

  return checkResult(hMatrix, hInput, hOutput, numRows, numCols);
}

// Tutorial 1: programs and variables. Follow the steps of the Poplar and
// PopLibs user guide to fill in main().
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;

int main() {
  // Create the IPU Model device, then the graph, variables, a program and
  // an engine, as the guide describes.

  return 0;
}

// Reads the profile.pop that tutorial 4 writes with autoReport, with libpva:
//   g++ --std=c++17 cpp_example.cpp -lpva -o cpp_example
#include <pva/pva.hpp>

#include <cstdlib>
#include <iostream>

int main(int, char *[]) {
  auto report = pva::openReport("./profile.pop");

  std::cout << "Example information from profile:\n"
            << "Number of compute sets: "
            << report.compilation().graph().numComputeSets() << "\n"
            << "Number of tiles on target: "
            << report.compilation().target().numTiles() << "\n"
            << "Version of Poplar used: " << report.poplarVersion().string()
            << "\n";
  return EXIT_SUCCESS;
}

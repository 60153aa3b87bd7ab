// Values the poplin tests feed in, and the float files their PyTorch
// references are exchanged through.
#ifndef POPLIN_TESTS_TESTVALUES_HPP
#define POPLIN_TESTS_TESTVALUES_HPP

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

namespace poplin_test {

// Multiples of 0.5 in [-limit/2, limit/2]: exact in HALF, and their
// products' sums exact in float, so host loops are exact references.
inline std::vector<float> halfExactValues(std::size_t n, unsigned seed,
                                          int limit) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-limit, limit);
  std::vector<float> v(n);
  for (auto &x : v)
    x = float(dist(gen)) * 0.5f;
  return v;
}

// Uniform in [lo, hi) (by default [-1, 1)), for comparisons with PyTorch
// and host loops.
inline std::vector<float> uniformValues(std::size_t n, unsigned seed,
                                        float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto &x : v)
    x = dist(gen);
  return v;
}

// Whether two float vectors hold the same bits (NaNs' too).
inline bool sameBits(const std::vector<float> &x, const std::vector<float> &y) {
  return x.size() == y.size() &&
         std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

inline void writeFloats(const std::filesystem::path &p,
                        const std::vector<float> &v) {
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char *>(v.data()),
            std::streamsize(v.size() * sizeof(float)));
}

// Reads n floats; the file must hold exactly that many.
inline std::vector<float> readFloats(const std::filesystem::path &p,
                                     std::size_t n) {
  std::vector<float> v(n);
  std::ifstream in(p, std::ios::binary);
  in.read(reinterpret_cast<char *>(v.data()),
          std::streamsize(n * sizeof(float)));
  REQUIRE(in.gcount() == std::streamsize(n * sizeof(float)));
  return v;
}

} // namespace poplin_test

#endif

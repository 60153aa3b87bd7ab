// The host kernel of MatMulPartial (codelets/MatMulKernel.hpp): its
// conversion of HALF operands gives the values of half's own conversion
// for every bit pattern, and a product over HALF rows equals the product
// over the same rows converted beforehand, bit for bit.
#include "../codelets/MatMulKernel.hpp"

#include <poplar/HalfFloat.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

// The kernel converts half through its bits (the branch-free path).
static_assert(std::is_trivially_copyable<half>::value && sizeof(half) == 2,
              "half is copied as its 16 bits");

TEST_CASE("HALF rows convert to float as half does, for every pattern",
          "[poplin][matmul]") {
  std::vector<half> all(1u << 16);
  for (unsigned i = 0; i != all.size(); ++i) {
    const std::uint16_t bits = static_cast<std::uint16_t>(i);
    std::memcpy(static_cast<void *>(&all[i]), &bits, sizeof bits);
  }
  // Whole, and in runs of every length up to two vectors and more (the
  // vector path's last group is a partial one).
  for (unsigned run : {65536u, 1u, 5u, 15u, 16u, 17u, 31u, 37u}) {
    INFO("runs of " << run);
    std::vector<float> converted(all.size(), -1.0f);
    for (unsigned i = 0; i < all.size(); i += run)
      poplin::kernel::toFloat(all.data() + i, converted.data() + i,
                              std::min<unsigned>(run, all.size() - i));
    unsigned mismatches = 0;
    for (unsigned i = 0; i != all.size(); ++i) {
      const float expected =
          poplar::detail::halfBitsToFloat(static_cast<std::uint16_t>(i));
      mismatches += std::memcmp(&expected, &converted[i], sizeof expected) != 0;
    }
    CHECK(mismatches == 0);
  }
  // A partial last group writes nothing past its end.
  std::vector<float> out(20, -1.0f);
  poplin::kernel::toFloat(all.data() + 0x3c00, out.data(), 3); // 1.0, ...
  CHECK(out[0] == 1.0f);
  CHECK(out[3] == -1.0f);
  CHECK(out[19] == -1.0f);
}

TEST_CASE("A product of HALF rows equals one of rows converted first",
          "[poplin][matmul]") {
  const unsigned rows = 11, depth = 300, cols = 45; // more than a depth chunk
  std::vector<half> a(rows * depth), b(depth * cols);
  for (unsigned i = 0; i != a.size(); ++i)
    a[i] = half(float(int(i * 37 % 101) - 50) / 16);
  for (unsigned i = 0; i != b.size(); ++i)
    b[i] = half(float(int(i * 53 % 89) - 44) / 32);
  std::vector<float> aFloat(a.size());
  poplin::kernel::toFloat(a.data(), aFloat.data(), unsigned(a.size()));
  std::vector<float> fromHalf(rows * cols), fromFloat(rows * cols),
      expected(rows * cols);
  auto bRow = [&](unsigned k) { return b.data() + k * cols; };
  poplin::kernel::blockProduct<half>(
      0, rows, 0, cols, depth, [&](unsigned i) { return a.data() + i * depth; },
      bRow, [&](unsigned i) { return fromHalf.data() + i * cols; });
  poplin::kernel::blockProduct<half, float>(
      0, rows, 0, cols, depth,
      [&](unsigned i) {
        return static_cast<const float *>(aFloat.data()) + i * depth;
      },
      bRow, [&](unsigned i) { return fromFloat.data() + i * cols; });
  CHECK(std::memcmp(fromHalf.data(), fromFloat.data(),
                    fromHalf.size() * sizeof(float)) == 0);
  // The operands are exact in float and the sums small integers over
  // 512: the product is exact.
  for (unsigned i = 0; i != rows; ++i)
    for (unsigned j = 0; j != cols; ++j) {
      double sum = 0;
      for (unsigned k = 0; k != depth; ++k)
        sum += double(float(a[i * depth + k])) * double(float(b[k * cols + j]));
      expected[i * cols + j] = float(sum);
    }
  CHECK(fromFloat == expected);
}

TEST_CASE("Every column is summed once, whatever the panels' widths",
          "[poplin][matmul]") {
  // Widths either side of one, two and three vectors: with AVX-512 a last
  // panel of at most one vector joins the one before (panelEnd).
  const unsigned rows = 11, depth = 300, guard = 16;
  for (unsigned cols : {5u, 16u, 17u, 32u, 33u, 37u, 48u, 49u, 69u, 80u, 81u}) {
    INFO("cols " << cols);
    std::vector<float> a(rows * depth), b(depth * cols);
    for (unsigned i = 0; i != a.size(); ++i)
      a[i] = float(int(i * 13 % 7) - 3);
    for (unsigned i = 0; i != b.size(); ++i)
      b[i] = float(int(i * 5 % 11) - 5);
    std::vector<float> expected(rows * cols);
    for (unsigned i = 0; i != rows; ++i)
      for (unsigned j = 0; j != cols; ++j) {
        double sum = 0; // small integers: exact in any order
        for (unsigned k = 0; k != depth; ++k)
          sum += double(a[i * depth + k]) * b[k * cols + j];
        expected[i * cols + j] = float(sum);
      }
    // Panel by panel, as MatMulPartial calls it, and in one call.
    for (bool byPanel : {true, false}) {
      INFO("by panel " << byPanel);
      const unsigned stride = cols + guard;
      std::vector<float> c(rows * stride, 7.0f);
      auto product = [&](unsigned col, unsigned colEnd) {
        poplin::kernel::blockProduct<float>(
            0, rows, col, colEnd, depth,
            [&](unsigned i) { return a.data() + i * depth; },
            [&](unsigned k) { return b.data() + k * cols; },
            [&](unsigned i) { return c.data() + i * stride; });
      };
      unsigned panels = 0;
      if (byPanel) {
        for (unsigned col = 0; col < cols; ++panels) {
          const unsigned end = poplin::kernel::panelEnd(col, cols);
          CHECK(end > col);
          product(col, end);
          col = end;
        }
        CHECK(panels == poplin::kernel::numPanels(cols));
      } else {
        product(0, cols);
      }
      unsigned wrong = 0, touched = 0;
      for (unsigned i = 0; i != rows; ++i) {
        for (unsigned j = 0; j != cols; ++j)
          wrong += c[i * stride + j] != expected[i * cols + j];
        for (unsigned j = cols; j != stride; ++j)
          touched += c[i * stride + j] != 7.0f;
      }
      CHECK(wrong == 0);
      CHECK(touched == 0);
    }
  }
}

TEST_CASE("Float sums round to HALF as half does", "[poplin][matmul]") {
  // Each half's value, the midpoints between neighbours (ties) and the
  // floats either side of them, both signs; past the largest half; NaNs,
  // infinities, float subnormals and values below half's smallest.
  auto fromBits = [](std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  };
  auto bitsOf = [](float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
  };
  std::vector<float> values;
  for (std::uint32_t h = 0; h != 0x7c00u; ++h) {
    const float lo = poplar::detail::halfBitsToFloat(std::uint16_t(h));
    const float hi =
        h + 1 == 0x7c00u
            ? 65520.0f // the first float that overflows
            : poplar::detail::halfBitsToFloat(std::uint16_t(h + 1));
    const float mid = lo + (hi - lo) / 2;
    for (float v :
         {lo, mid, fromBits(bitsOf(mid) + 1), fromBits(bitsOf(mid) - 1)})
      for (float s : {1.0f, -1.0f})
        values.push_back(s * v);
  }
  for (std::uint32_t bits :
       {0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffc12345u,
        0x00000001u, 0x807fffffu, 0x33000000u, 0x33000001u, 0x477ff000u,
        0x477fefffu, 0x7f7fffffu})
    values.push_back(fromBits(bits));
  for (unsigned run : {unsigned(values.size()), 16u, 37u}) {
    INFO("runs of " << run);
    std::vector<half> rounded(values.size());
    for (unsigned i = 0; i < values.size(); i += run)
      poplin::kernel::toHalf(values.data() + i, rounded.data() + i,
                             std::min<unsigned>(run, values.size() - i));
    unsigned mismatches = 0;
    for (unsigned i = 0; i != values.size(); ++i) {
      const std::uint16_t expected = poplar::detail::floatToHalfBits(values[i]);
      std::uint16_t got;
      std::memcpy(&got, &rounded[i], sizeof got);
      mismatches += got != expected;
    }
    CHECK(mismatches == 0);
  }
}

// The generator of poprand: Philox4x32-10 (Salmon, Moraes, Dror and Shaw,
// "Parallel random numbers: as easy as 1, 2, 3", SC 2011), a counter-based
// generator: 10 rounds of a keyed bijection turn a 128-bit counter and a
// 64-bit key into 128 random bits, so any element's numbers can be computed
// on its own, wherever and in whatever order it is processed.
//
// How poprand uses it (poplibs/poprand/README.md has the full account):
//   key     = the generator state's key (from the seed and seed modifier)
//   counter = {element index, draw, state counter low, state counter high}
// The header is plain C++ shared by the vertices and the host-side tests.
#ifndef POPRAND_CODELETS_PHILOX_HPP
#define POPRAND_CODELETS_PHILOX_HPP

#include <cmath>
#include <cstdint>

namespace poprand {
namespace philox {

struct Block {
  std::uint32_t w[4];
};

inline void mulHiLo(std::uint32_t a, std::uint32_t b, std::uint32_t &hi,
                    std::uint32_t &lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
}

/// Philox4x32 with 10 rounds.
inline Block philox4x32_10(Block ctr, std::uint32_t k0, std::uint32_t k1) {
  constexpr std::uint32_t mult0 = 0xD2511F53u, mult1 = 0xCD9E8D57u;
  constexpr std::uint32_t weyl0 = 0x9E3779B9u, weyl1 = 0xBB67AE85u;
  for (unsigned round = 0; round != 10; ++round) {
    std::uint32_t hi0, lo0, hi1, lo1;
    mulHiLo(mult0, ctr.w[0], hi0, lo0);
    mulHiLo(mult1, ctr.w[2], hi1, lo1);
    ctr = Block{{hi1 ^ ctr.w[1] ^ k0, lo1, hi0 ^ ctr.w[3] ^ k1, lo0}};
    k0 += weyl0;
    k1 += weyl1;
  }
  return ctr;
}

/// The generator state poprand keeps: {key0, key1, counter low, counter
/// high} (the four words of poplar::getHwSeeds).
struct State {
  std::uint32_t key0, key1, counterLo, counterHi;
};

/// The key a (seed, seedModifier) pair selects: the first two words of the
/// block the seed (as key) gives for the counter {seedModifier, 0, 0,
/// 0xFFFFFFFF}, a counter no generation call reaches in practice.
inline State stateFromSeed(std::uint32_t seed0, std::uint32_t seed1,
                           std::uint32_t seedModifier) {
  const Block b =
      philox4x32_10(Block{{seedModifier, 0u, 0u, 0xFFFFFFFFu}}, seed0, seed1);
  return State{b.w[0], b.w[1], 0u, 0u};
}

/// The 128 bits of draw `draw` of element `index`.
inline Block draw(const State &s, std::uint32_t index, std::uint32_t draw) {
  return philox4x32_10(Block{{index, draw, s.counterLo, s.counterHi}}, s.key0,
                       s.key1);
}

/// A float in [0, 1) from the top 24 bits of a word (every value a
/// multiple of 2^-24, so exact in float).
inline float uniform01(std::uint32_t w) {
  return static_cast<float>(w >> 8) * (1.0f / 16777216.0f);
}

/// A double in (0, 1] from a word (never 0, so its logarithm is finite).
inline double uniformOpen0(std::uint32_t w) {
  return (static_cast<double>(w) + 1.0) * (1.0 / 4294967296.0);
}

/// Two independent standard normal values from two words (Box-Muller).
inline void boxMuller(std::uint32_t a, std::uint32_t b, double &z0,
                      double &z1) {
  constexpr double twoPi = 6.283185307179586476925;
  const double radius = std::sqrt(-2.0 * std::log(uniformOpen0(a)));
  const double angle = twoPi * (static_cast<double>(b) * (1.0 / 4294967296.0));
  z0 = radius * std::cos(angle);
  z1 = radius * std::sin(angle);
}

/// Draws per element a truncated normal may use before giving up (each
/// draw makes several proposals; see truncatedStandardNormal).
constexpr std::uint32_t maxTruncatedNormalDraws = 32;

/// A standard normal value truncated to [-alpha, alpha], by rejection:
/// for alpha >= 1 normal proposals (each accepted with probability at
/// least 0.68, four per draw), for smaller alpha uniform proposals on
/// [-alpha, alpha] accepted with probability exp(-z^2/2) (at least 0.6,
/// two per draw). After maxTruncatedNormalDraws draws with no acceptance
/// (probability below 1e-20) the result is 0.
inline double truncatedStandardNormal(const State &s, std::uint32_t index,
                                      double alpha) {
  for (std::uint32_t d = 0; d != maxTruncatedNormalDraws; ++d) {
    const Block b = draw(s, index, d);
    if (alpha >= 1.0) {
      double z[4];
      boxMuller(b.w[0], b.w[1], z[0], z[1]);
      boxMuller(b.w[2], b.w[3], z[2], z[3]);
      for (double v : z)
        if (std::fabs(v) <= alpha)
          return v;
    } else {
      for (unsigned p = 0; p != 2; ++p) {
        const double u = static_cast<double>(b.w[2 * p]) / 4294967296.0;
        const double v = uniformOpen0(b.w[2 * p + 1]);
        const double z = alpha * (2.0 * u - 1.0);
        if (v <= std::exp(-0.5 * z * z))
          return z;
      }
    }
  }
  return 0.0;
}

} // namespace philox
} // namespace poprand

#endif // POPRAND_CODELETS_PHILOX_HPP

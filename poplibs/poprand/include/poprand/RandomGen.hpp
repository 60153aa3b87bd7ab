// Random number generation: the tensors a counter-based generator
// (Philox4x32-10) gives for a seed, described in poplibs/poprand/README.md.
//
// Every function takes `seed`: when it is not null, a tensor of 2
// UNSIGNED_INT words which, with `seedModifier`, selects the generator's
// key for this call only (the same seed and modifier always give the same
// values); when it is null, the graph's generator state (poplar::getHwSeeds,
// set by setSeed) is used and advanced, so each call and each run gives new
// values. The result has the shape and tile mapping of `reference`, and an
// element's value depends only on the key, the state's counter and the
// element's row-major index: not on the tile mapping, nor on how many host
// threads run the program.
#ifndef POPRAND_RANDOMGEN_HPP
#define POPRAND_RANDOMGEN_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poprand/poprand_export.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>
#include <cstdint>

namespace poprand {

/// input * scale where a mask of probability keepProbability keeps the
/// element, 0 elsewhere; the result is laid out like `reference` (which has
/// the input's shape). FLOAT or HALF.
POPRAND_API poplar::Tensor
dropout(poplar::Graph &graph, const poplar::Tensor *seed,
        const uint32_t seedModifier, const poplar::Tensor &input,
        const poplar::Tensor &reference, double keepProbability, double scale,
        poplar::program::Sequence &prog,
        const poplar::DebugContext &debugContext = {});

/// As above; the result is laid out like `reference` when outputClonesRef,
/// like `input` otherwise (the mask follows `reference`'s element order
/// either way).
POPRAND_API poplar::Tensor
dropout(poplar::Graph &graph, const poplar::Tensor *seed,
        const uint32_t seedModifier, const poplar::Tensor &input,
        const poplar::Tensor &reference, double keepProbability, double scale,
        bool outputClonesRef, poplar::program::Sequence &prog,
        const poplar::DebugContext &debugContext = {});

/// Dropout with a mask of `reference`'s shape broadcast over the input
/// (whole rows, columns, ... dropped together). Needs popops' codelets.
POPRAND_API poplar::Tensor
shapedDropout(poplar::Graph &graph, const poplar::Tensor *seed,
              const uint32_t seedModifier, const poplar::Tensor &input,
              const poplar::Tensor &reference, double keepProbability,
              double scale, poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext = {});

/// Uniform in [minVal, maxVal] for FLOAT and HALF (minVal + (maxVal -
/// minVal) * u, u a multiple of 2^-24 in [0, 1)); for INT, integers in
/// [minVal, maxVal], exactly uniform when maxVal - minVal + 1 is a power
/// of 2 and otherwise biased by at most (maxVal - minVal + 1) / 2^32.
POPRAND_API poplar::Tensor
uniform(poplar::Graph &graph, const poplar::Tensor *seed,
        uint32_t seedModifier, const poplar::Tensor &reference,
        const poplar::Type &outType, double minVal, double maxVal,
        poplar::program::Sequence &prog,
        const poplar::DebugContext &debugContext = {});

/// Log-uniform on [minVal, maxVal] (its logarithm is uniform; the base
/// only has to be a valid one, as any base gives the same distribution).
/// The interval is narrowed to the values outType can represent; INT
/// results are rounded to the nearest integer. Errors when minVal < 1,
/// maxVal <= minVal, or no value of outType lies in the interval.
POPRAND_API poplar::Tensor
logUniform(poplar::Graph &graph, const poplar::Tensor *seed,
           uint32_t seedModifier, const poplar::Tensor &reference,
           const poplar::Type &outType, double minVal, double maxVal,
           poplar::program::Sequence &prog, double base = M_E,
           const poplar::DebugContext &debugContext = {});

/// 1 with probability prob, else 0. FLOAT, HALF or INT.
POPRAND_API poplar::Tensor
bernoulli(poplar::Graph &graph, const poplar::Tensor *seed,
          uint32_t seedModifier, const poplar::Tensor &reference,
          const poplar::Type &outType, double prob,
          poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {});

/// Normal with the given mean and standard deviation. FLOAT or HALF.
POPRAND_API poplar::Tensor
normal(poplar::Graph &graph, const poplar::Tensor *seed,
       uint32_t seedModifier, const poplar::Tensor &reference,
       const poplar::Type &outType, double mean, double stdDev,
       poplar::program::Sequence &prog,
       const poplar::DebugContext &debugContext = {});

/// Normal with the given mean and standard deviation, truncated
/// symmetrically to [mean - alpha * stdDev, mean + alpha * stdDev].
/// FLOAT or HALF.
POPRAND_API poplar::Tensor
truncatedNormal(poplar::Graph &graph, const poplar::Tensor *seed,
                uint32_t seedModifier, const poplar::Tensor &reference,
                const poplar::Type &outType, double mean, double stdDev,
                double alpha, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {});

/// Sets the graph's generator state (the one calls with a null seed use)
/// from a 64-bit seed (2 UNSIGNED_INT words) and a modifier: the key they
/// select and a counter of 0.
POPRAND_API void setSeed(poplar::Graph &graph, const poplar::Tensor &masterSeed,
                         uint32_t seedModifier, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});

} // namespace poprand

#endif // POPRAND_RANDOMGEN_HPP

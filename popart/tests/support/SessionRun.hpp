// One run of a session in tests: FLOAT inputs (and INT32 ones) from
// vectors, FLOAT anchors into vectors of the given element counts; and a
// weight read back.
#ifndef POPART_TESTS_SESSIONRUN_HPP
#define POPART_TESTS_SESSIONRUN_HPP

#include <popart/names.hpp>
#include <popart/session.hpp>

#include <cstddef>
#include <map>
#include <vector>

namespace popart_test {

std::map<popart::TensorId, std::vector<float>>
runStep(popart::Session &session,
        std::map<popart::TensorId, std::vector<float>> inputs,
        const std::map<popart::TensorId, std::size_t> &anchors,
        std::map<popart::TensorId, std::vector<int>> intInputs = {});

/// A FLOAT weight's values on the device (weightsToHost, then readWeights).
std::vector<float> readWeight(popart::Session &session,
                              const popart::TensorId &id);

} // namespace popart_test

#endif

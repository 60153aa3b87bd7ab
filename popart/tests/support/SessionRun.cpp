#include "SessionRun.hpp"

#include <popart/iarray.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/stepio.hpp>

#include <memory>

namespace popart_test {

std::map<popart::TensorId, std::vector<float>>
runStep(popart::Session &session,
        std::map<popart::TensorId, std::vector<float>> inputs,
        const std::map<popart::TensorId, std::size_t> &anchors,
        std::map<popart::TensorId, std::vector<int>> intInputs) {
  using popart::NDArrayWrapper;
  std::vector<std::unique_ptr<popart::IArray>> arrays;
  std::map<popart::TensorId, popart::IArray &> ins, outs;
  for (auto &i : inputs) {
    arrays.push_back(std::make_unique<NDArrayWrapper<float>>(
        i.second.data(), popart::Shape{int64_t(i.second.size())}));
    ins.emplace(i.first, *arrays.back());
  }
  for (auto &i : intInputs) {
    arrays.push_back(std::make_unique<NDArrayWrapper<int>>(
        i.second.data(), popart::Shape{int64_t(i.second.size())}));
    ins.emplace(i.first, *arrays.back());
  }
  std::map<popart::TensorId, std::vector<float>> result;
  for (const auto &a : anchors)
    result[a.first].resize(a.second);
  for (auto &r : result) {
    arrays.push_back(std::make_unique<NDArrayWrapper<float>>(
        r.second.data(), popart::Shape{int64_t(r.second.size())}));
    outs.emplace(r.first, *arrays.back());
  }
  popart::StepIO io(ins, outs);
  session.run(io);
  return result;
}

std::vector<float> readWeight(popart::Session &session,
                              const popart::TensorId &id) {
  session.weightsToHost();
  const popart::TensorInfo info = session.getInfo(id);
  std::vector<float> w(static_cast<std::size_t>(info.nelms()));
  popart::WeightsIO io;
  io.insert(id, {w.data(), info});
  session.readWeights(io);
  return w;
}

} // namespace popart_test

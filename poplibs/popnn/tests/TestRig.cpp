#include "TestRig.hpp"

#include "HostHalf.hpp"
#include "TestDevice.hpp"

#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>

using namespace poplar;

namespace popnntest {

Rig::Rig(unsigned tiles)
    : device(sdktest::createTestDevice(tiles)), graph(device.getTarget()) {
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
}

Tensor Rig::input(const Type &type, const std::vector<std::size_t> &shape,
                  const std::string &name, std::vector<float> values) {
  Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t);
  REQUIRE(values.size() == t.numElements());
  inputs[name] = {t, std::move(values)};
  return t;
}

void Rig::output(const Tensor &t, const std::string &name) {
  outputs[name] = t;
}

std::map<std::string, std::vector<float>> Rig::run() {
  for (const auto &[name, in] : inputs)
    graph.createHostWrite("w_" + name, in.first);
  for (const auto &[name, t] : outputs)
    graph.createHostRead("r_" + name, t);
  Engine engine(graph, prog);
  engine.load(device);
  const Target &target = graph.getTarget();
  for (const auto &[name, in] : inputs) {
    const auto &[t, values] = in;
    const Type type = t.elementType();
    if (type == HALF) {
      std::vector<std::uint16_t> h(values.size());
      copyFloatToDeviceHalf(target, values.data(), h.data(), h.size());
      engine.writeTensor("w_" + name, h.data(), h.data() + h.size());
    } else if (type == FLOAT) {
      engine.writeTensor("w_" + name, values.data(), values.data() + values.size());
    } else if (type == UNSIGNED_INT || type == INT) {
      // Negative values go to UNSIGNED_INT as their two's complement
      // (MASKED_LABEL_CODE is -1).
      std::vector<std::uint32_t> v(values.size());
      for (std::size_t i = 0; i != v.size(); ++i)
        v[i] = values[i] < 0 ? std::uint32_t(std::int32_t(values[i]))
                             : std::uint32_t(values[i]);
      engine.writeTensor("w_" + name, v.data(), v.data() + v.size());
    } else {
      FAIL("unsupported input type " << type.toString().str());
    }
  }
  engine.run(0);
  std::map<std::string, std::vector<float>> results;
  for (const auto &[name, t] : outputs) {
    const std::size_t n = t.numElements();
    const Type type = t.elementType();
    std::vector<float> v(n);
    if (type == HALF) {
      std::vector<std::uint16_t> h(n);
      engine.readTensor("r_" + name, h.data(), h.data() + n);
      copyDeviceHalfToFloat(target, h.data(), v.data(), n);
    } else if (type == FLOAT) {
      engine.readTensor("r_" + name, v.data(), v.data() + n);
    } else if (type == UNSIGNED_INT) {
      std::vector<std::uint32_t> u(n);
      engine.readTensor("r_" + name, u.data(), u.data() + n);
      v.assign(u.begin(), u.end());
    } else if (type == INT) {
      std::vector<std::int32_t> u(n);
      engine.readTensor("r_" + name, u.data(), u.data() + n);
      v.assign(u.begin(), u.end());
    } else {
      FAIL("unsupported output type " << type.toString().str());
    }
    results[name] = std::move(v);
  }
  return results;
}

std::vector<float> uniformValues(std::size_t n, float lo, float hi,
                                 unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto &x : v)
    x = dist(gen);
  return v;
}

std::vector<float> roundToHalf(const std::vector<float> &v) {
  std::vector<float> out(v.size());
  for (std::size_t i = 0; i != v.size(); ++i)
    out[i] = sdktest::nearestHalf(v[i]);
  return out;
}

std::vector<double> toDouble(const std::vector<float> &v) {
  return std::vector<double>(v.begin(), v.end());
}

void checkClose(const std::vector<float> &got, const std::vector<double> &want,
                double relTol, double absTol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i != got.size(); ++i) {
    INFO("element " << i << ": got " << got[i] << ", want " << want[i]);
    REQUIRE(std::abs(double(got[i]) - want[i]) <=
            absTol + relTol * std::abs(want[i]));
  }
}

} // namespace popnntest

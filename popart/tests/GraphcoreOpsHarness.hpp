// The harness of the ai.graphcore operator tests (GraphcoreOpsTest.cpp,
// GraphcoreOpsMoreTest.cpp): a model of one op built with the Builder, run
// in inference or training, its outputs and gradients read back as doubles.
#ifndef POPART_TESTS_GRAPHCOREOPSHARNESS_HPP
#define POPART_TESTS_GRAPHCOREOPSHARNESS_HPP

#include "PopartTestDevice.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>
#include <popart/tensornames.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <memory>
#include <string>
#include <vector>

namespace gcops {

using namespace popart;

// Host inputs and the outputs read back, all as doubles (FLOAT, INT32 and
// UINT32 tensors on the device).
struct Values {
  std::map<TensorId, std::vector<double>> byId;
  const std::vector<double> &operator[](const TensorId &id) const {
    return byId.at(id);
  }
};

struct Buffers {
  std::vector<std::unique_ptr<IArray>> arrays;
  std::vector<std::vector<float>> floats;
  std::vector<std::vector<int32_t>> ints;
  std::vector<std::vector<uint32_t>> uints;
  std::vector<std::vector<int64_t>> longs;
  IArray &make(const TensorInfo &info, const std::vector<double> &v) {
    const Shape shape = info.shape();
    switch (info.dataType()) {
    case DataType::INT32:
      ints.emplace_back(v.begin(), v.end());
      arrays.push_back(
          std::make_unique<NDArrayWrapper<int32_t>>(ints.back().data(), shape));
      break;
    case DataType::INT64:
      longs.emplace_back(v.begin(), v.end());
      arrays.push_back(std::make_unique<NDArrayWrapper<int64_t>>(
          longs.back().data(), shape));
      break;
    case DataType::UINT32:
      uints.emplace_back(v.begin(), v.end());
      arrays.push_back(std::make_unique<NDArrayWrapper<uint32_t>>(
          uints.back().data(), shape));
      break;
    default:
      floats.emplace_back(v.begin(), v.end());
      arrays.push_back(
          std::make_unique<NDArrayWrapper<float>>(floats.back().data(), shape));
    }
    return *arrays.back();
  }
  std::vector<double> read(std::size_t i, DataType type) {
    IArray &a = *arrays[i];
    std::vector<double> out(a.nelms());
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (type == DataType::INT32)
        out[k] = static_cast<const int32_t *>(a.data())[k];
      else if (type == DataType::UINT32)
        out[k] = static_cast<const uint32_t *>(a.data())[k];
      else if (type == DataType::INT64)
        out[k] = static_cast<double>(static_cast<const int64_t *>(a.data())[k]);
      else
        out[k] = static_cast<const float *>(a.data())[k];
    }
    return out;
  }
};

// A model's inputs (id, info, values) and the outputs to read.
struct Model {
  std::unique_ptr<Builder> builder = Builder::create();
  std::vector<std::pair<TensorId, TensorInfo>> inputs;
  AiGraphcoreOpset1 gc() { return builder->aiGraphcoreOpset1(); }
  AiOnnxOpset11 onnx() { return builder->aiOnnxOpset11(); }
  /// A FLOAT constant (not differentiated).
  TensorId constant(const std::vector<float> &v) {
    return onnx().constant(ConstVoidData(
        v.data(), TensorInfo(DataType::FLOAT, Shape{int64_t(v.size())})));
  }
  TensorId input(DataType type, Shape shape) {
    TensorInfo info(type, shape);
    TensorId id = builder->addInputTensor(info);
    inputs.push_back({id, info});
    return id;
  }
};

// Runs the model once: in inference, or in training with the loss
// sum(y * r) over outputs[0] when `r` is given (then the gradients of the
// FLOAT inputs are read as getGradId(input)).
inline Values run(Model &m, const std::vector<TensorId> &outputs,
           const std::map<TensorId, std::vector<double>> &feed,
           const std::vector<double> *r = nullptr) {
  Builder &b = *m.builder;
  std::vector<std::pair<TensorId, DataType>> anchors;
  for (const auto &o : outputs)
    anchors.push_back({o, b.getTensorDataType(o)});
  std::unique_ptr<Session> session;
  TensorId rId;
  if (r) {
    const Shape yShape = b.getTensorShape(outputs[0]);
    rId = m.input(DataType::FLOAT, yShape);
    const TensorId prod = m.onnx().mul({outputs[0], rId});
    const TensorId loss = m.gc().identityloss({prod}, ReductionType::Sum);
    for (const auto &in : m.inputs)
      if (in.second.dataType() == DataType::FLOAT && in.first != rId)
        anchors.push_back({getGradId(in.first), DataType::FLOAT});
    AnchorReturnTypeMap art;
    for (const auto &a : anchors)
      art[a.first] = AnchorReturnType("All");
    session = TrainingSession::createFromOnnxModel(
        b.getModelProto(), DataFlow(1, art), loss, ConstSGD(0.0f),
        popart_test::createTestDevice());
  } else {
    for (const auto &o : outputs)
      b.addOutputTensor(o);
    AnchorReturnTypeMap art;
    for (const auto &a : anchors)
      art[a.first] = AnchorReturnType("All");
    session = InferenceSession::createFromOnnxModel(
        b.getModelProto(), DataFlow(1, art), popart_test::createTestDevice());
  }
  session->prepareDevice();
  session->weightsFromHost();
  Buffers buffers;
  std::map<TensorId, IArray &> ins, outs;
  for (const auto &in : m.inputs) {
    const std::vector<double> &v = in.first == rId ? *r : feed.at(in.first);
    ins.emplace(in.first, buffers.make(in.second, v));
  }
  std::vector<std::size_t> outIndex;
  for (const auto &a : anchors) {
    const TensorInfo info(a.second, session->getInfo(a.first).shape());
    outIndex.push_back(buffers.arrays.size());
    outs.emplace(a.first,
                 buffers.make(info, std::vector<double>(info.nelms(), 0.0)));
  }
  StepIO io(ins, outs);
  session->run(io);
  Values result;
  for (std::size_t i = 0; i < anchors.size(); ++i)
    result.byId[anchors[i].first] =
        buffers.read(outIndex[i], anchors[i].second);
  return result;
}

inline void requireClose(const std::vector<double> &got,
                  const std::vector<double> &want, double tol = 1e-5) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": " << got[i] << " vs " << want[i]);
    REQUIRE(std::abs(got[i] - want[i]) <= tol * (1.0 + std::abs(want[i])));
  }
}

// The session of a model whose op is bad: the popart::error it gives.
inline std::string errorOf(Model &m, const TensorId &out) {
  try {
    std::map<TensorId, std::vector<double>> feed;
    for (const auto &in : m.inputs)
      feed[in.first] = std::vector<double>(in.second.nelms(), 1.0);
    run(m, {out}, feed);
  } catch (const popart::error &e) {
    return e.what();
  }
  return "no error";
}

// Row-major index helpers.
inline int64_t flat(const Shape &s, const std::vector<int64_t> &i) {
  int64_t f = 0;
  for (std::size_t d = 0; d < s.size(); ++d)
    f = f * s[d] + i[d];
  return f;
}
inline std::vector<int64_t> unflat(const Shape &s, int64_t f) {
  std::vector<int64_t> i(s.size());
  for (std::size_t d = s.size(); d-- > 0;) {
    i[d] = f % s[d];
    f /= s[d];
  }
  return i;
}

inline std::vector<double> ramp(int64_t n, double start = 0.0, double step = 1.0) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = start + step * static_cast<double>(i);
  return v;
}

} // namespace gcops

#endif

// Models exported by PyTorch (tests/scripts/export_models.py, run by CTest
// before this test): an MLP and a small transformer encoder (embedding
// gather, attention, layer norm, GELU), at opsets 11 to 14, run through an
// InferenceSession and compared with PyTorch's outputs.
#include "PopartTestDevice.hpp"

#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace popart;

namespace {

struct ExportedModel {
  std::string name, output;
  std::vector<std::string> inputs; // name:dtype:dims
  std::size_t outputElements = 0;
};

std::vector<ExportedModel> readManifest() {
  std::ifstream in(std::string(POPART_EXPORTED_MODELS) + "/manifest.txt");
  REQUIRE(in.good());
  std::vector<ExportedModel> models;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    ExportedModel m;
    int n;
    fields >> m.name >> m.output >> n;
    for (int i = 0; i < n; ++i) {
      std::string spec;
      fields >> spec;
      m.inputs.push_back(spec);
    }
    fields >> m.outputElements;
    models.push_back(m);
  }
  return models;
}

template <typename T> std::vector<T> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

Shape parseDims(const std::string &dims) {
  Shape s;
  std::stringstream in(dims);
  std::string d;
  while (std::getline(in, d, ','))
    s.push_back(std::stoll(d));
  return s;
}

} // namespace

TEST_CASE("PyTorch exports match PyTorch's outputs", "[popart][onnx]") {
  const std::string dir = POPART_EXPORTED_MODELS;
  for (const auto &m : readManifest()) {
    DYNAMIC_SECTION(m.name) {
      auto session = InferenceSession::createFromOnnxModel(
          dir + "/" + m.name + ".onnx",
          DataFlow(1, {{m.output, AnchorReturnType("ALL")}}),
          popart_test::createTestDevice());
      session->prepareDevice();
      session->weightsFromHost();

      std::vector<std::vector<float>> floatInputs;
      std::vector<std::vector<int64_t>> intInputs;
      std::vector<std::unique_ptr<IArray>> arrays;
      std::map<TensorId, IArray &> ins;
      for (std::size_t i = 0; i < m.inputs.size(); ++i) {
        std::stringstream spec(m.inputs[i]);
        std::string id, dtype, dims;
        std::getline(spec, id, ':');
        std::getline(spec, dtype, ':');
        std::getline(spec, dims, ':');
        const std::string file = dir + "/" + m.name + ".input" + std::to_string(i) + ".bin";
        if (dtype == "float32") {
          floatInputs.push_back(readFile<float>(file));
          arrays.push_back(std::make_unique<NDArrayWrapper<float>>(
              floatInputs.back().data(), parseDims(dims)));
        } else {
          REQUIRE(dtype == "int64");
          intInputs.push_back(readFile<int64_t>(file));
          arrays.push_back(std::make_unique<NDArrayWrapper<int64_t>>(
              intInputs.back().data(), parseDims(dims)));
        }
        ins.emplace(id, *arrays.back());
      }
      std::vector<float> result(m.outputElements);
      NDArrayWrapper<float> out(result.data(), {int64_t(result.size())});
      std::map<TensorId, IArray &> outs = {{m.output, out}};
      StepIO stepio(ins, outs);
      session->run(stepio);

      const auto reference = readFile<float>(dir + "/" + m.name + ".output.bin");
      REQUIRE(reference.size() == result.size());
      double maxRel = 0.0;
      for (std::size_t i = 0; i < result.size(); ++i) {
        const double scale = std::max(1.0, std::fabs(double(reference[i])));
        maxRel = std::max(maxRel, std::fabs(double(result[i]) - reference[i]) / scale);
      }
      INFO("largest relative error " << maxRel);
      REQUIRE(maxRel < 1e-4);
    }
  }
}

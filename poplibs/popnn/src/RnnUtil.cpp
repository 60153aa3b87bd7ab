#include "RnnUtil.hpp"

#include "TileWork.hpp"

#include <popnn/NonLinearityDefUtil.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;

namespace popnn {
namespace detail {

void checkRnnParams(const std::string &opName, const Type &dataType,
                    std::size_t batchSize, std::size_t timeSteps,
                    const std::vector<std::size_t> &layerSizes,
                    const std::vector<NonLinearityType> &activations) {
  auto fail = [&](const std::string &why) {
    throw poputil::poplibs_error(opName + ": " + why);
  };
  if (layerSizes.size() != 2)
    fail("layerSizes must be {inputSize, outputSize} (one layer)");
  if (dataType != FLOAT && dataType != HALF)
    fail("the data type must be FLOAT or HALF");
  if (timeSteps == 0 || batchSize == 0 || layerSizes[0] == 0 ||
      layerSizes[1] == 0)
    fail("timeSteps, batchSize and the layer sizes must be positive");
  for (auto nl : activations)
    if (nl != NonLinearityType::SIGMOID && nl != NonLinearityType::TANH &&
        nl != NonLinearityType::RELU)
      fail(std::string("unsupported activation ") + asString(nl) +
           " (SIGMOID, TANH or RELU)");
}

void checkRnnTensor(const Tensor &t, const std::vector<std::size_t> &shape,
                    const Type &type, const std::string &what,
                    const std::string &opName) {
  if (t.shape() == shape && t.elementType() == type)
    return;
  std::string s = "[";
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  throw poputil::poplibs_error(opName + ": " + what + " " + describe(t) +
                               " of type " + t.elementType().toString().str() +
                               " must have shape " + s + "] and type " +
                               type.toString().str());
}

std::vector<std::size_t> rnnOutputShape(bool fullSequence, std::size_t timeSteps,
                                        std::size_t batchSize,
                                        std::size_t outputSize) {
  if (fullSequence)
    return {timeSteps, batchSize, outputSize};
  return {batchSize, outputSize};
}

void checkInputGradRequest(bool given, bool calcInputGradients,
                           const std::string &opName) {
  if (given != calcInputGradients)
    throw poputil::poplibs_error(
        opName + ": inputGrad must be given if and only if "
                 "params.calcInputGradients (which is " +
        (calcInputGradients ? "true)" : "false)"));
}

Tensor rnnVariable(Graph &graph, const Type &type, std::vector<std::size_t> shape,
                   const DebugContext &dc) {
  Tensor t = graph.addVariable(type, shape, dc);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor unitsSideBySide(const Tensor &w) {
  return w.dimShuffle({1, 0, 2}).reshape({w.dim(1), w.dim(0) * w.dim(2)});
}

Tensor unitsFirst(const Tensor &w, std::size_t units) {
  return w.reshape({w.dim(0), units, w.dim(1) / units}).dimShuffle({1, 0, 2});
}

} // namespace detail
} // namespace popnn

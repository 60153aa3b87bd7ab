#include "ops/RandomOps.hpp"

#include <popart/error.hpp>
#include <popart/onnxoperators.gen.hpp>
#include <popart/opserialiser.hpp>
#include <popart/tensorinfo.hpp>

#include <cstring>
#include <functional>

namespace popart {

namespace {

// The output types of RandomUniform, RandomNormal and their Like forms
// (ONNX's T), and Bernoulli's input types.
bool isRandomFloatType(DataType t) {
  return t == DataType::FLOAT16 || t == DataType::FLOAT ||
         t == DataType::DOUBLE;
}

DataType dtypeAttribute(const Attributes &a, const std::string &opName,
                        const char *opType) {
  const int64_t onnxType = a.getInt("dtype");
  try {
    return onnxToPopartType(static_cast<int>(onnxType));
  } catch (const error &) {
    throw error("{} '{}': the dtype {} is not an ONNX data type", opType,
                opName, onnxType);
  }
}

} // namespace

RandomSeedChoice RandomSeedChoice::of(const Attributes &a,
                                      const std::string &opName,
                                      bool integerSeed) {
  RandomSeedChoice c;
  c.modifier = static_cast<uint32_t>(std::hash<std::string>()(opName));
  if (!a.has("seed"))
    return c;
  c.fromAttribute = true;
  if (integerSeed) {
    const int64_t seed = a.getInt("seed");
    const auto bits = static_cast<uint64_t>(seed);
    c.attribute = static_cast<double>(seed);
    c.words[0] = static_cast<uint32_t>(bits);
    c.words[1] = static_cast<uint32_t>(bits >> 32);
  } else {
    const float seed = a.getFloat("seed");
    c.attribute = seed;
    std::memcpy(&c.words[0], &seed, sizeof seed);
  }
  return c;
}

// ---------------------------------------------------------------------------
// RandomUniform, RandomNormal and their Like forms.

RandomOp::RandomOp(const OperatorIdentifier &id, const Op::Settings &settings,
                   const Attributes &a)
    : Op(id, settings), seed(RandomSeedChoice::of(a, settings.name)) {
  like = id.type == "RandomUniformLike" || id.type == "RandomNormalLike";
  if (id.type == "RandomUniform" || id.type == "RandomUniformLike") {
    distribution = Distribution::Uniform;
    first = a.getFloat("low", 0.0f);
    second = a.getFloat("high", 1.0f);
  } else {
    distribution = Distribution::Normal;
    first = a.getFloat("mean", 0.0f);
    second = a.getFloat("scale", 1.0f);
  }
  if (a.has("dtype"))
    dtype = dtypeAttribute(a, settings.name, id.type.c_str());
  if (!like) {
    if (!a.has("shape"))
      throw error("{} '{}': the attribute shape is missing", id.type,
                  settings.name);
    shape = a.getInts("shape");
  }
}

void RandomOp::setup() {
  DataType type = dtype;
  if (type == DataType::UNDEFINED)
    type = like ? inInfo(0).dataType() : DataType::FLOAT;
  if (!isRandomFloatType(type))
    throw error("{}: the output type {} is not supported (FLOAT16, FLOAT or "
                "DOUBLE){}",
                str(), type,
                like && dtype == DataType::UNDEFINED
                    ? " (the input's, as no dtype is given)"
                    : "");
  if (like) {
    shape = inShape(0);
  } else {
    for (int64_t d : shape)
      if (d < 0)
        throw error("{}: the shape {} has a negative dimension", str(), shape);
  }
  if (distribution == Distribution::Uniform && second < first)
    throw error("{}: high ({}) is below low ({})", str(), second, first);
  if (distribution == Distribution::Normal && second < 0.0f)
    throw error("{}: the scale {} is negative", str(), second);
  outInfo(0) = TensorInfo(type, shape);
}

std::unique_ptr<RandomOp> RandomOp::shapedForm() const {
  auto shaped = std::make_unique<RandomOp>(*this);
  shaped->opid = distribution == Distribution::Uniform
                     ? Onnx::Operators::RandomUniform_1
                     : Onnx::Operators::RandomNormal_1;
  shaped->like = false;
  shaped->shape = outShape(0);
  shaped->dtype = outInfo(0).dataType();
  return shaped;
}

void RandomOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  const bool uniform = distribution == Distribution::Uniform;
  os.appendAttribute(uniform ? "low" : "mean", first);
  os.appendAttribute(uniform ? "high" : "scale", second);
  if (seed.fromAttribute)
    os.appendAttribute("seed", seed.attribute);
}

// ---------------------------------------------------------------------------
// Bernoulli.

BernoulliOp::BernoulliOp(const OperatorIdentifier &id,
                         const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), seed(RandomSeedChoice::of(a, settings.name)) {
  if (a.has("dtype"))
    dtype = dtypeAttribute(a, settings.name, "Bernoulli");
}

void BernoulliOp::setup() {
  if (!isRandomFloatType(inInfo(0).dataType()))
    throw error("{}: the probabilities '{}' are {}; FLOAT16, FLOAT or DOUBLE "
                "are supported",
                str(), inTensor(0)->id, inInfo(0).dataType());
  const DataType type =
      dtype == DataType::UNDEFINED ? inInfo(0).dataType() : dtype;
  if (type == DataType::STRING || type == DataType::COMPLEX64 ||
      type == DataType::COMPLEX128 || type == DataType::UNDEFINED)
    throw error("{}: the output type {} is not supported", str(), type);
  outInfo(0) = TensorInfo(type, inShape(0));
}

// ---------------------------------------------------------------------------
// Multinomial.

MultinomialOp::MultinomialOp(const OperatorIdentifier &id,
                             const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), sampleSize(a.getInt("sample_size", 1)),
      seed(RandomSeedChoice::of(a, settings.name)), dtype(DataType::INT32) {
  if (a.has("dtype"))
    dtype = dtypeAttribute(a, settings.name, "Multinomial");
  if (dtype != DataType::INT32 && dtype != DataType::INT64)
    throw error("Multinomial '{}': the dtype {} is not supported (INT32 or "
                "INT64)",
                settings.name, dtype);
  if (sampleSize <= 0)
    throw error("Multinomial '{}': the sample_size {} is not positive",
                settings.name, sampleSize);
}

void MultinomialOp::setup() {
  if (inRank(0) != 2)
    throw error("{}: the input '{}' has shape {}; [batch_size, class_size] "
                "is needed",
                str(), inTensor(0)->id, inShape(0));
  if (!isRandomFloatType(inInfo(0).dataType()))
    throw error("{}: the input '{}' is {}; FLOAT16, FLOAT or DOUBLE are "
                "supported",
                str(), inTensor(0)->id, inInfo(0).dataType());
  if (inShape(0)[1] == 0)
    throw error("{}: the input '{}' has no classes", str(), inTensor(0)->id);
  outInfo(0) = TensorInfo(dtype, {inShape(0)[0], sampleSize});
}

void MultinomialOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("sample_size", sampleSize);
  if (seed.fromAttribute)
    os.appendAttribute("seed", seed.attribute);
}

} // namespace popart

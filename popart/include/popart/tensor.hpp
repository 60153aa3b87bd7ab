// A tensor of the IR: its id and info, its kind, the host data of
// constants and variables, and the op producing it and those consuming it.
#ifndef POPART_TENSOR_HPP
#define POPART_TENSOR_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>
#include <popart/tensorinfo.hpp>

#include <string>
#include <vector>

namespace popart {

class Op;

/// ActGrad: computed by an op; Const: data fixed when compiled; Stream:
/// read from the host every batch; Variable: weights and optimiser state,
/// kept on the device between steps.
enum class TensorType { ActGrad = 0, Const, Stream, Unknown, Variable, N };

POPART_API const char *tensorTypeName(TensorType t);

/// What a Variable holds: a model weight (trained), the state of an
/// optimiser or an accumulator, or an optimiser's hyper-parameter
/// (written by the optimiser-from-host program).
enum class VariableKind { Weight = 0, OptimizerState, HyperParameter };

class POPART_API Tensor {
public:
  Tensor() = default;
  Tensor(const TensorId &id, const TensorInfo &info, TensorType type)
      : id(id), info(info), type(type) {}

  TensorId id;
  TensorInfo info;
  TensorType type = TensorType::ActGrad;
  VariableKind variableKind = VariableKind::Weight;
  /// Host data of Const and Variable tensors.
  std::vector<char> data;
  Op *producer = nullptr;
  std::vector<Op *> consumers;

  TensorType tensorType() const { return type; }
  std::string tensor_type() const { return tensorTypeName(type); }
  bool hasProducer() const { return producer != nullptr; }
  /// popart::error naming the tensor if no op produces it.
  Op *getProducer() const;
  Op *getProducerUnsafe() const { return producer; }
  const std::vector<Op *> &getConsumers() const { return consumers; }
  bool hasTensorData() const { return !data.empty(); }
  std::string str() const { return id; }
};

} // namespace popart

#endif

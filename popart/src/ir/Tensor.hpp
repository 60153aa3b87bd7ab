// A tensor of the IR: its info, kind, host data (constants and variables),
// the op producing it and the ops consuming it.
#ifndef POPART_SRC_IR_TENSOR_HPP
#define POPART_SRC_IR_TENSOR_HPP

#include <popart/names.hpp>
#include <popart/tensorinfo.hpp>

#include <vector>

namespace popart {

class Op;

/// ActGrad: computed by an op; Const: data fixed when compiled; Stream:
/// read from the host every batch; Variable: weights copied from the host.
enum class TensorType { ActGrad = 0, Const, Stream, Unknown, Variable };

const char *tensorTypeName(TensorType t);

struct Tensor {
  TensorId id;
  TensorInfo info;
  TensorType type = TensorType::ActGrad;
  std::vector<char> data; // Const and Variable tensors
  Op *producer = nullptr;
  std::vector<Op *> consumers;
};

} // namespace popart

#endif

// The lowering of a custom op: an Opx grows the poplar program of one op
// from the poplar tensors of its inputs, and sets the tensors of its
// outputs. Register it for the op's identity with a static OpxCreator
// (popart/popx/opxmanager.hpp).
#ifndef POPART_POPX_OPX_HPP
#define POPART_POPX_OPX_HPP

#include <popart/error.hpp>
#include <popart/names.hpp>
#include <popart/op.hpp>
#include <popart/operatoridentifier.hpp>
#include <popart/popart_export.hpp>
#include <popart/tensorinfo.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace popart {
namespace popx {

/// The session's lowering of the IR (opaque to custom ops).
class Devicex;

class POPART_API Opx {
public:
  Opx(Op *op, Devicex *devicex);
  virtual ~Opx();

  /// Adds the op's program to prog.
  virtual void grow(poplar::program::Sequence &prog) const = 0;

  poplar::Graph &graph() const;
  const Devicex *getDevicex() const { return dv_p; }

  bool hasInput(InIndex index) const;
  bool hasOutput(OutIndex index) const;
  Tensor *inTensor(InIndex index) const;
  Tensor *outTensor(OutIndex index) const;
  TensorId inId(InIndex index) const;
  TensorId outId(OutIndex index) const;
  const TensorInfo &inInfo(InIndex index) const;
  const Shape &inShape(InIndex index) const;
  const std::vector<std::size_t> inShapeSzt(InIndex index) const;
  const TensorInfo &outInfo(OutIndex index) const;
  const Shape &outShape(OutIndex index) const;

  /// The poplar tensor of input `index`.
  const poplar::Tensor &getInTensor(InIndex index) const;
  /// The poplar tensor of output `index`, once set.
  const poplar::Tensor &getOutTensor(OutIndex index) const;
  /// Makes `tensor` the poplar tensor of output `index`; its shape and
  /// type must be the output's (popart::error naming the op otherwise).
  void setOutTensor(OutIndex index, const poplar::Tensor &tensor) const;
  /// The poplar tensor of any IR tensor lowered before this op.
  const poplar::Tensor &get(const TensorId &id) const;

  /// A copy of `tensor` in a new tensor mapped as it is.
  poplar::Tensor cloneNcopy(poplar::program::Sequence &prog,
                            const poplar::Tensor &tensor,
                            const std::string name = "") const;
  poplar::Tensor cloneNcopy(poplar::program::Sequence &prog,
                            const TensorId &id) const;
  /// A constant of `shape` filled with `val`.
  poplar::Tensor getConst(const poplar::Type &type,
                          const std::vector<std::size_t> &shape, double val,
                          const std::string &name) const;
  poplar::Tensor getScalarVariable(const poplar::Type &type,
                                   const std::string &name) const;
  poplar::Tensor getZerosTensor(std::vector<std::size_t> shape,
                                poplar::Type type, std::string name) const;

  /// The op's name, then `name`: the debug context of what the op adds.
  poplar::DebugContext debugContext(const std::string name = "") const;
  poplar::DebugNameAndId getDebugNameAndId(const std::string name = "") const;

  template <class OP> OP &getOp() const {
    OP *d = dynamic_cast<OP *>(op_p);
    if (!d)
      throw error("{} is not of the op class its Opx expects", op_p->str());
    return *d;
  }
  template <class OP> void verifyOp(Op *op, const OperatorIdentifier &opid) {
    if (op->opid.domain != opid.domain || op->opid.type != opid.type)
      throw error("Cannot create the Opx of {} for {}", opid.type, op->str());
  }
  template <class OP>
  void verifyOp(Op *op, std::vector<OperatorIdentifier> opids) {
    for (const auto &opid : opids)
      if (op->opid == opid)
        return;
    std::ostringstream valid;
    for (const auto &opid : opids)
      valid << opid << " ";
    throw error("Cannot create the Opx of {}: it implements {}", op->str(),
                valid.str());
  }
  template <class OP> void verifyOp(Op *op) {
    if (!dynamic_cast<OP *>(op))
      throw error("Cannot create the Opx of {}: wrong op class", op->str());
  }

  Op *op_p;

protected:
  Devicex *dv_p;
};

} // namespace popx
} // namespace popart

#endif

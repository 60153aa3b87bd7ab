#ifndef POPART_SRC_OPS_HOSTIOOP_HPP
#define POPART_SRC_OPS_HOSTIOOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// The host copies of an IR built op by op (popart.ir), in its main graph.
/// HostLoad: output 0 is the data of the host-to-device stream its input
/// 0 is (a Stream tensor, read from the host once per batch). HostStore:
/// output 0 is the device-to-host stream (an anchor of the DataFlow,
/// returned as the anchor's return type says), holding input 0.
class HostIOOp : public Op {
public:
  HostIOOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &attributes);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<HostIOOp>(*this);
  }
  void setup() override;
  bool isLoad() const { return opid.type == "HostLoad"; }
};

/// CopyVarUpdate: input 0 (a tensor updated in place: a variable, or a
/// subgraph input passed by reference) takes the value of input 1; output
/// 0 is input 0 updated.
class CopyVarUpdateOp : public Op {
public:
  CopyVarUpdateOp(const OperatorIdentifier &id, const Op::Settings &settings,
                  const Attributes &attributes);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CopyVarUpdateOp>(*this);
  }
  void setup() override;
  bool modifiesInputInPlace(InIndex i) const override { return i == 0; }
};

} // namespace popart

#endif

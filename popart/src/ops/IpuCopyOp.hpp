// IpuCopy: a tensor copied from the IPU it was made on to another
// (sharding: transforms/VirtualGraphs.cpp inserts them). Input 0 on the
// source IPU, output 0 the same values on the op's virtual graph.
#ifndef POPART_SRC_OPS_IPUCOPYOP_HPP
#define POPART_SRC_OPS_IPUCOPYOP_HPP

#include <popart/op.hpp>

#include <memory>

namespace popart {

class IpuCopyOp : public Op {
public:
  IpuCopyOp(const Op::Settings &settings, VGraphId sourceIpu);
  void setup() override { outInfo(0) = inInfo(0); }
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<IpuCopyOp>(*this);
  }
  VGraphId getSourceIpu() const { return sourceIpu; }
  VGraphId getDestIpu() const { return getVirtualGraphId(); }

private:
  VGraphId sourceIpu;
};

} // namespace popart

#endif

// The common part of the built-in grad ops: where each input comes from
// (gradInputInfo), which forward input each output is the gradient of
// (gradOutToNonGradIn), and the forward op's tensor infos, which give the
// outputs theirs.
#ifndef POPART_SRC_OPS_GRADOP_HPP
#define POPART_SRC_OPS_GRADOP_HPP

#include <popart/op.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popart {

class GradOp : public Op {
public:
  /// A grad op of `fwd` named <type>Grad (or `gradType`) in ai.graphcore.
  GradOp(const Op &fwd, const std::string &gradType,
         std::vector<GradInOutMapper> inInfo, std::map<int, int> outToIn);

  const std::vector<GradInOutMapper> &gradInputInfo() const override {
    return inInfo;
  }
  const std::map<int, int> &gradOutToNonGradIn() const override {
    return outToIn;
  }
  /// Each output takes the info of the forward input it is the gradient of.
  void setup() override;

  const TensorInfo &fwdInInfo(InIndex i) const { return fwdInInfos.at(i); }
  const TensorInfo &fwdOutInfo(OutIndex i) const { return fwdOutInfos.at(i); }
  const Shape &fwdInShape(InIndex i) const { return fwdInInfos.at(i).shape(); }

private:
  std::vector<GradInOutMapper> inInfo;
  std::map<int, int> outToIn;
  std::vector<TensorInfo> fwdInInfos, fwdOutInfos;
};

/// The grad op T made from the forward op: T(fwd) in a vector, the usual
/// result of getGradOps.
template <typename T, typename Fwd>
std::vector<std::unique_ptr<Op>> gradOps(const Fwd &fwd) {
  std::vector<std::unique_ptr<Op>> ops;
  ops.push_back(std::make_unique<T>(fwd));
  return ops;
}

} // namespace popart

#endif

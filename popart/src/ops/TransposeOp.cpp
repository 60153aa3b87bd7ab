#include "ops/TransposeOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

TransposeOp::TransposeOp(const OperatorIdentifier &id, const Op::Settings &settings,
                         const Attributes &a)
    : Op(id, settings), perm(a.getInts("perm", {})) {}

void TransposeOp::setup() {
  const Shape in = inShape(0);
  if (perm.empty())
    for (std::size_t i = in.size(); i-- > 0;)
      perm.push_back(static_cast<int64_t>(i));
  if (perm.size() != in.size())
    throw error("{}: perm has {} entries for an input of rank {}", str(),
                perm.size(), in.size());
  Shape out;
  for (auto p : perm)
    out.push_back(in.at(normaliseAxis(p, in.size(), *this)));
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}


std::vector<std::unique_ptr<Op>> TransposeOp::getGradOps() {
  return gradOps<TransposeGradOp>(*this);
}

} // namespace popart

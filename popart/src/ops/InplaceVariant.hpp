// What the in-place variants of the built-in element-wise ops share: an op
// of the same class that writes its output into one of its inputs. The
// variants are named as the original's (ReluInplace, AddLhsInplace,
// AddRhsInplace, ScaleInplace) in ai.graphcore; the InPlace pattern
// (transforms/InPlace.cpp) decides where one may be used.
#ifndef POPART_SRC_OPS_INPLACEVARIANT_HPP
#define POPART_SRC_OPS_INPLACEVARIANT_HPP

#include <popart/op.hpp>
#include <popart/opserialiser.hpp>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace popart {

/// A variant writing into input `input`, named <type><suffix>.
struct InplaceForm {
  std::string suffix;
  InIndex input;
  float priority;
};

/// The variants among `forms` whose input has the output's type and shape
/// (so that the output fits in it).
std::vector<std::tuple<OperatorIdentifier, float>>
inplaceVariantIds(const Op &op, const std::vector<InplaceForm> &forms);

/// The input the variant `id` of `op` writes into (popart::error if `id` is
/// not one of `forms`).
InIndex inplaceVariantInput(const Op &op, const OperatorIdentifier &id,
                            const std::vector<InplaceForm> &forms);

/// The base of an op class `Derived` with in-place variants: `Derived`
/// gives its forms (static inplaceForms()) and may hide
/// canRunInPlace() to rule them out; the variant is a copy of the op with
/// `inplaceInput` set, which its lowering reads.
template <typename Derived> class InplaceCapableOp : public Op {
public:
  using Op::Op;
  std::vector<std::tuple<OperatorIdentifier, float>>
  inplacePriorityDefault() const override {
    const auto &self = static_cast<const Derived &>(*this);
    if (!self.canRunInPlace())
      return {};
    return inplaceVariantIds(*this, Derived::inplaceForms());
  }
  std::unique_ptr<Op>
  getInplaceVariant(const OperatorIdentifier &id) const override {
    auto variant = std::make_unique<Derived>(static_cast<const Derived &>(*this));
    variant->inplaceInput = inplaceVariantInput(*this, id, Derived::inplaceForms());
    return variant;
  }
  bool modifiesInputInPlace(InIndex i) const override { return i == inplaceInput; }
  void appendAttributes(OpSerialiserBase &os) const override {
    Op::appendAttributes(os);
    if (inplaceInput >= 0)
      os.appendAttribute("inplace", static_cast<int64_t>(inplaceInput));
  }
  bool canRunInPlace() const { return true; }

  /// The input the op writes its output into, or -1.
  InIndex inplaceInput = -1;
};

} // namespace popart

#endif

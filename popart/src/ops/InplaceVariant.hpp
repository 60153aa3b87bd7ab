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

/// A variant of `op` writing into input `input`, named <type><suffix>.
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

/// The variant `id` of an op of class T: a copy writing into its input.
template <typename T>
std::unique_ptr<Op> makeInplaceVariant(const T &op, const OperatorIdentifier &id,
                                       const std::vector<InplaceForm> &forms) {
  auto variant = std::make_unique<T>(op);
  variant->inplaceInput = inplaceVariantInput(op, id, forms);
  return variant;
}

/// Records the written input in the op's serialised attributes.
inline void appendInplaceAttribute(OpSerialiserBase &os, InIndex input) {
  if (input >= 0)
    os.appendAttribute("inplace", static_cast<int64_t>(input));
}

} // namespace popart

#endif

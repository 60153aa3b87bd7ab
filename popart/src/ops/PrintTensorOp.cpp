#include "ops/PrintTensorOp.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>
#include <popart/tensornames.hpp>

namespace popart {
namespace {

unsigned nonNegative(const Attributes &a, const char *name, int64_t def,
                     const std::string &op) {
  const int64_t v = a.getInt(name, def);
  if (v < 0 || v > 0xffffffffll)
    throw error("{}: the attribute {} is {}, not a count", op, name, v);
  return static_cast<unsigned>(v);
}

char character(const Attributes &a, const char *name, char def,
               const std::string &op) {
  const int64_t v = a.getInt(name, def);
  if (v < 1 || v > 127)
    throw error("{}: the attribute {} is {}, not a printable character", op,
                name, v);
  return static_cast<char>(v);
}

} // namespace

PrintTensorOp::PrintTensorOp(const OperatorIdentifier &id,
                             const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), printGradient(a.getInt("print_gradient", 1) != 0),
      title(a.getString("title", "")) {
  const std::string op = "PrintTensor '" + settings.name + "'";
  const int64_t floatFormat = a.getInt("floatFormat", 0);
  if (floatFormat < 0 || floatFormat > 3)
    throw error("{}: floatFormat is {}, not 0 (auto), 1 (fixed), 2 "
                "(scientific) or 3 (none)",
                op, floatFormat);
  format = poplar::PrintTensorFmt(
      nonNegative(a, "summariseThreshold", 1000, op),
      nonNegative(a, "edgeItems", 3, op), nonNegative(a, "maxLineWidth", 75, op),
      nonNegative(a, "digits", 8, op),
      static_cast<poplar::PrintTensorFmt::FloatFormat>(floatFormat),
      character(a, "separator", ' ', op), character(a, "openBracket", '[', op),
      character(a, "closeBracket", ']', op));
}

std::vector<std::unique_ptr<Op>> PrintTensorOp::getGradOps() {
  return gradOps<PrintTensorGradOp>(*this);
}

void PrintTensorOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("printGradient", printGradient);
  os.appendAttribute("title", title);
}

PrintTensorGradOp::PrintTensorGradOp(const PrintTensorOp &fwd)
    : GradOp(fwd, "PrintTensorGrad", {{0, 0, GradOpInType::GradOut}},
             {{0, 0}}),
      print(fwd.printGradient),
      title(fwd.title.empty() ? reservedGradientPrefix() + fwd.inId(0)
                              : fwd.title + "_gradient"),
      format(fwd.format) {}

} // namespace popart

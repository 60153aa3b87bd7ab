// A custom op for PopART: a leaky ReLU, y = x for x >= 0 and alpha * x
// otherwise, with its gradient, built into a shared library that a
// program loads before it builds its model. It shows the four parts of a
// custom op: the op (its shape inference and grad op), the grad op (where
// its inputs come from and which input its output is the gradient of),
// and a lowering (Opx) for each, registered by identity.
#include <popart/attributes.hpp>
#include <popart/op.hpp>
#include <popart/opmanager.hpp>
#include <popart/opserialiser.hpp>
#include <popart/popx/opx.hpp>
#include <popart/popx/opxmanager.hpp>

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include <map>
#include <memory>
#include <vector>

namespace {

const popart::OperatorIdentifier leakyReluId = {"custom.ops", "LeakyRelu", 1};
const popart::OperatorIdentifier leakyReluGradId = {"custom.ops",
                                                    "LeakyReluGrad", 1};

class LeakyReluOp;

class LeakyReluGradOp : public popart::Op {
public:
  LeakyReluGradOp(const popart::Op &fwd, float alpha)
      : popart::Op(leakyReluGradId, fwd.settings), alpha(alpha) {}

  std::unique_ptr<popart::Op> clone() const override {
    return std::unique_ptr<popart::Op>(new LeakyReluGradOp(*this));
  }
  // The gradient has the shape and type of the forward input.
  void setup() override { outInfo(0) = inInfo(1); }

  // Input 0: the gradient of the forward output 0; input 1: the forward
  // input 0.
  const std::vector<popart::GradInOutMapper> &gradInputInfo() const override {
    static const std::vector<popart::GradInOutMapper> info = {
        {0, 0, popart::GradOpInType::GradOut},
        {1, 0, popart::GradOpInType::In}};
    return info;
  }
  // Output 0 is the gradient of the forward input 0.
  const std::map<int, int> &gradOutToNonGradIn() const override {
    static const std::map<int, int> outputs = {{0, 0}};
    return outputs;
  }
  void appendAttributes(popart::OpSerialiserBase &os) const override {
    popart::Op::appendAttributes(os);
    os.appendAttribute("alpha", alpha);
  }

  float alpha;
};

class LeakyReluOp : public popart::Op {
public:
  LeakyReluOp(const popart::OperatorIdentifier &opid, float alpha,
              const popart::Op::Settings &settings)
      : popart::Op(opid, settings), alpha(alpha) {}

  std::unique_ptr<popart::Op> clone() const override {
    return std::unique_ptr<popart::Op>(new LeakyReluOp(*this));
  }
  void setup() override { outInfo(0) = inInfo(0); }

  std::vector<std::unique_ptr<popart::Op>> getGradOps() override {
    std::vector<std::unique_ptr<popart::Op>> ops;
    ops.emplace_back(new LeakyReluGradOp(*this, alpha));
    return ops;
  }
  void appendAttributes(popart::OpSerialiserBase &os) const override {
    popart::Op::appendAttributes(os);
    os.appendAttribute("alpha", alpha);
  }

  float alpha;
};

// The op's definition and its factory: alpha is an attribute, 0.01 unless
// given.
const popart::OpDefinition::DataTypes floatTypes = {popart::DataType::FLOAT16,
                                                    popart::DataType::FLOAT};
popart::OpCreator<LeakyReluOp> leakyReluCreator(
    popart::OpDefinitions(
        {{leakyReluId,
          popart::OpDefinition({{"input", floatTypes}}, {{"output", floatTypes}},
                               {{"alpha", {"*"}}})}}),
    [](const popart::OpCreatorInfo &info) -> std::unique_ptr<popart::Op> {
      const float alpha = info.attributes.getAttribute<popart::Attributes::Float>(
          "alpha", 0.01f);
      return std::unique_ptr<popart::Op>(
          new LeakyReluOp(info.opid, alpha, info.settings));
    },
    true);

namespace pe = popops::expr;

class LeakyReluOpx : public popart::popx::Opx {
public:
  LeakyReluOpx(popart::Op *op, popart::popx::Devicex *devicex)
      : popart::popx::Opx(op, devicex) {
    verifyOp<LeakyReluOp>(op, {leakyReluId});
  }
  void grow(poplar::program::Sequence &prog) const override {
    const float alpha = getOp<LeakyReluOp>().alpha;
    // x >= 0 ? x : alpha * x
    setOutTensor(0, popops::map(graph(),
                                pe::Select(pe::_1, pe::_1 * pe::Const(alpha),
                                           pe::Gte(pe::_1, pe::Const(0.0f))),
                                {getInTensor(0)}, prog,
                                debugContext("LeakyRelu")));
  }
};

class LeakyReluGradOpx : public popart::popx::Opx {
public:
  LeakyReluGradOpx(popart::Op *op, popart::popx::Devicex *devicex)
      : popart::popx::Opx(op, devicex) {
    verifyOp<LeakyReluGradOp>(op, {leakyReluGradId});
  }
  void grow(poplar::program::Sequence &prog) const override {
    const float alpha = getOp<LeakyReluGradOp>().alpha;
    // g * (x >= 0 ? 1 : alpha)
    setOutTensor(
        0, popops::map(graph(),
                       pe::_1 * pe::Select(pe::Const(1.0f), pe::Const(alpha),
                                           pe::Gte(pe::_2, pe::Const(0.0f))),
                       {getInTensor(0), getInTensor(1)}, prog,
                       debugContext("LeakyReluGrad")));
  }
};

popart::popx::OpxCreator<LeakyReluOpx> leakyReluOpxCreator({leakyReluId});
popart::popx::OpxCreator<LeakyReluGradOpx>
    leakyReluGradOpxCreator({leakyReluGradId});

} // namespace

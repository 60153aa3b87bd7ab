// Opx: the lowering of custom ops, over the session's lowering context.
#include "lowering/Devicex.hpp"

#include <popart/error.hpp>
#include <popart/popx/opx.hpp>
#include <popart/popx/opxmanager.hpp>

#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

#include <map>
#include <mutex>

namespace popart {
namespace popx {
namespace {

std::map<OperatorIdentifier, OpxManager::OpxFactoryFunc> &factories() {
  static std::map<OperatorIdentifier, OpxManager::OpxFactoryFunc> f;
  return f;
}

std::mutex &factoriesMutex() {
  static std::mutex m;
  return m;
}

std::vector<std::size_t> sizes(const Shape &s) {
  return std::vector<std::size_t>(s.begin(), s.end());
}

} // namespace

void OpxManager::registerOpx(const OperatorIdentifier &opid,
                             OpxFactoryFunc func) {
  std::lock_guard<std::mutex> lock(factoriesMutex());
  factories()[opid] = std::move(func);
}

bool OpxManager::hasOpx(const OperatorIdentifier &opid) {
  std::lock_guard<std::mutex> lock(factoriesMutex());
  return factories().count(opid) != 0;
}

std::unique_ptr<Opx> OpxManager::createOpx(Op *op, Devicex *devicex) {
  OpxFactoryFunc f;
  {
    std::lock_guard<std::mutex> lock(factoriesMutex());
    auto it = factories().find(op->opid);
    if (it == factories().end())
      return nullptr;
    f = it->second;
  }
  return f(op, devicex);
}

Opx::Opx(Op *op, Devicex *devicex) : op_p(op), dv_p(devicex) {
  if (!op || !devicex)
    throw error("An Opx needs its op and the session's lowering");
}
Opx::~Opx() = default;

poplar::Graph &Opx::graph() const { return dv_p->ctx.graph; }
bool Opx::hasInput(InIndex i) const { return op_p->hasInput(i); }
bool Opx::hasOutput(OutIndex i) const { return op_p->hasOutput(i); }
Tensor *Opx::inTensor(InIndex i) const { return op_p->inTensor(i); }
Tensor *Opx::outTensor(OutIndex i) const { return op_p->outTensor(i); }
TensorId Opx::inId(InIndex i) const { return op_p->inId(i); }
TensorId Opx::outId(OutIndex i) const { return op_p->outId(i); }
const TensorInfo &Opx::inInfo(InIndex i) const { return op_p->inInfo(i); }
const Shape &Opx::inShape(InIndex i) const { return op_p->inShape(i); }
const std::vector<std::size_t> Opx::inShapeSzt(InIndex i) const {
  return sizes(inShape(i));
}
const TensorInfo &Opx::outInfo(OutIndex i) const { return op_p->outInfo(i); }
const Shape &Opx::outShape(OutIndex i) const { return op_p->outShape(i); }

const poplar::Tensor &Opx::getInTensor(InIndex i) const {
  return dv_p->ctx.get(*op_p->inTensor(i));
}

const poplar::Tensor &Opx::getOutTensor(OutIndex i) const {
  const Tensor &t = *op_p->outTensor(i);
  if (!dv_p->ctx.has(t.id))
    throw error("{}: output {} ('{}') has not been set", op_p->str(), i, t.id);
  return dv_p->ctx.get(t);
}

const poplar::Tensor &Opx::get(const TensorId &id) const {
  if (!dv_p->ctx.has(id))
    throw error("{}: tensor '{}' has not been lowered", op_p->str(), id);
  return dv_p->ctx.get(id);
}

void Opx::setOutTensor(OutIndex i, const poplar::Tensor &tensor) const {
  const Tensor &t = *op_p->outTensor(i);
  const auto want = sizes(t.info.shape());
  if (tensor.shape() != want)
    throw error("{}: output {} ('{}') is set with a tensor of {} elements in "
                "{} dimensions, not of the output's shape {}",
                op_p->str(), i, t.id, tensor.numElements(), tensor.rank(),
                t.info.shape());
  if (tensor.elementType() != deviceType(t.info.dataType()))
    throw error("{}: output {} ('{}') is set with a tensor of type {}, not {}",
                op_p->str(), i, t.id, tensor.elementType().toString(),
                t.info.data_type());
  dv_p->ctx.set(t, tensor);
}

poplar::Tensor Opx::cloneNcopy(poplar::program::Sequence &prog,
                               const poplar::Tensor &tensor,
                               const std::string name) const {
  poplar::Tensor copy = graph().clone(tensor, debugContext(name));
  prog.add(poplar::program::Copy(tensor, copy));
  return copy;
}

poplar::Tensor Opx::cloneNcopy(poplar::program::Sequence &prog,
                               const TensorId &id) const {
  return cloneNcopy(prog, get(id), id);
}

poplar::Tensor Opx::getConst(const poplar::Type &type,
                             const std::vector<std::size_t> &shape, double val,
                             const std::string &name) const {
  poplar::Tensor c = graph().addConstant(type, shape, val, debugContext(name));
  poputil::mapTensorLinearly(graph(), c);
  return c;
}

poplar::Tensor Opx::getScalarVariable(const poplar::Type &type,
                                      const std::string &name) const {
  poplar::Tensor v = graph().addVariable(type, {}, debugContext(name));
  graph().setTileMapping(v, 0);
  return v;
}

poplar::Tensor Opx::getZerosTensor(std::vector<std::size_t> shape,
                                   poplar::Type type, std::string name) const {
  return getConst(type, shape, 0.0, name);
}

poplar::DebugContext Opx::debugContext(const std::string name) const {
  return poplar::DebugContext(
      name.empty() ? op_p->name() : op_p->name() + "/" + name);
}

poplar::DebugNameAndId Opx::getDebugNameAndId(const std::string name) const {
  return poplar::DebugNameAndId(
      name.empty() ? op_p->name() : op_p->name() + "/" + name);
}

} // namespace popx

void growWithOpx(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  popx::Devicex devicex(ctx);
  auto opx = popx::OpxManager::createOpx(const_cast<Op *>(&op), &devicex);
  if (!opx)
    throw error("{} has no Opx", op.str());
  opx->grow(prog);
  for (int i = 0; i < op.outTensorCount(); ++i)
    if (op.hasOutput(i) && !ctx.has(op.outId(i)))
      throw error("The Opx of {} did not set output {} ('{}')", op.str(), i,
                  op.outId(i));
}

} // namespace popart

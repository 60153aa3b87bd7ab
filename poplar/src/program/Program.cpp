#include "program/ProgramImpl.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>

namespace poplar::program {
namespace {

using Kind = Program::Impl::Kind;
using CopyKind = Program::Impl::CopyKind;

std::shared_ptr<Program::Impl> node(Kind kind, const DebugContext &dc) {
  auto impl = std::make_shared<Program::Impl>();
  impl->kind = kind;
  impl->debugName = dc.getPathName();
  return impl;
}

std::shared_ptr<Program::Impl> copyNode(CopyKind kind, std::vector<Tensor> tensors,
                                        const DebugContext &dc) {
  auto impl = node(Kind::Copy, dc);
  impl->copyKind = kind;
  impl->tensors = std::move(tensors);
  return impl;
}

} // namespace

const char *Program::Impl::kindName() const {
  switch (kind) {
  case Kind::Empty:
    return "Program";
  case Kind::Sequence:
    return "Sequence";
  case Kind::Execute:
    return "Execute";
  case Kind::Repeat:
    return "Repeat";
  case Kind::RepeatWhile:
    return whileTrue ? "RepeatWhileTrue" : "RepeatWhileFalse";
  case Kind::If:
    return "If";
  case Kind::Switch:
    return "Switch";
  case Kind::Copy:
    return "Copy";
  case Kind::WriteUndef:
    return "WriteUndef";
  case Kind::Sync:
    return "Sync";
  case Kind::CrossReplicaCopy:
    return "CrossReplicaCopy";
  case Kind::CrossReplicaCollective:
    return "CrossReplicaCollective";
  case Kind::Call:
    return "Call";
  case Kind::PrintTensor:
    return "PrintTensor";
  case Kind::Abort:
    return "Abort";
  case Kind::AbortOnCondition:
    return "AbortOnCondition";
  }
  return "Program";
}

Program::Program() : impl(std::make_shared<Impl>()) {}
Program::Program(std::shared_ptr<Impl> i) : impl(std::move(i)) {}

bool Program::isEmpty() const {
  if (impl->kind == Kind::Empty)
    return true;
  if (impl->kind != Kind::Sequence)
    return false;
  return std::all_of(impl->children.begin(), impl->children.end(),
                     [](const Program &p) { return p.isEmpty(); });
}

Program::Impl &Program::mutableImpl() {
  if (impl.use_count() > 1)
    impl = std::make_shared<Impl>(*impl);
  return *impl;
}

bool operator==(const Program &a, const Program &b) {
  return a.getImplPtr() == b.getImplPtr();
}
bool operator!=(const Program &a, const Program &b) { return !(a == b); }

Execute::Execute(ComputeSet cs, const DebugContext &dc)
    : Program(node(Kind::Execute, dc)) {
  impl->computeSet = cs;
}

std::shared_ptr<Program::Impl> Sequence::make(const DebugContext &dc) {
  return node(Kind::Sequence, dc);
}

Sequence::Sequence(const DebugContext &dc) : Program(make(dc)) {}

Sequence::Sequence(std::initializer_list<Program> programs,
                   const DebugContext &dc)
    : Program(make(dc)) {
  impl->children.assign(programs.begin(), programs.end());
}

void Sequence::add(const Program &p) { mutableImpl().children.push_back(p); }

Repeat::Repeat(unsigned count, const Program &prog, const DebugContext &dc)
    : Program(node(Kind::Repeat, dc)) {
  impl->count = count;
  impl->children = {prog};
}

RepeatWhileTrue::RepeatWhileTrue(const Program &cond, Tensor predicate,
                                 const Program &body, const DebugContext &dc)
    : Program(node(Kind::RepeatWhile, dc)) {
  impl->whileTrue = true;
  impl->tensors = {std::move(predicate)};
  impl->children = {cond, body};
}

RepeatWhileFalse::RepeatWhileFalse(const Program &cond, Tensor predicate,
                                   const Program &body, const DebugContext &dc)
    : Program(node(Kind::RepeatWhile, dc)) {
  impl->whileTrue = false;
  impl->tensors = {std::move(predicate)};
  impl->children = {cond, body};
}

If::If(Tensor predicate, const Program &trueBody, const Program &falseBody,
       const DebugContext &dc)
    : Program(node(Kind::If, dc)) {
  impl->tensors = {std::move(predicate)};
  impl->children = {trueBody, falseBody};
}

If::If(Tensor predicate, const Program &trueBody, const DebugContext &dc)
    : If(std::move(predicate), trueBody, Program(), dc) {}

Switch::Switch(Tensor control, const DebugContext &dc)
    : Switch(std::move(control), CaseList{}, Program(), dc) {}

Switch::Switch(Tensor control, const Program &defaultCase,
               const DebugContext &dc)
    : Switch(std::move(control), CaseList{}, defaultCase, dc) {}

Switch::Switch(Tensor control, const CaseList &cases, const DebugContext &dc)
    : Switch(std::move(control), cases, Program(), dc) {}

Switch::Switch(Tensor control, const CaseList &cases,
               const Program &defaultCase, const DebugContext &dc)
    : Program(node(Kind::Switch, dc)) {
  impl->tensors = {std::move(control)};
  impl->children = {defaultCase};
  for (const auto &[value, body] : cases)
    add(value, body);
}

Switch &Switch::add(std::int32_t value, const Program &body) {
  Impl &self = mutableImpl();
  if (std::find(self.caseValues.begin(), self.caseValues.end(), value) !=
      self.caseValues.end())
    throw control_program_error("Switch '" + self.debugName + "': case " +
                                std::to_string(value) + " is given twice");
  self.caseValues.push_back(value);
  self.children.push_back(body);
  return *this;
}

Switch Switch::switchWithBoundsChecking(Tensor control, const CaseList &cases,
                                        const DebugContext &dc) {
  Switch s(std::move(control), cases, dc);
  s.mutableImpl().switchBoundsChecked = true;
  return s;
}

Copy::Copy(const Tensor &src, const Tensor &dst, bool, const DebugContext &dc)
    : Program(copyNode(CopyKind::TensorToTensor, {src, dst}, dc)) {}

Copy::Copy(const DataStream &stream, const Tensor &dst, bool,
           const DebugContext &dc)
    : Program(copyNode(CopyKind::StreamToTensor, {dst}, dc)) {
  impl->stream = stream;
}

Copy::Copy(const Tensor &src, const DataStream &stream, bool,
           const DebugContext &dc)
    : Program(copyNode(CopyKind::TensorToStream, {src}, dc)) {
  impl->stream = stream;
}

Copy::Copy(const RemoteBuffer &buffer, const Tensor &dst,
           const DebugContext &dc)
    : Program(copyNode(CopyKind::RemoteToTensor, {dst}, dc)) {
  impl->remoteBuffer = buffer;
}

Copy::Copy(const RemoteBuffer &buffer, const Tensor &dst, const Tensor &offset,
           const DebugContext &dc)
    : Program(copyNode(CopyKind::RemoteToTensor, {dst, offset}, dc)) {
  impl->remoteBuffer = buffer;
}

Copy::Copy(const Tensor &src, const RemoteBuffer &buffer,
           const DebugContext &dc)
    : Program(copyNode(CopyKind::TensorToRemote, {src}, dc)) {
  impl->remoteBuffer = buffer;
}

Copy::Copy(const Tensor &src, const RemoteBuffer &buffer, const Tensor &offset,
           const DebugContext &dc)
    : Program(copyNode(CopyKind::TensorToRemote, {src, offset}, dc)) {
  impl->remoteBuffer = buffer;
}

WriteUndef::WriteUndef(Tensor t, const DebugContext &dc)
    : Program(node(Kind::WriteUndef, dc)) {
  impl->tensors = {std::move(t)};
}

Sync::Sync(SyncType type, const DebugContext &dc)
    : Program(node(Kind::Sync, dc)) {
  impl->syncType = type;
}

CrossReplicaCopy::CrossReplicaCopy(const Tensor &src, const Tensor &dst,
                                   std::map<unsigned, unsigned> replicaMap,
                                   const DebugContext &dc)
    : Program(node(Kind::CrossReplicaCopy, dc)) {
  impl->tensors = {src, dst};
  impl->replicaMap = std::move(replicaMap);
}

namespace {
// The program of a collective: only poplar::detail makes one.
class CollectiveProgram : public Program {
public:
  explicit CollectiveProgram(std::shared_ptr<Impl> impl)
      : Program(std::move(impl)) {}
};
} // namespace

Call::Call(Function f, const DebugContext &dc) : Program(node(Kind::Call, dc)) {
  impl->function = f;
}

PrintTensor::PrintTensor(StringRef title, Tensor t, const DebugContext &dc)
    : Program(node(Kind::PrintTensor, dc)) {
  impl->text = title.str();
  impl->tensors = {std::move(t)};
}

PrintTensor::PrintTensor(Tensor t, const DebugContext &dc)
    : Program(node(Kind::PrintTensor, dc)) {
  impl->text = t.valid() ? t.getDebugStr() : "";
  impl->tensors = {std::move(t)};
}

PrintTensor::PrintTensor(StringRef title, Tensor t, const PrintTensorFmt &fmt,
                         const DebugContext &dc)
    : PrintTensor(title, std::move(t), dc) {
  impl->printFmt = fmt;
}

PrintTensor::PrintTensor(Tensor t, const PrintTensorFmt &fmt,
                         const DebugContext &dc)
    : PrintTensor(std::move(t), dc) {
  impl->printFmt = fmt;
}

Abort::Abort(const DebugContext &dc) : Abort("", dc) {}

Abort::Abort(const std::string &message, const DebugContext &dc)
    : Program(node(Kind::Abort, dc)) {
  impl->text = message;
}

AbortOnCondition::AbortOnCondition(Tensor predicate, const DebugContext &dc)
    : AbortOnCondition(std::move(predicate), "", dc) {}

AbortOnCondition::AbortOnCondition(Tensor predicate, const std::string &message,
                                   const DebugContext &dc)
    : Program(node(Kind::AbortOnCondition, dc)) {
  impl->text = message;
  impl->tensors = {std::move(predicate)};
}

} // namespace poplar::program

namespace poplar::detail {

program::Program crossReplicaCollective(CrossReplicaCollective kind,
                                        CrossReplicaOperator op,
                                        const Tensor &src, const Tensor &dst,
                                        std::vector<std::vector<unsigned>> groups,
                                        const DebugContext &dc) {
  auto impl = program::node(program::Kind::CrossReplicaCollective, dc);
  impl->tensors = {src, dst};
  impl->replicaGroups = std::move(groups);
  impl->collective = kind;
  impl->collectiveOp = op;
  return program::CollectiveProgram(std::move(impl));
}

} // namespace poplar::detail

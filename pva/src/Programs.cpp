// The program tree: one class per program type with data of its own, and
// the visitor.
#include "ReportData.hpp"

namespace pva {

Program::~Program() = default;
ProgramVisitor::~ProgramVisitor() = default;

Program::Type Program::type() const { return report->program(id).type; }
const std::string &Program::name() const { return report->program(id).name; }

std::vector<std::shared_ptr<Program>> Program::children() const {
  return detail::programs(report, report->program(id).children);
}

void Program::accept(ProgramVisitor &v) const {
  switch (type()) {
  case Type::Sequence:
    return v.visitSequence(*this);
  case Type::RepeatWhileTrue:
    return v.visitRepeatWhileTrue(*this);
  case Type::RepeatWhileFalse:
    return v.visitRepeatWhileFalse(*this);
  case Type::SetLocalConsensusFromVar:
    return v.visitSetLocalConsensusFromVar(*this);
  case Type::IfElse:
    return v.visitIfElse(*this);
  case Type::Switch:
    return v.visitSwitch(*this);
  case Type::WriteUndef:
    return v.visitWriteUndef(*this);
  case Type::Abort:
    return v.visitAbort(*this);
  case Type::AbortOnCondition:
    return v.visitAbortOnCondition(*this);
  default:
    // The types with classes of their own override accept.
    return;
  }
}

ComputeSet OnTileExecuteProgram::computeset() const {
  return ComputeSet(report, unsigned(report->program(id).computeSet));
}
void OnTileExecuteProgram::accept(ProgramVisitor &v) const { v.visitOnTileExecute(*this); }

namespace {
const detail::ExchangeRow &exchangeOf(const detail::ReportData &r, unsigned id) {
  const auto &p = r.program(id);
  return r.exchange(p.exchangeKind, p.exchange);
}

template <class F>
std::vector<std::uint64_t> byTile(const detail::ReportData &r, unsigned id, F field) {
  std::vector<std::uint64_t> out(r.target.numTiles, 0);
  for (const auto &t : exchangeOf(r, id).tiles)
    out.at(t.tile) = field(t);
  return out;
}
} // namespace

std::uint64_t ExchangeProgram::totalBytes() const {
  return exchangeOf(*report, id).totalBytes;
}
std::vector<std::uint64_t> ExchangeProgram::bytesSentByTile() const {
  return byTile(*report, id, [](const detail::ExchangeTile &t) { return t.sent; });
}
std::vector<std::uint64_t> ExchangeProgram::bytesReceivedByTile() const {
  return byTile(*report, id, [](const detail::ExchangeTile &t) { return t.received; });
}
std::vector<std::uint64_t> ExchangeProgram::estimatedCyclesByTile() const {
  return byTile(*report, id, [](const detail::ExchangeTile &t) { return t.cycles; });
}

void DoExchangeProgram::accept(ProgramVisitor &v) const { v.visitDoExchange(*this); }
void GlobalExchangeProgram::accept(ProgramVisitor &v) const { v.visitGlobalExchange(*this); }
void StreamCopyMidProgram::accept(ProgramVisitor &v) const { v.visitStreamCopyMid(*this); }

std::uint64_t RepeatProgram::repeatCount() const { return report->program(id).repeatCount; }
void RepeatProgram::accept(ProgramVisitor &v) const { v.visitRepeat(*this); }

std::shared_ptr<Program> CallProgram::target() const {
  const long function = report->program(id).function;
  if (function < 0 || std::size_t(function) >= report->functionPrograms.size())
    throw error("Call program " + std::to_string(id) + " of the profile '" +
                report->path + "' calls no function");
  return detail::makeProgram(report, report->functionPrograms[std::size_t(function)]);
}
void CallProgram::accept(ProgramVisitor &v) const { v.visitCall(*this); }

const std::string &SyncProgram::syncType() const { return report->program(id).syncType; }
void SyncProgram::accept(ProgramVisitor &v) const { v.visitSync(*this); }

namespace detail {

std::shared_ptr<Program> makeProgram(const ReportHandle &report, std::size_t id) {
  const auto uid = unsigned(id);
  switch (report->program(id).type) {
  case Program::Type::OnTileExecute:
    return std::make_shared<OnTileExecuteProgram>(report, uid);
  case Program::Type::DoExchange:
    return std::make_shared<DoExchangeProgram>(report, uid);
  case Program::Type::GlobalExchange:
    return std::make_shared<GlobalExchangeProgram>(report, uid);
  case Program::Type::StreamCopyMid:
    return std::make_shared<StreamCopyMidProgram>(report, uid);
  case Program::Type::Repeat:
    return std::make_shared<RepeatProgram>(report, uid);
  case Program::Type::Call:
    return std::make_shared<CallProgram>(report, uid);
  case Program::Type::Sync:
    return std::make_shared<SyncProgram>(report, uid);
  default:
    return std::make_shared<Program>(report, uid);
  }
}

} // namespace detail
} // namespace pva

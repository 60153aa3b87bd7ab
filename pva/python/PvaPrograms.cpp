// Programs and the visitor. A Python subclass of pva.ProgramVisitor
// overrides visit methods; program.accept(visitor) calls the one of the
// program's type.
#include "PvaModule.hpp"

#include <pybind11/stl.h>

namespace pva {
namespace python {

namespace {

/// Calls the Python override of a visit method, if there is one.
class PyProgramVisitor : public ProgramVisitor {
public:
  void visitOnTileExecute(const OnTileExecuteProgram &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitOnTileExecute, p);
  }
  void visitDoExchange(const DoExchangeProgram &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitDoExchange, p);
  }
  void visitGlobalExchange(const GlobalExchangeProgram &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitGlobalExchange, p);
  }
  void visitStreamCopyMid(const StreamCopyMidProgram &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitStreamCopyMid, p);
  }
  void visitRepeat(const RepeatProgram &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitRepeat, p);
  }
  void visitCall(const CallProgram &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitCall, p);
  }
  void visitSync(const SyncProgram &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitSync, p);
  }
  void visitSequence(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitSequence, p);
  }
  void visitRepeatWhileTrue(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitRepeatWhileTrue, p);
  }
  void visitRepeatWhileFalse(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitRepeatWhileFalse, p);
  }
  void visitSetLocalConsensusFromVar(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitSetLocalConsensusFromVar, p);
  }
  void visitIfElse(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitIfElse, p);
  }
  void visitSwitch(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitSwitch, p);
  }
  void visitWriteUndef(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitWriteUndef, p);
  }
  void visitAbort(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitAbort, p);
  }
  void visitAbortOnCondition(const Program &p) override {
    PYBIND11_OVERRIDE(void, ProgramVisitor, visitAbortOnCondition, p);
  }
};

template <class P> using ProgramClass = py::class_<P, Program, std::shared_ptr<P>>;

} // namespace

void bindPrograms(py::module_ &m) {
  py::class_<Program, std::shared_ptr<Program>> program(m, "Program");
  py::enum_<Program::Type> type(program, "Type");
  const std::pair<const char *, Program::Type> types[] = {
      {"Unknown", Program::Type::Unknown},
      {"Sequence", Program::Type::Sequence},
      {"OnTileExecute", Program::Type::OnTileExecute},
      {"DoExchange", Program::Type::DoExchange},
      {"GlobalExchange", Program::Type::GlobalExchange},
      {"StreamCopyBegin", Program::Type::StreamCopyBegin},
      {"StreamCopyMid", Program::Type::StreamCopyMid},
      {"StreamCopyEnd", Program::Type::StreamCopyEnd},
      {"Repeat", Program::Type::Repeat},
      {"RepeatWhileTrue", Program::Type::RepeatWhileTrue},
      {"RepeatWhileFalse", Program::Type::RepeatWhileFalse},
      {"SetLocalConsensusFromVar", Program::Type::SetLocalConsensusFromVar},
      {"IfElse", Program::Type::IfElse},
      {"Switch", Program::Type::Switch},
      {"Sync", Program::Type::Sync},
      {"Call", Program::Type::Call},
      {"WriteUndef", Program::Type::WriteUndef},
      {"Abort", Program::Type::Abort},
      {"AbortOnCondition", Program::Type::AbortOnCondition}};
  for (const auto &[name, value] : types)
    type.value(name, value);
  program.def_property_readonly("type", &Program::type)
      .def_property_readonly("name", &Program::name)
      .def_property_readonly("_id", &Program::_id)
      .def_property_readonly("children", &Program::children)
      .def("accept", &Program::accept, py::arg("visitor"))
      // Programs are equal when they are the same node of one report.
      .def("__eq__",
           [](const Program &a, const Program &b) {
             return a._id() == b._id() && a.type() == b.type() && a.name() == b.name();
           })
      .def("__hash__", [](const Program &p) { return std::hash<unsigned>()(p._id()); })
      .def("__repr__", [](const Program &p) {
        return "<pva.Program " + std::to_string(p._id()) + " '" + p.name() + "'>";
      });

  ProgramClass<OnTileExecuteProgram>(m, "OnTileExecuteProgram")
      .def_property_readonly("computeset", &OnTileExecuteProgram::computeset);
  ProgramClass<ExchangeProgram>(m, "ExchangeProgram")
      .def_property_readonly("totalBytes", &ExchangeProgram::totalBytes)
      .def_property_readonly("bytesSentByTile", &ExchangeProgram::bytesSentByTile)
      .def_property_readonly("bytesReceivedByTile", &ExchangeProgram::bytesReceivedByTile)
      .def_property_readonly("estimatedCyclesByTile",
                             &ExchangeProgram::estimatedCyclesByTile);
  py::class_<DoExchangeProgram, ExchangeProgram, std::shared_ptr<DoExchangeProgram>>(
      m, "DoExchangeProgram");
  py::class_<GlobalExchangeProgram, ExchangeProgram,
             std::shared_ptr<GlobalExchangeProgram>>(m, "GlobalExchangeProgram");
  py::class_<StreamCopyMidProgram, ExchangeProgram, std::shared_ptr<StreamCopyMidProgram>>(
      m, "StreamCopyMidProgram");
  ProgramClass<RepeatProgram>(m, "RepeatProgram")
      .def_property_readonly("repeatCount", &RepeatProgram::repeatCount);
  ProgramClass<CallProgram>(m, "CallProgram")
      .def_property_readonly("target", &CallProgram::target);
  ProgramClass<SyncProgram>(m, "SyncProgram")
      .def_property_readonly("syncType", &SyncProgram::syncType);

  py::class_<ProgramVisitor, PyProgramVisitor>(m, "ProgramVisitor").def(py::init<>());
}

} // namespace python
} // namespace pva

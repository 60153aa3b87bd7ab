// A readable outline of a program tree, one step per line, children
// indented under their parent.
#include "program/ProgramImpl.hpp"

#include <poplar/Graph.hpp>

#include <ostream>
#include <string>

namespace poplar::program {
namespace {

void dump(const Program &program, std::ostream &out, unsigned depth) {
  const Program::Impl &p = program.getImpl();
  out << std::string(2 * depth, ' ') << p.kindName();
  if (!p.debugName.empty())
    out << " \"" << p.debugName << '"';
  switch (p.kind) {
  case Program::Impl::Kind::Execute:
    out << " computeSet=" << p.computeSet.getId();
    break;
  case Program::Impl::Kind::Repeat:
    out << " count=" << p.count;
    break;
  case Program::Impl::Kind::Copy:
    if (p.stream.valid())
      out << " stream=" << p.stream.handle();
    if (p.remoteBuffer.valid())
      out << " remoteBuffer=" << p.remoteBuffer.handle();
    for (const auto &t : p.tensors)
      out << ' ' << (t.valid() ? t.getDebugStr() : "<invalid>")
          << (t.valid() ? t.shapeToString() : "");
    break;
  case Program::Impl::Kind::Call:
    out << " function=" << p.function.getId();
    break;
  case Program::Impl::Kind::PrintTensor:
    out << " title=\"" << p.text << '"';
    break;
  default:
    break;
  }
  out << '\n';
  for (std::size_t i = 0; i != p.children.size(); ++i) {
    if (p.kind == Program::Impl::Kind::Switch && i > 0)
      out << std::string(2 * depth + 2, ' ') << "case " << p.caseValues[i - 1]
          << ":\n";
    dump(p.children[i], out, depth + 1);
  }
}

} // namespace

void dumpProgram(const Graph &, const Program &program, std::ostream &out) {
  dump(program, out, 0);
}

} // namespace poplar::program

// The patterns: their names, defaults, and their application.
//   OpToIdentity: ops that are identities in inference (Dropout, Detach)
//     become Identity.
//   PreUniRepl: an Identity whose output is neither a model output nor an
//     anchor is removed, its consumers reading its input.
#include "ir/Ir.hpp"
#include "ops/IdentityOp.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/patterns/patterns.hpp>

#include <algorithm>

namespace popart {
namespace {

struct PatternInfo {
  const char *name;
  bool enabledByDefault;
  bool mandatory;
};

const std::vector<PatternInfo> &patternInfos() {
  static const std::vector<PatternInfo> infos = {
      {"OpToIdentity", true, false},
      {"PreUniRepl", true, false},
  };
  return infos;
}

const PatternInfo &findPattern(const std::string &name) {
  for (const auto &p : patternInfos())
    if (name == p.name)
      return p;
  throw error("Unknown pattern '{}'", name);
}

bool excluded(const Op &op, const std::string &pattern) {
  return std::find(op.settings.excludePatterns.begin(), op.settings.excludePatterns.end(),
                   pattern) != op.settings.excludePatterns.end();
}

bool opToIdentity(Graph &graph, Op &op) {
  if (op.opid.type == "Identity" || op.opid.type == "Nop" ||
      !op.isIdentityLike() || excluded(op, "OpToIdentity"))
    return false;
  if (op.outputs.size() > 1 && op.outputs[1])
    return false; // Dropout's mask is used
  auto identity = std::make_unique<IdentityOp>(
      OperatorIdentifier(Domain::ai_onnx, "Identity", 1), op.settings, Attributes());
  Tensor *in = op.inputs.at(0);
  Tensor *out = op.outputs.at(0);
  graph.eraseOp(op);
  Op &added = graph.addOp(std::move(identity));
  graph.connectInput(added, 0, in->id);
  added.outputs = {out};
  out->producer = &added;
  return true;
}

bool preUniRepl(Graph &graph, Op &op, const DataFlow &dataFlow) {
  if (op.opid.type != "Identity" || excluded(op, "PreUniRepl"))
    return false;
  Tensor *in = op.inputs.at(0);
  Tensor *out = op.outputs.at(0);
  const auto &outs = graph.outputs;
  if (dataFlow.isAnchored(out->id) ||
      std::find(outs.begin(), outs.end(), out->id) != outs.end())
    return false;
  graph.eraseOp(op);
  graph.replaceUses(*out, *in);
  graph.eraseTensor(out->id);
  return true;
}

} // namespace

Patterns::Patterns() : Patterns(PatternsLevel::Default) {}

Patterns::Patterns(PatternsLevel level) {
  for (const auto &p : patternInfos())
    settings[p.name] = level == PatternsLevel::All ||
                       (level == PatternsLevel::Default && p.enabledByDefault) ||
                       (level == PatternsLevel::Minimal && p.mandatory);
  inplaceEnabled = level == PatternsLevel::Default || level == PatternsLevel::All;
}

Patterns::Patterns(std::vector<std::string> names)
    : Patterns(PatternsLevel::NoPatterns) {
  for (const auto &n : names)
    enablePattern(n, true);
}

Patterns Patterns::create(std::vector<std::string> names) {
  return Patterns(std::move(names));
}

bool Patterns::isPatternEnabled(const std::string &name) const {
  findPattern(name);
  auto it = settings.find(name);
  return it != settings.end() && it->second;
}

Patterns &Patterns::enablePattern(const std::string &name, bool enable) {
  const auto &info = findPattern(name);
  if (!enable && info.mandatory)
    throw error("Pattern '{}' is mandatory and cannot be disabled", name);
  settings[name] = enable;
  return *this;
}

std::vector<std::string> Patterns::getAllPreAliasPatternNames() {
  std::vector<std::string> names;
  for (const auto &p : patternInfos())
    names.push_back(p.name);
  return names;
}

bool Patterns::isMandatory(const std::string &name) {
  return findPattern(name).mandatory;
}

bool Patterns::operator==(const Patterns &o) const {
  return settings == o.settings && inplaceEnabled == o.inplaceEnabled;
}

std::ostream &operator<<(std::ostream &os, const Patterns &patterns) {
  for (const auto &s : patterns.getSettings())
    if (s.second)
      os << s.first << " ";
  return os;
}

int applyPatterns(Graph &graph, const Patterns &patterns,
                  const DataFlow &dataFlow) {
  int applied = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    for (Op *op : graph.getOpSchedule("fifo")) {
      if (patterns.isPatternEnabled("OpToIdentity") && opToIdentity(graph, *op)) {
        changed = true;
        break;
      }
      if (patterns.isPatternEnabled("PreUniRepl") &&
          preUniRepl(graph, *op, dataFlow)) {
        changed = true;
        break;
      }
    }
    if (changed) {
      ++applied;
      logging::pattern::trace("Pattern applied ({} so far)", applied);
    }
  }
  return applied;
}

} // namespace popart

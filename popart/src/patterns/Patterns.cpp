// The patterns: their names (the original's), defaults, and application.
//
// Rewrites (PatternRewrites.hpp) are applied to the forward graph and again
// after autodiff. The original's mandatory patterns that turn grad ops into
// other ops (MulArgGradOp, ...) are built into this implementation's
// lowering of those grad ops: they are listed, on at every level but
// NoPatterns, and a session refuses a Patterns object with one of them off,
// as the original does. The original's other patterns that are not
// provided here are refused by name.
#include "ir/Graph.hpp"
#include "ir/OpManager.hpp"
#include "patterns/PatternRewrites.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/patterns/patterns.hpp>

#include <algorithm>
#include <ostream>

namespace popart {
namespace {

struct PatternInfo {
  const char *name;
  bool enabledByDefault;
  bool mandatory;
  PatternRewrite rewrite; // nullptr: built into the lowering
};

const std::vector<PatternInfo> &patternInfos() {
  static const std::vector<PatternInfo> infos = {
      {"OpToIdentity", true, false, opToIdentity},
      {"PreUniRepl", true, false, preUniRepl},
      {"PostNRepl", true, false, postNRepl},
      {"SumToAdd", true, false, sumToAdd},
      {"NegativeOneScale", true, false, negativeOneScale},
      {"TransposeToIdentityOrReshapePattern", true, false,
       transposeToIdentityOrReshape},
      {"SoftmaxGradDirect", true, false, softmaxGradDirect},
      {"NlllWithSoftmaxGradDirect", true, false, nlllWithSoftmaxGradDirect},
      // An extension: a Conv applies the Relu or Clip after it (inference).
      {"ConvActivation", true, false, convActivation},
      // Mandatory in the original, which lowers only the shaped forms;
      // both forms are lowered here.
      {"RandomNormalLikeOpPattern", true, true, randomNormalLikeOpPattern},
      {"RandomUniformLikeOpPattern", true, true, randomUniformLikeOpPattern},
      // The original turns PackedDataBlock ops into loops by this pattern;
      // they are lowered directly here, and refused with it off.
      {"PackedDataBlock", true, false, nullptr},
      // Grad ops the original decomposes by pattern; lowered directly here.
      {"AbsGradOp", true, true, nullptr},
      {"Atan2Arg0GradOp", true, true, nullptr},
      {"Atan2Arg1GradOp", true, true, nullptr},
      {"ConvDataGrad", true, true, nullptr},
      {"ConvFlipWeightsGradOp", true, true, nullptr},
      {"ConvTranspose", true, true, nullptr},
      {"CosGradOp", true, true, nullptr},
      {"CoshOp", true, true, nullptr},
      {"DivArg0GradOp", true, true, nullptr},
      {"DivArg1GradOp", true, true, nullptr},
      {"ExpGradOp", true, true, nullptr},
      {"Expm1GradOp", true, true, nullptr},
      {"FmodArg0GradOp", true, true, nullptr},
      {"Log1pGradOp", true, true, nullptr},
      {"LogGradOp", true, true, nullptr},
      {"MatMulOp", true, true, nullptr},
      {"MatMulLhsGradOp", true, true, nullptr},
      {"MatMulRhsGradOp", true, true, nullptr},
      {"MulArgGradOp", true, true, nullptr},
      {"PowArg0GradOp", true, true, nullptr},
      {"PowArg1GradOp", true, true, nullptr},
      {"ReciprocalGradOp", true, true, nullptr},
      {"SinGradOp", true, true, nullptr},
      {"SqrtGradOp", true, true, nullptr},
      {"SubtractArg1GradOp", true, true, nullptr},
  };
  return infos;
}

// The original's patterns this implementation does not provide.
const std::vector<std::string> &notProvided() {
  static const std::vector<std::string> names = {
      "AllReduceToIdentity", "ConvFlipWeightsDoubleFlip",
      "DecomposeBinaryConstScalar", "ExpandCast", "InitAccumulate",
      "LambSerialisedWeight", "LoopScanOut", "LSTMOp", "PadSum",
      "RemoveUnnecessaryLossGradCast", "ScanToLoop", "Slice2SliceSubsample",
      "SplitGather", "SplitGradOpToConcat", "SplitOp", "TiedGather",
      "TiedGatherAccumulate", "UpsampleToResize", "ZerosLikeOpPattern"};
  return names;
}

const PatternInfo &findPattern(const std::string &name) {
  for (const auto &p : patternInfos())
    if (name == p.name)
      return p;
  const auto &absent = notProvided();
  if (std::find(absent.begin(), absent.end(), name) != absent.end())
    throw error("Pattern '{}' is not provided here", name);
  if (name == "Inplace")
    throw error("Unknown pattern '{}', did you mean InPlace?", name);
  throw error("Unknown pattern '{}'", name);
}

} // namespace

// ---------------------------------------------------------------------------
// Helpers of the rewrites.

bool isExcluded(const Op &op, const std::string &pattern) {
  const auto &excluded = op.settings.excludePatterns;
  return std::find(excluded.begin(), excluded.end(), pattern) != excluded.end();
}

bool isObserved(const Graph &graph, const DataFlow &dataFlow, const Tensor &t) {
  return dataFlow.isAnchored(t.id) ||
         std::find(graph.outputs.begin(), graph.outputs.end(), t.id) !=
             graph.outputs.end();
}

Op &replaceByBuiltin(Graph &graph, Op &op, const OperatorIdentifier &opid,
                     const std::vector<TensorId> &ins,
                     const Attributes &attributes) {
  auto replacement = createOpForNode(opid.domain, opid.type, opid.version,
                                     graph, op.name(), attributes, ins);
  replacement->settings = op.settings;
  std::vector<Tensor *> outs = op.outputs;
  graph.eraseOp(op);
  Op &added = graph.addOp(std::move(replacement));
  for (std::size_t i = 0; i < ins.size(); ++i)
    graph.connectInput(added, static_cast<int>(i), ins[i]);
  added.outputs = outs;
  for (Tensor *out : outs)
    if (out)
      out->producer = &added;
  added.setup();
  return added;
}

void bypass(Graph &graph, Op &op, Tensor &input) {
  Tensor *out = op.outputs.at(0);
  graph.eraseOp(op);
  graph.replaceUses(*out, input);
  graph.eraseTensor(out->id);
}

// ---------------------------------------------------------------------------
// Patterns.

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
  for (const auto &n : names) {
    if (n == "InPlace")
      enableInPlace(true);
    else if (n == "UpdateInplacePrioritiesForIpu")
      enableUpdateInplacePrioritiesForIpu(true);
    else
      enablePattern(n, true);
  }
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
  findPattern(name);
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

void Patterns::ensureAllMandatoryPreAliasPatternsAreEnabled() const {
  for (const auto &p : patternInfos())
    if (p.mandatory && !isPatternEnabled(p.name))
      throw error("Pattern '{}' must be enabled", p.name);
}

bool Patterns::operator==(const Patterns &o) const {
  return settings == o.settings && inplaceEnabled == o.inplaceEnabled;
}

std::ostream &operator<<(std::ostream &os, const Patterns &patterns) {
  for (const auto &s : patterns.getSettings())
    if (s.second)
      os << s.first << " ";
  if (patterns.isInPlaceEnabled())
    os << "InPlace ";
  return os;
}

int applyPatterns(Graph &graph, const Patterns &patterns,
                  const DataFlow &dataFlow) {
  if (patterns.getRuntimeAssertsOn())
    patterns.ensureAllMandatoryPreAliasPatternsAreEnabled();
  if (patterns.isUpdateInplacePrioritiesForIpuEnabled())
    throw error("Pattern 'UpdateInplacePrioritiesForIpu' is not provided "
                "here (in-place variants are chosen by their default "
                "priorities)");
  std::vector<const PatternInfo *> enabled;
  for (const auto &p : patternInfos())
    if (p.rewrite && patterns.isPatternEnabled(p.name))
      enabled.push_back(&p);
  if (!patterns.isPatternEnabled("PackedDataBlock"))
    for (Op *op : graph.getOpSchedule("fifo"))
      if (op->opid.type == "PackedDataBlock" &&
          op->opid.domain == Domain::ai_graphcore)
        throw error("{} cannot be lowered: the pattern PackedDataBlock, "
                    "which lowers it, is disabled",
                    op->str());
  int applied = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    for (Op *op : graph.getOpSchedule("fifo")) {
      for (const PatternInfo *p : enabled)
        if (p->rewrite(graph, *op, dataFlow)) {
          logging::pattern::trace("Pattern {} applied", p->name);
          changed = true;
          break;
        }
      if (changed)
        break;
    }
    if (changed)
      ++applied;
  }
  return applied;
}

} // namespace popart

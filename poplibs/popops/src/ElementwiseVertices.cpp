#include "ElementwiseVertices.hpp"

#include "CycleEstimates.hpp"
#include "ExprOpInfo.hpp"
#include "TileRegions.hpp"

#include <poputil/VertexTemplates.hpp>

#include <optional>

using namespace poplar;
using popops::expr::BinaryOpType;
using popops::expr::TernaryOpType;
using popops::expr::UnaryOpType;

namespace popops {
namespace detail {
namespace {

// A region-list field or a scalar field of a vertex.
struct Field {
  const char *name;
  Tensor tensor;  // flattened, or the single element
  bool perRegion; // connect a slice per region, else the whole tensor
};

// One vertex of `vertexType` per group of the output's regions on each
// tile, with `fields` connected and the cycle estimate of `cost`.
void addVertices(Graph &graph, ComputeSet cs, const std::string &vertexType,
                 const Tensor &outFlat, const char *outField,
                 const std::vector<Field> &fields, VectorCost cost,
                 const std::string &opName) {
  const Target &target = graph.getTarget();
  forEachVertexGroup(
      graph, outFlat, opName,
      [&](unsigned tile, const std::vector<Interval> &regions) {
        VertexRef v = graph.addVertex(cs, vertexType);
        graph.connect(v[outField], regionSlices(outFlat, regions));
        for (const Field &f : fields) {
          if (f.perRegion)
            graph.connect(v[f.name], regionSlices(f.tensor, regions));
          else
            graph.connect(v[f.name], f.tensor);
        }
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(
            v, multiVertexCycles(target, regionSizes(regions), cost));
      });
}

// Runs of at least this many output elements over which one operand is
// one element (and the other is not) take BroadcastScalarPerRegion2D.
constexpr std::size_t minPerRegionRun = 16;

// The combinations codelets/BinaryOps.cpp instantiates (PER_REGION) of
// BroadcastScalarPerRegion2D and BroadcastVectorRepeated2D.
bool channelFormInstantiated(BinaryOpType op, const Type &type,
                             bool scalarFirst) {
  if (type != FLOAT && type != HALF)
    return false;
  switch (op) {
  case BinaryOpType::ADD:
  case BinaryOpType::MULTIPLY:
    return !scalarFirst;
  case BinaryOpType::SUBTRACT:
  case BinaryOpType::DIVIDE:
    return true;
  default:
    return false;
  }
}

// Which operand of op(a, b) takes a channel form (a per-run scalar or a
// repeated vector; CPU device only) when exactly one of them can, and
// whether it comes first in the vertex; nothing if neither or both can, or
// the form is not instantiated for the operation and type.
struct ChannelForm {
  bool specialIsA;
  bool specialFirst;
};
std::optional<ChannelForm> channelForm(const Target &target, BinaryOpType op,
                                       const Type &type, bool aCan, bool bCan) {
  if (target.getTargetType() != TargetType::CPU || aCan == bCan)
    return std::nullopt;
  const ChannelForm form{aCan, aCan && !isCommutative(op)};
  if (!channelFormInstantiated(op, type, form.specialFirst))
    return std::nullopt;
  return form;
}

// On the CPU device, op(a, b) where one operand is one element over runs
// of the output (a convolution's bias or a normalisation's scale over each
// channel's plane): the output's regions are cut at the runs and each
// vertex reads one element per run instead of a gathered copy of the
// operand. Returns false, adding nothing, where that does not apply.
bool addPerRegionVertices(Graph &graph, ComputeSet cs, BinaryOpType op,
                          const Operand &a, const Operand &b,
                          const Tensor &outFlat, const std::string &opName) {
  const Target &target = graph.getTarget();
  const Type type = a.flat.elementType();
  const bool aRuns = a.constantRun >= minPerRegionRun && b.constantRun == 1;
  const bool bRuns = b.constantRun >= minPerRegionRun && a.constantRun == 1;
  const std::optional<ChannelForm> form =
      channelForm(target, op, type, aRuns, bRuns);
  if (!form)
    return false;
  const Operand &vector = form->specialIsA ? b : a;
  const Operand &runs = form->specialIsA ? a : b;
  const bool scalarFirst = form->specialFirst;
  const std::size_t run = runs.constantRun, n = outFlat.numElements();
  // Each run's element: the first column of the operand as [runs, run].
  const Tensor runValues =
      runs.flat.reshape({n / run, run}).slice(0, 1, 1).flatten();
  const std::string vertexType = poputil::templateVertex(
      "popops::BroadcastScalarPerRegion2D", op, type, scalarFirst);
  const VectorCost cost = binaryOpCost(target, op, type, true);
  forEachVertexGroup(
      graph, outFlat, opName,
      [&](unsigned tile, const std::vector<Interval> &regions) {
        std::vector<Interval> pieces;
        std::vector<Tensor> values;
        for (const Interval &r : regions) {
          for (std::size_t s = r.begin(); s < r.end();) {
            const std::size_t e = std::min(r.end(), (s / run + 1) * run);
            pieces.emplace_back(s, e);
            s = e;
          }
          values.push_back(
              runValues.slice(r.begin() / run, (r.end() - 1) / run + 1));
        }
        VertexRef v = graph.addVertex(cs, vertexType);
        graph.connect(v["out"], regionSlices(outFlat, pieces));
        graph.connect(v["in"], regionSlices(vector.flat, pieces));
        graph.connect(v["scalars"], concat(values));
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(
            v, multiVertexCycles(target, regionSizes(pieces), cost));
      });
  return true;
}

// On the CPU device, op(a, b) where one operand is a vector of at least
// minPerRegionRun elements repeated along the output (a bias at every
// position of channels-innermost activations): each vertex reads that
// vector in place of a gathered copy of the operand. Returns false, adding
// nothing, where that does not apply.
bool addRepeatedVectorVertices(Graph &graph, ComputeSet cs, BinaryOpType op,
                               const Operand &a, const Operand &b,
                               const Tensor &outFlat,
                               const std::string &opName) {
  const Target &target = graph.getTarget();
  const Type type = a.flat.elementType();
  const std::size_t n = outFlat.numElements();
  auto repeats = [&](const Operand &o) {
    return o.period >= minPerRegionRun && o.period < n;
  };
  const std::optional<ChannelForm> form =
      channelForm(target, op, type, repeats(a) && b.period == n,
                  repeats(b) && a.period == n);
  if (!form)
    return false;
  const Operand &full = form->specialIsA ? b : a;
  const Operand &repeated = form->specialIsA ? a : b;
  const bool vectorFirst = form->specialFirst;
  const std::size_t period = repeated.period;
  const Tensor pattern = repeated.flat.slice(0, period);
  const std::string vertexType = poputil::templateVertex(
      "popops::BroadcastVectorRepeated2D", op, type, vectorFirst);
  const VectorCost cost = binaryOpCost(target, op, type, false);
  forEachVertexGroup(
      graph, outFlat, opName,
      [&](unsigned tile, const std::vector<Interval> &regions) {
        std::vector<unsigned> phase;
        for (const Interval &r : regions)
          phase.push_back(static_cast<unsigned>(r.begin() % period));
        VertexRef v = graph.addVertex(cs, vertexType);
        graph.connect(v["out"], regionSlices(outFlat, regions));
        graph.connect(v["in"], regionSlices(full.flat, regions));
        graph.connect(v["pattern"], pattern);
        graph.setInitialValue(v["phase"], ArrayRef<unsigned>(phase));
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(
            v, multiVertexCycles(target, regionSizes(regions), cost));
      });
  return true;
}

} // namespace

void addUnaryOpVertices(Graph &graph, ComputeSet cs, UnaryOpType op,
                        const Operand &in, const Tensor &outFlat,
                        const std::string &opName) {
  const Type type = in.flat.elementType();
  addVertices(graph, cs, poputil::templateVertex("popops::UnaryOp2D", op, type),
              outFlat, "out", {{"in", in.flat, true}},
              unaryOpCost(graph.getTarget(), op, type), opName);
}

void addBinaryOpVertices(Graph &graph, ComputeSet cs, BinaryOpType op,
                         const Operand &a, const Operand &b,
                         const Tensor &outFlat, const std::string &opName) {
  const Type type = a.flat.elementType();
  const Target &target = graph.getTarget();
  if (a.isScalar() == b.isScalar()) {
    if (addPerRegionVertices(graph, cs, op, a, b, outFlat, opName) ||
        addRepeatedVectorVertices(graph, cs, op, a, b, outFlat, opName))
      return;
    addVertices(graph, cs,
                poputil::templateVertex("popops::BinaryOp2D", op, type),
                outFlat, "out", {{"in1", a.flat, true}, {"in2", b.flat, true}},
                binaryOpCost(target, op, type, false), opName);
    return;
  }
  // One operand is a broadcast scalar: op(in, scalar), swapping operands
  // (and a comparison) when the scalar comes first, if that gives the same.
  const Operand &vector = b.isScalar() ? a : b;
  const Operand &scalar = b.isScalar() ? b : a;
  bool scalarFirst = a.isScalar();
  if (scalarFirst && isCommutative(op)) {
    scalarFirst = false;
  } else if (scalarFirst && swappedComparison(op)) {
    op = *swappedComparison(op);
    scalarFirst = false;
  }
  addVertices(graph, cs,
              poputil::templateVertex("popops::BroadcastScalar2D", op, type,
                                      scalarFirst),
              outFlat, "out",
              {{"in", vector.flat, true}, {"scalar", scalar.scalar, false}},
              binaryOpCost(target, op, type, true), opName);
}

void addTernaryOpVertices(Graph &graph, ComputeSet cs, TernaryOpType op,
                          const Operand &a, const Operand &b, const Operand &c,
                          const Tensor &outFlat, const std::string &opName) {
  const Type type = a.flat.elementType();
  const char *family =
      op == TernaryOpType::SELECT ? "popops::Select2D" : "popops::Clamp2D";
  addVertices(
      graph, cs, poputil::templateVertex(family, type), outFlat, "out",
      {{"in1", a.flat, true}, {"in2", b.flat, true}, {"in3", c.flat, true}},
      ternaryOpCost(graph.getTarget(), op, type, 3), opName);
}

void addCastVertices(Graph &graph, ComputeSet cs, const Tensor &inFlat,
                     const Tensor &outFlat, const std::string &opName) {
  const Type from = inFlat.elementType(), to = outFlat.elementType();
  addVertices(graph, cs, poputil::templateVertex("popops::Cast2D", from, to),
              outFlat, "out", {{"in", inFlat, true}},
              castCost(graph.getTarget(), from, to), opName);
}

void addGeneratedVertices(Graph &graph, ComputeSet cs,
                          const GeneratedCodelet &codelet,
                          const std::vector<unsigned> &usedInputs,
                          const std::vector<Operand> &inputs,
                          const Tensor &outFlat, const std::string &opName) {
  addGeneratedCodelet(graph, codelet);
  std::vector<std::string> names;
  names.reserve(usedInputs.size());
  for (unsigned i : usedInputs)
    names.push_back("in" + std::to_string(i));
  std::vector<Field> fields;
  for (std::size_t k = 0; k != usedInputs.size(); ++k) {
    const Operand &operand = inputs[usedInputs[k]];
    if (operand.isScalar())
      fields.push_back({names[k].c_str(), operand.scalar, false});
    else
      fields.push_back({names[k].c_str(), operand.flat, true});
  }
  addVertices(graph, cs, codelet.vertexName, outFlat, "out", fields,
              fusedCost(graph.getTarget(), codelet.computeType,
                        codelet.opCycles, codelet.vectorOperands),
              opName);
}

} // namespace detail
} // namespace popops

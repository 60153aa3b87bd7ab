#include "ElementwiseVertices.hpp"

#include "CycleEstimates.hpp"
#include "ExprOpInfo.hpp"
#include "TileRegions.hpp"

#include <poputil/VertexTemplates.hpp>

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

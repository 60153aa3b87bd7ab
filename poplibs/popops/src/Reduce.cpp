// Reductions over any set of dimensions. The input is viewed as rows (one
// per output element) of the reduced elements; each tile reduces the row
// pieces it holds. If some row spans tiles, a first compute set writes one
// partial per (row, tile) on that tile and a second combines them;
// otherwise one compute set reduces straight into the output.
#include <popops/Reduce.hpp>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <poplibs_support/logging.hpp>

#include "Messages.hpp"
#include "OperationVertexName.hpp"
#include "ReduceEstimates.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

namespace popops {
namespace {

using poplar::Tensor;
using poplar::Type;

std::string operationName(Operation op) {
  std::ostringstream os;
  os << op;
  return os.str();
}

// The type partial results are kept in.
Type partialType(const Type &in) {
  return in == poplar::HALF ? poplar::FLOAT : in;
}

void checkTypes(Operation op, const Type &in, const Type &out,
                const std::string &what) {
  const bool isFloat = in == poplar::FLOAT || in == poplar::HALF;
  const bool isLogical =
      op == Operation::LOGICAL_AND || op == Operation::LOGICAL_OR;
  bool ok;
  if (isLogical)
    ok = in == poplar::BOOL && out == poplar::BOOL;
  else if (op == Operation::LOG_ADD)
    ok = isFloat && (out == poplar::FLOAT || out == poplar::HALF);
  else if (isFloat)
    ok = out == poplar::FLOAT || out == poplar::HALF;
  else
    ok = (in == poplar::INT || in == poplar::UNSIGNED_INT) && out == in;
  if (!ok)
    throw poputil::poplibs_error(what + ": reduction " + operationName(op) +
                                 " of " + in.toString().str() + " into " +
                                 out.toString().str() + " is not supported");
}

struct Segment {
  std::size_t row;
  std::size_t begin; // flat index into the [rows, cols] view
  std::size_t end;
};

/// One reduction, planned: its rows and where their pieces are.
class ReductionPlan {
public:
  ReductionPlan(poplar::Graph &graph, const Tensor &in, const Tensor &out,
                const std::vector<std::size_t> &dims, const ReduceParams &params,
                const std::string &name)
      : graph(graph), params(params), name(name) {
    validate(in, out, dims);
    // Kept dimensions first, reduced ones last: rows x cols.
    std::vector<unsigned> perm;
    for (unsigned d = 0; d != in.rank(); ++d)
      if (std::find(dims.begin(), dims.end(), d) == dims.end())
        perm.push_back(d);
    for (auto d : sortedDims)
      perm.push_back(static_cast<unsigned>(d));
    numRows = out.numElements();
    numCols = numRows == 0 ? 0 : in.numElements() / numRows;
    matrix = in.dimShuffle(perm).reshape({numRows, numCols});
    // Every piece is a slice of this one view, whose layout is then worked
    // out once for all of them.
    matrixFlat = matrix.flatten();
    outFlat = out.flatten();
    findSegments();
  }

  bool needsTwoStages() const { return twoStages; }

  /// Adds the vertices of this reduction's first stage to cs.
  void addPartialsStage(poplar::ComputeSet cs) {
    // One partial per (row, tile) pair, kept on that tile.
    const Type pType = partialType(matrix.elementType());
    std::size_t numPartials = 0;
    for (const auto &[tile, segs] : segmentsByTile)
      numPartials += countRows(segs);
    partials = graph.addVariable(pType, {numPartials}, {name + "/partials"});
    std::size_t next = 0;
    partialsOfRow.assign(numRows, {});
    for (const auto &[tile, segs] : segmentsByTile) {
      const std::size_t n = countRows(segs);
      Tensor tilePartials = partials.slice(next, next + n);
      graph.setTileMapping(tilePartials, tile);
      const std::string type = poputil::templateVertex(
          "popops::ReducePartials", params.op, matrix.elementType(), pType);
      auto groups = groupByRow(segs);
      for (std::size_t g = 0; g != groups.size(); ++g)
        partialsOfRow[groups[g].row].push_back(next + g);
      addReduceVertex(cs, type, tile, groups, tilePartials, nullptr);
      next += n;
    }
  }

  /// Adds the vertices that write the output to cs.
  void addFinalStage(poplar::ComputeSet cs) {
    Tensor scale = params.useScale ? params.scale.reshape({})
                                   : graph.addConstant(poplar::FLOAT, {}, 1.0f,
                                                       {name + "/scale"});
    if (!params.useScale)
      graph.setTileMapping(scale, 0);
    const bool fromInput = !twoStages;
    const Type in = fromInput ? matrix.elementType()
                              : partialType(matrix.elementType());
    const std::string type =
        poputil::templateVertex("popops::ReduceFinal", params.op, in,
                                outFlat.elementType(), fromInput);
    // Outputs are grouped by the tile that holds them; each row's pieces
    // are input segments of that vertex.
    const auto outMapping = graph.getTileMapping(outFlat, false);
    std::vector<unsigned> tileOfRow(numRows, 0);
    for (unsigned t = 0; t != outMapping.size(); ++t)
      for (const auto &i : outMapping[t])
        for (std::size_t r = i.begin(); r != i.end(); ++r)
          tileOfRow[r] = t;
    std::map<unsigned, std::vector<RowGroup>> groupsByTile;
    for (std::size_t r = 0; r != numRows; ++r) {
      RowGroup g{r, {}};
      if (fromInput) {
        for (const auto &s : segmentsOfRow[r])
          g.pieces.push_back(matrixFlat.slice(s.begin, s.end));
      } else {
        for (std::size_t p : partialsOfRow[r])
          g.pieces.push_back(partials.slice(p, p + 1));
      }
      groupsByTile[tileOfRow[r]].push_back(std::move(g));
    }
    for (auto &[tile, groups] : groupsByTile) {
      std::vector<Tensor> outs;
      for (const auto &g : groups)
        outs.push_back(outFlat.slice(g.row, g.row + 1));
      addReduceVertex(cs, type, tile, groups, poplar::concat(outs), &scale);
    }
  }

private:
  struct RowGroup {
    std::size_t row;
    std::vector<Tensor> pieces;
  };

  void validate(const Tensor &in, const Tensor &out,
                const std::vector<std::size_t> &dims) {
    sortedDims = dims;
    std::sort(sortedDims.begin(), sortedDims.end());
    if (std::adjacent_find(sortedDims.begin(), sortedDims.end()) !=
        sortedDims.end())
      throw poputil::poplibs_error(name + ": a dimension is reduced twice");
    std::vector<std::size_t> expected;
    for (std::size_t d = 0; d != in.rank(); ++d)
      if (!std::binary_search(sortedDims.begin(), sortedDims.end(), d))
        expected.push_back(in.dim(d));
    for (auto d : sortedDims)
      if (d >= in.rank())
        throw poputil::poplibs_error(
            name + ": tensor '" + in.getDebugStr() + "' of shape " +
            shapeString(in.shape()) + " has no dimension " + std::to_string(d));
    if (out.shape() != expected && out.numElements() != 0 &&
        !(expected.empty() && out.numElements() == 1))
      throw poputil::poplibs_error(
          name + ": output '" + out.getDebugStr() + "' has shape " +
          shapeString(out.shape()) + " but reducing '" + in.getDebugStr() +
          "' " + shapeString(in.shape()) + " over the dimensions gives " +
          shapeString(expected));
    checkTypes(params.op, in.elementType(), out.elementType(), name);
    if (params.useScale &&
        (!params.scale.valid() || params.scale.numElements() != 1 ||
         params.scale.elementType() != poplar::FLOAT))
      throw poputil::poplibs_error(name + ": the scale must be a FLOAT tensor "
                                          "of one element");
  }

  // Splits each tile's part of the matrix into per-row segments.
  void findSegments() {
    segmentsOfRow.assign(numRows, {});
    if (numCols == 0)
      return;
    bool complete = false;
    auto mapping = graph.getTileMapping(matrix, &complete);
    if (!complete) // the CPU target: everything is on tile 0
      mapping.assign(1, {poplar::Interval(0, matrix.numElements())});
    for (unsigned tile = 0; tile != mapping.size(); ++tile)
      for (const auto &interval : mapping[tile]) {
        std::size_t at = interval.begin();
        while (at < interval.end()) {
          const std::size_t row = at / numCols;
          const std::size_t end = std::min(interval.end(), (row + 1) * numCols);
          segmentsByTile[tile].push_back({row, at, end});
          at = end;
        }
      }
    std::vector<int> tileOfRow(numRows, -1);
    for (auto &[tile, segs] : segmentsByTile) {
      std::sort(segs.begin(), segs.end(), [](const Segment &a, const Segment &b) {
        return a.row != b.row ? a.row < b.row : a.begin < b.begin;
      });
      for (const auto &s : segs) {
        segmentsOfRow[s.row].push_back(s);
        if (tileOfRow[s.row] >= 0 && tileOfRow[s.row] != int(tile))
          twoStages = true;
        tileOfRow[s.row] = int(tile);
      }
    }
  }

  static std::size_t countRows(const std::vector<Segment> &segs) {
    std::size_t n = 0;
    for (std::size_t i = 0; i != segs.size(); ++i)
      n += i == 0 || segs[i].row != segs[i - 1].row;
    return n;
  }

  std::vector<RowGroup> groupByRow(const std::vector<Segment> &segs) const {
    std::vector<RowGroup> groups;
    for (const auto &s : segs) {
      if (groups.empty() || groups.back().row != s.row)
        groups.push_back({s.row, {}});
      groups.back().pieces.push_back(matrixFlat.slice(s.begin, s.end));
    }
    return groups;
  }

  void addReduceVertex(poplar::ComputeSet cs, const std::string &type,
                       unsigned tile, const std::vector<RowGroup> &groups,
                       const Tensor &out, const Tensor *scale) {
    std::vector<Tensor> pieces;
    std::vector<unsigned> counts, firsts;
    std::vector<std::size_t> pieceSizes;
    for (const auto &g : groups) {
      firsts.push_back(static_cast<unsigned>(pieces.size()));
      counts.push_back(static_cast<unsigned>(g.pieces.size()));
      for (const auto &p : g.pieces) {
        pieces.push_back(p);
        pieceSizes.push_back(p.numElements());
      }
    }
    poplar::VertexRef v = graph.addVertex(cs, type);
    graph.connect(v["in"], pieces);
    graph.connect(v["out"], out);
    graph.setInitialValue(v["segmentsPerOutput"],
                          poplar::ArrayRef<unsigned>(counts));
    graph.setInitialValue(v["firstSegment"], poplar::ArrayRef<unsigned>(firsts));
    if (scale) {
      graph.connect(v["scale"], *scale);
      graph.setInitialValue(v["update"], params.update);
    }
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(
        v, reduceVertexCycles(graph.getTarget(), matrix.elementType(), counts,
                              pieceSizes));
  }

  poplar::Graph &graph;
  ReduceParams params;
  std::string name;
  std::vector<std::size_t> sortedDims;
  std::size_t numRows = 0, numCols = 0;
  Tensor matrix, matrixFlat, outFlat, partials;
  std::map<unsigned, std::vector<Segment>> segmentsByTile;
  std::vector<std::vector<Segment>> segmentsOfRow;
  std::vector<std::vector<std::size_t>> partialsOfRow;
  bool twoStages = false;
};

std::vector<std::size_t> reducedShape(const Tensor &in,
                                      const std::vector<std::size_t> &dims) {
  std::vector<std::size_t> shape;
  for (std::size_t d = 0; d != in.rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      shape.push_back(in.dim(d));
  return shape;
}

Tensor createOutput(poplar::Graph &graph, const Tensor &in, const Type &type,
                    const std::vector<std::size_t> &dims,
                    const std::string &name) {
  for (auto d : dims)
    if (d >= in.rank())
      throw poputil::poplibs_error(name + ": tensor '" + in.getDebugStr() +
                                   "' of shape " + shapeString(in.shape()) +
                                   " has no dimension " + std::to_string(d));
  Tensor out = graph.addVariable(type, reducedShape(in, dims), {name + "/out"});
  poputil::mapTensorLinearly(graph, out, 1, 1);
  return out;
}

// Plans every reduction, then adds their stages: all first stages share
// one compute set, all final stages another.
void reduceAll(poplar::Graph &graph, const std::vector<Tensor> &ins,
               const std::vector<Tensor> &outs,
               const std::vector<std::vector<std::size_t>> &dims,
               const std::vector<ReduceParams> &params,
               std::vector<poplar::ComputeSet> &css, const std::string &name) {
  for (std::size_t i = 0; i != ins.size(); ++i)
    poplibs_support::logging::popops::info(
        "reduce {}: [{}] over dimensions [{}] to [{}] ({}{})", name,
        fmt::join(ins[i].shape(), ", "), fmt::join(dims[i], ", "),
        fmt::join(outs[i].shape(), ", "), fmt::streamed(params[i].op),
        params[i].update ? ", update" : "");
  std::vector<ReductionPlan> plans;
  for (std::size_t i = 0; i != ins.size(); ++i)
    plans.emplace_back(graph, ins[i], outs[i], dims[i], params[i], name);
  const bool anyTwoStage =
      std::any_of(plans.begin(), plans.end(),
                  [](const ReductionPlan &p) { return p.needsTwoStages(); });
  if (anyTwoStage) {
    poplar::ComputeSet first = graph.addComputeSet({name + "/Partials"});
    for (auto &p : plans)
      if (p.needsTwoStages())
        p.addPartialsStage(first);
    css.push_back(first);
  }
  poplar::ComputeSet last = graph.addComputeSet({name + "/Reduce"});
  for (auto &p : plans)
    p.addFinalStage(last);
  css.push_back(last);
}

void addToSequence(const std::vector<poplar::ComputeSet> &css,
                   poplar::program::Sequence &prog) {
  for (const auto &cs : css)
    prog.add(poplar::program::Execute(cs));
}

} // namespace

void reduceWithOutput(poplar::Graph &graph, const Tensor &in, const Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      std::vector<poplar::ComputeSet> &css,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &) {
  reduceAll(graph, {in}, {out}, {dims}, {params}, css,
            opName(debugContext, "reduce"));
}

void reduceWithOutput(poplar::Graph &graph, const Tensor &in, const Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options) {
  std::vector<poplar::ComputeSet> css;
  reduceWithOutput(graph, in, out, dims, params, css, debugContext, options);
  addToSequence(css, prog);
}

Tensor reduce(poplar::Graph &graph, const Tensor &in, const Type &outType,
              const std::vector<std::size_t> &dims, ReduceParams params,
              std::vector<poplar::ComputeSet> &css,
              const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options) {
  if (params.update)
    throw poputil::poplibs_error(
        opName(debugContext, "reduce") +
        ": update needs an existing output; use reduceWithOutput");
  Tensor out =
      createOutput(graph, in, outType, dims, opName(debugContext, "reduce"));
  reduceWithOutput(graph, in, out, dims, params, css, debugContext, options);
  return out;
}

Tensor reduce(poplar::Graph &graph, const Tensor &in,
              const std::vector<std::size_t> &dims, ReduceParams params,
              std::vector<poplar::ComputeSet> &css,
              const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options) {
  return reduce(graph, in, in.elementType(), dims, params, css, debugContext,
                options);
}

Tensor reduce(poplar::Graph &graph, const Tensor &in, const Type &outType,
              const std::vector<std::size_t> &dims, ReduceParams params,
              poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options) {
  std::vector<poplar::ComputeSet> css;
  Tensor out = reduce(graph, in, outType, dims, params, css, debugContext,
                      options);
  addToSequence(css, prog);
  return out;
}

Tensor reduce(poplar::Graph &graph, const Tensor &in,
              const std::vector<std::size_t> &dims, ReduceParams params,
              poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options) {
  return reduce(graph, in, in.elementType(), dims, params, prog, debugContext,
                options);
}

void reduceMany(poplar::Graph &graph,
                const std::vector<SingleReduceOp> &reductions,
                std::vector<Tensor> &outputs, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext,
                const poplar::OptionFlags &) {
  const std::string name = opName(debugContext, "reduceMany");
  const bool given = outputs.size() == reductions.size() && !outputs.empty();
  if (!given && !outputs.empty())
    throw poputil::poplibs_error(
        name + ": " + std::to_string(outputs.size()) + " outputs given for " +
        std::to_string(reductions.size()) + " reductions");
  std::vector<Tensor> ins;
  std::vector<std::vector<std::size_t>> dims;
  std::vector<ReduceParams> params;
  for (std::size_t i = 0; i != reductions.size(); ++i) {
    const auto &r = reductions[i];
    ins.push_back(r.in);
    dims.push_back(r.dims);
    params.push_back(r.params);
    if (!given)
      outputs.push_back(createOutput(
          graph, r.in, r.useOutType ? r.outType : r.in.elementType(), r.dims,
          r.debugName.empty() ? name : name + "/" + r.debugName));
  }
  std::vector<poplar::ComputeSet> css;
  reduceAll(graph, ins, outputs, dims, params, css, name);
  addToSequence(css, prog);
}

} // namespace popops

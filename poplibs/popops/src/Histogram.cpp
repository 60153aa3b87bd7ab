// histogram: each tile counts the input it holds into a row of partial
// counts (a Histogram vertex), and an ADD reduction sums the rows into the
// output.
#include <popops/GatherStatistics.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>

#include "DataMovementEstimates.hpp"
#include "Messages.hpp"
#include "TileRegions.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using poplar::Tensor;

void histogramInto(poplar::Graph &graph, const Tensor &input,
                   const Tensor &output, bool updateOutput,
                   const Tensor &levels, bool absoluteOfInput,
                   poplar::program::Sequence &prog, const std::string &op) {
  auto fail = [&](const std::string &m) {
    throw poputil::poplibs_error(op + ": " + m);
  };
  const auto type = input.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF)
    fail("input '" + input.getDebugStr() + "' has type " +
         type.toString().str() + "; it must be float or half");
  if (levels.rank() != 1 || levels.elementType() != type)
    fail("levels '" + levels.getDebugStr() +
         "' must be 1-D of the input's "
         "type " +
         type.toString().str());
  const std::size_t bins = levels.numElements() + 1;
  const auto outType = output.elementType();
  if (output.numElements() != bins ||
      (outType != poplar::UNSIGNED_INT && outType != poplar::FLOAT))
    fail("output '" + output.getDebugStr() + "' must be " +
         std::to_string(bins) + " unsigned int or float elements, not " +
         std::to_string(output.numElements()) + " of type " +
         outType.toString().str());
  const auto regions =
      detail::tileContiguousRegions(graph, input.flatten(), op);
  std::vector<unsigned> tiles;
  for (unsigned tile = 0; tile != regions.size(); ++tile)
    if (!regions[tile].empty())
      tiles.push_back(tile);
  if (tiles.empty()) {
    if (!updateOutput)
      popops::zero(graph, output, prog, {op + "/empty"});
    return;
  }
  Tensor partials =
      graph.addVariable(outType, {tiles.size(), bins}, {op + "/partials"});
  poplar::ComputeSet cs = graph.addComputeSet({op + "/count"});
  const std::string vertexType =
      poputil::templateVertex("popops::Histogram", type, outType);
  const Tensor flat = input.flatten();
  for (std::size_t i = 0; i != tiles.size(); ++i) {
    const unsigned tile = tiles[i];
    graph.setTileMapping(partials[i], tile);
    poplar::VertexRef v = graph.addVertex(cs, vertexType);
    graph.connect(v["data"], detail::regionSlices(flat, regions[tile]));
    graph.connect(v["levels"], levels);
    graph.connect(v["histogram"], partials[i]);
    graph.setInitialValue(v["absolute"], absoluteOfInput);
    graph.setTileMapping(v, tile);
    std::size_t n = 0;
    for (const auto &r : regions[tile])
      n += r.size();
    graph.setPerfEstimate(v, detail::histogramCycles(n, bins - 1));
  }
  prog.add(poplar::program::Execute(cs, {op}));
  ReduceParams params(Operation::ADD, updateOutput);
  reduceWithOutput(graph, partials, output.flatten(), {0}, params, prog,
                   {op + "/sum"});
}

} // namespace

Tensor histogram(poplar::Graph &graph, const Tensor &input,
                 const Tensor &levels, bool absoluteOfInput,
                 poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext,
                 const poplar::OptionFlags &options) {
  const std::string op = opName(debugContext, "histogram");
  bool useFloat = false;
  for (const auto &[key, value] : options) {
    if (key != "useFloatArithmetic" || (value != "true" && value != "false"))
      throw poplar::invalid_option(op + ": unknown option " + key + "=" +
                                   value);
    useFloat = value == "true";
  }
  Tensor out =
      graph.addVariable(useFloat ? poplar::FLOAT : poplar::UNSIGNED_INT,
                        {levels.numElements() + 1}, {op + "/out"});
  graph.setTileMapping(out, 0);
  histogramInto(graph, input, out, false, levels, absoluteOfInput, prog, op);
  return out;
}

void histogram(poplar::Graph &graph, const Tensor &input, Tensor &output,
               bool updateOutput, const Tensor &levels, bool absoluteOfInput,
               poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext) {
  histogramInto(graph, input, output, updateOutput, levels, absoluteOfInput,
                prog, opName(debugContext, "histogram"));
}

} // namespace popops

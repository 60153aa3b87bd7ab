// gcl collectives. Cross-replica collectives are poplar's exchange between
// replicas (poplar/detail/CrossReplica.hpp), which the IPU Model runs and
// estimates as a ring over the IPU-Links. Within-replica collectives are
// built here from copies between IPUs and element-wise PopOps, as a ring
// of the IPUs: a reduce-scatter of n - 1 steps, then a gather.
#include <gcl/Collectives.hpp>

#include <poplar/detail/CrossReplica.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ElementWiseUnary.hpp>
#include <popops/Expr.hpp>
#include <poputil/TileMapping.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <istream>
#include <map>
#include <ostream>

namespace gcl {
namespace {

using poplar::Tensor;
using poplar::program::Copy;
using poplar::program::Sequence;
using Kind = poplar::detail::CrossReplicaCollective;

const std::map<CollectiveOperator, std::string> &operatorNames() {
  static const std::map<CollectiveOperator, std::string> names = {
      {CollectiveOperator::ADD, "ADD"},
      {CollectiveOperator::MEAN, "MEAN"},
      {CollectiveOperator::MUL, "MUL"},
      {CollectiveOperator::MIN, "MIN"},
      {CollectiveOperator::MAX, "MAX"},
      {CollectiveOperator::LOGICAL_AND, "LOGICAL_AND"},
      {CollectiveOperator::LOGICAL_OR, "LOGICAL_OR"},
      {CollectiveOperator::SQUARE_ADD, "SQUARE_ADD"},
      {CollectiveOperator::LOCAL, "LOCAL"}};
  return names;
}

poplar::detail::CrossReplicaOperator toPoplar(CollectiveOperator op) {
  using P = poplar::detail::CrossReplicaOperator;
  switch (op) {
  case CollectiveOperator::ADD: return P::ADD;
  case CollectiveOperator::MEAN: return P::MEAN;
  case CollectiveOperator::MUL: return P::MUL;
  case CollectiveOperator::MIN: return P::MIN;
  case CollectiveOperator::MAX: return P::MAX;
  case CollectiveOperator::LOGICAL_AND: return P::LOGICAL_AND;
  case CollectiveOperator::LOGICAL_OR: return P::LOGICAL_OR;
  case CollectiveOperator::SQUARE_ADD: return P::SQUARE_ADD;
  case CollectiveOperator::LOCAL: return P::LOCAL;
  }
  throw poputil::poplibs_error("gcl: unknown collective operator");
}

// The options every collective takes: "method" names the algorithm; this
// library has one, the ring ("auto" chooses it).
void checkOptions(const poplar::OptionFlags &options, const std::string &fn) {
  for (const auto &[key, value] : options) {
    if (key == "method") {
      if (value != "auto" && value != "clockwise_ring")
        throw poplar::invalid_option(
            fn + ": option method=" + value +
            " is not available (this library runs collectives as a ring: "
            "\"auto\" or \"clockwise_ring\")");
      continue;
    }
    throw poplar::invalid_option(fn + ": unknown option '" + key + "'");
  }
}

void checkValid(const Tensor &t, const std::string &fn, const char *role) {
  if (!t.valid())
    throw poputil::poplibs_error(fn + ": the " + std::string(role) +
                                 " tensor is not valid");
}

std::string describe(const Tensor &t) {
  std::string s = "'" + t.getDebugStr() + "' [";
  const auto shape = t.shape();
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "] of type " + t.elementType().toString().str();
}

// The groups of replicas, or a poplibs_error naming the function.
std::vector<std::vector<unsigned>> groupsOf(const poplar::Graph &graph,
                                            const CommGroup &group,
                                            const std::string &fn) {
  try {
    return group.groups(graph.getReplicationFactor());
  } catch (const poputil::poplibs_error &e) {
    throw poputil::poplibs_error(fn + ": " + e.what());
  }
}

// What a collective checks before it adds anything to the graph: its
// options, its data and its groups (returned).
std::vector<std::vector<unsigned>>
checkCollective(const poplar::Graph &graph, const Tensor &data,
                const CommGroup &group, const poplar::OptionFlags &options,
                const std::string &fn) {
  checkOptions(options, fn);
  checkValid(data, fn, "data");
  return groupsOf(graph, group, fn);
}

// Elements of the destination of a collective of `kind` over groups of n
// replicas: the data's, a share of them, or n times them.
std::size_t destinationElements(Kind kind, std::size_t dataElements,
                                std::size_t n) {
  switch (kind) {
  case Kind::AllReduce: return dataElements;
  case Kind::ReduceScatter: return (dataElements + n - 1) / n;
  case Kind::AllGather: return dataElements * n;
  }
  return dataElements;
}

void crossReplica(poplar::Graph &graph, Kind kind, CollectiveOperator op,
                  const Tensor &data, const Tensor &destination,
                  Sequence &prog, const CommGroup &group,
                  const poplar::DebugContext &dc,
                  const poplar::OptionFlags &options, const std::string &fn) {
  auto groups = checkCollective(graph, data, group, options, fn);
  checkValid(destination, fn, "destination");
  const std::size_t want =
      destinationElements(kind, data.numElements(), groups.at(0).size());
  if (destination.numElements() != want ||
      destination.elementType() != data.elementType())
    throw poputil::poplibs_error(
        fn + ": the destination " + describe(destination) + " must hold " +
        std::to_string(want) + " elements of the type of the data " +
        describe(data) + " (groups of " + std::to_string(groups.at(0).size()) +
        " replicas)");
  prog.add(poplar::detail::crossReplicaCollective(
      kind, toPoplar(op), data, destination, std::move(groups), {dc, fn}));
}

// The replicas in each group, once the collective's inputs are checked.
unsigned groupSize(const poplar::Graph &graph, const Tensor &data,
                   const CommGroup &group, const poplar::OptionFlags &options,
                   const std::string &fn) {
  return static_cast<unsigned>(
      checkCollective(graph, data, group, options, fn).at(0).size());
}

} // namespace

std::istream &operator>>(std::istream &is, CollectiveOperator &op) {
  std::string token;
  is >> token;
  for (const auto &[value, name] : operatorNames())
    if (name == token) {
      op = value;
      return is;
    }
  throw poputil::poplibs_error("Unrecognised collective operator '" + token +
                               "'");
}

std::ostream &operator<<(std::ostream &os, const CollectiveOperator &op) {
  auto it = operatorNames().find(op);
  return os << (it == operatorNames().end() ? "UNKNOWN" : it->second);
}

std::vector<std::vector<unsigned>>
CommGroup::groups(unsigned replicationFactor) const {
  const unsigned n = replicationFactor;
  std::vector<std::vector<unsigned>> out;
  if (type == CommGroupType::ALL || replicaGroupSize == 0 ||
      (replicaGroupSize == n && type == CommGroupType::CONSECUTIVE &&
       replicaGroupStride == 1)) {
    out.emplace_back(n);
    for (unsigned r = 0; r != n; ++r)
      out[0][r] = r;
    return out;
  }
  const unsigned size = replicaGroupSize;
  const unsigned stride =
      type == CommGroupType::ORTHOGONAL ? n / size : replicaGroupStride;
  if (stride == 0 || n % (size * stride) != 0)
    throw poputil::poplibs_error(
        "CommGroup: groups of " + std::to_string(size) + " replicas " +
        std::to_string(stride) + " apart do not divide the " +
        std::to_string(n) + " replicas");
  // Blocks of size * stride replicas, each holding `stride` groups.
  for (unsigned block = 0; block != n / (size * stride); ++block)
    for (unsigned first = 0; first != stride; ++first) {
      std::vector<unsigned> g;
      for (unsigned i = 0; i != size; ++i)
        g.push_back(block * size * stride + first + i * stride);
      out.push_back(std::move(g));
    }
  return out;
}

// ---------------------------------------------------------- cross replica

Tensor allReduceCrossReplica(poplar::Graph &graph, const Tensor &data,
                             CollectiveOperator op, Sequence &prog,
                             const CommGroup &group,
                             const poplar::DebugContext &dc,
                             const poplar::OptionFlags &options) {
  groupSize(graph, data, group, options, "allReduceCrossReplica");
  Tensor out = graph.clone(data, {dc, "allReduceCrossReplica/out"});
  crossReplica(graph, Kind::AllReduce, op, data, out, prog, group, dc, options,
               "allReduceCrossReplica");
  return out;
}

Tensor allReduceCrossReplica(poplar::Graph &graph, const Tensor &data,
                             CollectiveOperator op, Sequence &prog,
                             const poplar::DebugContext &dc,
                             const poplar::OptionFlags &options) {
  return allReduceCrossReplica(graph, data, op, prog, CommGroup(), dc, options);
}

void allReduceToDestinationCrossReplica(poplar::Graph &graph, const Tensor &data,
                                        Tensor &destination,
                                        CollectiveOperator op, Sequence &prog,
                                        const CommGroup &group,
                                        const poplar::DebugContext &dc,
                                        const poplar::OptionFlags &options) {
  crossReplica(graph, Kind::AllReduce, op, data, destination, prog, group, dc,
               options, "allReduceToDestinationCrossReplica");
}

void allReduceToDestinationCrossReplica(poplar::Graph &graph, const Tensor &data,
                                        Tensor &destination,
                                        CollectiveOperator op, Sequence &prog,
                                        const poplar::DebugContext &dc,
                                        const poplar::OptionFlags &options) {
  allReduceToDestinationCrossReplica(graph, data, destination, op, prog,
                                     CommGroup(), dc, options);
}

void allReduceWithOutputCrossReplica(poplar::Graph &graph, const Tensor &data,
                                     Tensor &destination, CollectiveOperator op,
                                     Sequence &prog, const CommGroup &group,
                                     const poplar::DebugContext &dc,
                                     const poplar::OptionFlags &options) {
  crossReplica(graph, Kind::AllReduce, op, data, destination, prog, group, dc,
               options, "allReduceWithOutputCrossReplica");
}

void allReduceWithOutputCrossReplica(poplar::Graph &graph, const Tensor &data,
                                     Tensor &destination, CollectiveOperator op,
                                     Sequence &prog,
                                     const poplar::DebugContext &dc,
                                     const poplar::OptionFlags &options) {
  allReduceWithOutputCrossReplica(graph, data, destination, op, prog,
                                  CommGroup(), dc, options);
}

void allReduceInPlaceCrossReplica(poplar::Graph &graph, Tensor &data,
                                  CollectiveOperator op, Sequence &prog,
                                  const CommGroup &group,
                                  const poplar::DebugContext &dc,
                                  const poplar::OptionFlags &options) {
  crossReplica(graph, Kind::AllReduce, op, data, data, prog, group, dc, options,
               "allReduceInPlaceCrossReplica");
}

void allReduceInPlaceCrossReplica(poplar::Graph &graph, Tensor &data,
                                  CollectiveOperator op, Sequence &prog,
                                  const poplar::DebugContext &dc,
                                  const poplar::OptionFlags &options) {
  allReduceInPlaceCrossReplica(graph, data, op, prog, CommGroup(), dc, options);
}

Tensor reduceScatterCrossReplica(poplar::Graph &graph, const Tensor &data,
                                 CollectiveOperator op, Sequence &prog,
                                 const CommGroup &group,
                                 const poplar::DebugContext &dc,
                                 const poplar::OptionFlags &options) {
  const unsigned n =
      groupSize(graph, data, group, options, "reduceScatterCrossReplica");
  const std::size_t size = (data.numElements() + n - 1) / n;
  Tensor out = graph.addVariable(data.elementType(), {size},
                                 {dc, "reduceScatterCrossReplica/out"});
  poputil::mapTensorLinearly(graph, out);
  crossReplica(graph, Kind::ReduceScatter, op, data, out, prog, group, dc,
               options, "reduceScatterCrossReplica");
  return out;
}

Tensor reduceScatterCrossReplica(poplar::Graph &graph, const Tensor &data,
                                 CollectiveOperator op, Sequence &prog,
                                 const poplar::DebugContext &dc,
                                 const poplar::OptionFlags &options) {
  return reduceScatterCrossReplica(graph, data, op, prog, CommGroup(), dc,
                                   options);
}

void reduceScatterToDestinationCrossReplica(
    poplar::Graph &graph, const Tensor &data, Tensor &destination,
    CollectiveOperator op, Sequence &prog, const CommGroup &group,
    const poplar::DebugContext &dc, const poplar::OptionFlags &options) {
  crossReplica(graph, Kind::ReduceScatter, op, data, destination, prog, group,
               dc, options, "reduceScatterToDestinationCrossReplica");
}

void reduceScatterToDestinationCrossReplica(
    poplar::Graph &graph, const Tensor &data, Tensor &destination,
    CollectiveOperator op, Sequence &prog, const poplar::DebugContext &dc,
    const poplar::OptionFlags &options) {
  reduceScatterToDestinationCrossReplica(graph, data, destination, op, prog,
                                         CommGroup(), dc, options);
}

void reduceScatterWithOutputCrossReplica(
    poplar::Graph &graph, const Tensor &data, Tensor &destination,
    CollectiveOperator op, Sequence &prog, const CommGroup &group,
    const poplar::DebugContext &dc, const poplar::OptionFlags &options) {
  crossReplica(graph, Kind::ReduceScatter, op, data, destination, prog, group,
               dc, options, "reduceScatterWithOutputCrossReplica");
}

void reduceScatterWithOutputCrossReplica(
    poplar::Graph &graph, const Tensor &data, Tensor &destination,
    CollectiveOperator op, Sequence &prog, const poplar::DebugContext &dc,
    const poplar::OptionFlags &options) {
  reduceScatterWithOutputCrossReplica(graph, data, destination, op, prog,
                                      CommGroup(), dc, options);
}

Tensor allGatherCrossReplica(poplar::Graph &graph, const Tensor &data,
                             Sequence &prog, const CommGroup &group,
                             const poplar::DebugContext &dc,
                             const poplar::OptionFlags &options) {
  const unsigned n =
      groupSize(graph, data, group, options, "allGatherCrossReplica");
  std::vector<Tensor> slices;
  for (unsigned k = 0; k != n; ++k)
    slices.push_back(
        graph.clone(data, {dc, "allGatherCrossReplica/out" + std::to_string(k)})
            .expand({0}));
  Tensor out = poplar::concat(slices, 0);
  crossReplica(graph, Kind::AllGather, CollectiveOperator::LOCAL, data, out,
               prog, group, dc, options, "allGatherCrossReplica");
  return out;
}

Tensor allGatherCrossReplica(poplar::Graph &graph, const Tensor &data,
                             Sequence &prog, const poplar::DebugContext &dc,
                             const poplar::OptionFlags &options) {
  return allGatherCrossReplica(graph, data, prog, CommGroup(), dc, options);
}

void allGatherToDestinationCrossReplica(poplar::Graph &graph, const Tensor &data,
                                        Tensor &destination, Sequence &prog,
                                        const CommGroup &group,
                                        const poplar::DebugContext &dc,
                                        const poplar::OptionFlags &options) {
  crossReplica(graph, Kind::AllGather, CollectiveOperator::LOCAL, data,
               destination, prog, group, dc, options,
               "allGatherToDestinationCrossReplica");
}

void allGatherToDestinationCrossReplica(poplar::Graph &graph, const Tensor &data,
                                        Tensor &destination, Sequence &prog,
                                        const poplar::DebugContext &dc,
                                        const poplar::OptionFlags &options) {
  allGatherToDestinationCrossReplica(graph, data, destination, prog,
                                     CommGroup(), dc, options);
}

void allGatherWithOutputCrossReplica(poplar::Graph &graph, const Tensor &data,
                                     Tensor &destination, Sequence &prog,
                                     const CommGroup &group,
                                     const poplar::DebugContext &dc,
                                     const poplar::OptionFlags &options) {
  crossReplica(graph, Kind::AllGather, CollectiveOperator::LOCAL, data,
               destination, prog, group, dc, options,
               "allGatherWithOutputCrossReplica");
}

void allGatherWithOutputCrossReplica(poplar::Graph &graph, const Tensor &data,
                                     Tensor &destination, Sequence &prog,
                                     const poplar::DebugContext &dc,
                                     const poplar::OptionFlags &options) {
  allGatherWithOutputCrossReplica(graph, data, destination, prog, CommGroup(),
                                  dc, options);
}

// --------------------------------------------------------- within replica

namespace {

popops::expr::BinaryOpType combineOp(CollectiveOperator op) {
  using B = popops::expr::BinaryOpType;
  switch (op) {
  case CollectiveOperator::MUL: return B::MULTIPLY;
  case CollectiveOperator::MIN: return B::MINIMUM;
  case CollectiveOperator::MAX: return B::MAXIMUM;
  case CollectiveOperator::LOGICAL_AND: return B::LOGICAL_AND;
  case CollectiveOperator::LOGICAL_OR: return B::LOGICAL_OR;
  default: return B::ADD; // ADD, MEAN, SQUARE_ADD
  }
}

// The flattened slices of `data` (one per rank) and the chunk size.
struct Ranks {
  std::vector<Tensor> slices;
  std::size_t numElements = 0;
  std::size_t chunk = 0;
  Tensor piece(unsigned rank, unsigned j) const {
    const std::size_t begin = std::min(numElements, j * chunk);
    return slices[rank].slice(begin, std::min(numElements, begin + chunk));
  }
};

Ranks ranksOf(const Tensor &data, const std::string &fn) {
  if (!data.valid() || data.rank() == 0 || data.dim(0) == 0)
    throw poputil::poplibs_error(
        fn + ": the data needs an outer dimension of one slice per IPU");
  Ranks r;
  const auto n = static_cast<unsigned>(data.dim(0));
  for (unsigned i = 0; i != n; ++i)
    r.slices.push_back(data[i].flatten());
  r.numElements = r.slices[0].numElements();
  r.chunk = std::max<std::size_t>(1, (r.numElements + n - 1) / n);
  return r;
}

// Ring reduce-scatter: part j starts on rank j + 1 and moves one rank on
// each step, combined there with that rank's part j, to end on rank j.
Chunks reduceScatterRing(poplar::Graph &graph, const Tensor &data,
                         CollectiveOperator op, Sequence &prog,
                         const poplar::DebugContext &dc, const std::string &fn) {
  Ranks ranks = ranksOf(data, fn);
  const auto n = static_cast<unsigned>(ranks.slices.size());
  if (op == CollectiveOperator::SQUARE_ADD)
    for (auto &s : ranks.slices)
      s = popops::square(graph, s, prog, {dc, fn + "/square"});
  Chunks result(n);
  result.originalInput = data;
  std::vector<Tensor> acc(n);
  for (unsigned j = 0; j != n; ++j) {
    const unsigned owner = op == CollectiveOperator::LOCAL ? j : (j + 1) % n;
    acc[j] = ranks.piece(owner, j);
  }
  if (op != CollectiveOperator::LOCAL) {
    for (unsigned step = 1; step != n; ++step) {
      std::vector<Tensor> sent, received, local;
      for (unsigned j = 0; j != n; ++j) {
        if (acc[j].numElements() == 0)
          continue;
        const unsigned rank = (j + 1 + step) % n;
        const Tensor mine = ranks.piece(rank, j);
        Tensor in = graph.clone(mine, {dc, fn + "/received"});
        sent.push_back(acc[j]);
        received.push_back(in);
        local.push_back(mine);
        acc[j] = in;
      }
      if (sent.empty())
        break;
      prog.add(Copy(poplar::concat(sent), poplar::concat(received), false,
                    {dc, fn + "/step" + std::to_string(step)}));
      popops::mapInPlace(graph, combineOp(op), poplar::concat(received),
                         poplar::concat(local), prog,
                         {dc, fn + "/combine" + std::to_string(step)});
    }
    if (op == CollectiveOperator::MEAN) {
      std::vector<Tensor> parts;
      for (const auto &a : acc)
        if (a.numElements() != 0)
          parts.push_back(a);
      popops::mapInPlace(graph,
                         popops::expr::Divide(popops::expr::_1,
                                              popops::expr::Const(n)),
                         {poplar::concat(parts)}, prog, {dc, fn + "/mean"});
    }
  } else {
    // Each rank keeps its own part: a copy it owns.
    for (unsigned j = 0; j != n; ++j) {
      Tensor own = graph.clone(acc[j], {dc, fn + "/local"});
      if (acc[j].numElements() != 0)
        prog.add(Copy(acc[j], own, false, {dc, fn + "/local"}));
      acc[j] = own;
    }
  }
  for (unsigned j = 0; j != n; ++j)
    result.chunks[j] = Chunk(acc[j], j, static_cast<unsigned>(
                                            std::min(ranks.numElements,
                                                     j * ranks.chunk)));
  return result;
}

} // namespace

Chunks reduceScatterWithinReplica(poplar::Graph &graph, const Tensor &data,
                                  CollectiveOperator op, Sequence &prog,
                                  const poplar::DebugContext &dc,
                                  const poplar::OptionFlags &options) {
  checkOptions(options, "reduceScatterWithinReplica");
  return reduceScatterRing(graph, data, op, prog, dc,
                           "reduceScatterWithinReplica");
}

Tensor allGatherWithinReplica(poplar::Graph &graph, const Chunks &toGather,
                              Sequence &prog, const poplar::DebugContext &dc,
                              const poplar::OptionFlags &options) {
  const std::string fn = "allGatherWithinReplica";
  checkOptions(options, fn);
  const Tensor &input = toGather.originalInput;
  if (!input.valid() || input.rank() == 0 ||
      input.dim(0) != toGather.chunks.size())
    throw poputil::poplibs_error(
        fn + ": the chunks do not come from an input of one slice per chunk");
  Tensor out = graph.clone(input, {dc, fn + "/out"});
  const Ranks ranks = ranksOf(out, fn);
  std::vector<Tensor> from, to;
  for (unsigned rank = 0; rank != ranks.slices.size(); ++rank)
    for (const Chunk &c : toGather.chunks) {
      const Tensor dst = ranks.piece(rank, c.index);
      if (dst.numElements() != c.tensor.numElements())
        throw poputil::poplibs_error(fn + ": chunk " + std::to_string(c.index) +
                                     " has the wrong number of elements");
      if (dst.numElements() == 0)
        continue;
      from.push_back(c.tensor.flatten());
      to.push_back(dst);
    }
  if (!from.empty())
    prog.add(Copy(poplar::concat(from), poplar::concat(to), false,
                  {dc, fn + "/gather"}));
  return out;
}

Tensor allReduceWithinReplica(poplar::Graph &graph, const Tensor &data,
                              CollectiveOperator op, Sequence &prog,
                              const poplar::DebugContext &dc,
                              const poplar::OptionFlags &options) {
  checkOptions(options, "allReduceWithinReplica");
  if (op == CollectiveOperator::LOCAL) {
    Tensor out = graph.clone(data, {dc, "allReduceWithinReplica/out"});
    prog.add(Copy(data, out, false, {dc, "allReduceWithinReplica/local"}));
    return out;
  }
  const Chunks chunks = reduceScatterRing(graph, data, op, prog, dc,
                                          "allReduceWithinReplica");
  return allGatherWithinReplica(graph, chunks, prog, dc);
}

std::vector<unsigned> perIPUTiles(const poplar::Graph &graph, unsigned offset,
                                  unsigned numTiles, bool sorted,
                                  bool tilePairs) {
  const unsigned perIpu = graph.getTarget().getTilesPerIPU();
  if (offset + numTiles > perIpu)
    throw poputil::poplibs_error(
        "perIPUTiles: tiles [" + std::to_string(offset) + ", " +
        std::to_string(offset + numTiles) + ") do not fit in the " +
        std::to_string(perIpu) + " tiles of an IPU");
  if (tilePairs && (offset % 2 != 0 || numTiles % 2 != 0))
    throw poputil::poplibs_error(
        "perIPUTiles: with tilePairs the offset and count must be even, so "
        "that both tiles of each pair are chosen (offset " +
        std::to_string(offset) + ", " + std::to_string(numTiles) + " tiles)");
  std::vector<unsigned> tiles(numTiles);
  for (unsigned i = 0; i != numTiles; ++i)
    tiles[i] = offset + i;
  // The range is chosen in ascending order: sorting leaves it as it is.
  (void)sorted;
  return tiles;
}

} // namespace gcl

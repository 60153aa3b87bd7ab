// Counted loops: an index tensor the body can read, stepped by an in-place
// add at the end of every iteration. A loop whose length is known when the
// graph is built is a Repeat; one bounded by a tensor is a RepeatWhileTrue
// testing the count against the limit before every iteration.
#include <popops/ElementWise.hpp>
#include <popops/Loop.hpp>

#include "RowVertices.hpp"

#include <poputil/exceptions.hpp>

#include <limits>
#include <string>

namespace popops {

using poplar::Tensor;
namespace program = poplar::program;

program::Sequence countedLoop(poplar::Graph &graph, std::size_t begin,
                              std::size_t end, std::size_t step,
                              const CountedLoopBodyType &body,
                              const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "countedLoop");
  if (step == 0)
    throw poputil::poplibs_error(op + ": the step must not be 0");
  if (begin > end)
    throw poputil::poplibs_error(op + ": begin " + std::to_string(begin) +
                                 " is after end " + std::to_string(end));
  const std::size_t iterations = (end - begin + step - 1) / step;
  // Every value the body sees must fit (the last increment may wrap).
  const std::size_t uintMax = std::numeric_limits<unsigned>::max();
  if (iterations > uintMax ||
      (iterations != 0 && begin + (iterations - 1) * step > uintMax))
    throw poputil::poplibs_error(op + ": the index does not fit in an "
                                      "unsigned int");
  Tensor index =
      graph.addVariable(poplar::UNSIGNED_INT, {}, {op + "/index"});
  graph.setTileMapping(index, 0);
  Tensor first = graph.addConstant(poplar::UNSIGNED_INT, {},
                                   static_cast<unsigned>(begin),
                                   {op + "/begin"});
  graph.setTileMapping(first, 0);
  program::Sequence loop{poplar::DebugContext(op)};
  loop.add(program::Copy(first, index));
  if (iterations == 0)
    return loop;
  program::Sequence iteration{poplar::DebugContext(op + "/iteration")};
  iteration.add(body(index));
  addInPlace(graph, index, static_cast<unsigned>(step), iteration,
             {op + "/step"});
  loop.add(program::Repeat(static_cast<unsigned>(iterations), iteration));
  return loop;
}

program::Sequence countedLoop(poplar::Graph &graph, std::size_t count,
                              const CountedLoopBodyType &body,
                              const poplar::DebugContext &debugContext) {
  return countedLoop(graph, 0, count, 1, body, debugContext);
}

program::Sequence countedForLoop(poplar::Graph &graph, const Tensor &count,
                                 int initialCount, const Tensor &countLimit,
                                 int countStep,
                                 const program::Program &body,
                                 const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "countedForLoop");
  const auto type = count.elementType();
  if ((type != poplar::INT && type != poplar::UNSIGNED_INT) ||
      count.numElements() != 1)
    throw poputil::poplibs_error(
        op + ": the count '" + count.getDebugStr() +
        "' must be one INT or UNSIGNED_INT, not " +
        std::to_string(count.numElements()) + " of " + type.toString().str());
  if (countLimit.elementType() != type || countLimit.numElements() != 1)
    throw poputil::poplibs_error(op + ": the limit '" +
                                 countLimit.getDebugStr() +
                                 "' must be one element of the count's type, " +
                                 type.toString().str());
  if (countStep == 0)
    throw poputil::poplibs_error(op + ": the step must not be 0");
  if (type == poplar::UNSIGNED_INT && initialCount < 0)
    throw poputil::poplibs_error(op + ": an unsigned count cannot start at " +
                                 std::to_string(initialCount));
  const Tensor c = count.reshape({});
  const Tensor limit = countLimit.reshape({});
  Tensor first = type == poplar::INT
                     ? graph.addConstant(type, {}, initialCount, {op + "/initial"})
                     : graph.addConstant(type, {},
                                         static_cast<unsigned>(initialCount),
                                         {op + "/initial"});
  graph.setTileMapping(first, 0);
  program::Sequence loop{poplar::DebugContext(op)};
  loop.add(program::Copy(first, c));
  // Before every iteration: is the count still short of the limit?
  program::Sequence test{poplar::DebugContext(op + "/test")};
  const Tensor more = countStep > 0 ? lt(graph, c, limit, test, {op + "/test"})
                                    : gt(graph, c, limit, test, {op + "/test"});
  program::Sequence iteration{poplar::DebugContext(op + "/iteration")};
  iteration.add(body);
  // Unsigned counts step down by wrapping around.
  if (type == poplar::INT)
    addInPlace(graph, c, countStep, iteration, {op + "/step"});
  else
    addInPlace(graph, c, static_cast<unsigned>(countStep), iteration,
               {op + "/step"});
  loop.add(program::RepeatWhileTrue(test, more, iteration));
  return loop;
}

program::Sequence countedForLoop(poplar::Graph &graph, int initialCount,
                                 const Tensor &countLimit, int countStep,
                                 const program::Program &body,
                                 const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "countedForLoop");
  Tensor count =
      graph.addVariable(countLimit.elementType(), {}, {op + "/count"});
  graph.setTileMapping(count, 0);
  return countedForLoop(graph, count, initialCount, countLimit, countStep,
                        body, debugContext);
}

} // namespace popops

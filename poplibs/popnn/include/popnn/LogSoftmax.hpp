// log(softmax(t)) over the innermost dimension, computed stably as
// t - max - log(sum(exp(t - max))) per row. FLOAT or HALF.
#ifndef POPNN_LOGSOFTMAX_HPP
#define POPNN_LOGSOFTMAX_HPP

#include <popnn/popnn_export.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {

POPNN_API poplar::Tensor logSoftmax(poplar::Graph &graph, poplar::Tensor t,
                                    poplar::program::Sequence &prog,
                                    const poplar::DebugContext &debugContext = {});
POPNN_API void logSoftmaxInPlace(poplar::Graph &graph, poplar::Tensor t,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // POPNN_LOGSOFTMAX_HPP

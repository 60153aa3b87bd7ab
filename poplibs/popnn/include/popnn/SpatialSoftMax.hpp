// Spatial softmax: the expected coordinates of the activations of 2-D
// fields.
#ifndef POPNN_SPATIALSOFTMAX_HPP
#define POPNN_SPATIALSOFTMAX_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/popnn_export.hpp>

#include <utility>

namespace popnn {

/// For fields of shape [F, H, W] (FLOAT or HALF): a softmax over all the
/// elements of fields / temperature (unless disableSoftmax, when fields
/// are taken as the probabilities), then, for each field, the expected
/// coordinates under those probabilities, with y and x spaced evenly over
/// [-1, 1] down the rows and across the columns. Returns the coordinates,
/// of shape [F, 2] (y in column 0, x in column 1), and the temperature: a
/// scalar variable of the fields' type starting at `temperature`, which a
/// program may train. Throws poputil::poplibs_error naming the fields for
/// another rank or type.
POPNN_API std::pair<poplar::Tensor, poplar::Tensor>
spatialSoftMax2D(poplar::Graph &graph, poplar::program::Sequence &prog,
                 const poplar::Tensor &fields, float temperature,
                 bool disableSoftmax = false,
                 const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // POPNN_SPATIALSOFTMAX_HPP

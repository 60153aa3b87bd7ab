// The strided-box algebra: how each kind of view turns the boxes of its
// inputs into its own boxes, and the flat "modes" of a box that reshape,
// flat runs and storage ranges all reason with.
#ifndef POPLAR_SRC_GRAPH_TENSORLAYOUT_HPP
#define POPLAR_SRC_GRAPH_TENSORLAYOUT_HPP

#include "graph/TensorImpl.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace poplar::layout {

/// Row-major place values of a shape: the flattened index of coordinates c
/// is the sum of c[d] * places[d].
std::vector<std::size_t> placeValues(const std::vector<std::size_t> &shape);

/// One axis of a box in flat terms: `extent` steps, each moving `place` in
/// the flattened index of the view and `stride` in storage.
struct Mode {
  std::size_t extent = 1;
  std::size_t place = 1;
  std::int64_t stride = 0;
};

/// The modes of a box, outermost first: dimensions of extent one are left
/// out and neighbours that continue each other both in the flattened index
/// and in storage are merged into one mode.
std::vector<Mode> flatModes(const StridedBox &box,
                            const std::vector<std::size_t> &places);

/// The flattened index of a box's first element.
std::size_t flatBase(const StridedBox &box,
                     const std::vector<std::size_t> &places);

/// Calls f(place, storage) for every choice of k[i] < modes[i].extent, with
/// place = sum k[i] * modes[i].place and storage = sum k[i] * modes[i].stride,
/// the last mode varying fastest.
template <class F>
void forEachCombination(const std::vector<Mode> &modes, F &&f) {
  const std::size_t count = modes.size();
  std::vector<std::size_t> k(count, 0);
  std::size_t place = 0;
  std::int64_t storage = 0;
  for (;;) {
    f(place, storage);
    std::size_t i = count;
    for (;;) {
      if (i == 0)
        return;
      --i;
      const Mode &m = modes[i];
      if (++k[i] < m.extent) {
        place += m.place;
        storage += m.stride;
        break;
      }
      // Wrap this mode back to its start and carry into the next one out.
      place -= (m.extent - 1) * m.place;
      storage -= static_cast<std::int64_t>(m.extent - 1) * m.stride;
      k[i] = 0;
    }
  }
}

/// The layout of the whole of variable varId with the given shape.
Layout variableLayout(std::size_t varId, const std::vector<std::size_t> &shape);

/// The layout of the view `node` (any kind but Variable), given the layouts
/// of its inputs in order. Inputs are taken by value: they are transformed
/// in place.
Layout viewLayout(const Tensor::Impl &node, std::vector<Layout> inputs);

} // namespace poplar::layout

#endif // POPLAR_SRC_GRAPH_TENSORLAYOUT_HPP

// The spatial attributes convolutions and poolings share (kernel_shape,
// strides, pads, dilations, auto_pad, ceil_mode), resolved against an
// input's field into the padding each side and the output field.
#ifndef POPART_SRC_OPS_SPATIAL_HPP
#define POPART_SRC_OPS_SPATIAL_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <string>
#include <vector>

namespace popart {

struct SpatialAttributes {
  std::vector<int64_t> kernelShape; // empty: taken from the weights
  std::vector<int64_t> strides;     // empty: all 1
  std::vector<int64_t> pads;        // [begin..., end...]; empty: all 0
  std::vector<int64_t> dilations;   // empty: all 1
  std::string autoPad = "NOTSET";
  bool ceilMode = false;

  /// Reads the attributes (ceil_mode only when `readCeilMode`, dilations
  /// only when `readDilations`); an unknown auto_pad is a popart::error
  /// naming the op.
  void read(const Attributes &a, const std::string &opName, bool readCeilMode,
            bool readDilations);
};

/// One spatial dimension resolved: the padding each side and the output
/// size.
struct SpatialDim {
  int64_t paddingLower = 0, paddingUpper = 0, outSize = 0;
};

/// Resolves every spatial dimension of `field` for a kernel of `kernel`
/// elements; popart::error naming the op when the lists disagree in
/// length or the output would be empty. With ceil_mode, a last window that
/// would start in the upper padding is dropped (as PyTorch does) and the
/// padding needed for the last window is added to paddingUpper.
std::vector<SpatialDim> resolveSpatial(const SpatialAttributes &attrs,
                                       const Shape &field,
                                       const Shape &kernel, const Op &op);

/// The attribute's value, or `n` copies of `def` when it is empty.
std::vector<int64_t> orDefault(const std::vector<int64_t> &v, std::size_t n,
                               int64_t def);

} // namespace popart

#endif

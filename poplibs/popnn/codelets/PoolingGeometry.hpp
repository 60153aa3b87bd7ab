// The pooling vertices' geometry (Pooling.cpp, PoolingChannelsLast.cpp):
// sizes of the input and output fields, the kernel, the stride and the
// lower padding (negative: truncation), in three field dimensions (fewer
// are given as leading dimensions of size 1).
#ifndef POPNN_CODELETS_POOLINGGEOMETRY_HPP
#define POPNN_CODELETS_POOLINGGEOMETRY_HPP

namespace popnn {
namespace pooling_codelet {

struct Geometry {
  unsigned in[3], out[3], kernel[3], stride[3];
  int padLower[3];

  unsigned outputs() const { return out[0] * out[1] * out[2]; }

  // The input elements of the window of output element (o0, o1, o2) that
  // are not padding: [lo[d], hi[d]) along each dimension.
  void window(unsigned o0, unsigned o1, unsigned o2, int lo[3],
              int hi[3]) const {
    const unsigned o[3] = {o0, o1, o2};
    for (unsigned d = 0; d != 3; ++d) {
      const int start = int(o[d] * stride[d]) - padLower[d];
      lo[d] = start < 0 ? 0 : start;
      const int end = start + int(kernel[d]);
      hi[d] = end > int(in[d]) ? int(in[d]) : end;
    }
  }

  // How many input elements the window of (o0, o1, o2) holds.
  unsigned count(unsigned o0, unsigned o1, unsigned o2) const {
    int lo[3], hi[3];
    window(o0, o1, o2, lo, hi);
    unsigned n = 1;
    for (unsigned d = 0; d != 3; ++d)
      n *= hi[d] > lo[d] ? unsigned(hi[d] - lo[d]) : 0u;
    return n;
  }

  // Calls fn(input index) for each input element of the window of output
  // element (o0, o1, o2) that is not padding.
  template <class F>
  void forEachInput(unsigned o0, unsigned o1, unsigned o2, F fn) const {
    int lo[3], hi[3];
    window(o0, o1, o2, lo, hi);
    for (int i0 = lo[0]; i0 < hi[0]; ++i0)
      for (int i1 = lo[1]; i1 < hi[1]; ++i1)
        for (int i2 = lo[2]; i2 < hi[2]; ++i2)
          fn((unsigned(i0) * in[1] + unsigned(i1)) * in[2] + unsigned(i2));
  }

  // Calls fn(output index, o0, o1, o2) for each output element.
  template <class F> void forEachOutput(F fn) const {
    unsigned index = 0;
    for (unsigned o0 = 0; o0 != out[0]; ++o0)
      for (unsigned o1 = 0; o1 != out[1]; ++o1)
        for (unsigned o2 = 0; o2 != out[2]; ++o2)
          fn(index++, o0, o1, o2);
  }
};

// Sets every element of a plane to zero.
template <class T, class Plane> void zero(Plane &plane) {
  for (unsigned i = 0; i != plane.size(); ++i)
    plane[i] = T(0.0f);
}

} // namespace pooling_codelet

using pooling_codelet::Geometry;

} // namespace popnn

// The geometry fields every pooling vertex has.
#define POOLING_GEOMETRY_FIELDS                                                \
  unsigned in0, in1, in2, out0, out1, out2;                                    \
  unsigned kernel0, kernel1, kernel2, stride0, stride1, stride2;               \
  int padLower0, padLower1, padLower2;                                         \
  Geometry geometry() const {                                                  \
    return {{in0, in1, in2},                                                   \
            {out0, out1, out2},                                                \
            {kernel0, kernel1, kernel2},                                       \
            {stride0, stride1, stride2},                                       \
            {padLower0, padLower1, padLower2}};                                \
  }

#endif // POPNN_CODELETS_POOLINGGEOMETRY_HPP

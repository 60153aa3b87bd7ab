// NDArrayWrapper: an IArray over memory the user owns (not copied).
#ifndef POPART_NDARRAYWRAPPER_HPP
#define POPART_NDARRAYWRAPPER_HPP

#include <popart/error.hpp>
#include <popart/iarray.hpp>
#include <popart/tensorinfo.hpp>

#include <vector>

namespace popart {

template <typename T> class NDArrayWrapper : public IArray {
public:
  NDArrayWrapper(T *d, const TensorInfo &i) : data_(d), info(i) {
    if (i.dataType() != getDataType<T>())
      throw error("NDArrayWrapper: the element type of the array does not "
                  "match the TensorInfo's {}",
                  i.data_type());
  }
  NDArrayWrapper(T *d, const std::vector<int64_t> &shape)
      : data_(d), info(getDataType<T>(), shape) {}
  NDArrayWrapper(const NDArrayWrapper &) = default;

  T &operator[](int64_t index) { return data_[index]; }
  const T &operator[](int64_t index) const { return data_[index]; }
  /// The element at a multi-dimensional index (row-major).
  T &operator[](const std::vector<int64_t> &indices) {
    return data_[flatten(indices)];
  }
  int64_t flatten(const std::vector<int64_t> &indices) const {
    if (indices.size() != rank())
      throw error("NDArrayWrapper: {} indices for an array of rank {}",
                  indices.size(), rank());
    int64_t flat = 0;
    for (std::size_t d = 0; d < indices.size(); ++d) {
      if (indices[d] < 0 || indices[d] >= dim(d))
        throw error("NDArrayWrapper: index {} out of range for dimension {} "
                    "of size {}",
                    indices[d], d, dim(d));
      flat = flat * dim(d) + indices[d];
    }
    return flat;
  }
  std::vector<int64_t> unflatten(int64_t index) const {
    std::vector<int64_t> out(rank());
    for (std::size_t d = rank(); d-- > 0;) {
      out[d] = index % dim(d);
      index /= dim(d);
    }
    return out;
  }

  void *data() override { return data_; }
  DataType dataType() const override { return info.dataType(); }
  std::size_t rank() const override { return info.rank(); }
  int64_t dim(size_t index) const override { return info.dim(int(index)); }
  std::size_t nelms() const override { return std::size_t(info.nelms()); }
  const Shape shape() const override { return info.shape(); }

private:
  T *data_;
  TensorInfo info;
};

} // namespace popart

#endif

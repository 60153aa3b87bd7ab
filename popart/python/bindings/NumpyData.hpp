// numpy arrays as popart's tensor data: element types both ways, arrays
// seen as TensorInfo, ConstVoidData and IArray without copying when the
// array is C-contiguous (a copy otherwise, for inputs only).
#ifndef POPART_PYTHON_NUMPYDATA_HPP
#define POPART_PYTHON_NUMPYDATA_HPP

#include <popart/iarray.hpp>
#include <popart/tensorinfo.hpp>
#include <popart/voiddata.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

namespace popart {
namespace python {

namespace py = pybind11;

/// The popart type of a numpy dtype; popart::error naming `what` for one
/// popart has no type for (complex, object, ...).
DataType dataTypeOf(const py::dtype &dtype, const std::string &what);
/// The numpy dtype of a popart type; popart::error for one numpy lacks.
py::dtype numpyDtypeOf(DataType type);
/// A numpy dtype from anything numpy takes as one ("float32", np.int32,
/// float, a dtype), or a popart type name ("FLOAT", "INT32", ...).
DataType dataTypeFromPython(const py::handle &dtype);

/// The type and shape of an array.
TensorInfo tensorInfoOf(const py::array &a, const std::string &what);

/// `a` itself when it is C-contiguous, else a C-contiguous copy.
py::array cContiguous(const py::array &a);

/// A numpy array as the IArray of a StepIO. Inputs may be copied to make
/// them contiguous; outputs must be contiguous and writeable, since the
/// session writes into the user's memory.
class NumpyArray : public IArray {
public:
  enum class Use { Input, Output };
  NumpyArray(py::array a, Use use, const std::string &tensorId);

  void *data() override { return data_; }
  DataType dataType() const override { return type_; }
  std::size_t rank() const override { return shape_.size(); }
  int64_t dim(size_t index) const override;
  std::size_t nelms() const override;
  const Shape shape() const override { return shape_; }

private:
  py::array array_; // keeps the memory alive
  void *data_;
  DataType type_;
  Shape shape_;
};

} // namespace python
} // namespace popart

namespace pybind11 {
namespace detail {

/// Tensor data given to the builder (constant, addInitializedInputTensor):
/// any numpy array, or anything numpy.asarray takes. The caster keeps the
/// (C-contiguous) array alive while the call that reads it runs.
template <> struct type_caster<popart::ConstVoidData> {
  PYBIND11_TYPE_CASTER(popart::ConstVoidData, const_name("numpy.ndarray"));

  bool load(handle src, bool convert) {
    if (!convert && !isinstance<array>(src))
      return false;
    keep = popart::python::cContiguous(array::ensure(src));
    if (!keep)
      return false;
    value = popart::ConstVoidData(keep.data(),
                                  popart::python::tensorInfoOf(keep, "tensor data"));
    return true;
  }

  static handle cast(const popart::ConstVoidData &data, return_value_policy,
                     handle) {
    // A copy: the view's memory belongs to its owner.
    const auto dtype = popart::python::numpyDtypeOf(data.info.dataType());
    std::vector<ssize_t> shape(data.info.shape().begin(), data.info.shape().end());
    array out(dtype, shape);
    std::memcpy(out.mutable_data(), data.data, static_cast<size_t>(data.info.nbytes()));
    return out.release();
  }

private:
  array keep;
};

} // namespace detail
} // namespace pybind11

#endif

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
#include <vector>

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

/// Whether an array holds strings (dtype object, str or bytes).
bool isStringArray(const py::array &a);
/// The elements of a string array as std::string (str as UTF-8);
/// popart::error naming `what` for an element that is not str or bytes.
std::vector<std::string> stringsOf(const py::array &a, const std::string &what);
/// A string as Python str (UTF-8), or bytes when it is not UTF-8.
py::object pythonString(const std::string &s);

/// A new numpy object array of `shape` holding `strings` (as many).
py::array stringArray(const Shape &shape, const std::vector<std::string> &strings);

/// `a` itself when it is C-contiguous, else a C-contiguous copy.
py::array cContiguous(const py::array &a);

/// A numpy array as the IArray of a StepIO. Inputs may be copied to make
/// them contiguous; outputs must be contiguous and writeable, since the
/// session writes into the user's memory. STRING arrays (numpy str, bytes
/// or object arrays) are held as std::string elements, copied from the
/// array for inputs and back into it (dtype object) for outputs.
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

  bool holdsStrings() const { return type_ == DataType::STRING; }
  /// Outputs: strings into the numpy array from element `offset` on.
  void writeStrings(std::size_t offset, const std::string *strings, std::size_t n);
  /// Outputs: the array's own buffer of strings into the numpy array.
  void writeStrings();

private:
  py::array array_; // keeps the memory alive
  std::vector<std::string> strings_; // STRING data
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
    const auto info = popart::python::tensorInfoOf(keep, "tensor data");
    if (popart::python::isStringArray(keep)) {
      strings = popart::python::stringsOf(keep, "tensor data");
      value = popart::ConstVoidData(strings.data(), info);
      return true;
    }
    value = popart::ConstVoidData(keep.data(), info);
    return true;
  }

  static handle cast(const popart::ConstVoidData &data, return_value_policy,
                     handle) {
    // A copy: the view's memory belongs to its owner.
    const auto dtype = popart::python::numpyDtypeOf(data.info.dataType());
    std::vector<ssize_t> shape(data.info.shape().begin(), data.info.shape().end());
    array out(dtype, shape);
    if (data.info.dataType() == popart::DataType::STRING) {
      const auto *strings = static_cast<const std::string *>(data.data);
      object flat = out.attr("reshape")(-1);
      for (int64_t i = 0; i < data.info.nelms(); ++i)
        flat[int_(i)] = popart::python::pythonString(strings[i]);
      return out.release();
    }
    std::memcpy(out.mutable_data(), data.data, static_cast<size_t>(data.info.nbytes()));
    return out.release();
  }

private:
  array keep;
  std::vector<std::string> strings; // STRING data, held while the call runs
};

} // namespace detail
} // namespace pybind11

#endif

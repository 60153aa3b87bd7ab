#include "NumpyData.hpp"

#include <popart/error.hpp>

#include <numeric>

namespace popart {
namespace python {

DataType dataTypeOf(const py::dtype &dtype, const std::string &what) {
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  switch (kind) {
  case 'b':
    return DataType::BOOL;
  case 'f':
    if (size == 2)
      return DataType::FLOAT16;
    if (size == 4)
      return DataType::FLOAT;
    if (size == 8)
      return DataType::DOUBLE;
    break;
  case 'i':
    if (size == 1)
      return DataType::INT8;
    if (size == 2)
      return DataType::INT16;
    if (size == 4)
      return DataType::INT32;
    if (size == 8)
      return DataType::INT64;
    break;
  case 'O': // str or bytes objects
  case 'U': // fixed-width str
  case 'S': // fixed-width bytes
    return DataType::STRING;
  case 'u':
    if (size == 1)
      return DataType::UINT8;
    if (size == 2)
      return DataType::UINT16;
    if (size == 4)
      return DataType::UINT32;
    if (size == 8)
      return DataType::UINT64;
    break;
  default:
    break;
  }
  throw error("{}: numpy type {} has no popart type", what,
              std::string(py::str(static_cast<const py::object &>(dtype))));
}

py::dtype numpyDtypeOf(DataType type) {
  switch (type) {
  case DataType::BOOL:
    return py::dtype("bool");
  case DataType::FLOAT16:
    return py::dtype("float16");
  case DataType::FLOAT:
    return py::dtype("float32");
  case DataType::DOUBLE:
    return py::dtype("float64");
  case DataType::INT8:
    return py::dtype("int8");
  case DataType::INT16:
    return py::dtype("int16");
  case DataType::INT32:
    return py::dtype("int32");
  case DataType::INT64:
    return py::dtype("int64");
  case DataType::UINT8:
    return py::dtype("uint8");
  case DataType::UINT16:
    return py::dtype("uint16");
  case DataType::UINT32:
    return py::dtype("uint32");
  case DataType::UINT64:
    return py::dtype("uint64");
  case DataType::STRING:
    return py::dtype("O");
  default:
    throw error("The popart type {} has no numpy type",
                getDataTypeInfo(type).name());
  }
}

DataType dataTypeFromPython(const py::handle &dtype) {
  if (py::isinstance<py::str>(dtype)) {
    // popart's names first ("FLOAT", "float32"), then numpy's ("f4", ...).
    const std::string name = dtype.cast<std::string>();
    try {
      return dataTypeFromString(name);
    } catch (const error &) {
    }
  }
  py::dtype numpyType;
  try {
    numpyType = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
  } catch (const py::error_already_set &) {
    throw error("'{}' is not a data type",
                std::string(py::str(py::reinterpret_borrow<py::object>(dtype))));
  }
  return dataTypeOf(numpyType, "TensorInfo");
}

TensorInfo tensorInfoOf(const py::array &a, const std::string &what) {
  Shape shape(a.shape(), a.shape() + a.ndim());
  return TensorInfo(dataTypeOf(a.dtype(), what), shape);
}

py::array cContiguous(const py::array &a) {
  if (a.flags() & py::array::c_style)
    return a;
  return py::array::ensure(a, py::array::c_style | py::array::forcecast);
}

bool isStringArray(const py::array &a) {
  const char kind = a.dtype().kind();
  return kind == 'O' || kind == 'U' || kind == 'S';
}

std::vector<std::string> stringsOf(const py::array &a,
                                   const std::string &what) {
  std::vector<std::string> out;
  py::list items = a.attr("ravel")().attr("tolist")();
  out.reserve(items.size());
  for (const auto &item : items) {
    if (py::isinstance<py::str>(item))
      out.push_back(item.cast<std::string>()); // UTF-8
    else if (py::isinstance<py::bytes>(item))
      out.push_back(std::string(item.cast<py::bytes>()));
    else
      throw error("{}: element {} is a {}, not a str or bytes (a STRING "
                  "tensor's data must be strings)",
                  what, out.size(), std::string(py::str(item.get_type().attr("__name__"))));
  }
  return out;
}

py::object pythonString(const std::string &s) {
  // str when the bytes are UTF-8, else the bytes themselves.
  PyObject *text = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()),
                                        "strict");
  if (text)
    return py::reinterpret_steal<py::object>(text);
  PyErr_Clear();
  return py::bytes(s);
}

NumpyArray::NumpyArray(py::array a, Use use, const std::string &tensorId) {
  const char *what = use == Use::Input ? "input" : "output";
  const std::string context =
      std::string("The ") + what + " array of tensor '" + tensorId + "'";
  type_ = dataTypeOf(a.dtype(), context);
  if (type_ == DataType::STRING) {
    // Strings are held as std::string (what popart's StepIO takes) and
    // copied to and from the numpy array's objects.
    if (use == Use::Output && a.dtype().kind() != 'O')
      throw error("{} must be a numpy array of dtype object, to receive "
                  "strings of any length",
                  context);
    array_ = a;
    shape_.assign(a.shape(), a.shape() + a.ndim());
    if (use == Use::Input)
      strings_ = stringsOf(a, context);
    else
      strings_.resize(nelms());
    data_ = strings_.data();
    return;
  }
  if (use == Use::Output) {
    if (!(a.flags() & py::array::c_style))
      throw error("{} is not C-contiguous: the session writes into it", context);
    if (!a.writeable())
      throw error("{} is not writeable", context);
    array_ = a;
    data_ = array_.mutable_data();
  } else {
    array_ = cContiguous(a);
    data_ = const_cast<void *>(array_.data());
  }
  shape_.assign(array_.shape(), array_.shape() + array_.ndim());
}

void NumpyArray::writeStrings(std::size_t offset, const std::string *strings,
                              std::size_t n) {
  py::gil_scoped_acquire gil;
  py::object flat = array_.attr("reshape")(-1);
  for (std::size_t i = 0; i < n; ++i)
    flat[py::int_(offset + i)] = pythonString(strings[i]);
}

void NumpyArray::writeStrings() { writeStrings(0, strings_.data(), strings_.size()); }

py::array stringArray(const Shape &shape, const std::vector<std::string> &strings) {
  py::gil_scoped_acquire gil;
  std::vector<ssize_t> dims(shape.begin(), shape.end());
  py::array out(py::dtype("O"), dims);
  py::object flat = out.attr("reshape")(-1);
  for (std::size_t i = 0; i < strings.size(); ++i)
    flat[py::int_(i)] = pythonString(strings[i]);
  return out;
}

int64_t NumpyArray::dim(size_t index) const {
  if (index >= shape_.size())
    throw error("Dimension {} of an array of rank {}", index, shape_.size());
  return shape_[index];
}

std::size_t NumpyArray::nelms() const {
  return std::accumulate(shape_.begin(), shape_.end(), std::size_t(1),
                         [](std::size_t n, int64_t d) { return n * std::size_t(d); });
}

} // namespace python
} // namespace popart

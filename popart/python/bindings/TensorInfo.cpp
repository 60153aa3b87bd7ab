// DataType, TensorInfo (from a type and a shape, the type as a popart name,
// a numpy dtype or a Python type, or from a numpy array), InputShapeInfo,
// and DebugContext (a plain string in Python).
#include "Bindings.hpp"
#include "NumpyData.hpp"

#include <popart/debugcontext.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/tensorinfo.hpp>

#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <sstream>

namespace popart {
namespace python {

namespace {

template <class T> std::string printed(const T &value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

TensorInfo makeTensorInfo(const py::handle &dtype, const py::handle &shape) {
  const DataType type = dataTypeFromPython(dtype);
  if (py::isinstance<py::str>(shape))
    // The C++ text form, "(2,3)".
    return TensorInfo(getDataTypeInfo(type).name(), shape.cast<std::string>());
  return TensorInfo(type, shape.cast<Shape>());
}

} // namespace

void bindTensorInfo(py::module_ &m) {
  {
    py::class_<DebugContext> cls(m, "DebugContext");
    cls.def(py::init<>());
    cls.def(py::init<const std::string &>(), py::arg("name"));
    cls.def("getPathName", &DebugContext::getPathName);
    cls.def("__repr__", [](const DebugContext &dc) { return dc.getPathName(); });
    py::implicitly_convertible<py::str, DebugContext>();
  }
  {
    py::enum_<DataType> en(m, "DataType");
    for (int t = 0; t <= static_cast<int>(DataType::UNDEFINED); ++t) {
      const auto type = static_cast<DataType>(t);
      en.value(getDataTypeInfo(type).name().c_str(), type);
    }
  }
  {
    py::class_<TensorInfo> cls(m, "TensorInfo");
    cls.def(py::init<>());
    cls.def(py::init([](const py::object &dtype, const py::object &shape) {
              return makeTensorInfo(dtype, shape);
            }),
            py::arg("dtype"), py::arg("shape"));
    cls.def(py::init([](const py::array &a) { return tensorInfoOf(a, "TensorInfo"); }),
            py::arg("array"));
    cls.def("data_type", &TensorInfo::data_type);
    cls.def("data_type_lcase", &TensorInfo::data_type_lcase);
    cls.def("dataType", &TensorInfo::dataType);
    cls.def("shape", &TensorInfo::shape);
    cls.def("metaShape", &TensorInfo::metaShape);
    cls.def("rank", &TensorInfo::rank);
    cls.def("nelms", &TensorInfo::nelms);
    cls.def("nbytes", &TensorInfo::nbytes);
    cls.def("dim", &TensorInfo::dim, py::arg("index"));
    cls.def("isSet", &TensorInfo::isSet);
    cls.def(py::self == py::self);
    cls.def(py::self != py::self);
    cls.def("__repr__", &printed<TensorInfo>);
    cls.def("__str__", &printed<TensorInfo>);
  }
  {
    py::class_<InputShapeInfo> cls(m, "InputShapeInfo");
    cls.def(py::init<>());
    cls.def("add", &InputShapeInfo::add, py::arg("tensorId"), py::arg("info"));
    cls.def("get", &InputShapeInfo::get, py::arg("tensorId"));
    cls.def("has", &InputShapeInfo::has, py::arg("tensorId"));
    cls.def("getAllTensorIds", &InputShapeInfo::getAllTensorIds);
  }
}

} // namespace python
} // namespace popart

// PyWeightsIO: numpy arrays by tensor id, which Session.readWeights fills
// and Session.writeWeights reads, in place.
#include "Bindings.hpp"
#include "NumpyData.hpp"

#include <popart/error.hpp>
#include <popart/stepio.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

namespace {

class PyWeightsIO : public IWeightsIO {
public:
  explicit PyWeightsIO(const py::dict &weights) {
    for (const auto &item : weights) {
      const auto id = item.first.cast<TensorId>();
      if (!py::isinstance<py::array>(item.second))
        throw error("PyWeightsIO: the value of tensor '{}' must be a numpy array "
                    "(the session reads and writes it in place), not {}",
                    id, std::string(py::str(item.second.get_type())));
      // The checks of an output array: C-contiguous and writeable.
      arrays.emplace(id, std::make_unique<NumpyArray>(
                             item.second.cast<py::array>(),
                             NumpyArray::Use::Output, id));
    }
  }

  bool contains(TensorId id) const override { return arrays.count(id) != 0; }

  MutableVoidData weight(TensorId id) const override {
    auto found = arrays.find(id);
    if (found == arrays.end())
      throw error("No tensor '{}' provided in PyWeightsIO's weights", id);
    MutableVoidData data;
    data.data = found->second->data();
    data.info = TensorInfo(found->second->dataType(), found->second->shape());
    return data;
  }

private:
  std::map<TensorId, std::unique_ptr<NumpyArray>> arrays;
};

} // namespace

void bindWeightsIO(py::module_ &m) {
  py::class_<IWeightsIO>(m, "IWeightsIO")
      .def("contains", &IWeightsIO::contains, py::arg("id"));
  py::class_<PyWeightsIO, IWeightsIO>(m, "PyWeightsIO")
      .def(py::init<const py::dict &>(), py::arg("weights"));
}

} // namespace python
} // namespace popart

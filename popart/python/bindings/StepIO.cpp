// PyStepIO (a step's data in numpy arrays, read and written in place) and
// PyStepIOCallback (the data from Python functions, called as the step
// runs).
#include "Bindings.hpp"
#include "NumpyData.hpp"

#include <popart/error.hpp>
#include <popart/stepio.hpp>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <memory>

namespace popart {
namespace python {

namespace {

/// The arrays of a step, seen through popart's StepIO: each array holds
/// every batch of the step for its tensor.
class PyStepIO : public IStepIO {
public:
  PyStepIO(const py::dict &inputs, const py::dict &outputs)
      : outputsDict(outputs) {
    std::map<TensorId, IArray &> ins, outs;
    for (const auto &item : inputs) {
      const auto id = item.first.cast<TensorId>();
      auto a = std::make_unique<NumpyArray>(
          arrayOf(item.second, "input", id), NumpyArray::Use::Input, id);
      ins.emplace(id, *a);
      arrays.push_back(std::move(a));
    }
    for (const auto &item : outputs) {
      const auto id = item.first.cast<TensorId>();
      if (!py::isinstance<py::array>(item.second))
        throw error("The output of anchor '{}' must be a numpy array (the "
                    "session writes into it), not a {}",
                    id, std::string(py::str(item.second.get_type())));
      auto a = std::make_unique<NumpyArray>(item.second.cast<py::array>(),
                                            NumpyArray::Use::Output, id);
      outs.emplace(id, *a);
      if (a->holdsStrings())
        stringOutputs[id] = a.get();
      arrays.push_back(std::move(a));
    }
    stepio = std::make_unique<StepIO>(ins, outs);
  }

  ConstVoidData in(TensorId id, int64_t n, bool prefetch, bool broadcast) override {
    return stepio->in(id, n, prefetch, broadcast);
  }
  void inComplete(TensorId id, int64_t n, bool broadcast) override {
    stepio->inComplete(id, n, broadcast);
  }
  // STRING anchors: the strings are gathered here, and written into the
  // array as each value is complete; a value of another size than the
  // array (a StringNormalizer's output) is given a new array by
  // fitStringAnchors.
  MutableVoidData out(TensorId id, int64_t n) override {
    auto strings = stringOutputs.find(id);
    if (strings == stringOutputs.end())
      return stepio->out(id, n);
    auto &held = written[id];
    if (held.size() >= strings->second->nelms())
      held.clear(); // a step of another run
    const std::size_t offset = held.size();
    held.resize(offset + static_cast<std::size_t>(n));
    pendingOffset[id] = offset;
    MutableVoidData data;
    data.data = held.data() + offset;
    data.info = TensorInfo(DataType::STRING, Shape{n});
    return data;
  }
  void outComplete(TensorId id) override {
    auto strings = stringOutputs.find(id);
    if (strings == stringOutputs.end()) {
      stepio->outComplete(id);
      return;
    }
    const auto &held = written[id];
    const std::size_t offset = pendingOffset[id];
    if (held.size() <= strings->second->nelms())
      strings->second->writeStrings(offset, held.data() + offset,
                                    held.size() - offset);
  }
  void assertNumElements(const std::map<TensorId, int64_t> &inputs,
                         const std::map<TensorId, int64_t> &anchors) const override {
    stepio->assertNumElements(inputs, anchors);
  }

  /// After a run: a STRING anchor whose value has another size than its
  /// array (a StringNormalizer's output, whose shape depends on its input's
  /// values) is replaced in the outputs dict by an array of the value's
  /// shape.
  void fitStringAnchors(const std::map<TensorId, Shape> &shapes) {
    for (auto &[id, held] : written) {
      NumpyArray &array = *stringOutputs.at(id);
      if (!held.empty() && held.size() != array.nelms()) {
        auto shape = shapes.find(id);
        const bool fits = shape != shapes.end() &&
                          TensorInfo(DataType::STRING, shape->second).nelms() ==
                              static_cast<int64_t>(held.size());
        const Shape fitted =
            fits ? shape->second : Shape{static_cast<int64_t>(held.size())};
        outputsDict[py::str(id)] = stringArray(fitted, held);
      }
      held.clear();
    }
  }

private:
  static py::array arrayOf(const py::handle &value, const char *what,
                           const TensorId &id) {
    if (py::isinstance<py::array>(value))
      return value.cast<py::array>();
    // Lists and scalars as numpy would make them.
    py::array a = py::array::ensure(value);
    if (!a)
      throw error("The {} of tensor '{}' is not array data", what, id);
    return a;
  }

  py::dict outputsDict;
  std::vector<std::unique_ptr<NumpyArray>> arrays; // before the StepIO using them
  std::map<TensorId, NumpyArray *> stringOutputs;
  std::map<TensorId, std::vector<std::string>> written;
  std::map<TensorId, std::size_t> pendingOffset;
  std::unique_ptr<StepIO> stepio;
};

/// Callbacks give the array of each input as the step needs it and the
/// array each anchor value is written to; the arrays are kept until the
/// matching completion callback. The engine may call from any thread, so
/// each call takes the GIL.
class PyStepIOCallback : public IStepIO {
public:
  using InputCallback = std::function<py::object(std::string, bool)>;
  using CompleteCallback = std::function<void(std::string)>;
  using OutputCallback = std::function<py::object(std::string)>;

  PyStepIOCallback(InputCallback input, CompleteCallback inputComplete,
                   OutputCallback output, CompleteCallback outputComplete)
      : input(std::move(input)), inputComplete(std::move(inputComplete)),
        output(std::move(output)), outputComplete(std::move(outputComplete)) {}

  ~PyStepIOCallback() override {
    py::gil_scoped_acquire gil;
    liveInputs.clear();
    liveOutputs.clear();
  }

  ConstVoidData in(TensorId id, int64_t n, bool prefetch, bool) override {
    py::gil_scoped_acquire gil;
    py::object value = input(id, prefetch);
    py::array a = py::array::ensure(value);
    if (!a)
      throw error("input_callback gave no array for tensor '{}'", id);
    auto array = std::make_unique<NumpyArray>(a, NumpyArray::Use::Input, id);
    ConstVoidData data(array->data(), TensorInfo(array->dataType(), array->shape()));
    if (data.info.nelms() != n)
      throw error("input_callback gave {} elements for tensor '{}', not the {} "
                  "of one batch",
                  data.info.nelms(), id, n);
    liveInputs[id] = std::move(array);
    return data;
  }

  void inComplete(TensorId id, int64_t, bool) override {
    py::gil_scoped_acquire gil;
    inputComplete(id);
    liveInputs.erase(id);
  }

  MutableVoidData out(TensorId id, int64_t n) override {
    py::gil_scoped_acquire gil;
    py::object value = output(id);
    if (!py::isinstance<py::array>(value))
      throw error("output_callback gave no numpy array for anchor '{}'", id);
    auto array = std::make_unique<NumpyArray>(value.cast<py::array>(),
                                              NumpyArray::Use::Output, id);
    if (static_cast<int64_t>(array->nelms()) < n)
      throw error("The output array of anchor '{}' has {} elements, fewer than "
                  "the {} of one value",
                  id, array->nelms(), n);
    MutableVoidData data;
    data.data = array->data();
    data.info = TensorInfo(array->dataType(), array->shape());
    liveOutputs[id] = std::move(array);
    return data;
  }

  void outComplete(TensorId id) override {
    py::gil_scoped_acquire gil;
    auto live = liveOutputs.find(id);
    if (live != liveOutputs.end() && live->second->holdsStrings())
      live->second->writeStrings();
    outputComplete(id);
    liveOutputs.erase(id);
  }

private:
  InputCallback input;
  CompleteCallback inputComplete;
  OutputCallback output;
  CompleteCallback outputComplete;
  std::map<TensorId, std::unique_ptr<NumpyArray>> liveInputs;
  std::map<TensorId, std::unique_ptr<NumpyArray>> liveOutputs;
};

} // namespace

void bindStepIO(py::module_ &m) {
  py::class_<IStepIO>(m, "IStepIO")
      .def("enableRuntimeAsserts", &IStepIO::enableRuntimeAsserts, py::arg("b"))
      .def("runtimeAssertsEnabled", &IStepIO::runtimeAssertsEnabled);
  py::class_<PyStepIO, IStepIO>(m, "PyStepIO")
      .def(py::init<const py::dict &, const py::dict &>(), py::arg("inputs"),
           py::arg("outputs"))
      .def("_fitStringAnchors", &PyStepIO::fitStringAnchors, py::arg("shapes"));
  py::class_<PyStepIOCallback, IStepIO>(m, "PyStepIOCallback")
      .def(py::init<PyStepIOCallback::InputCallback, PyStepIOCallback::CompleteCallback,
                    PyStepIOCallback::OutputCallback,
                    PyStepIOCallback::CompleteCallback>(),
           py::arg("input_callback"), py::arg("input_complete_callback"),
           py::arg("output_callback"), py::arg("output_complete_callback"));
}

} // namespace python
} // namespace popart

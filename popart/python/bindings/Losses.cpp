// The loss objects of earlier releases (NllLoss, L1Loss, IdentityLoss),
// given to a session as `losses=[...]`; their output(0) is the loss tensor
// to anchor.
#include "Bindings.hpp"

#include <popart/op/identity.hpp>
#include <popart/op/l1.hpp>
#include <popart/op/nll.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

void bindLosses(py::module_ &m) {
  py::class_<Loss> loss(m, "Loss");
  loss.def("input", &Loss::input, py::arg("i"));
  loss.def("input_size", &Loss::input_size);
  loss.def("output", &Loss::output, py::arg("i"));
  loss.def("output_size", &Loss::output_size);
  loss.def("getReductionType", &Loss::getReductionType);
  loss.def("getStreamTensorNames", &Loss::getStreamTensorNames);
  loss.def("virtualGraph", &Loss::virtualGraph, py::arg("value"));
  loss.def("hasVirtualGraphId", &Loss::hasVirtualGraphId);
  loss.def("getVirtualGraphId", &Loss::getVirtualGraphId);
  loss.def("pipelineStage", &Loss::pipelineStage, py::arg("value"));

  py::class_<NllLoss, Loss>(m, "NllLoss")
      .def(py::init<const TensorId &, const TensorId &, const TensorId &,
                    ReductionType>(),
           py::arg("probabilities"), py::arg("labels"), py::arg("output"),
           py::arg("reduction") = ReductionType::Sum)
      .def(py::init<const TensorId &, const TensorId &, const TensorId &, int,
                    ReductionType>(),
           py::arg("probabilities"), py::arg("labels"), py::arg("output"),
           py::arg("ignore_index"), py::arg("reduction") = ReductionType::Sum)
      .def("probsTensorId", &NllLoss::probsTensorId)
      .def("labelTensorId", &NllLoss::labelTensorId)
      .def("hasIgnoreIndex", &NllLoss::hasIgnoreIndex)
      .def("getIgnoreIndex", &NllLoss::getIgnoreIndex);

  py::class_<L1Loss, Loss>(m, "L1Loss")
      .def(py::init<const TensorId &, const TensorId &, float, ReductionType>(),
           py::arg("input"), py::arg("output"), py::arg("lambda"),
           py::arg("reduction") = ReductionType::Sum)
      .def("getInputId", [](const L1Loss &l) { return l.input(0); })
      .def("getLambda", &L1Loss::getLambda);

  py::class_<IdentityLoss, Loss>(m, "IdentityLoss")
      .def(py::init<const TensorId &, const TensorId &, ReductionType>(),
           py::arg("input"), py::arg("output"),
           py::arg("reduction") = ReductionType::Sum)
      .def("getInputId", [](const IdentityLoss &l) { return l.input(0); });
}

} // namespace python
} // namespace popart

// popart_core._mpi: popart's MPI layer (popart/mpi.hpp) for Python, what
// the horovod.popart module of this SDK is written on. Arrays are changed
// in place; the collectives release the GIL while they wait for the other
// processes.
#include "Bindings.hpp"

#include <popart/error.hpp>
#include <popart/mpi.hpp>

#include <pybind11/numpy.h>

#include <cstring>
#include <vector>

namespace popart {
namespace python {

namespace {

py::array contiguous(const py::array &a, const char *what) {
  if (!(a.flags() & py::array::c_style) || !a.writeable())
    throw error("{}: the array must be C-contiguous and writeable", what);
  return a;
}

// a (float16, float32 or float64) = the sum, or mean, over the processes.
void allReduce(py::array a, bool average) {
  contiguous(a, "allreduce");
  const char kind = a.dtype().kind();
  const auto size = a.dtype().itemsize();
  if (kind != 'f' || (size != 2 && size != 4 && size != 8))
    throw error("allreduce: arrays of float16, float32 or float64 only, not "
                "{}",
                std::string(py::str(static_cast<const py::object &>(a.dtype()))));
  const auto n = static_cast<std::size_t>(a.size());
  py::array_t<double> values = a.attr("astype")("float64");
  double *d = values.mutable_data();
  {
    py::gil_scoped_release release;
    mpi::allReduceSum(d, n);
  }
  if (average)
    for (std::size_t i = 0; i < n; ++i)
      d[i] /= mpi::size();
  a.attr("__setitem__")(py::ellipsis(), values.attr("astype")(a.dtype()));
}

void broadcast(py::array a, int root) {
  contiguous(a, "broadcast");
  void *p = a.mutable_data();
  const auto bytes = static_cast<std::size_t>(a.nbytes());
  py::gil_scoped_release release;
  mpi::broadcast(p, bytes, root);
}

} // namespace

void bindMpi(py::module_ &m) {
  py::module_ sub = m.def_submodule(
      "_mpi", "popart's MPI layer: the processes of a job started by mpirun");
  sub.def("init", &mpi::init);
  sub.def("rank", &mpi::rank);
  sub.def("size", &mpi::size);
  sub.def("local_rank", &mpi::localRank);
  sub.def("local_size", &mpi::localSize);
  sub.def("allreduce", &allReduce, py::arg("array"), py::arg("average") = true);
  sub.def("broadcast", &broadcast, py::arg("array"), py::arg("root_rank") = 0);
  sub.def("barrier", &mpi::barrier, py::call_guard<py::gil_scoped_release>());
}

} // namespace python
} // namespace popart

// The processes of a distributed training job, over MPI (OpenMPI): what
// SessionOptions::enableDistributedReplicatedGraphs reduces gradients and
// broadcasts weights with, and what the horovod.popart module of this SDK
// is written on. Started by `mpirun -np N`; a program not started by
// mpirun is a job of one process. MPI is initialised on first use (or by
// init()) with thread support, since the engine's stream callbacks call it,
// and finalised when the program exits.
#ifndef POPART_MPI_HPP
#define POPART_MPI_HPP

#include <popart/popart_export.hpp>

#include <cstddef>

namespace popart {
namespace mpi {

/// Initialises MPI if it is not yet (idempotent).
POPART_API void init();
/// This process's rank in MPI_COMM_WORLD, and the number of processes.
POPART_API int rank();
POPART_API int size();
/// The rank among, and the number of, the processes of this machine.
POPART_API int localRank();
POPART_API int localSize();
/// data[i] = the sum over the processes of their data[i] (every process
/// calls it, with the same n).
POPART_API void allReduceSum(double *data, std::size_t n);
POPART_API void allReduceSum(float *data, std::size_t n);
/// Every process's `bytes` bytes at `data` become those of process `root`.
POPART_API void broadcast(void *data, std::size_t bytes, int root);
/// Returns when every process has called it.
POPART_API void barrier();

} // namespace mpi
} // namespace popart

#endif // POPART_MPI_HPP

// popart::mpi over OpenMPI's C API. Every call holds one lock, so that
// MPI needs only MPI_THREAD_SERIALIZED from the library: the engine's
// stream callbacks may run on other threads than the one that initialised
// it.
#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/mpi.hpp>

#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <mutex>

namespace popart {
namespace mpi {
namespace {

std::mutex &lock() {
  static std::mutex m;
  return m;
}

void check(int rc, const char *what) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw error("MPI: {} failed: {}", what, std::string(text, length));
}

void finalizeAtExit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

struct World {
  int rank = 0, size = 1, localRank = 0, localSize = 1;
};

// Initialises MPI on first use; the caller holds the lock.
const World &world() {
  static World w;
  static bool ready = false;
  if (ready)
    return w;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided),
          "MPI_Init_thread");
    if (provided < MPI_THREAD_SERIALIZED)
      throw error("MPI: the library gives thread level {}, and popart's "
                  "stream callbacks need MPI_THREAD_SERIALIZED",
                  provided);
    std::atexit(finalizeAtExit);
  }
  check(MPI_Comm_rank(MPI_COMM_WORLD, &w.rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &w.size), "MPI_Comm_size");
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank,
                            MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  MPI_Comm_rank(node, &w.localRank);
  MPI_Comm_size(node, &w.localSize);
  MPI_Comm_free(&node);
  logging::session::info("MPI: process {} of {} ({} of {} on this machine)",
                         w.rank, w.size, w.localRank, w.localSize);
  ready = true;
  return w;
}

int count(std::size_t n, const char *what) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw error("MPI: {} of {} elements is more than one call can move", what,
                n);
  return static_cast<int>(n);
}

} // namespace

void init() {
  std::lock_guard<std::mutex> g(lock());
  world();
}

int rank() {
  std::lock_guard<std::mutex> g(lock());
  return world().rank;
}

int size() {
  std::lock_guard<std::mutex> g(lock());
  return world().size;
}

int localRank() {
  std::lock_guard<std::mutex> g(lock());
  return world().localRank;
}

int localSize() {
  std::lock_guard<std::mutex> g(lock());
  return world().localSize;
}

void allReduceSum(double *data, std::size_t n) {
  std::lock_guard<std::mutex> g(lock());
  world();
  check(MPI_Allreduce(MPI_IN_PLACE, data, count(n, "an all-reduce"),
                      MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
}

void allReduceSum(float *data, std::size_t n) {
  std::lock_guard<std::mutex> g(lock());
  world();
  check(MPI_Allreduce(MPI_IN_PLACE, data, count(n, "an all-reduce"),
                      MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
}

void broadcast(void *data, std::size_t bytes, int root) {
  std::lock_guard<std::mutex> g(lock());
  const World &w = world();
  if (root < 0 || root >= w.size)
    throw error("MPI: broadcast from process {}, of a job of {}", root, w.size);
  check(MPI_Bcast(data, count(bytes, "a broadcast"), MPI_BYTE, root,
                  MPI_COMM_WORLD),
        "MPI_Bcast");
}

void barrier() {
  std::lock_guard<std::mutex> g(lock());
  world();
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

} // namespace mpi
} // namespace popart

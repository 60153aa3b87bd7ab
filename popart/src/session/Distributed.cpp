// Replicas in several processes (SessionOptions::
// enableDistributedReplicatedGraphs) and gradients reduced on the host
// (hostAllReduce). The device has no link to another process's IPUs, so
// what the original's collectives do across hosts is done here over MPI
// (popart/mpi.hpp): each weight's gradient comes to the host, is summed
// over the processes and goes back before the update, and weightsFromHost
// starts every process from the weights of the process holding replica 0.
// A process may hold several replicas (replicatedGraphCount): their
// gradients are summed on the device first (ReplicatedAllReduceOp).
// Every process runs the same programs, so the engines call these streams
// in the same order and the collectives match.
#include "ir/HostData.hpp"
#include "ops/OptimizerOps.hpp"
#include "session/SessionImpl.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/mpi.hpp>

#include <cstring>

namespace popart {

void SessionImpl::checkDistribution() {
  const SessionOptions &o = options();
  if (!o.enableDistributedReplicatedGraphs)
    return;
  const int processes = mpi::size();
  const int rank = mpi::rank();
  const int64_t localReplicas = ir.getReplicationFactor();
  if (o.globalReplicationFactor != processes * localReplicas)
    throw error("SessionOptions::globalReplicationFactor is {}, but the job "
                "has {} processes of {} replica{} each (replicatedGraphCount; "
                "a job of N processes is started by mpirun -np N)",
                o.globalReplicationFactor, processes, localReplicas,
                localReplicas == 1 ? "" : "s");
  if (o.globalReplicaOffset % localReplicas != 0)
    throw error("SessionOptions::globalReplicaOffset is {}: a process holds "
                "replicatedGraphCount ({}) consecutive replicas, so its "
                "offset is a multiple of it",
                o.globalReplicaOffset, localReplicas);
  std::vector<double> offsets(static_cast<std::size_t>(processes), 0.0);
  offsets[static_cast<std::size_t>(rank)] =
      static_cast<double>(o.globalReplicaOffset);
  mpi::allReduceSum(offsets.data(), offsets.size());
  std::map<int64_t, int> holder;
  for (int r = 0; r < processes; ++r) {
    const auto offset = static_cast<int64_t>(offsets[static_cast<std::size_t>(r)]);
    auto [it, first] = holder.emplace(offset, r);
    if (!first)
      throw error("SessionOptions::globalReplicaOffset is {} in the processes "
                  "of ranks {} and {}: each process holds other replicas",
                  offset, it->second, r);
  }
  distributedRoot = holder.at(0);
  logging::session::info("Distributed replicas: this process (rank {} of {}) "
                         "holds replica {} of {}",
                         rank, processes, o.globalReplicaOffset,
                         o.globalReplicationFactor);
}

void SessionImpl::connectHostReduceStreams() {
  hostReduceStreamIds.clear();
  const Graph &g = ir.getMainGraph();
  const SessionOptions &o = options();
  const bool distributed =
      o.enableDistributedReplicatedGraphs && o.globalReplicationFactor > 1;
  // The replicas of this process are summed on the device and their
  // count divided out by the update's scalars (OptimizerUpdates.cpp);
  // the host divides by the number of processes' shares.
  const int64_t localReplicas = ir.getReplicationFactor();
  const double scale =
      o.accumulationAndReplicationReductionType == ReductionType::Mean
          ? static_cast<double>(localReplicas) /
                static_cast<double>(o.getGlobalReplicationFactor())
          : 1.0;
  for (const auto &[id, n] : io.hostReduceGradients) {
    const DataType type = g.getTensor(id).info.dataType();
    const std::string store = HostReduceOp::gradientStoreStreamId(id);
    const std::string load = HostReduceOp::gradientLoadStreamId(id);
    hostReduceStreamIds.push_back(store);
    hostReduceStreamIds.push_back(load);
    std::vector<char> *buffer = &hostReduceBuffers[id];
    buffer->assign(static_cast<std::size_t>(n * getDataTypeInfo(type).nbytes()),
                   0);
    const TensorId gradient = id;
    const int64_t elements = n;
    // Every replica's gradient is the same (summed over the replicas on
    // the device): replica 0's is reduced, and every replica gets the
    // result (replicas run each copy in ascending order).
    engine->connectStreamToCallback(store, 0, [=](void *src) {
      fromDeviceBytes(src, buffer->data(), elements, type);
    });
    const auto bytesOf = [=] { return toDeviceBytes(*buffer, type); };
    for (unsigned r = 1; r < static_cast<unsigned>(localReplicas); ++r) {
      engine->connectStreamToCallback(store, r, [](void *) {});
      engine->connectStreamToCallback(load, r, [=](void *dst) {
        const std::vector<char> bytes = bytesOf();
        if (!bytes.empty())
          std::memcpy(dst, bytes.data(), bytes.size());
      });
    }
    engine->connectStreamToCallback(load, 0, [=](void *dst) {
      try {
        if (distributed && type == DataType::FLOAT) {
          // In place, in float: the common case, without conversions.
          float *values = reinterpret_cast<float *>(buffer->data());
          mpi::allReduceSum(values, static_cast<std::size_t>(elements));
          if (scale != 1.0)
            for (int64_t i = 0; i < elements; ++i)
              values[i] = static_cast<float>(values[i] * scale);
        } else if (distributed) {
          std::vector<double> values = toDoubles(*buffer, type);
          mpi::allReduceSum(values.data(), values.size());
          for (double &v : values)
            v *= scale;
          *buffer = fromDoubles(values, type);
        }
        const std::vector<char> bytes = toDeviceBytes(*buffer, type);
        if (!bytes.empty())
          std::memcpy(dst, bytes.data(), bytes.size());
      } catch (...) {
        if (!callbackError)
          callbackError = std::current_exception();
        logging::session::err("The host reduction of '{}' failed", gradient);
      }
    });
  }
}

void SessionImpl::broadcastVariables() {
  Graph &g = ir.getMainGraph();
  for (const auto &id : io.variables) {
    Tensor &t = g.getTensor(id);
    mpi::broadcast(t.data.data(), t.data.size(), distributedRoot);
  }
}

} // namespace popart

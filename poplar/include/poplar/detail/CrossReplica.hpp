// The collective exchange between the replicas of a replicated graph, for
// the libraries that build collectives on it (gcl). Not part of the
// original Poplar API; applications use gcl/Collectives.hpp.
#ifndef POPLAR_DETAIL_CROSSREPLICA_HPP
#define POPLAR_DETAIL_CROSSREPLICA_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/poplar_export.hpp>

#include <vector>

namespace poplar::detail {

/// What a collective does with the replicas' tensors (N elements each, n
/// replicas, chunks of ceil(N / n) elements).
enum class CrossReplicaCollective {
  AllReduce,     ///< dst (N) of every replica: the reduction of all srcs
  ReduceScatter, ///< dst (ceil(N / n)) of replica r: chunk r of it
  AllGather      ///< dst (n x N) of every replica: the srcs in replica order
};

/// How elements of different replicas combine. LOCAL keeps each replica's
/// own value; MEAN is the sum scaled by 1 / n; SQUARE_ADD sums squares.
enum class CrossReplicaOperator {
  ADD, MEAN, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR, SQUARE_ADD, LOCAL
};

/// The program that runs the collective within each group of replicas
/// (groups: lists of replica indices of equal size that cover every
/// replica once; empty: one group of all replicas in order; n is the group
/// size). It moves data over a ring of the group (its k-th replica sends to
/// its (k + 1)-th): chunk j is reduced in the order of group members
/// j + 1, j + 2, ..., j (mod n), so results do not depend on the host's
/// threads. The IPU Model estimates its cycles as that ring over IPU-Links.
/// Compiling it throws graph_program_compilation_error when src, dst or
/// the groups do not fit.
POPLAR_API program::Program
crossReplicaCollective(CrossReplicaCollective kind, CrossReplicaOperator op,
                       const Tensor &src, const Tensor &dst,
                       std::vector<std::vector<unsigned>> groups = {},
                       const DebugContext &debugContext = {});

} // namespace poplar::detail

#endif // POPLAR_DETAIL_CROSSREPLICA_HPP

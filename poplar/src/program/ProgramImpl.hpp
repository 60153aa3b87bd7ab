// The node behind each program class. A program is a tree of these; the
// compiler checks it against a graph and lowers it to executable steps.
#ifndef POPLAR_SRC_PROGRAM_PROGRAMIMPL_HPP
#define POPLAR_SRC_PROGRAM_PROGRAMIMPL_HPP

#include <poplar/Program.hpp>
#include <poplar/detail/CrossReplica.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace poplar::program {

struct Program::Impl {
  enum class Kind {
    Empty,
    Sequence,        // children: the steps
    Execute,         // computeSet
    Repeat,          // count; children: {body}
    RepeatWhile,     // whileTrue; tensors: {predicate}; children: {cond, body}
    If,              // tensors: {predicate}; children: {then, else}
    Switch,          // tensors: {control}; children: {default, cases...}
    Copy,            // copyKind and its operands
    WriteUndef,      // tensors: {t}
    Sync,            // syncType
    Call,            // function
    PrintTensor,     // text: title; tensors: {t}
    Abort,           // text: message
    AbortOnCondition, // text: message; tensors: {predicate}
    CrossReplicaCopy, // replicaMap; tensors: {src, dst}
    CrossReplicaCollective // collective, collectiveOp; tensors: {src, dst}
  };
  enum class CopyKind {
    TensorToTensor,   // tensors: {src, dst}
    StreamToTensor,   // stream; tensors: {dst}
    TensorToStream,   // stream; tensors: {src}
    RemoteToTensor,   // remoteBuffer; tensors: {dst[, offset]}
    TensorToRemote    // remoteBuffer; tensors: {src[, offset]}
  };

  Kind kind = Kind::Empty;
  std::string debugName;
  std::vector<Program> children;
  std::vector<Tensor> tensors;
  std::vector<std::int32_t> caseValues; // Switch: value of children[i + 1]
  bool switchBoundsChecked = false;
  unsigned count = 0;
  bool whileTrue = true;
  CopyKind copyKind = CopyKind::TensorToTensor;
  DataStream stream;
  RemoteBuffer remoteBuffer;
  ComputeSet computeSet;
  Function function;
  SyncType syncType = SyncType::INTERNAL;
  std::string text;
  std::optional<PrintTensorFmt> printFmt; // PrintTensor with a format
  std::map<unsigned, unsigned> replicaMap;
  std::vector<std::vector<unsigned>> replicaGroups; // collective
  ::poplar::detail::CrossReplicaCollective collective =
      ::poplar::detail::CrossReplicaCollective::AllReduce;
  ::poplar::detail::CrossReplicaOperator collectiveOp =
      ::poplar::detail::CrossReplicaOperator::ADD;

  /// A readable name of the kind ("Sequence", "Copy", ...).
  const char *kindName() const;
};

} // namespace poplar::program

#endif // POPLAR_SRC_PROGRAM_PROGRAMIMPL_HPP

#ifndef POPLAR_PROGRAM_HPP
#define POPLAR_PROGRAM_HPP

#include <poplar/DataStream.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/PrintTensor.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/SyncType.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/poplar_export.hpp>

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplar {

class Graph;

namespace program {

/// A control program: what the device does, step by step. Programs are
/// values; the subclasses build the different kinds and combine them.
class POPLAR_API Program {
public:
  struct Impl;

  /// An empty program, which does nothing.
  Program();
  bool isEmpty() const;

  const Impl &getImpl() const { return *impl; }
  const std::shared_ptr<Impl> &getImplPtr() const { return impl; }

protected:
  explicit Program(std::shared_ptr<Impl> impl);
  /// The node, copied first if another program shares it (copy on write).
  Impl &mutableImpl();
  std::shared_ptr<Impl> impl;
};

POPLAR_API bool operator==(const Program &a, const Program &b);
POPLAR_API bool operator!=(const Program &a, const Program &b);

/// Runs the vertices of a compute set.
class POPLAR_API Execute : public Program {
public:
  explicit Execute(ComputeSet cs, const DebugContext &debugContext = {});
};

namespace detail {
template <class... Ps> struct AllPrograms : std::true_type {};
template <class P, class... Ps>
struct AllPrograms<P, Ps...>
    : std::integral_constant<bool, std::is_base_of<Program, P>::value &&
                                       AllPrograms<Ps...>::value> {};
} // namespace detail

/// Runs programs one after another.
class POPLAR_API Sequence : public Program {
public:
  Sequence(const DebugContext &debugContext = {});
  Sequence(std::initializer_list<Program> programs,
           const DebugContext &debugContext = {});
  /// Sequence(a, b, c): the older variadic form.
  template <class... Ps,
            class = typename std::enable_if<
                (sizeof...(Ps) >= 2) && detail::AllPrograms<Ps...>::value>::type>
  explicit Sequence(const Ps &...programs) : Sequence({Program(programs)...}) {}

  void add(const Program &p);

private:
  static std::shared_ptr<Impl> make(const DebugContext &debugContext);
};

/// Runs a program a fixed number of times.
class POPLAR_API Repeat : public Program {
public:
  Repeat(unsigned count, const Program &prog,
         const DebugContext &debugContext = {});
};

/// Runs cond, then body while the scalar predicate (set by cond) is
/// non-zero; cond runs again before every test.
class POPLAR_API RepeatWhileTrue : public Program {
public:
  RepeatWhileTrue(const Program &cond, Tensor predicate, const Program &body,
                  const DebugContext &debugContext = {});
};

/// As RepeatWhileTrue, but loops while the predicate is zero.
class POPLAR_API RepeatWhileFalse : public Program {
public:
  RepeatWhileFalse(const Program &cond, Tensor predicate, const Program &body,
                   const DebugContext &debugContext = {});
};

/// Runs trueBody if the scalar predicate is non-zero, else falseBody.
class POPLAR_API If : public Program {
public:
  If(Tensor predicate, const Program &trueBody, const Program &falseBody,
     const DebugContext &debugContext = {});
  If(Tensor predicate, const Program &trueBody,
     const DebugContext &debugContext = {});
};

/// Runs the case whose value equals the scalar integer control, or the
/// default case when none does.
class POPLAR_API Switch : public Program {
public:
  using CaseList = std::vector<std::pair<std::int32_t, Program>>;

  Switch(Tensor control, const DebugContext &debugContext = {});
  Switch(Tensor control, const Program &defaultCase,
         const DebugContext &debugContext = {});
  Switch(Tensor control, const CaseList &cases,
         const DebugContext &debugContext = {});
  Switch(Tensor control, const CaseList &cases, const Program &defaultCase,
         const DebugContext &debugContext = {});

  /// Adds a case; a value may only appear once.
  Switch &add(std::int32_t value, const Program &body);

  /// A switch whose control must be one of the case values: any other value
  /// aborts the program with an error.
  static Switch switchWithBoundsChecking(Tensor control, const CaseList &cases,
                                         const DebugContext &debugContext = {});
};

/// Copies data between tensors, from a stream into a tensor, from a tensor
/// into a stream, or between a tensor and a remote buffer.
class POPLAR_API Copy : public Program {
public:
  Copy(const Tensor &src, const Tensor &dst, bool dontOutline = false,
       const DebugContext &debugContext = {});
  Copy(const Tensor &src, const Tensor &dst, const char *debugName)
      : Copy(src, dst, false, DebugContext(debugName)) {}
  Copy(const DataStream &stream, const Tensor &dst, bool optimiseMemory = false,
       const DebugContext &debugContext = {});
  Copy(const DataStream &stream, const Tensor &dst, const char *debugName)
      : Copy(stream, dst, false, DebugContext(debugName)) {}
  Copy(const Tensor &src, const DataStream &stream, bool optimiseMemory = false,
       const DebugContext &debugContext = {});
  Copy(const Tensor &src, const DataStream &stream, const char *debugName)
      : Copy(src, stream, false, DebugContext(debugName)) {}
  Copy(const RemoteBuffer &buffer, const Tensor &dst,
       const DebugContext &debugContext = {});
  /// Copies the rows of the buffer given by offset (one index per row of
  /// dst, or a scalar for a single row).
  Copy(const RemoteBuffer &buffer, const Tensor &dst, const Tensor &offset,
       const DebugContext &debugContext = {});
  Copy(const Tensor &src, const RemoteBuffer &buffer,
       const DebugContext &debugContext = {});
  Copy(const Tensor &src, const RemoteBuffer &buffer, const Tensor &offset,
       const DebugContext &debugContext = {});
};

/// Marks the contents of a tensor as undefined (dead) from here on.
class POPLAR_API WriteUndef : public Program {
public:
  explicit WriteUndef(Tensor t, const DebugContext &debugContext = {});
};

/// Waits until the tiles named by the sync type reach this point.
class POPLAR_API Sync : public Program {
public:
  explicit Sync(SyncType type, const DebugContext &debugContext = {});
};

/// Copies src of each replica i in replicaMap to dst of replica
/// replicaMap[i] (replicas of a replicated graph; each replica at most once
/// as a source and once as a destination).
class POPLAR_API CrossReplicaCopy : public Program {
public:
  CrossReplicaCopy(const Tensor &src, const Tensor &dst,
                   std::map<unsigned, unsigned> replicaMap,
                   const DebugContext &debugContext = {});
};

/// Runs a function added to the graph with Graph::addFunction.
class POPLAR_API Call : public Program {
public:
  explicit Call(Function f, const DebugContext &debugContext = {});
};

/// Prints a tensor's values on the host ("title: {1,2,3}", or with a
/// PrintTensorFmt "title: [1.0000000 2.0000000 3.0000000]"), to the
/// engine's print stream (standard output unless Engine::setPrintStream).
class POPLAR_API PrintTensor : public Program {
public:
  PrintTensor(StringRef title, Tensor t, const DebugContext &debugContext = {});
  explicit PrintTensor(Tensor t, const DebugContext &debugContext = {});
  PrintTensor(StringRef title, Tensor t, const PrintTensorFmt &fmt,
              const DebugContext &debugContext = {});
  PrintTensor(Tensor t, const PrintTensorFmt &fmt,
              const DebugContext &debugContext = {});
};

/// Stops the program with a poplar::application_runtime_error.
class POPLAR_API Abort : public Program {
public:
  explicit Abort(const DebugContext &debugContext = {});
  Abort(const std::string &message, const DebugContext &debugContext = {});
  Abort(const char *message, const DebugContext &debugContext = {})
      : Abort(std::string(message), debugContext) {}
};

/// Stops the program if the scalar predicate is non-zero.
class POPLAR_API AbortOnCondition : public Program {
public:
  explicit AbortOnCondition(Tensor predicate,
                            const DebugContext &debugContext = {});
  AbortOnCondition(Tensor predicate, const std::string &message,
                   const DebugContext &debugContext = {});
  AbortOnCondition(Tensor predicate, const char *message,
                   const DebugContext &debugContext = {})
      : AbortOnCondition(std::move(predicate), std::string(message),
                         debugContext) {}
};

/// Writes a readable outline of the program.
POPLAR_API void dumpProgram(const Graph &graph, const Program &program,
                            std::ostream &out);

} // namespace program
} // namespace poplar

#endif // POPLAR_PROGRAM_HPP

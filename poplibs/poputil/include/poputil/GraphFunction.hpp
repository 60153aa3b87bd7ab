// Functions of tensors built into the graph once and called many times.
//
// A function is given a signature (what each argument is, and a tensor
// like it), and a body that adds programs over the argument tensors. Built
// out of line (the default), the body is built once over parameter tensors
// cloned from the signature, into a poplar Function; each call copies the
// inputs into the parameters, calls the function and copies the outputs
// out, so the code exists once however often it is called. Built inline,
// the body is built anew over the arguments of each call.
#ifndef POPUTIL_GRAPHFUNCTION_HPP
#define POPUTIL_GRAPHFUNCTION_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poputil/poputil_export.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace poputil {
namespace graphfn {

/// What the function does with an argument: reads it, writes it, both, or
/// creates it (the body sets the argument to a tensor it made).
enum ArgType { InputArg, OutputArg, InOutArg, CreatedArg };

/// One argument of a signature: its kind and a tensor of its type, shape
/// and tile mapping.
struct ArgSig {
  ArgType type;
  poplar::Tensor similarTensor;
  std::string debugName;
  ArgSig(ArgType type, poplar::Tensor tensor, std::string debugName)
      : type(type), similarTensor(std::move(tensor)),
        debugName(std::move(debugName)) {}
};

inline ArgSig input(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(InputArg, std::move(similar), std::move(debugName));
}
inline ArgSig inout(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(InOutArg, std::move(similar), std::move(debugName));
}
inline ArgSig output(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(OutputArg, std::move(similar), std::move(debugName));
}
inline ArgSig created(std::string debugName = "") {
  return ArgSig(CreatedArg, poplar::Tensor(), std::move(debugName));
}

using Signature = std::vector<ArgSig>;

/// A function with no result but its output arguments.
class POPUTIL_API VoidFunction {
public:
  using Body = std::function<void(std::vector<poplar::Tensor> &,
                                  poplar::program::Sequence &)>;
  using NamedBody = std::function<void(
      std::vector<poplar::Tensor> &, poplar::program::Sequence &,
      const poplar::DebugNameAndId &, const std::string &)>;

  VoidFunction(poplar::Graph &graph, Signature sig, Body f,
               bool inlined = false,
               const poplar::DebugContext &debugContext = {});
  VoidFunction(poplar::Graph &graph, Signature sig, NamedBody f,
               bool inlined = false,
               const poplar::DebugContext &debugContext = {});
  VoidFunction(VoidFunction &&) = default;

  /// Adds a call with these arguments to seq (created arguments are set).
  /// Throws poputil::poplibs_error naming the argument whose shape or type
  /// does not match the signature.
  void operator()(std::vector<poplar::Tensor> &args,
                  poplar::program::Sequence &seq,
                  const poplar::DebugContext &debugContext = {});

private:
  poplar::Graph *graph;
  Signature sig;
  bool inlined;
  NamedBody body;
  std::string name;
  std::vector<poplar::Tensor> params;
  poplar::Function function;
};

/// A function whose body returns a program rather than adding to one.
class POPUTIL_API ProgramFunction {
public:
  ProgramFunction(
      poplar::Graph &graph, Signature sig,
      std::function<poplar::program::Program(std::vector<poplar::Tensor> &)> f,
      bool inlined = false, const poplar::DebugContext &debugContext = {});
  ProgramFunction(
      poplar::Graph &graph, Signature sig,
      std::function<poplar::program::Program(std::vector<poplar::Tensor> &,
                                             const poplar::DebugNameAndId &,
                                             const std::string &)>
          f,
      bool inlined = false, const poplar::DebugContext &debugContext = {});

  /// The program of a call with these arguments.
  poplar::program::Program
  operator()(std::vector<poplar::Tensor> &args,
             const poplar::DebugContext &debugContext = {});

private:
  VoidFunction voidFunc;
};

/// A function returning a tensor it creates (an extra created argument).
class POPUTIL_API TensorFunction {
public:
  TensorFunction(poplar::Graph &graph, Signature sig,
                 std::function<poplar::Tensor(std::vector<poplar::Tensor> &,
                                              poplar::program::Sequence &)>
                     f,
                 bool inlined = false,
                 const poplar::DebugContext &debugContext = {});
  TensorFunction(
      poplar::Graph &graph, Signature sig,
      std::function<poplar::Tensor(
          std::vector<poplar::Tensor> &, poplar::program::Sequence &,
          const poplar::DebugNameAndId &, const std::string &)>
          f,
      bool inlined = false, const poplar::DebugContext &debugContext = {});

  /// Adds a call to seq and returns its result.
  poplar::Tensor operator()(std::vector<poplar::Tensor> &args,
                            poplar::program::Sequence &seq,
                            const poplar::DebugContext &debugContext = {});

private:
  VoidFunction voidFunc;
};

} // namespace graphfn
} // namespace poputil

#endif // POPUTIL_GRAPHFUNCTION_HPP

#include <poputil/GraphFunction.hpp>
#include <poputil/exceptions.hpp>

#include <poplar/Graph.hpp>

#include <sstream>

namespace poputil::graphfn {
namespace {

using poplar::Tensor;
using poplar::program::Call;
using poplar::program::Copy;
using poplar::program::Sequence;

std::string shapeString(const Tensor &t) {
  std::ostringstream s;
  s << t.elementType() << " [";
  const auto shape = t.shape();
  for (std::size_t i = 0; i != shape.size(); ++i)
    s << (i ? ", " : "") << shape[i];
  s << "]";
  return s.str();
}

std::string argName(const Signature &sig, std::size_t i) {
  return "argument " + std::to_string(i) +
         (sig[i].debugName.empty() ? "" : " ('" + sig[i].debugName + "')");
}

VoidFunction::NamedBody named(VoidFunction::Body f) {
  return [f](std::vector<Tensor> &args, Sequence &seq,
             const poplar::DebugNameAndId &, const std::string &) {
    f(args, seq);
  };
}

} // namespace

VoidFunction::VoidFunction(poplar::Graph &graph, Signature sig, Body f,
                           bool inlined,
                           const poplar::DebugContext &debugContext)
    : VoidFunction(graph, std::move(sig), named(std::move(f)), inlined,
                   debugContext) {}

VoidFunction::VoidFunction(poplar::Graph &graph, Signature sig_, NamedBody f,
                           bool inlined_,
                           const poplar::DebugContext &debugContext)
    : graph(&graph), sig(std::move(sig_)), inlined(inlined_),
      body(std::move(f)), name(debugContext.getPathName()) {
  for (std::size_t i = 0; i != sig.size(); ++i)
    if (sig[i].type != CreatedArg && !sig[i].similarTensor.valid())
      throw poplibs_error("graphfn: " + argName(sig, i) +
                          " of the signature has no tensor to be like");
  if (inlined)
    return;
  // Out of line: the body, built once over parameters like the arguments.
  const poplar::DebugContext dc(debugContext, "graphfn");
  for (std::size_t i = 0; i != sig.size(); ++i)
    params.push_back(sig[i].type == CreatedArg
                         ? Tensor()
                         : graph.clone(sig[i].similarTensor,
                                       {dc, sig[i].debugName}));
  Sequence prog({}, {dc});
  body(params, prog, poplar::DebugNameAndId(dc.getPathName()), name);
  for (std::size_t i = 0; i != sig.size(); ++i)
    if (sig[i].type == CreatedArg && !params[i].valid())
      throw poplibs_error("graphfn: the function did not create " +
                          argName(sig, i));
  function = graph.addFunction(prog);
}

void VoidFunction::operator()(std::vector<Tensor> &args, Sequence &seq,
                              const poplar::DebugContext &debugContext) {
  if (args.size() != sig.size())
    throw poplibs_error("graphfn: called with " + std::to_string(args.size()) +
                        " arguments; the signature has " +
                        std::to_string(sig.size()));
  for (std::size_t i = 0; i != sig.size(); ++i) {
    if (sig[i].type == CreatedArg)
      continue;
    const Tensor &like = sig[i].similarTensor;
    if (!args[i].valid() || args[i].elementType() != like.elementType() ||
        args[i].shape() != like.shape())
      throw poplibs_error(
          "graphfn: " + argName(sig, i) + " is " +
          (args[i].valid() ? shapeString(args[i]) : "not a tensor") +
          "; the signature has " + shapeString(like));
  }
  const poplar::DebugContext dc(debugContext, name.empty() ? "call" : name);
  if (inlined) {
    body(args, seq, poplar::DebugNameAndId(dc.getPathName()), name);
    for (std::size_t i = 0; i != sig.size(); ++i)
      if (sig[i].type == CreatedArg && !args[i].valid())
        throw poplibs_error("graphfn: the function did not create " +
                            argName(sig, i));
    return;
  }
  for (std::size_t i = 0; i != sig.size(); ++i)
    if (sig[i].type == InputArg || sig[i].type == InOutArg)
      seq.add(Copy(args[i], params[i], false, {dc, "in"}));
  seq.add(Call(function, {dc}));
  for (std::size_t i = 0; i != sig.size(); ++i) {
    if (sig[i].type == CreatedArg)
      args[i] = graph->clone(params[i], {dc, sig[i].debugName});
    if (sig[i].type != InputArg)
      seq.add(Copy(params[i], args[i], false, {dc, "out"}));
  }
}

ProgramFunction::ProgramFunction(
    poplar::Graph &graph, Signature sig,
    std::function<poplar::program::Program(std::vector<Tensor> &)> f,
    bool inlined, const poplar::DebugContext &debugContext)
    : voidFunc(
          graph, std::move(sig),
          VoidFunction::Body([f](std::vector<Tensor> &args, Sequence &seq) {
            seq.add(f(args));
          }),
          inlined, debugContext) {}

ProgramFunction::ProgramFunction(
    poplar::Graph &graph, Signature sig,
    std::function<poplar::program::Program(std::vector<Tensor> &,
                                           const poplar::DebugNameAndId &,
                                           const std::string &)>
        f,
    bool inlined, const poplar::DebugContext &debugContext)
    : voidFunc(graph, std::move(sig),
               VoidFunction::NamedBody(
                   [f](std::vector<Tensor> &args, Sequence &seq,
                       const poplar::DebugNameAndId &dnai,
                       const std::string &prefix) {
                     seq.add(f(args, dnai, prefix));
                   }),
               inlined, debugContext) {}

poplar::program::Program
ProgramFunction::operator()(std::vector<Tensor> &args,
                            const poplar::DebugContext &debugContext) {
  Sequence seq({}, debugContext);
  voidFunc(args, seq, debugContext);
  return seq;
}

namespace {
Signature withResult(Signature sig) {
  sig.push_back(created("result"));
  return sig;
}
} // namespace

TensorFunction::TensorFunction(
    poplar::Graph &graph, Signature sig,
    std::function<Tensor(std::vector<Tensor> &, Sequence &)> f, bool inlined,
    const poplar::DebugContext &debugContext)
    : voidFunc(graph, withResult(std::move(sig)),
               VoidFunction::Body([f](std::vector<Tensor> &args, Sequence &seq) {
                 args.back() = f(args, seq);
               }),
               inlined, debugContext) {}

TensorFunction::TensorFunction(
    poplar::Graph &graph, Signature sig,
    std::function<Tensor(std::vector<Tensor> &, Sequence &,
                         const poplar::DebugNameAndId &, const std::string &)>
        f,
    bool inlined, const poplar::DebugContext &debugContext)
    : voidFunc(graph, withResult(std::move(sig)),
               VoidFunction::NamedBody(
                   [f](std::vector<Tensor> &args, Sequence &seq,
                       const poplar::DebugNameAndId &dnai,
                       const std::string &prefix) {
                     args.back() = f(args, seq, dnai, prefix);
                   }),
               inlined, debugContext) {}

Tensor TensorFunction::operator()(std::vector<Tensor> &args, Sequence &seq,
                                  const poplar::DebugContext &debugContext) {
  args.emplace_back();
  voidFunc(args, seq, debugContext);
  Tensor result = args.back();
  args.pop_back();
  return result;
}

} // namespace poputil::graphfn

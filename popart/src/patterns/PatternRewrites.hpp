// The graph rewrites of the patterns (Patterns.cpp lists them with their
// names and defaults). Each looks at one op and, when it matches, rewrites
// the graph around it and returns true.
#ifndef POPART_SRC_PATTERNS_PATTERNREWRITES_HPP
#define POPART_SRC_PATTERNS_PATTERNREWRITES_HPP

#include <popart/attributes.hpp>
#include <popart/dataflow.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>
#include <vector>

namespace popart {

class Graph;

using PatternRewrite = bool (*)(Graph &, Op &, const DataFlow &);

/// The Builder's excludePatterns named `pattern` for this op.
bool isExcluded(const Op &op, const std::string &pattern);
/// Whether a tensor must keep its id: anchored, or an output of the model.
bool isObserved(const Graph &graph, const DataFlow &dataFlow, const Tensor &t);
/// Replaces `op` by the built-in op `opid` with `attributes` reading `ins`,
/// writing `op`'s outputs, with `op`'s settings.
Op &replaceByBuiltin(Graph &graph, Op &op, const OperatorIdentifier &opid,
                     const std::vector<TensorId> &ins,
                     const Attributes &attributes);
/// Makes the consumers of `op`'s output read `input` instead and removes
/// `op` and its output.
void bypass(Graph &graph, Op &op, Tensor &input);

// IdentityPatterns.cpp
bool opToIdentity(Graph &, Op &, const DataFlow &);
bool preUniRepl(Graph &, Op &, const DataFlow &);
bool postNRepl(Graph &, Op &, const DataFlow &);
// SimplifyPatterns.cpp
bool sumToAdd(Graph &, Op &, const DataFlow &);
bool negativeOneScale(Graph &, Op &, const DataFlow &);
bool transposeToIdentityOrReshape(Graph &, Op &, const DataFlow &);
// LikeOpsPatterns.cpp
bool randomUniformLikeOpPattern(Graph &, Op &, const DataFlow &);
bool randomNormalLikeOpPattern(Graph &, Op &, const DataFlow &);
// ConvActivation.cpp
bool convActivation(Graph &, Op &, const DataFlow &);
// SoftmaxGradDirect.cpp
bool softmaxGradDirect(Graph &, Op &, const DataFlow &);
bool nlllWithSoftmaxGradDirect(Graph &, Op &, const DataFlow &);

} // namespace popart

#endif

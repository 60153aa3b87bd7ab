// The base of the builder's opset objects (AiOnnxOpset6 ... and
// AiGraphcoreOpset1): each op method adds one node of its domain at the
// opset's version.
#ifndef POPART_DOMAINOPSET_HPP
#define POPART_DOMAINOPSET_HPP

#include <popart/debugcontext.hpp>
#include <popart/names.hpp>
#include <popart/popart_export.hpp>
#include <popart/vendored/optional.hpp>
#include <popart/voiddata.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popart {

class BuilderImpl;

class POPART_API DomainOpSet {
public:
  explicit DomainOpSet(std::unique_ptr<BuilderImpl> &impl_) : impl(impl_) {}
  DomainOpSet(const DomainOpSet &) = default;
  virtual ~DomainOpSet() = default;

protected:
  std::unique_ptr<BuilderImpl> &impl;

  virtual int getOpsetVersion() const = 0;
  virtual const char *getDomain() const = 0;

  /// Adds a node of type opType (domain and opset of this object) with the
  /// attributes given, returning its numOutputs outputs.
  std::vector<TensorId> addOp(const OpType &opType,
                              const std::vector<TensorId> &inputs,
                              unsigned numOutputs,
                              const std::map<std::string, any> &attributes,
                              const DebugContext &debugContext);
};

} // namespace popart

#endif

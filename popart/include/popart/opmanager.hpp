// The table of ops the IR can make from ONNX nodes. Built-in ops are
// registered by the library itself; a custom op registers with a static
// OpCreator in the user's shared library:
//
//   static popart::OpCreator<MyOp> creator(
//       popart::OpDefinitions({{myOpId, myOpDefinition}}),
//       [](const popart::OpCreatorInfo &info) { ... return op; });
#ifndef POPART_OPMANAGER_HPP
#define POPART_OPMANAGER_HPP

#include <popart/attributes.hpp>
#include <popart/datatype.hpp>
#include <popart/error.hpp>
#include <popart/names.hpp>
#include <popart/op.hpp>
#include <popart/operatoridentifier.hpp>
#include <popart/popart_export.hpp>
#include <popart/tensorinfo.hpp>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popart {

/// What an op accepts: its inputs and outputs with their types, and its
/// attributes (for documentation and getSupportedOperationsDefinition).
class POPART_API OpDefinition {
public:
  struct Input {
    std::string name;
    std::vector<DataType> supportedTensors;
    bool constant;
    Input(std::string n, std::vector<DataType> t, bool constant_ = false)
        : name(std::move(n)), supportedTensors(std::move(t)),
          constant(constant_) {}
  };
  struct Output {
    std::string name;
    std::vector<DataType> supportedTensors;
    Output(std::string n, std::vector<DataType> t)
        : name(std::move(n)), supportedTensors(std::move(t)) {}
  };
  struct Attribute {
    std::string supportedValuesRegex;
    Attribute(std::string regex) : supportedValuesRegex(std::move(regex)) {}
  };
  using DataTypes = std::vector<DataType>;
  using Inputs = std::vector<Input>;
  using Outputs = std::vector<Output>;
  using Attributes = std::map<std::string, Attribute>;

  Inputs inputs;
  Outputs outputs;
  Attributes attributes;

  OpDefinition() {}
  OpDefinition(Inputs i, Outputs o, Attributes a)
      : inputs(std::move(i)), outputs(std::move(o)), attributes(std::move(a)) {}
};

using OpDefinitions = std::map<OperatorIdentifier, OpDefinition>;
using OpIdentifierList = std::vector<OperatorIdentifier>;

/// What an op factory is given: the op's identity, settings and
/// attributes, and the ids of its inputs (whose data can be read when
/// they are constants).
class POPART_API OpCreatorInfo {
public:
  OpCreatorInfo(const OperatorIdentifier &opid, const Op::Settings &settings,
                const Attributes &attributes,
                const std::vector<TensorId> &inputIds);

  const OperatorIdentifier &opid;
  const Op::Settings &settings;
  const Attributes &attributes;

  bool hasInputIds() const { return !inputIds.empty(); }
  const std::vector<TensorId> &getInputIds() const { return inputIds; }
  bool hasInputTensor(int index) const;
  /// popart::error naming the op if the input is absent.
  Tensor *getInputTensor(int index) const;
  const TensorInfo &getInputTensorInfo(int index) const;
  std::string debugName() const;

  /// The data of a constant input of rank 0 or 1 as T, which must be its
  /// type; popart::error otherwise.
  template <typename T> std::vector<T> getInputData(int index) const {
    const Tensor *t = getInputTensor(index);
    checkInputData(index, getDataType<T>());
    std::vector<T> values(static_cast<std::size_t>(t->info.nelms()));
    if (!values.empty())
      std::memcpy(values.data(), t->data.data(), values.size() * sizeof(T));
    return values;
  }
  template <typename T> T getInputScalarValue(int index) const {
    std::vector<T> values = getInputData<T>(index);
    if (values.size() != 1)
      throw error("{}: input {} must hold one value, not {}", debugName(),
                  index, values.size());
    return values[0];
  }
  template <typename T> T getInputScalarValue(int index, T defaultValue) const {
    return hasInputTensor(index) ? getInputScalarValue<T>(index)
                                 : defaultValue;
  }

private:
  void checkInputData(int index, DataType asType) const;
  const std::vector<TensorId> &inputIds;
};

class POPART_API OpManager {
public:
  using OpFactoryFunc =
      std::function<std::unique_ptr<Op>(const OpCreatorInfo &)>;

  struct OpInfo {
    OpInfo(const OperatorIdentifier &id, bool isPublic,
           const OpDefinition &details, OpFactoryFunc factory)
        : isPublic(isPublic), id(id), details(details),
          factory(std::move(factory)) {}
    bool isPublic;
    OperatorIdentifier id;
    OpDefinition details;
    OpFactoryFunc factory;
  };

  /// Adds an op (a version of an op type); a later registration of the
  /// same identity replaces the earlier.
  static void registerOp(const OpInfo &opInfo);
  /// The op of `opid` in `graph`, not connected (popart::error if none is
  /// registered).
  static std::unique_ptr<Op> createOp(const OperatorIdentifier &opid,
                                      Graph &graph,
                                      const std::string &name = "",
                                      const Attributes &attributes = {});
  static std::unique_ptr<Op>
  createOp(const OpDomain &domain, const OpType &type, int opsetVersion,
           Graph &graph, const std::string &name = "",
           const Attributes &attributes = {},
           const std::vector<TensorId> &inputIds = {});
  static std::vector<OperatorIdentifier>
  getSupportedOperations(bool includePrivate);
  static OpDefinitions getSupportedOperationsDefinition(bool includePrivate);
  /// The version of the definition of `type` an opset of `opsetVersion`
  /// uses (the latest registered not after it); 0 if there is none.
  static OpVersion getOpVersionFromOpSet(const OpDomain &domain,
                                         const OpType &type, int opsetVersion);
};

/// Registers OP for each definition given. The first form makes OP as
/// OP(opid, settings); the second with the factory.
template <class OP> class OpCreator {
public:
  explicit OpCreator(const OpDefinitions &opDefinitions, bool isPublic = true) {
    for (const auto &d : opDefinitions)
      OpManager::registerOp(
          {d.first, isPublic, d.second,
           [](const OpCreatorInfo &info) -> std::unique_ptr<Op> {
             return std::unique_ptr<OP>(new OP(info.opid, info.settings));
           }});
  }
  OpCreator(const OpDefinitions &opDefinitions, OpManager::OpFactoryFunc func,
            bool isPublic = true) {
    for (const auto &d : opDefinitions)
      OpManager::registerOp({d.first, isPublic, d.second, func});
  }
};

} // namespace popart

#endif

// The base of the IR's ops. An op knows its identity (with the version of
// its definition), its input and output tensors, how to work out its
// outputs' types and shapes (setup), and, for ops that can be folded, how
// to compute its output on the host from constant inputs. How an op runs
// on a device is the business of its lowering (src/lowering).
#ifndef POPART_SRC_IR_OP_HPP
#define POPART_SRC_IR_OP_HPP

#include "ir/Tensor.hpp"

#include <popart/names.hpp>
#include <popart/operatoridentifier.hpp>

#include <map>
#include <string>
#include <vector>

namespace popart {

class Graph;

class Op {
public:
  Op(const OperatorIdentifier &opid, const std::string &name);
  virtual ~Op();

  OperatorIdentifier opid;
  std::string name;
  OpId id = -1;
  VGraphId virtualGraphId = unusedVGraphId;
  std::vector<std::string> excludedPatterns;

  /// Inputs by index; an absent optional input is nullptr.
  std::vector<Tensor *> inputs;
  std::vector<Tensor *> outputs;

  bool hasInput(int i) const {
    return i < static_cast<int>(inputs.size()) && inputs[i];
  }
  Tensor &inTensor(int i) const;
  const TensorInfo &inInfo(int i) const { return inTensor(i).info; }
  TensorInfo &outInfo(int i) const;
  Shape inShape(int i) const { return inInfo(i).shape(); }

  /// Sets the info of every output from the inputs'.
  virtual void setup() = 0;
  /// The op only forwards its input 0 to output 0 (OpToIdentity).
  virtual bool isIdentityLike() const { return false; }
  /// Output 0 can be computed on the host when every input is constant.
  virtual bool canFold() const { return false; }
  virtual std::vector<char> fold() const;
  /// Folding needs only the inputs' shapes (Shape).
  virtual bool foldsFromShapesOnly() const { return false; }

  /// The data of input i, which must be constant (popart::error naming the
  /// op otherwise), as int64 values.
  std::vector<int64_t> constInputInts(int i, const char *what) const;

  /// "Add:7 'name'"
  std::string str() const;
  /// Attributes for dumps and DOT files.
  virtual void appendAttributes(std::map<std::string, std::string> &) const {}
};

} // namespace popart

#endif

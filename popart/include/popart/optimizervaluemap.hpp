// The values of one hyper-parameter for each weight: a default, and the
// values given for particular weights (insertSpecific).
#ifndef POPART_OPTIMIZERVALUEMAP_HPP
#define POPART_OPTIMIZERVALUEMAP_HPP

#include <popart/names.hpp>
#include <popart/optimizervalue.hpp>
#include <popart/popart_export.hpp>

#include <map>
#include <string>

namespace popart {

class POPART_API OptimizerValueMap {
public:
  OptimizerValueMap(OptimizerValue g) : defaultOptVal(g) {}
  /// The value for weight `id` (its own, or the default).
  OptimizerValue get(const TensorId &id) const;
  void insertSpecific(const TensorId &id, OptimizerValue value);
  bool hasSpecific(const TensorId &id) const {
    return specifics.find(id) != specifics.end();
  }
  bool hasSpecific() const { return !specifics.empty(); }
  OptimizerValue getDefault() const { return defaultOptVal; }
  /// popart::error unless every value of rhs can replace this one's.
  void validReplacement(const OptimizerValueMap &rhs) const;
  const std::map<TensorId, OptimizerValue> &getSpecifics() const {
    return specifics;
  }

private:
  std::map<TensorId, OptimizerValue> specifics;
  OptimizerValue defaultOptVal;
};

} // namespace popart

#endif

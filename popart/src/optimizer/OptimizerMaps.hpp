// Reading an optimiser's {name: (value, isConst)} map: each key must be
// one the optimiser knows, and the absent ones take their unset values.
#ifndef POPART_SRC_OPTIMIZER_OPTIMIZERMAPS_HPP
#define POPART_SRC_OPTIMIZER_OPTIMIZERMAPS_HPP

#include <popart/optimizervaluemap.hpp>

#include <map>
#include <string>
#include <vector>

namespace popart {

/// popart::error naming the key and the optimiser if a key of `m` is not
/// in `known`.
void checkKeys(const std::map<std::string, OptimizerValue> &m,
               const std::vector<std::string> &known, const char *optimizer);

inline OptimizerValue valueOr(const std::map<std::string, OptimizerValue> &m,
                              const std::string &key, OptimizerValue unset) {
  auto it = m.find(key);
  return it == m.end() ? unset : it->second;
}

/// Hashes the defaults and specific values of a value map.
std::size_t hashValues(const OptimizerValueMap &m);

/// Checks each value map of a replacement, naming the hyper-parameter.
void checkReplacement(const OptimizerValueMap &compiled,
                      const OptimizerValueMap &replacement, const char *name);

} // namespace popart

#endif

#include "optimizer/OptimizerMaps.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <functional>

namespace popart {

void checkKeys(const std::map<std::string, OptimizerValue> &m,
               const std::vector<std::string> &known, const char *optimizer) {
  for (const auto &p : m)
    if (std::find(known.begin(), known.end(), p.first) == known.end()) {
      std::string list;
      for (const auto &k : known)
        list += (list.empty() ? "" : ", ") + k;
      throw error("{}: unknown hyper-parameter '{}' (the keys are {})",
                  optimizer, p.first, list);
    }
}

std::size_t hashValues(const OptimizerValueMap &m) {
  auto one = [](const OptimizerValue &v) {
    return std::hash<float>()(v.val()) * 2 + (v.isConst() ? 1 : 0);
  };
  std::size_t h = one(m.getDefault());
  for (const auto &s : m.getSpecifics())
    h = h * 31 + std::hash<std::string>()(s.first) + one(s.second);
  return h;
}

void checkReplacement(const OptimizerValueMap &compiled,
                      const OptimizerValueMap &replacement, const char *name) {
  try {
    compiled.validReplacement(replacement);
  } catch (const error &e) {
    throw error("New optimizer is not a valid replacement. Problem with {}: {}",
                name, e.what());
  }
}

} // namespace popart

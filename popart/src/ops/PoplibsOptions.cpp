#include "ops/PoplibsOptions.hpp"

#include <popart/error.hpp>

#include <sstream>

namespace popart {

std::string partialsTypeOption(const std::string &value,
                               const std::string &what) {
  if (value == "FLOAT" || value == "float")
    return "float";
  if (value == "HALF" || value == "half")
    return "half";
  throw error("{}: '{}' is not a partials type (FLOAT or HALF)", what, value);
}

PoplibsOptions readPoplibsAnnotations(const Attributes &a,
                                      const std::string &nodeName) {
  PoplibsOptions options;
  if (a.has("__available_memory_proportion")) {
    const float proportion = a.getFloat("__available_memory_proportion");
    if (!(proportion > 0.0f) || proportion > 1.0f)
      throw error("node '{}': available memory proportion {} is not in (0, 1]",
                  nodeName, proportion);
    std::ostringstream text;
    text << proportion;
    options["availableMemoryProportion"] = text.str();
  }
  if (a.has("__partials_type"))
    options["partialsType"] = partialsTypeOption(
        a.getString("__partials_type", ""), "node '" + nodeName + "'");
  return options;
}

} // namespace popart

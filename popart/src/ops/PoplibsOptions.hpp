// The poplibs options a node's annotations ask for: the
// "__available_memory_proportion" and "__partials_type" attributes that
// Builder::setAvailableMemoryProportion and Builder::setPartialsType set.
#ifndef POPART_SRC_OPS_POPLIBSOPTIONS_HPP
#define POPART_SRC_OPS_POPLIBSOPTIONS_HPP

#include <popart/attributes.hpp>

#include <map>
#include <string>

namespace popart {

using PoplibsOptions = std::map<std::string, std::string>;

/// `availableMemoryProportion` and `partialsType` ("float" or "half") as
/// the node gives them; a bad value is a popart::error naming the node.
PoplibsOptions readPoplibsAnnotations(const Attributes &a,
                                      const std::string &nodeName);

/// The partials type an option value names, "float" or "half", from any
/// of FLOAT, HALF, float or half; a popart::error naming `what` otherwise.
std::string partialsTypeOption(const std::string &value,
                               const std::string &what);

} // namespace popart

#endif

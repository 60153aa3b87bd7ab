#ifndef POPART_SRC_BUILDER_CASTATTRIBUTE_HPP
#define POPART_SRC_BUILDER_CASTATTRIBUTE_HPP

#include <cstdint>
#include <string>

namespace popart {
/// The ONNX type number of Cast's "to", from a DataType name ("FLOAT").
int64_t castTypeAttribute(const std::string &dataTypeName);
} // namespace popart

#endif

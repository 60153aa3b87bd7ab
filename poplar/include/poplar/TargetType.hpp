#ifndef POPLAR_TARGETTYPE_HPP
#define POPLAR_TARGETTYPE_HPP

#include <poplar/poplar_export.hpp>

#include <string>

namespace poplar {

/// The kind of device a target describes.
enum class TargetType { IPU, IPU_MODEL, CPU };

POPLAR_API std::string toString(TargetType type);

} // namespace poplar

#endif // POPLAR_TARGETTYPE_HPP

// Internal construction of Targets: the architecture presets and the
// checks that a set of parameters describes a machine that can exist.
#ifndef POPLAR_SRC_TARGET_TARGETBUILDER_HPP
#define POPLAR_SRC_TARGET_TARGETBUILDER_HPP

#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>

namespace poplar {

struct TargetBuilder {
  /// The parameters of an IPU architecture ("ipu1", "ipu2", "ipu21");
  /// throws poplar::invalid_machine_model for an unknown name.
  static Target ipuArchitecture(const std::string &arch, TargetType type);
  static Target fromModel(const IPUModel &model, bool accurateHalf);
  /// Throws poplar::invalid_machine_model naming the first bad field.
  static void validate(const Target &target);
  /// Whether the memory estimates include code (IPUModel::compileIPUCode,
  /// and always for IPU hardware targets).
  static bool compilesIPUCode(const Target &target) {
    return target.targetType == TargetType::IPU || target.compileIPUCode;
  }
  static Target withTiles(Target target, unsigned numIPUs, unsigned tilesPerIPU) {
    target.numIPUs = numIPUs;
    target.tilesPerIPU = tilesPerIPU;
    return target;
  }
};

} // namespace poplar

#endif // POPLAR_SRC_TARGET_TARGETBUILDER_HPP

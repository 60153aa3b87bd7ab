// Shapes of model inputs that the ONNX model leaves unknown.
#ifndef POPART_INPUTSHAPEINFO_HPP
#define POPART_INPUTSHAPEINFO_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>
#include <popart/tensorinfo.hpp>

#include <map>
#include <vector>

namespace popart {

class POPART_API InputShapeInfo {
public:
  InputShapeInfo() = default;
  void add(TensorId id, const TensorInfo &info) { infos[id] = info; }
  /// popart::error if there is no entry for id.
  const TensorInfo &get(TensorId id) const;
  bool has(TensorId id) const { return infos.count(id) != 0; }
  std::vector<TensorId> getAllTensorIds() const;
  const std::map<TensorId, TensorInfo> &getInfos() const { return infos; }

private:
  std::map<TensorId, TensorInfo> infos;
};

} // namespace popart

#endif

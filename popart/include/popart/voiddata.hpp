// Typed views of untyped memory, used to give tensor data to the builder
// and to pass step data between the user and a session.
#ifndef POPART_VOIDDATA_HPP
#define POPART_VOIDDATA_HPP

#include <popart/popart_export.hpp>
#include <popart/tensorinfo.hpp>

#include <memory>
#include <vector>

namespace popart {

class POPART_API ConstVoidData {
public:
  ConstVoidData() = default;
  ConstVoidData(const void *data_, const TensorInfo &info_);

  const void *data = nullptr;
  TensorInfo info;

  /// Keeps a copy of the bytes, so that the view outlives the caller's
  /// buffer.
  void store(std::vector<char> &&d, const TensorInfo &i);

private:
  std::shared_ptr<std::vector<char>> optionalData;
};

class POPART_API MutableVoidData {
public:
  void *data = nullptr;
  TensorInfo info;
};

} // namespace popart

#endif

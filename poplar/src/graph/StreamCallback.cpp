#include <poplar/StreamCallback.hpp>

namespace poplar {
namespace {

class FunctionCallback final : public LegacyStreamCallback {
public:
  explicit FunctionCallback(std::function<void(void *)> f) : f(std::move(f)) {}
  void fetch(void *p) noexcept override { f(p); }

private:
  std::function<void(void *)> f;
};

} // namespace

StreamCallback::~StreamCallback() = default;

StreamCallbackHandle::StreamCallbackHandle(std::unique_ptr<StreamCallback> c)
    : cb(std::move(c)) {}

std::unique_ptr<StreamCallback>
StreamCallbackHandle::makeFunctionCallback(std::function<void(void *)> f) {
  if (!f)
    return nullptr;
  return std::make_unique<FunctionCallback>(std::move(f));
}

} // namespace poplar

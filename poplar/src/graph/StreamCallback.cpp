#include "graph/StreamCallbackErrors.hpp"

#include <poplar/StreamCallback.hpp>

#include <exception>
#include <utility>

namespace poplar {
namespace {

// Callbacks run on the thread that runs the engine.
thread_local std::exception_ptr pendingCallbackError;

class FunctionCallback final : public LegacyStreamCallback {
public:
  explicit FunctionCallback(std::function<void(void *)> f) : f(std::move(f)) {}
  void fetch(void *p) noexcept override {
    try {
      f(p);
    } catch (...) {
      pendingCallbackError = std::current_exception();
    }
  }

private:
  std::function<void(void *)> f;
};

} // namespace

void rethrowStreamCallbackError() {
  if (pendingCallbackError)
    std::rethrow_exception(std::exchange(pendingCallbackError, nullptr));
}

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

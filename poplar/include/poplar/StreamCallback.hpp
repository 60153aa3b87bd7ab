#ifndef POPLAR_STREAMCALLBACK_HPP
#define POPLAR_STREAMCALLBACK_HPP

#include <poplar/poplar_export.hpp>

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace poplar {

/// Host code called when a stream connected to it transfers data.
///
/// For a host-to-device stream, fetch(p) fills the buffer p just before
/// the transfer; prefetch(p) may be called earlier to fill it ahead of
/// time (return Result::NotAvailable if the data is not ready). For a
/// device-to-host stream, fetch(p) is called with the transferred data.
/// complete() follows every transfer.
class POPLAR_API StreamCallback {
public:
  enum class Result { Success, NotAvailable };

  virtual ~StreamCallback();
  virtual Result prefetch(void *p) noexcept = 0;
  virtual void fetch(void *p) noexcept = 0;
  virtual void complete() noexcept = 0;
  /// Called when prefetched data will not be used (the program ended).
  virtual void invalidatePrefetched() noexcept {}
};

/// A callback without prefetch or completion, for plain functions.
class POPLAR_API LegacyStreamCallback : public StreamCallback {
public:
  Result prefetch(void *) noexcept final { return Result::NotAvailable; }
  void complete() noexcept final {}
};

/// Holds the callback a stream is connected to: a StreamCallback, or any
/// function taking the buffer pointer.
class POPLAR_API StreamCallbackHandle {
public:
  StreamCallbackHandle(std::unique_ptr<StreamCallback> cb);
  template <class CB,
            class = std::enable_if_t<std::is_base_of_v<StreamCallback, CB>>>
  StreamCallbackHandle(std::unique_ptr<CB> cb)
      : StreamCallbackHandle(std::unique_ptr<StreamCallback>(std::move(cb))) {}
  template <class F, class = std::enable_if_t<std::is_invocable_v<F &, void *>>>
  StreamCallbackHandle(F &&f)
      : StreamCallbackHandle(makeFunctionCallback(
            std::function<void(void *)>(std::forward<F>(f)))) {}

  std::unique_ptr<StreamCallback> release() { return std::move(cb); }

private:
  static std::unique_ptr<StreamCallback>
  makeFunctionCallback(std::function<void(void *)> f);
  std::unique_ptr<StreamCallback> cb;
};

} // namespace poplar

#endif // POPLAR_STREAMCALLBACK_HPP

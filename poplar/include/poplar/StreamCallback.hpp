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
/// the transfer. When the engine prefetches (the engine options
/// exchange.enablePrefetch, true by default, and
/// exchange.streamBufferOverlap "none"), prefetch(p) is called as soon as
/// a transfer is complete, to fill the buffer for the next one: returning
/// Result::Success means the next transfer takes that data without calling
/// fetch, Result::NotAvailable that it calls fetch as usual. For a
/// device-to-host stream, fetch(p) is called with the transferred data.
/// complete() follows every transfer.
class POPLAR_API StreamCallback {
public:
  enum class Result { Success, NotAvailable };

  virtual ~StreamCallback();
  virtual Result prefetch(void *p) noexcept = 0;
  virtual void fetch(void *p) noexcept = 0;
  virtual void complete() noexcept = 0;
  /// Called when prefetched data will not be used: the stream is connected
  /// anew, or the engine is destroyed.
  virtual void invalidatePrefetched() noexcept {}
};

/// A callback without prefetch or completion, for plain functions.
class POPLAR_API LegacyStreamCallback : public StreamCallback {
public:
  Result prefetch(void *) noexcept final { return Result::NotAvailable; }
  void complete() noexcept final {}
};

/// Holds the callback a stream is connected to: a StreamCallback, or any
/// function taking the buffer pointer. An exception thrown by such a
/// function stops Engine::run, which throws it on; the engine can run
/// again. (A StreamCallback's own methods are noexcept.)
class POPLAR_API StreamCallbackHandle {
public:
  StreamCallbackHandle(std::unique_ptr<StreamCallback> cb);
  template <class CB,
            class = typename std::enable_if<std::is_base_of<StreamCallback, CB>::value>::type>
  StreamCallbackHandle(std::unique_ptr<CB> cb)
      : StreamCallbackHandle(std::unique_ptr<StreamCallback>(std::move(cb))) {}
  template <class F, class = decltype(std::declval<F &>()(
                                 static_cast<void *>(nullptr)))>
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

// IStepIO: how a session's run obtains input data and stores anchors.
// in() is called once per input per batch and must return numElements
// elements; out() once per anchor value to fetch.
#ifndef POPART_ISTEPIO_HPP
#define POPART_ISTEPIO_HPP

#include <popart/names.hpp>
#include <popart/voiddata.hpp>

#include <cstdint>
#include <map>

namespace popart {

class IStepIO {
public:
  virtual ~IStepIO() = default;
  virtual ConstVoidData in(TensorId id, int64_t numElements, bool prefetch,
                           bool isBroadcast = false) = 0;
  virtual void inComplete(TensorId id, int64_t numElements,
                          bool isBroadcast = false) = 0;
  virtual MutableVoidData out(TensorId id, int64_t numElements) = 0;
  virtual void outComplete(TensorId) {}

  void enableRuntimeAsserts(bool b) { runtimeAssertsOn = b; }
  bool runtimeAssertsEnabled() const { return runtimeAssertsOn; }

  /// Checks before a run that the buffers hold what one step needs:
  /// expected maps each input (and anchor) to its element count per step.
  /// The default checks nothing (callbacks are checked as they are called).
  virtual void assertNumElements(const std::map<TensorId, int64_t> &,
                                 const std::map<TensorId, int64_t> &) const {}

private:
  bool runtimeAssertsOn = true;
};

} // namespace popart

#endif

// StepIO: step data in user arrays. Each array holds the data of a whole
// step (batchesPerStep batches, in order); every call of in() or out()
// moves on through it. StepIOCallback: the data comes from functions.
#ifndef POPART_STEPIO_HPP
#define POPART_STEPIO_HPP

#include <popart/iarray.hpp>
#include <popart/istepio.hpp>
#include <popart/popart_export.hpp>
#include <popart/voiddata.hpp>

#include <functional>
#include <map>

namespace popart {

class POPART_API StepIO : public IStepIO {
public:
  StepIO(std::map<TensorId, IArray &> inputs,
         std::map<TensorId, IArray &> outputs);

  ConstVoidData in(TensorId id, int64_t numElements, bool prefetch,
                   bool isBroadcast = false) override;
  void inComplete(TensorId id, int64_t numElements,
                  bool isBroadcast = false) override;
  MutableVoidData out(TensorId id, int64_t numElements) override;
  void outComplete(TensorId id) override;
  void assertNumElements(const std::map<TensorId, int64_t> &inputs,
                         const std::map<TensorId, int64_t> &anchors) const override;

private:
  struct Position {
    IArray *array;
    int64_t offset = 0;
  };
  Position &find(std::map<TensorId, Position> &m, const TensorId &id,
                 const char *what);
  std::map<TensorId, Position> inputs;
  std::map<TensorId, Position> outputs;
};

class POPART_API StepIOCallback : public IStepIO {
public:
  using InputCallback = std::function<ConstVoidData(TensorId, bool)>;
  using InputCompleteCallback = std::function<void(TensorId)>;
  using OutputCallback = std::function<MutableVoidData(TensorId)>;
  using OutputCompleteCallback = std::function<void(TensorId)>;

  StepIOCallback(InputCallback inputCb, InputCompleteCallback inputCompleteCb,
                 OutputCallback outputCb,
                 OutputCompleteCallback outputCompleteCb)
      : inputCb(inputCb), inputCompleteCb(inputCompleteCb), outputCb(outputCb),
        outputCompleteCb(outputCompleteCb) {}

  ConstVoidData in(TensorId id, int64_t, bool prefetch, bool = false) override {
    return inputCb(id, prefetch);
  }
  void inComplete(TensorId id, int64_t, bool = false) override {
    inputCompleteCb(id);
  }
  MutableVoidData out(TensorId id, int64_t) override { return outputCb(id); }
  void outComplete(TensorId id) override { outputCompleteCb(id); }

private:
  InputCallback inputCb;
  InputCompleteCallback inputCompleteCb;
  OutputCallback outputCb;
  OutputCompleteCallback outputCompleteCb;
};

/// Where a session reads and writes weights: buffers by tensor id
/// (Session::readWeights, Session::writeWeights).
class POPART_API IWeightsIO {
public:
  virtual ~IWeightsIO();
  virtual bool contains(TensorId id) const = 0;
  virtual MutableVoidData weight(TensorId id) const = 0;
};

class POPART_API WeightsIO : public IWeightsIO {
public:
  ~WeightsIO() override;
  bool contains(TensorId id) const final;
  MutableVoidData weight(TensorId id) const final;
  /// Adds (or replaces) the buffer of tensor `id`.
  void insert(TensorId id, MutableVoidData mvd);

private:
  std::map<TensorId, MutableVoidData> weights;
};

} // namespace popart

#endif

#include <popart/error.hpp>
#include <popart/stepio.hpp>

namespace popart {

namespace {
// Bytes per element of a user's array: STRING arrays hold std::string.
int64_t arrayElementBytes(DataType type) {
  return type == DataType::STRING ? static_cast<int64_t>(sizeof(std::string))
                                  : getDataTypeInfo(type).nbytes();
}
} // namespace

StepIO::StepIO(std::map<TensorId, IArray &> ins,
               std::map<TensorId, IArray &> outs) {
  for (auto &p : ins)
    inputs[p.first] = Position{&p.second, 0};
  for (auto &p : outs)
    outputs[p.first] = Position{&p.second, 0};
}

StepIO::Position &StepIO::find(std::map<TensorId, Position> &m,
                               const TensorId &id, const char *what) {
  auto it = m.find(id);
  if (it == m.end())
    throw error("StepIO: no {} array was given for tensor '{}'", what, id);
  return it->second;
}

// Data is read in the layout [batchesPerStep, ..., sample]: only the
// number of elements of the user's array matters, and each call moves on
// by the size of one batch, wrapping round at the end of the array.
ConstVoidData StepIO::in(TensorId id, int64_t numElements, bool, bool) {
  Position &p = find(inputs, id, "input");
  const int64_t total = static_cast<int64_t>(p.array->nelms());
  if (numElements > total)
    throw error("StepIO: the input array of tensor '{}' has {} elements, "
                "fewer than the {} of one batch",
                id, total, numElements);
  if (p.offset + numElements > total)
    p.offset = 0;
  const auto elementBytes = arrayElementBytes(p.array->dataType());
  ConstVoidData data;
  data.data = static_cast<const char *>(p.array->data()) + p.offset * elementBytes;
  data.info = TensorInfo(p.array->dataType(), Shape{numElements});
  return data;
}

void StepIO::inComplete(TensorId id, int64_t numElements, bool) {
  find(inputs, id, "input").offset += numElements;
}

MutableVoidData StepIO::out(TensorId id, int64_t numElements) {
  Position &p = find(outputs, id, "output");
  const int64_t total = static_cast<int64_t>(p.array->nelms());
  if (p.offset + numElements > total)
    p.offset = 0;
  if (numElements > total)
    throw error("StepIO: the output array of anchor '{}' has {} elements, "
                "fewer than the {} of one value",
                id, total, numElements);
  const auto elementBytes = arrayElementBytes(p.array->dataType());
  MutableVoidData data;
  data.data = static_cast<char *>(p.array->data()) + p.offset * elementBytes;
  data.info = TensorInfo(p.array->dataType(), Shape{numElements});
  p.offset += numElements;
  return data;
}

void StepIO::outComplete(TensorId) {}

void StepIO::assertNumElements(const std::map<TensorId, int64_t> &ins,
                               const std::map<TensorId, int64_t> &anchors) const {
  auto check = [](const std::map<TensorId, Position> &given,
                  const std::map<TensorId, int64_t> &expected,
                  const char *what) {
    for (const auto &e : expected) {
      auto it = given.find(e.first);
      if (it == given.end())
        throw error("StepIO: no {} array was given for tensor '{}'", what,
                    e.first);
      const auto n = static_cast<int64_t>(it->second.array->nelms());
      if (n != e.second)
        throw error("StepIO: the {} array of tensor '{}' has {} elements, "
                    "but one step needs {}",
                    what, e.first, n, e.second);
    }
  };
  check(inputs, ins, "input");
  check(outputs, anchors, "output");
}

} // namespace popart

namespace popart {

IWeightsIO::~IWeightsIO() = default;
WeightsIO::~WeightsIO() = default;

bool WeightsIO::contains(TensorId id) const { return weights.count(id) != 0; }

MutableVoidData WeightsIO::weight(TensorId id) const {
  auto it = weights.find(id);
  if (it == weights.end())
    throw error("WeightsIO has no buffer for '{}'", id);
  return it->second;
}

void WeightsIO::insert(TensorId id, MutableVoidData mvd) { weights[id] = mvd; }

} // namespace popart

#include "TestRig.hpp"

#include "HostHalf.hpp"
#include "TestDevice.hpp"

#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <poplar/Engine.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>

using namespace poplar;

namespace popops_test {
namespace {

template <class T> void setAs(Graph &graph, const Tensor &t, const Values &v) {
  std::unique_ptr<T[]> host(new T[v.size()]);
  for (std::size_t i = 0; i != v.size(); ++i)
    host[i] = static_cast<T>(v[i]);
  graph.setInitialValue(t, ArrayRef<T>(host.get(), v.size()));
}

template <class T> Values fromBytes(const std::vector<unsigned char> &bytes) {
  Values v(bytes.size() / sizeof(T));
  for (std::size_t i = 0; i != v.size(); ++i) {
    T x;
    std::memcpy(&x, bytes.data() + i * sizeof(T), sizeof(T));
    v[i] = static_cast<double>(x);
  }
  return v;
}

Values fromHalfBytes(const std::vector<unsigned char> &bytes) {
  Values v = fromBytes<std::uint16_t>(bytes);
  for (auto &x : v)
    x = sdktest::halfBitsToFloat(static_cast<std::uint16_t>(x));
  return v;
}

} // namespace

Rig::Rig(unsigned tilesPerIPU)
    : device(sdktest::createTestDevice(tilesPerIPU)), g(device.getTarget()) {
  popops::addCodelets(g);
}

Tensor Rig::input(const std::string &name, const Type &type,
                  const std::vector<std::size_t> &shape, const Values &values) {
  Tensor t = g.addVariable(type, shape, name);
  poputil::mapTensorLinearly(g, t, 1, 1);
  setValues(t, values);
  return t;
}

void Rig::setValues(const Tensor &t, const Values &v) {
  if (v.size() != t.numElements())
    throw std::logic_error("Rig::setValues: " + std::to_string(v.size()) +
                           " values for " + std::to_string(t.numElements()) +
                           " elements");
  const Type type = t.elementType();
  if (type == FLOAT || type == HALF)
    setAs<float>(g, t, v);
  else if (type == INT)
    setAs<int>(g, t, v);
  else if (type == UNSIGNED_INT)
    setAs<unsigned>(g, t, v);
  else if (type == SHORT)
    setAs<short>(g, t, v);
  else if (type == UNSIGNED_SHORT)
    setAs<unsigned short>(g, t, v);
  else if (type == BOOL)
    setAs<bool>(g, t, v);
  else if (type == CHAR)
    setAs<char>(g, t, v);
  else if (type == SIGNED_CHAR)
    setAs<signed char>(g, t, v);
  else if (type == UNSIGNED_CHAR)
    setAs<unsigned char>(g, t, v);
  else
    throw std::logic_error("Rig::setValues: unsupported type");
}

void Rig::read(const std::string &name, const Tensor &t) {
  g.createHostRead(name, t);
  reads.emplace_back(name, t);
}

void Rig::run() {
  Engine engine(g, sequence);
  engine.load(device);
  engine.run(0);
  for (const auto &[name, t] : reads) {
    const Type type = t.elementType();
    const std::size_t size = target().getTypeSize(type);
    std::vector<unsigned char> bytes(t.numElements() * size);
    if (!bytes.empty())
      engine.readTensor(name, bytes.data(), bytes.data() + bytes.size());
    Values v;
    if (type == FLOAT)
      v = fromBytes<float>(bytes);
    else if (type == HALF)
      v = fromHalfBytes(bytes);
    else if (type == INT)
      v = fromBytes<int>(bytes);
    else if (type == UNSIGNED_INT)
      v = fromBytes<unsigned>(bytes);
    else if (type == SHORT)
      v = fromBytes<short>(bytes);
    else if (type == UNSIGNED_SHORT)
      v = fromBytes<unsigned short>(bytes);
    else if (type == BOOL)
      v = fromBytes<bool>(bytes);
    else if (type == CHAR)
      v = fromBytes<char>(bytes);
    else if (type == SIGNED_CHAR)
      v = fromBytes<signed char>(bytes);
    else if (type == UNSIGNED_CHAR)
      v = fromBytes<unsigned char>(bytes);
    results[name] = std::move(v);
  }
}

const Values &Rig::values(const std::string &name) const {
  auto it = results.find(name);
  if (it == results.end())
    throw std::logic_error("Rig::values: nothing read as '" + name + "'");
  return it->second;
}

Values iotaValues(std::size_t count, double start, double step) {
  Values v(count);
  for (std::size_t i = 0; i != count; ++i)
    v[i] = start + step * static_cast<double>(i);
  return v;
}

} // namespace popops_test

// Host access to a graph: read and write handles, data streams and remote
// buffers.
#include "graph/GraphImpl.hpp"

#include "core/Logging.hpp"
#include "core/TypeInfo.hpp"

#include <poplar/exceptions.hpp>

namespace poplar {
namespace {

// The guide's limit on the data of one stream copy.
constexpr std::size_t maxStreamBytes = std::size_t(128) << 20;

void checkHandleName(StringRef handle, const char *what) {
  if (handle.empty())
    throw poplar_error(std::string(what) + ": the handle name is empty");
}

void checkStreamType(const std::string &handle, const Type &type) {
  if (!isDeviceType(type) || type == QUARTER)
    throw type_error("Stream '" + handle + "': type " + type.toString().str() +
                     " is not supported on the device");
}

} // namespace

void Graph::createHostWrite(StringRef handle, const Tensor &t,
                            bool rearrangeOnHost) {
  checkHandleName(handle, "createHostWrite");
  impl->checkOwnership(t, "createHostWrite('" + handle.str() + "')");
  if (impl->hostWrites.count(std::string_view(handle)))
    throw poplar_error("createHostWrite: a host write handle named '" +
                       handle.str() + "' already exists");
  if (t.containsConstant())
    throw poplar_error("createHostWrite('" + handle.str() + "'): tensor '" +
                       t.getDebugStr() + "' is a constant");
  if (t.containsAliases())
    throw poplar_error("createHostWrite('" + handle.str() + "'): tensor '" +
                       t.getDebugStr() +
                       "' refers to some elements more than once");
  impl->hostWrites.emplace(handle.str(), HostHandle{handle.str(), t, rearrangeOnHost});
}

void Graph::createHostRead(StringRef handle, const Tensor &t,
                           bool rearrangeOnHost) {
  checkHandleName(handle, "createHostRead");
  impl->checkOwnership(t, "createHostRead('" + handle.str() + "')");
  if (impl->hostReads.count(std::string_view(handle)))
    throw poplar_error("createHostRead: a host read handle named '" +
                       handle.str() + "' already exists");
  impl->hostReads.emplace(handle.str(), HostHandle{handle.str(), t, rearrangeOnHost});
}

namespace {

DataStream addStream(Graph::Impl &graph, const char *what, StringRef handle,
                     const Type &elementType, std::size_t numElements,
                     DataStreamType type, ReplicatedStreamMode mode,
                     const OptionFlags &options) {
  checkHandleName(handle, what);
  for (const auto &[key, value] : options)
    if (key != "bufferingDepth" && key != "splitLimit")
      throw invalid_option(std::string(what) + "('" + handle.str() +
                           "'): unrecognised option '" + key + "'");
  checkStreamType(handle.str(), elementType);
  if (graph.hasStreamHandle(handle.str()))
    throw poplar_error("A stream named '" + handle.str() + "' already exists");
  if (numElements * typeSize(elementType) > maxStreamBytes)
    throw stream_memory_allocation_error(
        "Stream '" + handle.str() + "' of " + std::to_string(numElements) +
        " elements exceeds the 128 MB limit of one stream copy");
  auto s = std::make_shared<DataStream::Impl>();
  s->graphId = graph.id;
  s->id = graph.streams.size();
  s->handle = handle.str();
  s->elementType = elementType;
  s->numElements = numElements;
  s->type = type;
  s->replicatedMode = mode;
  s->replicationFactor = graph.replicationFactor;
  graph.streams.push_back(s);
  logging::debug(logging::Module::Graph, "Added stream '{}' of {} {}",
                 s->handle, numElements, elementType.toString().str());
  return DataStream(s);
}

} // namespace

DataStream Graph::addHostToDeviceFIFO(StringRef handle, const Type &elementType,
                                      std::size_t numElements,
                                      ReplicatedStreamMode replicatedMode,
                                      const OptionFlags &options) {
  return addStream(*impl, "addHostToDeviceFIFO", handle, elementType,
                   numElements, DataStreamType::HostToDeviceFIFO,
                   replicatedMode, options);
}

DataStream Graph::addDeviceToHostFIFO(StringRef handle, const Type &elementType,
                                      std::size_t numElements,
                                      const OptionFlags &options) {
  return addStream(*impl, "addDeviceToHostFIFO", handle, elementType,
                   numElements, DataStreamType::DeviceToHostFIFO,
                   ReplicatedStreamMode::REPLICATE, options);
}

RemoteBuffer Graph::addRemoteBuffer(StringRef handle, const Type &elementType,
                                    std::size_t numElements, std::size_t repeats,
                                    bool rearrangeOnHost, bool optimiseMemory) {
  checkHandleName(handle, "addRemoteBuffer");
  checkStreamType(handle.str(), elementType);
  if (repeats == 0)
    throw poplar_error("Remote buffer '" + handle.str() +
                       "' must have at least one repeat");
  for (const auto &b : impl->remoteBuffers)
    if (b->handle == handle.str())
      throw poplar_error("A remote buffer named '" + handle.str() +
                         "' already exists");
  auto b = std::make_shared<RemoteBuffer::Impl>();
  b->graphId = impl->id;
  b->id = impl->remoteBuffers.size();
  b->handle = handle.str();
  b->elementType = elementType;
  b->numElements = numElements;
  b->repeats = repeats;
  b->rearrangeOnHost = rearrangeOnHost;
  b->optimiseMemory = optimiseMemory;
  impl->remoteBuffers.push_back(b);
  return RemoteBuffer(b);
}

DataStream::DataStream(std::shared_ptr<const Impl> i) : impl(std::move(i)) {}
const std::string &DataStream::handle() const { return impl->handle; }
std::size_t DataStream::numElements() const { return impl->numElements; }
Type DataStream::elementType() const { return impl->elementType; }
DataStreamType DataStream::type() const { return impl->type; }
unsigned DataStream::replicationFactor() const {
  return impl ? impl->replicationFactor : 1;
}

ReplicatedStreamMode DataStream::replicatedMode() const {
  return impl->replicatedMode;
}

RemoteBuffer::RemoteBuffer(std::shared_ptr<const Impl> i) : impl(std::move(i)) {}
const std::string &RemoteBuffer::handle() const { return impl->handle; }
std::size_t RemoteBuffer::numElements() const { return impl->numElements; }
std::size_t RemoteBuffer::getRepeats() const { return impl->repeats; }
Type RemoteBuffer::elementType() const { return impl->elementType; }
bool RemoteBuffer::isRearrangeOnHost() const { return impl->rearrangeOnHost; }
bool RemoteBuffer::isOptimisedForMemory() const { return impl->optimiseMemory; }

} // namespace poplar

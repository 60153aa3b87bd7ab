#ifndef POPLAR_DATASTREAM_HPP
#define POPLAR_DATASTREAM_HPP

#include <poplar/StringRef.hpp>
#include <poplar/Type.hpp>
#include <poplar/poplar_export.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace poplar {

/// For a host-to-device stream of a replicated graph: one stream per
/// replica (REPLICATE) or one stream whose data every replica receives
/// (BROADCAST).
enum class ReplicatedStreamMode { REPLICATE, BROADCAST };

/// Direction of a data stream.
enum class DataStreamType { HostToDeviceFIFO, DeviceToHostFIFO };

/// A first-in first-out stream between the host and the device, created
/// by Graph::addHostToDeviceFIFO or Graph::addDeviceToHostFIFO and used by
/// program::Copy. Each copy moves numElements() elements.
class POPLAR_API DataStream {
public:
  struct Impl;

  DataStream() = default;
  explicit DataStream(std::shared_ptr<const Impl> impl);

  const std::string &handle() const;
  std::size_t numElements() const;
  Type elementType() const;
  DataStreamType type() const;
  /// The replication factor of the graph the stream belongs to.
  unsigned replicationFactor() const;
  ReplicatedStreamMode replicatedMode() const;
  bool valid() const { return impl != nullptr; }

  const Impl &getImpl() const { return *impl; }

private:
  std::shared_ptr<const Impl> impl;
};

/// Memory outside the IPU for the program's own storage, holding
/// getRepeats() rows of numElements() elements each. program::Copy moves
/// one row to or from a tensor.
class POPLAR_API RemoteBuffer {
public:
  struct Impl;

  RemoteBuffer() = default;
  explicit RemoteBuffer(std::shared_ptr<const Impl> impl);

  const std::string &handle() const;
  std::size_t numElements() const;
  std::size_t getRepeats() const;
  Type elementType() const;
  bool isRearrangeOnHost() const;
  bool isOptimisedForMemory() const;
  bool valid() const { return impl != nullptr; }

  const Impl &getImpl() const { return *impl; }

private:
  std::shared_ptr<const Impl> impl;
};

} // namespace poplar

#endif // POPLAR_DATASTREAM_HPP

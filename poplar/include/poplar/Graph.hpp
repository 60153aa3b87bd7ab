#ifndef POPLAR_GRAPH_HPP
#define POPLAR_GRAPH_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/CodeletFileType.hpp>
#include <poplar/DataStream.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Program.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <poplar/Type.hpp>
#include <poplar/VariableMappingMethod.hpp>
#include <poplar/poplar_export.hpp>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace poplar {

/// The number of copies of a graph that run side by side.
struct replication_factor {
  explicit replication_factor(unsigned factor) : value(factor) {}
  unsigned value;
};

/// The computation graph: variables and constants with their tile mapping,
/// compute sets, streams and host handles. Engine compiles a graph with
/// its programs.
///
/// A virtual graph (createVirtualGraph) is a view of a range of the tiles
/// of its parent: tile numbers given to it count from the start of its
/// range, and what is added to it is added to the whole graph.
class POPLAR_API Graph {
public:
  struct Impl;
  /// For each tile, the intervals of the tensor's flattened elements on it.
  using TileToTensorMapping = std::vector<std::vector<Interval>>;

  Graph(const Target &target, replication_factor r = replication_factor(1));
  Graph(const Device &device, replication_factor r = replication_factor(1));
  Graph(Graph &&) noexcept;
  Graph &operator=(Graph &&) noexcept;
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
  ~Graph();

  /// The target of this graph (for a virtual graph, its range of tiles;
  /// for a replicated graph, the IPUs of one replica).
  const Target &getTarget() const;
  /// How many replicas of the graph run side by side (1 when it is not
  /// replicated).
  unsigned getReplicationFactor() const;

  // Variables and constants.

  Tensor addVariable(const Type &type, ArrayRef<std::size_t> shape,
                     const DebugContext &debugContext = {});
  Tensor addVariable(const Type &type, ArrayRef<std::size_t> shape,
                     VariableMappingMethod mappingMethod,
                     const DebugContext &debugContext = {});
  /// A variable spread evenly over the tiles of the graph.
  Tensor addLinearlyMappedVariable(const Type &type, ArrayRef<std::size_t> shape,
                                   const DebugContext &debugContext = {});
  /// As above, with at least minElementsPerTile elements on a tile that has
  /// any, in multiples of grainSize.
  Tensor addLinearlyMappedVariable(const Type &type, ArrayRef<std::size_t> shape,
                                   unsigned minElementsPerTile,
                                   unsigned grainSize,
                                   const DebugContext &debugContext = {});

  /// A constant of the given device type from host values of type T.
  template <class T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape,
                     ArrayRef<T> values,
                     const DebugContext &debugContext = {"<const>"}) {
    checkConstantSize(type, shape, values.size(), debugContext);
    return addConstantFromHost(type, shape, equivalent_device_type<T>().value,
                               values.data(), false, debugContext);
  }
  template <class T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape,
                     const T *values,
                     const DebugContext &debugContext = {"<const>"}) {
    return addConstantFromHost(type, shape, equivalent_device_type<T>().value,
                               values, false, debugContext);
  }
  /// A constant whose every element is val.
  template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape, T val,
                     const DebugContext &debugContext = {"<const>"}) {
    return addConstantFromHost(type, shape, equivalent_device_type<T>().value,
                               &val, true, debugContext);
  }
  /// A HALF constant from the bits of IEEE half values.
  Tensor addConstantHalf(const Type &type, ArrayRef<std::size_t> shape,
                         std::uint16_t val,
                         const DebugContext &debugContext = {"<const>"});
  Tensor addConstantHalf(const Type &type, ArrayRef<std::size_t> shape,
                         const std::uint16_t *values,
                         const DebugContext &debugContext = {"<const>"});

  /// A scalar UNSIGNED_INT constant that holds, in each replica, the index
  /// of that replica (0 in a graph that is not replicated).
  Tensor addReplicationIndexConstant(const DebugContext &debugContext = {});

  /// A new tensor with the shape and tile mapping of t. With the
  /// PRESERVE_ORDER methods, a t that is one strided block of storage (a
  /// reshaped or shuffled variable, or a part of one) with long runs is
  /// cloned in its storage order: the clone's contiguous regions are t's,
  /// so an element-wise result over a shuffled tensor is shuffled alike.
  /// Other views are cloned in their element order.
  Tensor clone(const Type &type, const Tensor &t,
               const DebugContext &debugContext = {},
               TensorCloneMethod method =
                   TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
  Tensor clone(const Tensor &t, const DebugContext &debugContext = {},
               TensorCloneMethod method =
                   TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

  /// The value a variable holds when the engine is loaded.
  template <class T>
  void setInitialValue(const Tensor &t, ArrayRef<T> values) {
    setInitialValueFromHost(t, equivalent_device_type<T>().value,
                            values.data(), values.size());
  }
  template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
  void setInitialValue(const Tensor &t, T value) {
    setInitialValueFromHost(t, equivalent_device_type<T>().value, &value, 1);
  }
  void setInitialValueHalf(const Tensor &t, ArrayRef<std::uint16_t> values);

  /// The whole variable a VariableRef names.
  Tensor getVariable(VariableRef v) const;
  bool isConstant(VariableRef v) const;

  // Tile mapping.

  void setTileMapping(const Tensor &t, unsigned tileNum);
  void setTileMapping(const Tensor &t, const TileToTensorMapping &mapping);
  /// The mapping of t; with requireComplete, every element must be mapped
  /// (else poplar::invalid_tile_mapping naming the tensor).
  TileToTensorMapping getTileMapping(const Tensor &t,
                                     bool requireComplete = true) const;
  TileToTensorMapping getTileMapping(const Tensor &t, bool *isComplete) const;

  /// Flattens *t and every tensor of ts (each with t's number of elements)
  /// and reorders them all alike so that t's elements come in an order
  /// closer to their storage: fewer, longer contiguous regions. With
  /// requireSimplestOrder, t's regions are then also put in storage order
  /// where its runs of storage allow; without it, only t's dimensions are
  /// reordered, which keeps the views of ts cheap.
  void reorderToSimplify(Tensor *t, ArrayRef<Tensor *> ts,
                         bool requireSimplestOrder = true) const;

  // Codelets.

  /// Adds the vertex types of a codelet file: C++ source (compiled with
  /// popc, through a cache) or a graph program object (.gp) made by popc.
  /// Returns false when the same codelets were already added.
  bool addCodelets(StringRef src, CodeletFileType type = CodeletFileType::Auto,
                   StringRef compileFlags = "", StringRef targetName = "");
  /// As above; the compiler's messages go to compileOutput.
  bool addCodelets(StringRef src, CodeletFileType type, StringRef compileFlags,
                   std::ostream &compileOutput, StringRef targetName = "");
  /// Codelet source held in a stream.
  void addCodelets(std::stringstream &stream, StringRef compileFlags = "",
                   CodeletFileType type = CodeletFileType::CppSource,
                   StringRef targetName = "");
  void addCodelets(std::stringstream &stream, StringRef compileFlags,
                   std::ostream &compileOutput,
                   CodeletFileType type = CodeletFileType::CppSource,
                   StringRef targetName = "");
  /// Several codelet files, each as addCodelets(file).
  void addCodelets(const std::vector<std::string> &xs,
                   StringRef compileFlags = "");
  /// Whether a vertex type of this name has been added.
  bool hasCodelet(StringRef codeletName) const;

  // Compute sets, vertices and functions.

  ComputeSet addComputeSet(const DebugContext &debugContext = {});
  Function addFunction(const program::Program &program);

  /// A field connection of addVertex: a field name with a tensor, or with
  /// a list of tensors for a list field.
  struct ConnectionDesc {
    ConnectionDesc(StringRef field, Tensor tensor)
        : field(field.str()), tensors{std::move(tensor)} {}
    ConnectionDesc(StringRef field, ArrayRef<Tensor> tensors)
        : field(field.str()), tensors(tensors.begin(), tensors.end()),
          isList(true) {}
    std::string field;
    std::vector<Tensor> tensors;
    bool isList = false;
  };

  /// A new vertex of the given type (a name added by addCodelets, for a
  /// template instance such as "MyVertex<float>") in compute set cs.
  VertexRef addVertex(ComputeSet cs, StringRef vertexType);
  VertexRef addVertex(ComputeSet cs, StringRef vertexType,
                      ArrayRef<ConnectionDesc> connections);

  /// Connects an Input/Output/InOut field: a scalar field to a tensor of
  /// one element, a vector field to a 1-D tensor, an item of a list field
  /// (field[i]) to either.
  void connect(FieldRef field, const Tensor &tensor);
  /// Connects every item of a list field, setting its size.
  void connect(FieldRef field, ArrayRef<Tensor> tensors);
  /// The number of items of a list field or elements of a state vector.
  void setFieldSize(FieldRef field, std::size_t size);

  /// The value of a vertex state field (a scalar member).
  template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
  void setInitialValue(const FieldRef &field, T value) {
    setFieldValueFromHost(field, equivalent_device_type<T>().value, &value, 1,
                          false);
  }
  /// The values of a vertex state vector (Vector<T> member); sets its size.
  template <class T>
  void setInitialValue(const FieldRef &field, ArrayRef<T> values) {
    setFieldValueFromHost(field, equivalent_device_type<T>().value,
                          values.data(), values.size(), true);
  }

  /// The tile the vertex runs on.
  void setTileMapping(VertexRef v, unsigned tileNum);
  /// The cycles (and floating-point operations) one run of the vertex
  /// takes on the IPU, for the IPU Model's estimates.
  void setPerfEstimate(const VertexRef &v, std::uint64_t cycles,
                       std::uint64_t flops = 0);
  void setCycleEstimate(const VertexRef &v, std::uint64_t cycles);
  /// A cycle estimator for every vertex of a type that has no estimate of
  /// its own (setPerfEstimate wins), run when the graph is compiled.
  void registerPerfEstimator(StringRef vertexTypeName, PerfEstimateFunc f);

  // Host I/O.

  /// Names a tensor that Engine::writeTensor can write from the host.
  void createHostWrite(StringRef handle, const Tensor &t,
                       bool rearrangeOnHost = false);
  /// Names a tensor that Engine::readTensor can read to the host.
  void createHostRead(StringRef handle, const Tensor &t,
                      bool rearrangeOnHost = false);
  DataStream addHostToDeviceFIFO(
      StringRef handle, const Type &elementType, std::size_t numElements,
      ReplicatedStreamMode replicatedMode = ReplicatedStreamMode::REPLICATE,
      const OptionFlags &options = {});
  DataStream addDeviceToHostFIFO(StringRef handle, const Type &elementType,
                                 std::size_t numElements,
                                 const OptionFlags &options = {});
  RemoteBuffer addRemoteBuffer(StringRef handle, const Type &elementType,
                               std::size_t numElements, std::size_t repeats = 1,
                               bool rearrangeOnHost = false,
                               bool optimiseMemory = false);

  // Virtual graphs.

  /// A graph of tiles [lowerTile, upperTile) of this graph.
  Graph createVirtualGraph(unsigned lowerTile, unsigned upperTile);
  /// A graph of the first numTilesPerIPU tiles of each IPU.
  Graph createVirtualGraph(unsigned numTilesPerIPU);
  /// A graph of the given tiles of this graph, in the given order.
  Graph createVirtualGraph(const std::vector<unsigned> &perIpuTiles);
  /// A graph of which replicationFactor replicas run side by side, each on
  /// getNumIPUs() / replicationFactor IPUs of this graph. Only a top-level
  /// graph that holds nothing yet can be replicated: its replicas share
  /// one compiled graph, which this graph then names too.
  Graph createReplicatedGraph(unsigned replicationFactor);
  /// The tensor of a parent graph that holds t of every replica. Not
  /// available here (see the README): throws poplar_error.
  Tensor getNonReplicatedTensor(const Tensor &t) const;

  /// The graph this graph is a view of (itself for a top-level graph).
  Graph getTopLevelGraph();
  /// The tile number in the top-level graph of tile `tile` of this graph.
  unsigned convertVirtualTileToTopLevelTile(unsigned tile) const;

  const Impl &getImpl() const { return *impl; }
  Impl &getImpl() { return *impl; }

  /// The tiles this graph object sees (internal).
  struct View;

private:
  Graph(std::shared_ptr<Impl> impl, std::shared_ptr<const View> view);

  void checkConstantSize(const Type &type, ArrayRef<std::size_t> shape,
                         std::size_t numValues,
                         const DebugContext &debugContext) const;
  Tensor addConstantFromHost(const Type &type, ArrayRef<std::size_t> shape,
                             const Type &hostType, const void *values,
                             bool broadcastScalar,
                             const DebugContext &debugContext);
  void setInitialValueFromHost(const Tensor &t, const Type &hostType,
                               const void *values, std::size_t numValues);
  void setFieldValueFromHost(const FieldRef &field, const Type &hostType,
                             const void *values, std::size_t numValues,
                             bool isVector);
  bool addCodeletsImpl(const std::string &src, CodeletFileType type,
                       const std::string &compileFlags,
                       const std::string &targetName,
                       std::ostream *compileOutput);

  std::shared_ptr<Impl> impl;
  std::shared_ptr<const View> view;
};

} // namespace poplar

#endif // POPLAR_GRAPH_HPP

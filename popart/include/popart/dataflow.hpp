// How a step runs: the number of batches per step and the anchors (the
// tensors returned to the host, and how often).
#ifndef POPART_DATAFLOW_HPP
#define POPART_DATAFLOW_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>
#include <popart/tensorlocation.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace popart {

class SessionOptions;

enum class ExchangeStrategy {
  JustInTime = 0,
  OverlapInnerLoop,
  OverlapLoops,
  OverlapStep,
  N
};
enum class ReplicatedStreamMode { Broadcast, Replicate };

/// Where an input's stream lives and how it is exchanged.
class POPART_API InputSettings {
public:
  InputSettings() = default;
  InputSettings(TileSet tileSet, ExchangeStrategy exchangeStrategy)
      : tileSet_(tileSet), exchangeStrategy_(exchangeStrategy) {}
  explicit InputSettings(ReplicatedStreamMode mode) : mode_(mode) {}
  TileSet tileSet() const { return tileSet_; }
  ExchangeStrategy exchangeStrategy() const { return exchangeStrategy_; }
  ReplicatedStreamMode replicatedStreamMode() const { return mode_; }

private:
  TileSet tileSet_ = TileSet::Compute;
  ExchangeStrategy exchangeStrategy_ = ExchangeStrategy::JustInTime;
  ReplicatedStreamMode mode_ = ReplicatedStreamMode::Replicate;
};

enum class AnchorReturnTypeId { Final = 0, EveryN, All, Sum };

/// "ALL" (every batch), "EVERYN" with a period (batches whose 1-based
/// count is a multiple of it), "FINAL" (the last batch), "SUM" (the sum
/// over the batches). Names are read in any case.
class POPART_API AnchorReturnType {
public:
  AnchorReturnType();
  explicit AnchorReturnType(std::string artString,
                            TileSet tileSet = TileSet::Compute,
                            ExchangeStrategy exchangeStrategy =
                                ExchangeStrategy::JustInTime);
  AnchorReturnType(std::string artString, int returnPeriod,
                   TileSet tileSet = TileSet::Compute,
                   ExchangeStrategy exchangeStrategy =
                       ExchangeStrategy::JustInTime);

  AnchorReturnTypeId id() const { return artId_; }
  /// The return period (EVERYN only).
  int rp() const;
  const std::string &str() const { return artStr_; }
  TileSet tileSet() const { return tileSet_; }
  ExchangeStrategy exchangeStrategy() const { return exchangeStrategy_; }
  std::size_t hash() const;

private:
  std::string artStr_;
  AnchorReturnTypeId artId_;
  int returnPeriod_ = 0;
  TileSet tileSet_ = TileSet::Compute;
  ExchangeStrategy exchangeStrategy_ = ExchangeStrategy::JustInTime;
};

using AnchorReturnTypeMap = std::map<TensorId, AnchorReturnType>;

class POPART_API DataFlow {
public:
  DataFlow();
  explicit DataFlow(int batchesPerStep);
  DataFlow(int batchesPerStep, const AnchorReturnTypeMap &anchorMap);
  DataFlow(int batchesPerStep, const std::vector<TensorId> anchorTensorIds,
           const AnchorReturnType &art = AnchorReturnType("All"));

  bool isAnchored(TensorId id) const;
  bool isBatchCountingRequired() const;
  const std::vector<TensorId> &anchors() const { return v_anchors; }
  const std::vector<int> &rps() const { return v_rps; }
  int nAnchors() const { return static_cast<int>(v_anchors.size()); }
  int batchesPerStep() const { return batchesPerStep_; }
  AnchorReturnType art(TensorId anchorId) const;
  /// How many values of the anchor one step returns (per replica).
  unsigned numOutFetchesPerRepl(const SessionOptions &opts,
                                const TensorId &anchorId) const;
  const AnchorReturnTypeMap &getAnchorReturnTypeMap() const { return m_anchors; }
  void setBatchesPerStep(int batchesPerStep) { batchesPerStep_ = batchesPerStep; }
  std::size_t hash() const;

private:
  void check() const;

  int batchesPerStep_ = 0;
  AnchorReturnTypeMap m_anchors;
  std::vector<TensorId> v_anchors;
  std::vector<int> v_rps;
};

} // namespace popart

#endif

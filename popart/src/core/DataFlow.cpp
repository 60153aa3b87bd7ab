#include <popart/dataflow.hpp>
#include <popart/error.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/sessionoptions.hpp>

#include <algorithm>
#include <cctype>
#include <functional>

namespace popart {
namespace {

AnchorReturnTypeId idFromString(const std::string &s) {
  std::string lower;
  for (char c : s)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "final")
    return AnchorReturnTypeId::Final;
  if (lower == "everyn")
    return AnchorReturnTypeId::EveryN;
  if (lower == "all")
    return AnchorReturnTypeId::All;
  if (lower == "sum")
    return AnchorReturnTypeId::Sum;
  throw error("Invalid anchor return type '{}': use ALL, FINAL, EVERYN or SUM",
              s);
}

} // namespace

AnchorReturnType::AnchorReturnType() : AnchorReturnType("All") {}

AnchorReturnType::AnchorReturnType(std::string artString, TileSet tileSet,
                                   ExchangeStrategy exchangeStrategy)
    : artStr_(artString), artId_(idFromString(artString)), tileSet_(tileSet),
      exchangeStrategy_(exchangeStrategy) {
  if (artId_ == AnchorReturnTypeId::EveryN)
    throw error("Anchor return type EVERYN needs a return period: "
                "AnchorReturnType(\"EVERYN\", N)");
}

AnchorReturnType::AnchorReturnType(std::string artString, int returnPeriod,
                                   TileSet tileSet,
                                   ExchangeStrategy exchangeStrategy)
    : artStr_(artString), artId_(idFromString(artString)),
      returnPeriod_(returnPeriod), tileSet_(tileSet),
      exchangeStrategy_(exchangeStrategy) {
  if (artId_ != AnchorReturnTypeId::EveryN)
    throw error("Anchor return type {} takes no return period", artString);
  if (returnPeriod <= 0)
    throw error("The return period of EVERYN must be positive, not {}",
                returnPeriod);
}

int AnchorReturnType::rp() const {
  if (artId_ != AnchorReturnTypeId::EveryN)
    throw error("Anchor return type {} has no return period", artStr_);
  return returnPeriod_;
}

std::size_t AnchorReturnType::hash() const {
  return std::hash<int>()(static_cast<int>(artId_)) ^
         (std::hash<int>()(returnPeriod_) << 1);
}

DataFlow::DataFlow() : batchesPerStep_(0) {}
DataFlow::DataFlow(int bps) : batchesPerStep_(bps) { check(); }

DataFlow::DataFlow(int bps, const AnchorReturnTypeMap &anchorMap)
    : batchesPerStep_(bps), m_anchors(anchorMap) {
  for (const auto &p : m_anchors) {
    v_anchors.push_back(p.first);
    if (p.second.id() == AnchorReturnTypeId::EveryN)
      v_rps.push_back(p.second.rp());
  }
  check();
}

DataFlow::DataFlow(int bps, const std::vector<TensorId> anchorTensorIds,
                   const AnchorReturnType &art)
    : batchesPerStep_(bps) {
  for (const auto &id : anchorTensorIds) {
    if (m_anchors.count(id))
      throw error("Anchor '{}' is given twice", id);
    m_anchors.emplace(id, art);
    v_anchors.push_back(id);
    if (art.id() == AnchorReturnTypeId::EveryN)
      v_rps.push_back(art.rp());
  }
  check();
}

void DataFlow::check() const {
  if (batchesPerStep_ < 0)
    throw error("batchesPerStep must not be negative, not {}", batchesPerStep_);
  for (const auto &p : m_anchors)
    if (p.second.id() == AnchorReturnTypeId::EveryN && batchesPerStep_ > 0 &&
        batchesPerStep_ % p.second.rp() != 0)
      throw error("Anchor '{}': the EVERYN return period {} must divide "
                  "batchesPerStep ({})",
                  p.first, p.second.rp(), batchesPerStep_);
}

bool DataFlow::isAnchored(TensorId id) const { return m_anchors.count(id) != 0; }

bool DataFlow::isBatchCountingRequired() const {
  for (const auto &p : m_anchors)
    if (p.second.id() == AnchorReturnTypeId::EveryN)
      return true;
  return false;
}

AnchorReturnType DataFlow::art(TensorId anchorId) const {
  auto it = m_anchors.find(anchorId);
  if (it == m_anchors.end())
    throw error("Tensor '{}' is not an anchor", anchorId);
  return it->second;
}

unsigned DataFlow::numOutFetchesPerRepl(const SessionOptions &opts,
                                        const TensorId &anchorId) const {
  const auto a = art(anchorId);
  const unsigned bps = static_cast<unsigned>(std::max(1, batchesPerStep_));
  const unsigned accumulation = opts.getAccumulationFactor();
  switch (a.id()) {
  case AnchorReturnTypeId::All:
    return bps * accumulation;
  case AnchorReturnTypeId::EveryN:
    return bps / static_cast<unsigned>(a.rp()) * accumulation;
  case AnchorReturnTypeId::Final:
  case AnchorReturnTypeId::Sum:
    return 1;
  }
  return 1;
}

std::size_t DataFlow::hash() const {
  std::size_t h = std::hash<int>()(batchesPerStep_);
  for (const auto &p : m_anchors)
    h = h * 31 + (std::hash<std::string>()(p.first) ^ p.second.hash());
  return h;
}

const TensorInfo &InputShapeInfo::get(TensorId id) const {
  auto it = infos.find(id);
  if (it == infos.end())
    throw error("InputShapeInfo has no entry for tensor '{}'", id);
  return it->second;
}

std::vector<TensorId> InputShapeInfo::getAllTensorIds() const {
  std::vector<TensorId> ids;
  for (const auto &p : infos)
    ids.push_back(p.first);
  return ids;
}

int64_t SessionOptions::getGlobalReplicationFactor() const {
  if (enableDistributedReplicatedGraphs)
    return globalReplicationFactor;
  return enableReplicatedGraphs ? replicatedGraphCount : 1;
}

unsigned SessionOptions::getAccumulationFactor() const {
  // A factor past 1 with accumulation off is a contradiction the original
  // refuses rather than ignores.
  if (!enableGradientAccumulation && accumulationFactor > 1)
    throw error("SessionOptions: enableGradientAccumulation is false, but "
                "accumulationFactor is {}; enable gradient accumulation or "
                "set accumulationFactor to 1",
                accumulationFactor);
  return enableGradientAccumulation ? static_cast<unsigned>(accumulationFactor)
                                    : 1u;
}

} // namespace popart

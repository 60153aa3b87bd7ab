// CTC plans: made by ctc::plan and ctc_infer::plan, compared, printed and
// recorded; the tensors they map.
#include "CTCPlanImpl.hpp"
#include "TileWork.hpp"

#include <poputil/OptionParsing.hpp>
#include <poputil/exceptions.hpp>

#include <ostream>
#include <sstream>

namespace popnn {
namespace ctc {

Plan::Plan() : impl(new Impl) {}
Plan::~Plan() = default;
Plan::Plan(const Plan &other) : impl(new Impl(*other.impl)) {}
Plan::Plan(Plan &&other) : impl(std::move(other.impl)) {}
Plan &Plan::operator=(const Plan &other) {
  impl.reset(new Impl(*other.impl));
  return *this;
}
Plan &Plan::operator=(Plan &&other) {
  impl = std::move(other.impl);
  return *this;
}
Plan::Plan(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}

bool operator<(const Plan &a, const Plan &b) {
  return a.impl->key() < b.impl->key();
}
bool operator==(const Plan &a, const Plan &b) {
  return a.impl->key() == b.impl->key();
}
bool operator!=(const Plan &a, const Plan &b) { return !(a == b); }

std::ostream &operator<<(std::ostream &o, const Plan &p) {
  const Plan::Impl &i = *p.impl;
  const bool loss = i.kind == Plan::Impl::Kind::Loss;
  o << "CTC " << (loss ? "loss" : "inference") << " plan:\n"
    << "  inType " << i.inType << ", outType " << i.outType
    << ", partialsType " << i.partialsType << "\n"
    << "  batchSize " << i.batchSize << ", maxTime " << i.maxTime
    << ", numClasses " << i.numClasses;
  if (loss)
    o << ", maxLabelLength " << i.maxLabelLength;
  else
    o << ", beamwidth " << i.beamWidth;
  o << "\n  one batch entry per tile over " << i.numTiles << " tiles\n";
  return o;
}

void parsePlanOptions(Plan::Impl &impl, const poplar::OptionFlags &options,
                      const std::string &opName) {
  const poplibs::OptionSpec spec{
      {"partialsType",
       poplibs::OptionHandler::createWithEnum(
           impl.partialsType,
           std::map<std::string, poplar::Type>{{"float", poplar::FLOAT},
                                               {"half", poplar::HALF}})},
      {"availableMemoryProportion",
       poplibs::OptionHandler::createWithDouble(impl.availableMemoryProportion,
                                                0.0, true, 1.0, true)}};
  for (const auto &option : options)
    spec.parse(option.first, option.second);
  if (impl.partialsType != poplar::FLOAT)
    throw poputil::poplibs_error(
        opName + ": partialsType half is not supported (CTC partials are "
                 "always float here)");
}

void checkPlanSizes(const Plan::Impl &impl, std::uint64_t memoryBytes,
                    const std::string &opName) {
  const bool loss = impl.kind == Plan::Impl::Kind::Loss;
  if (impl.batchSize == 0 || impl.maxTime == 0 || impl.numClasses < 2 ||
      (loss && impl.maxLabelLength == 0) || (!loss && impl.beamWidth == 0))
    throw poputil::poplibs_error(
        opName + ": batchSize, maxTime, " +
        (loss ? "maxLabelLength" : "beamwidth") +
        " must be positive and numClasses at least 2 (a blank and a symbol); "
        "got batchSize " + std::to_string(impl.batchSize) + ", maxTime " +
        std::to_string(impl.maxTime) + ", numClasses " +
        std::to_string(impl.numClasses) +
        (loss ? ", maxLabelLength " + std::to_string(impl.maxLabelLength)
              : ", beamwidth " + std::to_string(impl.beamWidth)));
  for (const poplar::Type &t : {impl.inType, impl.outType})
    if (t != poplar::FLOAT && t != poplar::HALF)
      throw poputil::poplibs_error(opName + ": type " + t.toString().str() +
                                   " is not FLOAT or HALF");
  // The data [maxTime][batchSize][numClasses] (and the labels) must fit in
  // the target before anything is made of them: enormous sizes are refused
  // here rather than tried tile by tile. In long double, which holds these
  // products of 32-bit sizes without overflow.
  const long double elementBytes = impl.inType == poplar::HALF ? 2 : 4;
  const long double dataBytes = static_cast<long double>(impl.maxTime) *
                                impl.batchSize * impl.numClasses * elementBytes;
  const long double labelBytes =
      loss ? static_cast<long double>(impl.batchSize) * impl.maxLabelLength * 4
           : 0;
  if (dataBytes + labelBytes > static_cast<long double>(memoryBytes))
    throw poputil::poplibs_error(
        opName + ": the data of maxTime " + std::to_string(impl.maxTime) +
        ", batchSize " + std::to_string(impl.batchSize) + " and numClasses " +
        std::to_string(impl.numClasses) +
        (loss ? " (with labels of maxLabelLength " +
                    std::to_string(impl.maxLabelLength) + ")"
              : std::string()) +
        " cannot fit in the target's " + std::to_string(memoryBytes) +
        " bytes");
}

void checkCtcTensor(const poplar::Tensor &t,
                    const std::vector<std::size_t> &shape,
                    const std::vector<poplar::Type> &types,
                    const std::string &what, const std::string &opName) {
  bool typeOk = false;
  for (const auto &type : types)
    typeOk = typeOk || t.elementType() == type;
  if (t.shape() != shape || !typeOk) {
    std::ostringstream want;
    want << "[";
    for (std::size_t i = 0; i != shape.size(); ++i)
      want << (i ? "," : "") << shape[i];
    want << "] of type " << types[0];
    if (types.size() > 1)
      want << " or " << types[1];
    throw poputil::poplibs_error(opName + ": " + what + " " +
                                 detail::describe(t) + " of type " +
                                 t.elementType().toString().str() +
                                 " must be " + want.str());
  }
}

poplar::Tensor createPlannedData(poplar::Graph &graph, const poplar::Type &type,
                                 std::size_t batchSize, std::size_t maxTime,
                                 std::size_t numClasses, const Plan::Impl &plan,
                                 const poplar::DebugContext &dc,
                                 const std::string &opName) {
  if (batchSize != plan.batchSize || maxTime != plan.maxTime ||
      numClasses != plan.numClasses)
    throw poputil::poplibs_error(
        opName + ": the data shape [" + std::to_string(maxTime) + "," +
        std::to_string(batchSize) + "," + std::to_string(numClasses) +
        "] is not the plan's [" + std::to_string(plan.maxTime) + "," +
        std::to_string(plan.batchSize) + "," + std::to_string(plan.numClasses) +
        "]");
  poplar::Tensor t = graph.addVariable(type, {maxTime, batchSize, numClasses},
                                       {dc, "data"});
  for (unsigned b = 0; b != batchSize; ++b)
    graph.setTileMapping(t.slice(b, b + 1, 1), plan.tileOf(b));
  return t;
}

} // namespace ctc
} // namespace popnn

namespace poputil {
template <>
poplar::ProfileValue toProfileValue(const popnn::ctc::Plan &p) {
  std::ostringstream os;
  os << p;
  return poplar::ProfileValue(os.str());
}
} // namespace poputil

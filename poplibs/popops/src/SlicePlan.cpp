// SlicePlan and embedding::plan: a plan records what it was made for, and
// the options are checked as the original checks them. There is one layout
// (the columns of the sliced tensor spread linearly over the tiles), so a
// plan never changes how an operation is built.
#include <popops/DynamicSlice.hpp>

#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <tuple>

namespace popops {

/// The private state of a plan, for this library.
class SlicePlanAccess {
public:
  static SlicePlan make(std::size_t groupSize, std::size_t numEntries,
                        std::size_t outputSize,
                        const std::vector<std::size_t> &numLookups,
                        bool usedForSlice, bool usedForUpdate,
                        const std::string &operationForUpdate) {
    SlicePlan p;
    p.planned = true;
    p.groupSize = groupSize;
    p.numEntries = numEntries;
    p.outputSize = outputSize;
    p.numLookups = numLookups;
    p.usedForSlice = usedForSlice;
    p.usedForUpdate = usedForUpdate;
    p.operationForUpdate = operationForUpdate;
    return p;
  }
  static auto key(const SlicePlan &p) {
    return std::tie(p.planned, p.groupSize, p.numEntries, p.outputSize,
                    p.numLookups, p.usedForSlice, p.usedForUpdate,
                    p.operationForUpdate);
  }
  static bool planned(const SlicePlan &p) { return p.planned; }
  static std::size_t groupSize(const SlicePlan &p) { return p.groupSize; }
  static bool usedForSlice(const SlicePlan &p) { return p.usedForSlice; }
  static bool usedForUpdate(const SlicePlan &p) { return p.usedForUpdate; }
};

namespace slicing {

// Checks made by the operations and creators that take a plan.
void checkPlanGroups(const std::string &op, const SlicePlan &plan,
                     std::size_t groupSize, bool requireValid) {
  if (!SlicePlanAccess::planned(plan)) {
    if (requireValid)
      throw poputil::poplibs_error(op + ": needs a plan from embedding::plan "
                                        "(the default SlicePlan is no plan)");
    return;
  }
  if (SlicePlanAccess::groupSize(plan) != groupSize)
    throw poputil::poplibs_error(
        op + ": the plan was made for a group size of " +
        std::to_string(SlicePlanAccess::groupSize(plan)) + ", not " +
        std::to_string(groupSize));
}

void checkPlanUse(const std::string &op, const SlicePlan &plan, bool slice) {
  if (!SlicePlanAccess::planned(plan))
    return;
  if (slice && !SlicePlanAccess::usedForSlice(plan))
    throw poputil::poplibs_error(op + ": the plan was made with "
                                      "usedForSlice=false");
  if (!slice && !SlicePlanAccess::usedForUpdate(plan))
    throw poputil::poplibs_error(op + ": the plan was made with "
                                      "usedForUpdate=false");
}

} // namespace slicing

SlicePlan::SlicePlan() = default;
SlicePlan::~SlicePlan() = default;
SlicePlan::SlicePlan(const SlicePlan &) = default;
SlicePlan::SlicePlan(SlicePlan &&) noexcept = default;
SlicePlan &SlicePlan::operator=(const SlicePlan &) = default;
SlicePlan &SlicePlan::operator=(SlicePlan &&) noexcept = default;

std::ostream &operator<<(std::ostream &o, const SlicePlan &p) {
  if (!p.planned)
    return o << "SlicePlan(none)";
  o << "SlicePlan(groupSize=" << p.groupSize << ", numEntries=" << p.numEntries
    << ", outputSize=" << p.outputSize << ", numLookups={";
  for (std::size_t i = 0; i != p.numLookups.size(); ++i)
    o << (i ? "," : "") << p.numLookups[i];
  return o << "}, usedForSlice=" << (p.usedForSlice ? "true" : "false")
           << ", usedForUpdate=" << (p.usedForUpdate ? "true" : "false")
           << ", operationForUpdate=" << p.operationForUpdate << ")";
}

bool operator<(const SlicePlan &a, const SlicePlan &b) noexcept {
  return SlicePlanAccess::key(a) < SlicePlanAccess::key(b);
}
bool operator==(const SlicePlan &a, const SlicePlan &b) noexcept {
  return SlicePlanAccess::key(a) == SlicePlanAccess::key(b);
}
bool operator!=(const SlicePlan &a, const SlicePlan &b) noexcept {
  return !(a == b);
}

namespace {

bool parseBool(const std::string &key, const std::string &value) {
  if (value == "true")
    return true;
  if (value == "false")
    return false;
  throw poplar::invalid_option("embedding::plan: option " + key + "=" + value +
                               " (expected true or false)");
}

void checkChoice(const std::string &key, const std::string &value,
                 std::initializer_list<const char *> choices) {
  std::string list;
  for (const char *c : choices) {
    if (value == c)
      return;
    list += std::string(list.empty() ? "" : ", ") + c;
  }
  throw poplar::invalid_option("embedding::plan: option " + key + "=" + value +
                               " (expected one of " + list + ")");
}

} // namespace

SlicePlan embedding::plan(const poplar::Graph &graph,
                          const poplar::Type &dataType,
                          const std::size_t groupSize,
                          const std::size_t numEntries,
                          const std::size_t outputSize,
                          const std::vector<std::size_t> &numLookups,
                          const poplar::OptionFlags &options) {
  bool usedForSlice = true, usedForUpdate = true;
  std::string operation = "add";
  for (const auto &[key, value] : options) {
    if (key == "usedForSlice") {
      usedForSlice = parseBool(key, value);
    } else if (key == "usedForUpdate") {
      usedForUpdate = parseBool(key, value);
    } else if (key == "operationForUpdate") {
      checkChoice(key, value, {"none", "add", "max", "mul"});
      operation = value;
    } else if (key == "availableMemoryProportion") {
      double p = -1;
      try {
        p = std::stod(value);
      } catch (const std::exception &) {
      }
      if (!(p >= 0.0 && p <= 1.0))
        throw poplar::invalid_option("embedding::plan: option " + key + "=" +
                                     value + " (expected a number in [0, 1])");
    } else if (key == "indicesDistribution") {
      checkChoice(key, value, {"uniform", "onePoint"});
    } else if (key == "indicesAreSorted" || key == "validateIndices") {
      parseBool(key, value);
    } else if (key == "partialType") {
      checkChoice(key, value, {"half", "float"});
    } else {
      throw poplar::invalid_option("embedding::plan: unknown option '" + key +
                                   "'");
    }
  }
  if (!usedForSlice && !usedForUpdate)
    throw poputil::poplibs_error("embedding::plan: usedForSlice and "
                                 "usedForUpdate cannot both be false");
  if (groupSize == 0)
    throw poputil::poplibs_error("embedding::plan: the group size is 0");
  if (dataType != poplar::FLOAT && dataType != poplar::HALF &&
      dataType != poplar::INT && dataType != poplar::UNSIGNED_INT &&
      dataType != poplar::BOOL)
    throw poputil::poplibs_error("embedding::plan: data type " +
                                 dataType.toString().str() +
                                 " is not supported");
  return SlicePlanAccess::make(groupSize, numEntries, outputSize, numLookups,
                               usedForSlice, usedForUpdate, operation);
}

SlicePlan embedding::plan(const poplar::Graph &graph,
                          const poplar::Type &dataType,
                          const std::size_t numEntries,
                          const std::size_t outputSize,
                          const std::vector<std::size_t> &numLookups,
                          const poplar::OptionFlags &options) {
  return plan(graph, dataType, 1, numEntries, outputSize, numLookups, options);
}

} // namespace popops

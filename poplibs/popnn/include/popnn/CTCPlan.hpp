// The plan of a CTC loss or CTC inference operation: how its tensors are
// mapped and its work divided. Made by popnn::ctc::plan or
// popnn::ctc_infer::plan, and given back to the operation.
#ifndef POPNN_CTCPLAN_HPP
#define POPNN_CTCPLAN_HPP

#include <poputil/DebugInfo.hpp>
#include <popnn/popnn_export.hpp>

#include <iosfwd>
#include <memory>

namespace popnn {
namespace ctc {

/// An opaque plan; plans compare by their contents.
class POPNN_API Plan {
public:
  Plan();
  ~Plan();
  Plan(const Plan &other);
  Plan(Plan &&other);
  Plan &operator=(const Plan &other);
  Plan &operator=(Plan &&other);

  friend POPNN_API bool operator<(const Plan &a, const Plan &b);
  friend POPNN_API bool operator==(const Plan &a, const Plan &b);
  friend POPNN_API std::ostream &operator<<(std::ostream &o, const Plan &p);
  friend poplar::ProfileValue poputil::toProfileValue<>(const Plan &p);

  // Internal implementation
  class Impl;
  Impl &getImpl() const { return *impl; }
  Plan(std::unique_ptr<Impl> impl);

private:
  std::unique_ptr<Impl> impl;
};

POPNN_API bool operator<(const Plan &a, const Plan &b);
POPNN_API bool operator==(const Plan &a, const Plan &b);
POPNN_API bool operator!=(const Plan &a, const Plan &b);

} // namespace ctc
} // namespace popnn

namespace poputil {
template <>
POPNN_API poplar::ProfileValue toProfileValue(const popnn::ctc::Plan &p);
} // namespace poputil

#endif // POPNN_CTCPLAN_HPP

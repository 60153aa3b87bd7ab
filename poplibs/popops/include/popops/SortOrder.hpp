#ifndef POPOPS_SORTORDER_HPP
#define POPOPS_SORTORDER_HPP

namespace popops {

/// The order results are given in (NONE keeps the order they were found in).
enum class SortOrder { NONE, ASCENDING, DESCENDING };

} // namespace popops

#endif // POPOPS_SORTORDER_HPP

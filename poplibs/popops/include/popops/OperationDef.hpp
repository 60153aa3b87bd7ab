#ifndef POPOPS_OPERATIONDEF_HPP
#define POPOPS_OPERATIONDEF_HPP

namespace popops {

/// The reduction operations.
enum class Operation {
  ADD,
  MUL,
  MIN,
  MAX,
  LOGICAL_AND,
  LOGICAL_OR,
  SQUARE_ADD,
  LOG_ADD
};

} // namespace popops

#endif // POPOPS_OPERATIONDEF_HPP

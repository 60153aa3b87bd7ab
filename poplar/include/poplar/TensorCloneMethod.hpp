#ifndef POPLAR_TENSORCLONEMETHOD_HPP
#define POPLAR_TENSORCLONEMETHOD_HPP

namespace poplar {

/// How Graph::clone lays out the new variable.
///  - PRESERVE_ORDER_UNLESS_ALIASES: the clone's storage is in the order of
///    the tensor's storage (see Graph::clone); aliased elements get storage
///    of their own.
///  - PRESERVE_ORDER_AND_ALIASES: as above, but aliased elements of the
///    tensor are aliased in the clone too.
///  - CREATE_NEW_ORDER: any order; the mapping is still preserved.
///  - GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES: the storage of each tile
///    is gathered together, keeping aliases.
enum class TensorCloneMethod {
  PRESERVE_ORDER_UNLESS_ALIASES,
  PRESERVE_ORDER_AND_ALIASES,
  CREATE_NEW_ORDER,
  GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES
};

} // namespace poplar

#endif // POPLAR_TENSORCLONEMETHOD_HPP

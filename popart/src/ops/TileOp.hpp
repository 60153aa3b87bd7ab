#ifndef POPART_SRC_OPS_TILEOP_HPP
#define POPART_SRC_OPS_TILEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Tile: the input repeated along each dimension (constant repeats).
class TileOp : public Op {
public:
  TileOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &)
      : Op(id, name) {}
  void setup() override;
  std::vector<int64_t> repeats;
};

} // namespace popart

#endif

// The table of Opx factories by op identity. A custom op's Opx registers
// with a static OpxCreator in the user's shared library:
//
//   static popart::popx::OpxCreator<MyOpx> creator({myOpId});
#ifndef POPART_POPX_OPXMANAGER_HPP
#define POPART_POPX_OPXMANAGER_HPP

#include <popart/error.hpp>
#include <popart/operatoridentifier.hpp>
#include <popart/popart_export.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace popart {

class Op;

namespace popx {

class Devicex;
class Opx;

class POPART_API OpxManager {
public:
  using OpxFactoryFunc =
      std::function<std::unique_ptr<Opx>(Op *op, Devicex *devicex)>;
  static void registerOpx(const OperatorIdentifier &opid, OpxFactoryFunc func);
  /// The Opx registered for op's identity; nullptr if there is none.
  static std::unique_ptr<Opx> createOpx(Op *op, Devicex *devicex);
  static bool hasOpx(const OperatorIdentifier &opid);
};

template <class OPX> class OpxCreator {
public:
  OpxCreator(const OperatorIdentifier &opid) { add(opid); }
  OpxCreator(const std::vector<OperatorIdentifier> &opids) {
    for (const auto &opid : opids)
      add(opid);
  }
  /// Registers an Opx that refuses the op with `errMsg`.
  OpxCreator(const OperatorIdentifier &opid, std::string errMsg) {
    OpxManager::registerOpx(opid, [errMsg](Op *, Devicex *) -> std::unique_ptr<Opx> {
      throw error(errMsg);
    });
  }
  OpxCreator(const OperatorIdentifier &opid, OpxManager::OpxFactoryFunc func) {
    OpxManager::registerOpx(opid, std::move(func));
  }

private:
  static void add(const OperatorIdentifier &opid) {
    OpxManager::registerOpx(opid, [](Op *op, Devicex *d) -> std::unique_ptr<Opx> {
      return std::unique_ptr<OPX>(new OPX(op, d));
    });
  }
};

} // namespace popx
} // namespace popart

#endif

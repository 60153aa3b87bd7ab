#ifndef POPLAR_CSRFUNCTIONS_HPP
#define POPLAR_CSRFUNCTIONS_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/poplar_export.hpp>

namespace poplar {

/// The floating-point behaviour of the tiles: which floating-point
/// exceptions stop the program (invalid operation, division by zero,
/// overflow), whether float to half conversion rounds stochastically, and
/// whether a half overflow gives NaN rather than infinity. On the IPU
/// Model and the CPU device a vertex that raises an enabled exception makes
/// Engine::run throw poplar::application_runtime_error naming the vertex,
/// its compute set, its tile and the exception.
struct POPLAR_API FloatingPointBehaviour {
  bool inv = true;
  bool div0 = true;
  bool oflo = true;
  bool esr = true;
  bool nanoo = true;

  FloatingPointBehaviour() = default;
  FloatingPointBehaviour(bool inv, bool div0, bool oflo, bool esr, bool nanoo)
      : inv(inv), div0(div0), oflo(oflo), esr(esr), nanoo(nanoo) {}

  /// Every flag inverted: the mask that keeps what this one sets.
  FloatingPointBehaviour operator!() const {
    return FloatingPointBehaviour(!inv, !div0, !oflo, !esr, !nanoo);
  }
};

/// Sets the behaviour of every tile of \p graph when \p prog reaches this
/// point.
POPLAR_API void
setFloatingPointBehaviour(Graph &graph, program::Sequence &prog,
                          const FloatingPointBehaviour &behaviour,
                          const DebugContext &debugContext = {});

/// Sets the behaviour of every tile of \p graph from \p behaviour, a
/// tensor returned by getAndModifyFloatingPointBehaviour.
POPLAR_API void setFloatingPointBehaviour(Graph &graph,
                                          program::Sequence &prog,
                                          const Tensor &behaviour,
                                          const DebugContext &debugContext = {});

/// Turns stochastic rounding on or off on every tile of \p graph, leaving
/// the rest of the behaviour as it is.
POPLAR_API void setStochasticRounding(Graph &graph, program::Sequence &prog,
                                      bool behaviour,
                                      const DebugContext &debugContext = {});

/// Clears the flags set in \p clear, then sets those set in \p set, on
/// every tile of \p graph; returns an UNSIGNED_INT scalar holding the
/// behaviour before (that of the graph's first tile), for
/// setFloatingPointBehaviour to restore.
POPLAR_API Tensor getAndModifyFloatingPointBehaviour(
    Graph &graph, program::Sequence &prog, const FloatingPointBehaviour &clear,
    const FloatingPointBehaviour &set, const DebugContext &debugContext = {});

} // namespace poplar

#endif // POPLAR_CSRFUNCTIONS_HPP

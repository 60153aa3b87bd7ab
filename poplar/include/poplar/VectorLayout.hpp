#ifndef POPLAR_VECTORLAYOUT_HPP
#define POPLAR_VECTORLAYOUT_HPP

namespace poplar {

/// How a vector field is described in vertex state on the IPU: a pointer
/// and a size (SPAN), a pointer alone, or compressed forms. On this SDK's
/// targets every layout holds a pointer and a size; the layout is kept so
/// that memory estimates and codelets match the original.
enum class VectorLayout {
  SPAN,
  ONE_PTR,
  SHORT_SPAN,
  COMPACT_PTR,
  SCALED_PTR32,
  SCALED_PTR64,
  SCALED_PTR128
};

/// How a list of vectors (VectorList) is described in vertex state.
enum class VectorListLayout {
  DELTAN,
  DELTANELEMENTS,
  COMPACT_DELTAN,
  ONE_PTR,
  SCALED_PTR32,
  SCALED_PTR64,
  SCALED_PTR128
};

} // namespace poplar

#endif // POPLAR_VECTORLAYOUT_HPP

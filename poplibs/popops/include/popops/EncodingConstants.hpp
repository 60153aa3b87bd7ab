#ifndef POPOPS_ENCODINGCONSTANTS_HPP
#define POPOPS_ENCODINGCONSTANTS_HPP

/// The label that marks a row to be left alone (selectScalarFromRows gives
/// 0 for it, updateScalarInRows skips it). As an UNSIGNED_INT index it is
/// 0xFFFFFFFF.
#define MASKED_LABEL_CODE -1

#endif // POPOPS_ENCODINGCONSTANTS_HPP

// The kinds of pooling (popnn/Pooling.hpp). Also compiled into popnn's
// codelets, so it includes nothing.
#ifndef POPNN_POOLINGDEF_HPP
#define POPNN_POOLINGDEF_HPP

namespace popnn {

enum class PoolingType {
  /// the largest element of each window
  MAX,
  /// the mean of the input elements of each window (padding not counted)
  AVG,
  /// the sum of each window
  SUM
};

} // namespace popnn

#endif // POPNN_POOLINGDEF_HPP

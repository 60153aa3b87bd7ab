// Vertices that move data by indices known only at run time: dynamic and
// multi slices and updates, one-hot encoding, and per-row sorting and
// top-k. Slices work on rows: each vertex handles the same columns of
// every row, so vertices of one compute set never touch the same element.
#include <poplar/Vertex.hpp>
#include <popops/OperationDef.hpp>

#include <algorithm>
#include <numeric>
#include <type_traits>
#include <vector>

namespace popops {

template <class T> class DynamicSlice : public poplar::Vertex {
public:
  poplar::Input<unsigned> offset;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> base;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> sub;

  bool compute() {
    const unsigned rows = base.size();
    for (unsigned i = 0; i < sub.size(); ++i) {
      const auto &src = base[(*offset + i) % rows];
      std::copy(src.begin(), src.end(), sub[i].begin());
    }
    return true;
  }
};

template <class T> class DynamicUpdate : public poplar::Vertex {
public:
  poplar::Input<unsigned> offset;
  poplar::Vector<poplar::InOut<poplar::Vector<T>>> base;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> sub;

  bool compute() {
    const unsigned rows = base.size();
    for (unsigned i = 0; i < sub.size(); ++i)
      std::copy(sub[i].begin(), sub[i].end(),
                base[(*offset + i) % rows].begin());
    return true;
  }
};

// Rows at out-of-range offsets read as zeros and are not updated.
template <class T> class MultiSlice : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> offsets;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> base;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> out;

  bool compute() {
    for (unsigned k = 0; k < out.size(); ++k) {
      if (offsets[k] < base.size())
        std::copy(base[offsets[k]].begin(), base[offsets[k]].end(),
                  out[k].begin());
      else
        std::fill(out[k].begin(), out[k].end(), T(0));
    }
    return true;
  }
};

template <class T> class MultiUpdate : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> offsets;
  poplar::Vector<poplar::InOut<poplar::Vector<T>>> base;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> sub;

  bool compute() {
    for (unsigned k = 0; k < sub.size(); ++k)
      if (offsets[k] < base.size())
        std::copy(sub[k].begin(), sub[k].end(), base[offsets[k]].begin());
    return true;
  }
};

/// Combines slices into rows: ADD (scaled), MAX or MUL, computed in float
/// for half. Slices are applied in order, so repeated offsets accumulate.
template <popops::Operation Op, class T>
class MultiUpdateOp : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> offsets;
  poplar::Vector<poplar::InOut<poplar::Vector<T>>> base;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> sub;
  poplar::Input<float> scale;

  using Acc = std::conditional_t<std::is_same_v<T, half>, float, T>;

  bool compute() {
    for (unsigned k = 0; k < sub.size(); ++k) {
      if (offsets[k] >= base.size())
        continue;
      auto &row = base[offsets[k]];
      for (unsigned c = 0; c < row.size(); ++c) {
        const Acc a = Acc(row[c]), b = Acc(sub[k][c]);
        if constexpr (Op == popops::Operation::ADD)
          row[c] = T(float(a) + float(*scale) * float(b));
        else if constexpr (Op == popops::Operation::MAX)
          row[c] = T(a < b || b != b ? b : a); // NaN in either stays
        else
          row[c] = T(a * b);
      }
    }
    return true;
  }
};

template <class Index, class Out> class EncodeOneHot : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<Index>> indices;
  poplar::Vector<poplar::Output<poplar::Vector<Out>>> rows;
  poplar::Input<Out> on;
  poplar::Input<Out> off;

  bool compute() {
    for (unsigned r = 0; r < rows.size(); ++r) {
      std::fill(rows[r].begin(), rows[r].end(), Out(*off));
      const auto index = indices[r];
      if (index >= 0 && static_cast<unsigned long long>(index) < rows[r].size())
        rows[r][index] = *on;
    }
    return true;
  }
};

/// Sorts each row in place (stable), keys with their values if given.
template <class K, class V> class SortRows : public poplar::Vertex {
public:
  poplar::Vector<poplar::InOut<poplar::Vector<K>>> keys;
  poplar::Vector<poplar::InOut<poplar::Vector<V>>> values;
  bool descending;

  bool compute() {
    std::vector<unsigned> order;
    std::vector<K> k;
    std::vector<V> v;
    for (unsigned r = 0; r < keys.size(); ++r) {
      auto &row = keys[r];
      order.resize(row.size());
      std::iota(order.begin(), order.end(), 0u);
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return descending ? row[b] < row[a] : row[a] < row[b];
      });
      k.assign(row.begin(), row.end());
      for (unsigned i = 0; i < order.size(); ++i)
        row[i] = k[order[i]];
      if (r < values.size()) {
        v.assign(values[r].begin(), values[r].end());
        for (unsigned i = 0; i < order.size(); ++i)
          values[r][i] = v[order[i]];
      }
    }
    return true;
  }
};

/// The k largest (or smallest) of each row with their positions, in the
/// order asked for (0: as they appear, 1: ascending, 2: descending).
template <class T> class TopKRows : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> values;
  poplar::Vector<poplar::Output<poplar::Vector<unsigned>>> indices;
  bool largest;
  unsigned order;

  bool compute() {
    std::vector<unsigned> idx;
    for (unsigned r = 0; r < in.size(); ++r) {
      const auto &row = in[r];
      const unsigned k = values[r].size();
      idx.resize(row.size());
      std::iota(idx.begin(), idx.end(), 0u);
      // Ties keep the earlier position first.
      auto better = [&](unsigned a, unsigned b) {
        if (row[a] != row[b])
          return largest ? row[b] < row[a] : row[a] < row[b];
        return a < b;
      };
      std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), better);
      idx.resize(k);
      if (order == 0)
        std::sort(idx.begin(), idx.end());
      else if ((order == 1) == largest)
        std::reverse(idx.begin(), idx.end());
      for (unsigned i = 0; i < k; ++i) {
        values[r][i] = row[idx[i]];
        indices[r][i] = idx[i];
      }
    }
    return true;
  }
};

#define POPOPS_MOVEMENT_TYPES(X)                                               \
  X(float) X(half) X(int) X(unsigned) X(bool)

#define POPOPS_SLICE(T)                                                        \
  template class DynamicSlice<T>;                                              \
  template class DynamicUpdate<T>;                                             \
  template class MultiSlice<T>;                                                \
  template class MultiUpdate<T>;
POPOPS_MOVEMENT_TYPES(POPOPS_SLICE)
#undef POPOPS_SLICE

#define POPOPS_UPDATE_OP(T)                                                    \
  template class MultiUpdateOp<popops::Operation::ADD, T>;                     \
  template class MultiUpdateOp<popops::Operation::MAX, T>;                     \
  template class MultiUpdateOp<popops::Operation::MUL, T>;
POPOPS_UPDATE_OP(float)
POPOPS_UPDATE_OP(half)
POPOPS_UPDATE_OP(int)
POPOPS_UPDATE_OP(unsigned)
#undef POPOPS_UPDATE_OP

#define POPOPS_ONE_HOT(I)                                                      \
  template class EncodeOneHot<I, float>;                                       \
  template class EncodeOneHot<I, half>;                                        \
  template class EncodeOneHot<I, int>;                                         \
  template class EncodeOneHot<I, unsigned>;
POPOPS_ONE_HOT(int)
POPOPS_ONE_HOT(unsigned)
#undef POPOPS_ONE_HOT

#define POPOPS_SORT(K)                                                         \
  template class SortRows<K, K>;                                               \
  template class TopKRows<K>;
POPOPS_SORT(float)
POPOPS_SORT(half)
POPOPS_SORT(int)
POPOPS_SORT(unsigned)
#undef POPOPS_SORT
// Keys with the positions topK and sortKeyValue carry, and mixed pairs.
template class SortRows<float, unsigned>;
template class SortRows<half, unsigned>;
template class SortRows<int, unsigned>;
template class SortRows<float, int>;
template class SortRows<int, float>;
template class SortRows<float, half>;
template class SortRows<half, float>;
template class SortRows<int, half>;
template class SortRows<unsigned, float>;

} // namespace popops

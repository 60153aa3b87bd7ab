// EinsumOp: each operand's repeated labels made diagonals (strided views)
// and the labels no later step needs summed away; then the operands are
// contracted two at a time as batched matmuls ([batch, left, shared] x
// [batch, shared, right]), and the result permuted to the output's labels.
#include "lowering/Lowering.hpp"
#include "ops/EinsumOp.hpp"

#include <popops/Reduce.hpp>

#include <algorithm>

namespace popart {

namespace {

struct Labelled {
  poplar::Tensor t;
  std::string labels; // one per dimension
};

bool has(const std::string &s, char l) {
  return s.find(l) != std::string::npos;
}

// A repeated label's diagonal: two dimensions of equal size n and one
// label become one (last), the view of every (n + 1)-th element of the
// two flattened. Repeated until no label repeats.
Labelled diagonals(Labelled x) {
  for (;;) {
    std::size_t i = 0, j = 0;
    for (i = 0; i < x.labels.size() && j == 0; ++i)
      for (std::size_t c = i + 1; c < x.labels.size() && j == 0; ++c)
        if (x.labels[c] == x.labels[i])
          j = c;
    if (j == 0)
      return x;
    --i;
    std::vector<unsigned> perm;
    std::string labels;
    for (unsigned d = 0; d < x.t.rank(); ++d)
      if (d != i && d != j) {
        perm.push_back(d);
        labels += x.labels[d];
      }
    perm.push_back(static_cast<unsigned>(i));
    perm.push_back(static_cast<unsigned>(j));
    const std::size_t n = x.t.dim(static_cast<unsigned>(i));
    const poplar::Tensor moved = x.t.dimShuffle(perm);
    const unsigned last = moved.rank() - 2;
    x.t = moved.flatten(last, moved.rank())
              .subSample(static_cast<unsigned>(n + 1), last);
    x.labels = labels + x.labels[i];
  }
}

// x summed over the labels not in `keep`.
Labelled sumAway(LoweringContext &ctx, Labelled x, const std::string &keep,
                 poplar::program::Sequence &prog, const std::string &name) {
  std::vector<std::size_t> reduced;
  std::string labels;
  for (std::size_t d = 0; d < x.labels.size(); ++d)
    if (has(keep, x.labels[d]))
      labels += x.labels[d];
    else
      reduced.push_back(d);
  if (reduced.empty())
    return x;
  return {popops::reduce(ctx.graph, x.t, reduced, popops::Operation::ADD, prog,
                         name),
          labels};
}

// x's dimensions permuted to the order of `labels` (all of x's).
poplar::Tensor ordered(const Labelled &x, const std::string &labels) {
  std::vector<unsigned> perm;
  for (char l : labels)
    perm.push_back(static_cast<unsigned>(x.labels.find(l)));
  return x.t.dimShuffle(perm);
}

std::size_t product(const poplar::Tensor &t, const std::string &labels,
                    const Labelled &x) {
  std::size_t n = 1;
  for (char l : labels)
    n *= t.dim(static_cast<unsigned>(x.labels.find(l)));
  return n;
}

// a and b contracted over the labels they share that `keep` does not have.
Labelled contract(LoweringContext &ctx, const Labelled &a, const Labelled &b,
                  const std::string &keep, poplar::program::Sequence &prog,
                  const std::string &name) {
  std::string batch, shared, left, right;
  for (char l : a.labels)
    (has(b.labels, l) ? (has(keep, l) ? batch : shared) : left) += l;
  for (char l : b.labels)
    if (!has(a.labels, l))
      right += l;
  const std::size_t nb = product(a.t, batch, a), m = product(a.t, left, a),
                    k = product(a.t, shared, a), n = product(b.t, right, b);
  const poplar::Tensor lhs = ordered(a, batch + left + shared).reshape({nb, m, k});
  const poplar::Tensor rhs =
      ordered(b, batch + shared + right).reshape({nb, k, n});
  const poplar::Tensor p = lowerMatMul(ctx, lhs, rhs, Shape{int64_t(nb), int64_t(m), int64_t(n)},
                                       prog, name);
  std::vector<std::size_t> shape;
  for (char l : batch + left)
    shape.push_back(a.t.dim(static_cast<unsigned>(a.labels.find(l))));
  for (char l : right)
    shape.push_back(b.t.dim(static_cast<unsigned>(b.labels.find(l))));
  return {p.reshape(shape), batch + left + right};
}

} // namespace

void growEinsum(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const auto &e = static_cast<const EinsumOp &>(op);
  const std::string &name = op.name();
  // The labels still needed after operand i: the output's and later ones'.
  auto neededAfter = [&](std::size_t i) {
    std::string needed = e.outputLabels;
    for (std::size_t j = i + 1; j < e.operandLabels.size(); ++j)
      needed += e.operandLabels[j];
    return needed;
  };
  Labelled acc;
  for (std::size_t i = 0; i < e.operandLabels.size(); ++i) {
    Labelled x =
        diagonals({ctx.get(op.inTensor(static_cast<InIndex>(i))), e.operandLabels[i]});
    const std::string needed = neededAfter(i);
    x = sumAway(ctx, x, needed + (i > 0 ? acc.labels : ""), prog, name);
    if (i == 0) {
      acc = x;
      continue;
    }
    acc = sumAway(ctx, acc, needed + x.labels, prog, name);
    acc = contract(ctx, acc, x, needed, prog, name);
  }
  acc = sumAway(ctx, acc, e.outputLabels, prog, name);
  ctx.set(op.outputs[0], copyOf(ctx, ordered(acc, e.outputLabels), prog, name)
                             .reshape(dims(op.outShape(0))));
}

} // namespace popart

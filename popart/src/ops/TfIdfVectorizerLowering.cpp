// TfIdfVectorizerOp: for each n-gram of the pool and each gap, a popops
// expression comparing n strided views of the rows of X with its items
// (true where they all match), summed over the positions (popops reduce)
// into the n-gram's column; then the mode's weighting.
#include "lowering/Lowering.hpp"
#include "ops/TfIdfVectorizerOp.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace pe = popops::expr;

void growTfIdfVectorizer(const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
  const auto &v = static_cast<const TfIdfVectorizerOp &>(op);
  const std::string &name = op.name();
  poplar::Tensor x = ctx.get(op.inTensor(0));
  if (x.rank() == 1)
    x = x.expand({0});
  const std::size_t rows = x.dim(0), length = x.dim(1);
  // The count of each column, [rows, columns].
  std::vector<poplar::Tensor> counts(std::size_t(v.columns));
  for (std::size_t k = 0; k < v.ngrams.size(); ++k) {
    const auto &gram = v.ngrams[k];
    const std::size_t n = gram.size();
    if (int64_t(n) < v.minGram || int64_t(n) > v.maxGram)
      continue;
    poplar::Tensor count;
    // Unigrams have no gaps.
    const int64_t gaps = n == 1 ? 0 : v.maxSkip;
    for (int64_t skip = 0; skip <= gaps; ++skip) {
      const std::size_t step = std::size_t(skip) + 1;
      if ((n - 1) * step >= length)
        break;
      const std::size_t positions = length - (n - 1) * step;
      std::vector<poplar::Tensor> items{x.slice(0, positions, 1)};
      pe::Any match = pe::Equal(pe::_1, pe::Const(int(gram[0])));
      for (std::size_t j = 1; j < n; ++j) {
        items.push_back(x.slice(j * step, j * step + positions, 1));
        match = pe::And(match, pe::Equal(pe::PlaceHolder(unsigned(j + 1)),
                                         pe::Const(int(gram[j]))));
      }
      const poplar::Tensor found = popops::cast(
          ctx.graph, popops::map(ctx.graph, match, items, prog, name),
          poplar::FLOAT, prog, name);
      const poplar::Tensor sum = popops::reduce(
          ctx.graph, found, {1}, {popops::Operation::ADD}, prog, name);
      if (!count.valid())
        count = sum;
      else
        popops::addInPlace(ctx.graph, count, sum, prog, name);
    }
    if (!count.valid())
      continue;
    const float weight = v.weights.empty() ? 1.0f : v.weights[k];
    if (v.mode == "IDF")
      count = popops::map(ctx.graph,
                          pe::Select(pe::Const(weight), pe::Const(0.0f),
                                     pe::Gt(pe::_1, pe::Const(0.0f))),
                          {count}, prog, name);
    else if (v.mode == "TFIDF")
      count = popops::map(ctx.graph, pe::Mul(pe::_1, pe::Const(weight)),
                          {count}, prog, name);
    auto &column = counts[std::size_t(v.ngramIndexes[k])];
    if (!column.valid())
      column = count;
    else
      popops::addInPlace(ctx.graph, column, count, prog, name);
  }
  poplar::Tensor out =
      ctx.graph.addVariable(poplar::FLOAT, {rows, std::size_t(v.columns)},
                            name + "/out");
  poputil::mapTensorLinearly(ctx.graph, out);
  popops::zero(ctx.graph, out, prog, name);
  for (std::size_t c = 0; c < counts.size(); ++c)
    if (counts[c].valid())
      prog.add(poplar::program::Copy(counts[c], out.slice(c, c + 1, 1).flatten()));
  ctx.set(op.outputs[0], out.reshape(dims(op.outShape(0))));
}

} // namespace popart

#ifndef POPART_SRC_OPS_TFIDFVECTORIZEROP_HPP
#define POPART_SRC_OPS_TFIDFVECTORIZEROP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>
#include <vector>

namespace popart {

/// TfIdfVectorizer (X INT32 or INT64, [L] or [B, L]): for every n-gram of
/// the pool (pool_int64s, the n-grams of each length n from
/// ngram_counts[n - 1]), how often it occurs in each row of X, its items
/// max_skip_count or fewer apart (the same gap between each), for n from
/// min_gram_length to max_gram_length; written to the column ngram_indexes
/// gives it as that count (TF), 0 or its weight (IDF) or count * weight
/// (TFIDF). FLOAT [B, columns] or [columns].
class TfIdfVectorizerOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TfIdfVectorizerOp>(*this);
  }
  TfIdfVectorizerOp(const OperatorIdentifier &id, const Op::Settings &settings,
                    const Attributes &a);
  void setup() override;
  int64_t minGram, maxGram, maxSkip;
  std::string mode;
  std::vector<int64_t> pool, ngramCounts, ngramIndexes;
  std::vector<float> weights;
  /// The pool's n-grams in order, resolved by setup.
  std::vector<std::vector<int64_t>> ngrams;
  int64_t columns = 0;
};

} // namespace popart

#endif

#include "ops/TfIdfVectorizerOp.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

TfIdfVectorizerOp::TfIdfVectorizerOp(const OperatorIdentifier &id,
                                     const Op::Settings &settings,
                                     const Attributes &a)
    : Op(id, settings), minGram(a.getInt("min_gram_length")),
      maxGram(a.getInt("max_gram_length")),
      maxSkip(a.getInt("max_skip_count")), mode(a.getString("mode", "")),
      ngramCounts(a.getInts("ngram_counts")),
      ngramIndexes(a.getInts("ngram_indexes")) {
  if (a.has("pool_strings"))
    throw error("TfIdfVectorizer '{}': pool_strings (STRING inputs) are not "
                "supported",
                settings.name);
  pool = a.getInts("pool_int64s");
  if (a.has("weights"))
    weights = a.getFloats("weights");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    throw error("TfIdfVectorizer '{}': mode '{}' is not TF, IDF or TFIDF",
                settings.name, mode);
}

void TfIdfVectorizerOp::setup() {
  const auto type = inInfo(0).dataType();
  if (type != DataType::INT32 && type != DataType::INT64)
    throw error("{}: input '{}' is {}; INT32 and INT64 are supported", str(),
                inTensor(0)->id, inInfo(0).data_type());
  if (inRank(0) != 1 && inRank(0) != 2)
    throw error("{}: input '{}' of shape {} is not [L] or [B, L]", str(),
                inTensor(0)->id, inShape(0));
  if (minGram < 1 || maxGram < minGram || maxSkip < 0 ||
      int64_t(ngramCounts.size()) < maxGram)
    throw error("{}: min_gram_length {}, max_gram_length {}, max_skip_count "
                "{} and {} ngram_counts do not agree",
                str(), minGram, maxGram, maxSkip, ngramCounts.size());
  ngrams.clear();
  for (std::size_t n = 1; n <= ngramCounts.size(); ++n) {
    const int64_t begin = ngramCounts[n - 1];
    const int64_t end =
        n < ngramCounts.size() ? ngramCounts[n] : int64_t(pool.size());
    if (begin < 0 || end > int64_t(pool.size()) || begin > end ||
        (end - begin) % int64_t(n) != 0)
      throw error("{}: ngram_counts {} do not split the pool of {} into "
                  "n-grams",
                  str(), ngramCounts, pool.size());
    for (int64_t k = begin; k < end; k += int64_t(n))
      ngrams.emplace_back(pool.begin() + k, pool.begin() + k + int64_t(n));
  }
  if (ngramIndexes.size() != ngrams.size())
    throw error("{}: {} ngram_indexes for {} n-grams", str(),
                ngramIndexes.size(), ngrams.size());
  if (!weights.empty() && weights.size() != ngrams.size())
    throw error("{}: {} weights for {} n-grams", str(), weights.size(),
                ngrams.size());
  columns = 0;
  for (auto i : ngramIndexes) {
    if (i < 0)
      throw error("{}: ngram_indexes {} holds a negative index", str(),
                  ngramIndexes);
    columns = std::max(columns, i + 1);
  }
  outInfo(0) = TensorInfo(DataType::FLOAT, inRank(0) == 1
                                                ? Shape{columns}
                                                : Shape{inShape(0)[0], columns});
}

} // namespace popart

#include "ops/EinsumOp.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <cctype>

namespace popart {

namespace {

// The equation without spaces.
std::string compact(const std::string &s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += c;
  return out;
}

std::vector<std::string> split(const std::string &s, char by) {
  std::vector<std::string> parts(1);
  for (char c : s)
    if (c == by)
      parts.emplace_back();
    else
      parts.back() += c;
  return parts;
}

} // namespace

void EinsumOp::setup() {
  const std::string eq = compact(equation);
  const auto arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  const auto terms = split(lhs, ',');
  if (static_cast<int>(terms.size()) != inTensorCount())
    throw error("{}: the equation '{}' has {} operands, the op {} inputs",
                str(), equation, terms.size(), inTensorCount());
  // The labels an ellipsis stands for: characters that are not letters,
  // the last dimension's last.
  int64_t ellipsisRank = 0;
  auto ellipsisLabel = [](int64_t i) { return static_cast<char>('0' + i); };
  operandLabels.clear();
  sizes.clear();
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const std::string &term = terms[t];
    const Shape shape = inShape(static_cast<InIndex>(t));
    const auto dots = term.find("...");
    const std::string before = term.substr(0, dots);
    const std::string after =
        dots == std::string::npos ? "" : term.substr(dots + 3);
    const int64_t named = static_cast<int64_t>(before.size() + after.size());
    const int64_t rank = static_cast<int64_t>(shape.size());
    if (dots == std::string::npos ? named != rank : named > rank)
      throw error("{}: the term '{}' does not fit input {} of shape {}", str(),
                  term, t, shape);
    const int64_t ellipsis = dots == std::string::npos ? 0 : rank - named;
    ellipsisRank = std::max(ellipsisRank, ellipsis);
    std::string labels = before;
    for (int64_t i = 0; i < ellipsis; ++i)
      labels += ellipsisLabel(10 - ellipsis + i);
    labels += after;
    for (std::size_t d = 0; d < labels.size(); ++d) {
      const char l = labels[d];
      if (std::isalpha(static_cast<unsigned char>(l)) == 0 &&
          (d < before.size() || d >= labels.size() - after.size()))
        throw error("{}: '{}' is not a label in '{}'", str(), l, equation);
      auto known = sizes.find(l);
      if (known != sizes.end() && known->second != shape[d])
        throw error("{}: label '{}' has sizes {} and {}", str(), l,
                    known->second, shape[d]);
      sizes[l] = shape[d];
    }
    operandLabels.push_back(labels);
  }
  if (arrow != std::string::npos) {
    const std::string rhs = eq.substr(arrow + 2);
    const auto dots = rhs.find("...");
    outputLabels = rhs.substr(0, dots);
    if (dots != std::string::npos) {
      for (int64_t i = 0; i < ellipsisRank; ++i)
        outputLabels += ellipsisLabel(10 - ellipsisRank + i);
      outputLabels += rhs.substr(dots + 3);
    }
  } else {
    // Implicit: the ellipsis' dimensions, then the labels used once, in
    // alphabetical order.
    outputLabels.clear();
    for (int64_t i = 0; i < ellipsisRank; ++i)
      outputLabels += ellipsisLabel(10 - ellipsisRank + i);
    std::map<char, int> uses;
    for (const auto &labels : operandLabels)
      for (char l : labels)
        if (std::isalpha(static_cast<unsigned char>(l)))
          ++uses[l];
    for (const auto &[l, n] : uses)
      if (n == 1)
        outputLabels += l;
  }
  Shape out;
  for (char l : outputLabels) {
    auto size = sizes.find(l);
    if (size == sizes.end())
      throw error("{}: the output label '{}' is in no operand", str(), l);
    if (std::count(outputLabels.begin(), outputLabels.end(), l) != 1)
      throw error("{}: the output label '{}' is repeated", str(), l);
    out.push_back(size->second);
  }
  const auto t = inInfo(0).dataType();
  if (t != DataType::FLOAT && t != DataType::FLOAT16 && t != DataType::DOUBLE)
    throw error("{}: the operands must be floating point, not {}", str(),
                inInfo(0).data_type());
  outInfo(0) = TensorInfo(t, out);
}

} // namespace popart

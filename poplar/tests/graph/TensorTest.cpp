// Tensor views checked against an independent element-by-element model
// (TensorModel.hpp): random chains of views, targeted cases, very deep and
// very large views, and every error the views can raise.
#include "RandomViewChains.hpp"
#include "TensorModel.hpp"

#include "graph/TensorImpl.hpp"

#include <poplar/Tensor.hpp>
#include <poplar/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <thread>

using namespace poplar;
using viewtest::ChainBuilder;
using viewtest::graphId;
using viewtest::Pair;
using viewtest::variable;

namespace {

// The storage of every element, read back from getVarRegions().
std::vector<model::Element> storageOf(const Tensor &t) {
  std::vector<model::Element> elements;
  for (const VariableInterval &region : t.getVarRegions())
    for (std::size_t i = region.interval.begin(); i != region.interval.end();
         ++i)
      elements.push_back(model::Element{region.var.getId(), i});
  return elements;
}

void checkAgainstModel(const Tensor &t, const model::Tensor &m) {
  REQUIRE(t.shape() == m.shape);
  REQUIRE(t.numElements() == m.elements.size());
  REQUIRE(storageOf(t) == m.elements);

  const std::vector<model::Piece> pieces = model::contiguousPieces(m);
  std::vector<Interval> regions;
  std::vector<VariableInterval> varRegions;
  for (const model::Piece &p : pieces) {
    regions.emplace_back(p.flatBegin, p.flatBegin + p.length);
    varRegions.emplace_back(
        VariableRef(graphId, p.var),
        Interval(p.storageBegin, p.storageBegin + p.length));
  }
  REQUIRE(t.getContiguousRegions() == regions);
  REQUIRE(t.getVarRegions() == varRegions);
  REQUIRE(t.isContiguous() == (pieces.size() == 1));
  REQUIRE(t.containsAliases() == model::containsAliases(m));
  REQUIRE(t.isParallelWriteable() == !model::containsAliases(m));
  REQUIRE(t == t);

  // Internal forms: runs tile [0, n); ranges are the distinct storage.
  std::size_t next = 0;
  for (const layout::FlatRun &run : layout::flatRuns(t)) {
    REQUIRE(run.begin == next);
    REQUIRE(run.length > 0);
    next += run.length;
  }
  REQUIRE(next == m.elements.size());
  std::set<model::Element> distinct(m.elements.begin(), m.elements.end());
  std::set<model::Element> fromRanges;
  for (const layout::StorageRange &r : layout::storageRanges(t))
    for (std::size_t i = r.begin; i != r.end; ++i)
      REQUIRE(fromRanges.insert(model::Element{r.var, i}).second);
  REQUIRE(fromRanges == distinct);
}

} // namespace

TEST_CASE("Random chains of views match the element model",
          "[poplar][tensor]") {
  ChainBuilder builder(20240611);
  std::vector<Pair> finished;
  std::vector<Pair> sharedVariables; // so that some chains overlap
  for (int chain = 0; chain != 2000; ++chain) {
    if (chain % 10 == 0)
      sharedVariables.clear();
    if (sharedVariables.empty() || builder.pick(0, 2) == 0)
      sharedVariables.push_back(
          builder.freshVariable(builder.randomShape(1, 4)));
    Pair current = sharedVariables[builder.pick(0, sharedVariables.size() - 1)];
    const std::size_t ops = builder.pick(1, 6);
    for (std::size_t op = 0; op != ops; ++op) {
      current = builder.applyRandomOp(current);
      INFO("chain " << chain << ", op " << op << ": " << current.real);
      checkAgainstModel(current.real, current.expected);
    }
    // Views that must be equal to the chain's result, and one that may be.
    const Tensor &t = current.real;
    const model::Tensor &m = current.expected;
    REQUIRE(t == t.flatten().reshape(m.shape));
    if (!m.shape.empty()) {
      REQUIRE((t == t.reverse(0)) ==
              (model::reverse(m, 0).elements == m.elements));
    }
    for (std::size_t k = 1; k <= 5 && k <= finished.size(); ++k) {
      const Pair &other = finished[finished.size() - k];
      REQUIRE(t.intersectsWith(other.real) ==
              model::intersects(m, other.expected));
      REQUIRE((t == other.real) ==
              (t.elementType() == other.real.elementType() &&
               m.shape == other.expected.shape &&
               m.elements == other.expected.elements));
    }
    REQUIRE(t.intersectsWith(t) == !m.elements.empty());
    finished.push_back(current);
  }
}

// --- Targeted cases
// -----------------------------------------------------------

namespace {

std::vector<Interval>
intervals(std::initializer_list<std::pair<std::size_t, std::size_t>> list) {
  std::vector<Interval> result;
  for (const auto &p : list)
    result.emplace_back(p.first, p.second);
  return result;
}

} // namespace

TEST_CASE("Tutorial slice of a 4x4 variable", "[poplar][tensor]") {
  const Pair v3 = variable(3, {4, 4});
  const Tensor s = v3.real.slice({1, 1}, {2, 4});
  REQUIRE(s.shape() == std::vector<std::size_t>{1, 3});
  REQUIRE(s.isContiguous());
  REQUIRE(s.getVarRegions() == std::vector<VariableInterval>{
                                   {VariableRef(graphId, 3), Interval(5, 8)}});
  checkAgainstModel(s, model::slice(v3.expected, {1, 1}, {2, 4}));
  REQUIRE(s.getDebugStr() == "v3");
}

TEST_CASE("Transposes and their flattening", "[poplar][tensor]") {
  const Pair v = variable(1, {2, 3});
  const Tensor t = v.real.transpose();
  REQUIRE(t.shape() == std::vector<std::size_t>{3, 2});
  REQUIRE_FALSE(t.isContiguous());
  REQUIRE(t.getContiguousRegions().size() == 6);
  checkAgainstModel(t, model::dimShuffle(v.expected, {1, 0}));
  checkAgainstModel(t.flatten(),
                    model::reshape(model::dimShuffle(v.expected, {1, 0}), {6}));
  // Transposing twice gives back the variable.
  REQUIRE(t.transpose() == v.real);
  REQUIRE(t.transpose().isContiguous());
  REQUIRE(layout::storageRanges(t).size() == 1);
}

TEST_CASE("Reshapes split and merge non-contiguous views", "[poplar][tensor]") {
  const Pair v = variable(1, {4, 6});
  const model::Tensor columns = model::slice(v.expected, {0, 1}, {4, 5});
  const Tensor c = v.real.slice({0, 1}, {4, 5}); // 4x4 with row gaps
  checkAgainstModel(c.reshape({2, 2, 4}), model::reshape(columns, {2, 2, 4}));
  checkAgainstModel(c.reshape({4, 2, 2}), model::reshape(columns, {4, 2, 2}));
  checkAgainstModel(c.reshape({8, 2}), model::reshape(columns, {8, 2}));
  checkAgainstModel(c.reshape({2, 8}), model::reshape(columns, {2, 8}));
  checkAgainstModel(c.reshape({16}), model::reshape(columns, {16}));
  // Splitting a dimension of a strided view keeps it one box.
  REQUIRE(c.reshape({2, 2, 4}).getImpl().getLayout().boxes.size() == 1);
  REQUIRE(c.reshape({4, 2, 2}).getImpl().getLayout().boxes.size() == 1);
  const model::Tensor shuffled =
      model::dimShuffle(model::reshape(v.expected, {2, 3, 4}), {2, 0, 1});
  const Tensor s = v.real.reshape({2, 3, 4}).dimShuffle({2, 0, 1});
  checkAgainstModel(s.reshape({4, 6}), model::reshape(shuffled, {4, 6}));
  checkAgainstModel(s.reshape({2, 12}), model::reshape(shuffled, {2, 12}));
  checkAgainstModel(s.reshape({24}), model::reshape(shuffled, {24}));
  checkAgainstModel(s.reshape({1, 4, 1, 6, 1}),
                    model::reshape(shuffled, {1, 4, 1, 6, 1}));
  // A run that starts mid-row of the new shape.
  const Pair a = variable(2, {2}), b = variable(4, {4}), d = variable(5, {2});
  const Tensor parts = concat({a.real, b.real, d.real});
  checkAgainstModel(
      parts.reshape({2, 4}),
      model::reshape(model::concat({a.expected, b.expected, d.expected}, 0),
                     {2, 4}));
}

TEST_CASE("Broadcast, reverse, subSample, upsample and reinterpret",
          "[poplar][tensor]") {
  const Pair v = variable(1, {3, 1, 4});
  const Tensor b = v.real.broadcast(5, 1);
  REQUIRE(b.shape() == std::vector<std::size_t>{3, 5, 4});
  REQUIRE(b.containsAliases());
  REQUIRE_FALSE(b.isParallelWriteable());
  REQUIRE(b.getImpl().getLayout().boxes.size() == 1);
  checkAgainstModel(b, model::broadcast(v.expected, 5, 1));
  checkAgainstModel(v.real.broadcast(2, 2), model::broadcast(v.expected, 2, 2));
  checkAgainstModel(v.real.broadcast(0, 0), model::broadcast(v.expected, 0, 0));

  const Tensor r = v.real.reverse(2);
  checkAgainstModel(r, model::reverse(v.expected, 2));
  REQUIRE(layout::storageRanges(r).size() == 1);
  REQUIRE(r.reverse(2) == v.real);

  checkAgainstModel(v.real.subSample(3, 2), model::subSample(v.expected, 3, 2));
  checkAgainstModel(v.real.subSample(2, 0).subSample(2, 2),
                    model::subSample(model::subSample(v.expected, 2, 0), 2, 2));

  checkAgainstModel(v.real.upsample(3, 2), model::upsample(v.expected, 3, 2));
  checkAgainstModel(v.real.upsample(0, 0), model::upsample(v.expected, 0, 0));
  REQUIRE(v.real.upsample(1, 0) == v.real);
  REQUIRE(v.real.upsample(2, 0).containsAliases());

  const Tensor i = v.real.reinterpret(INT);
  REQUIRE(i.elementType() == INT);
  REQUIRE(i.isContiguous());
  REQUIRE(i != v.real); // same storage, another type
  REQUIRE(i.reinterpret(FLOAT) == v.real);
  REQUIRE(i.intersectsWith(v.real));
}

TEST_CASE("Indexing, slices and shape changes", "[poplar][tensor]") {
  const Pair v = variable(1, {3, 4, 5});
  checkAgainstModel(v.real[1], model::index(v.expected, 1));
  checkAgainstModel(v.real.index({2, 3}),
                    model::index(model::index(v.expected, 2), 3));
  const Tensor scalar = v.real.index({2, 3, 4});
  REQUIRE(scalar.rank() == 0);
  REQUIRE(scalar.numElements() == 1);
  REQUIRE(storageOf(scalar) == std::vector<model::Element>{{1, 59}});

  const std::vector<Tensor> parts =
      v.real.slices(intervals({{0, 1}, {1, 3}}), 1);
  REQUIRE(parts.size() == 2);
  checkAgainstModel(parts[1], model::slice(v.expected, 1, 3, 1));
  const std::vector<Tensor> joined = v.real.slices(
      std::vector<std::vector<Interval>>{intervals({{0, 1}, {3, 5}}), {}}, 2);
  checkAgainstModel(joined[0],
                    model::concat({model::slice(v.expected, 0, 1, 2),
                                   model::slice(v.expected, 3, 5, 2)},
                                  2));
  REQUIRE(joined[1].shape() == std::vector<std::size_t>{3, 4, 0});
  const std::vector<Tensor> singles =
      v.real.slices(ArrayRef<unsigned>{2, 0}, 0);
  checkAgainstModel(singles[0], model::slice(v.expected, 2, 3, 0));
  checkAgainstModel(singles[1], model::slice(v.expected, 0, 1, 0));

  REQUIRE(v.real.expand({0, 3, 3}).shape() ==
          std::vector<std::size_t>{1, 3, 4, 5, 1, 1});
  REQUIRE(v.real.expand({1}).squeeze({1}) == v.real);
  REQUIRE(v.real.flatten(1, 3).shape() == std::vector<std::size_t>{3, 20});
  REQUIRE(v.real.reshapePartial(1, 2, {2, 2}).shape() ==
          std::vector<std::size_t>{3, 2, 2, 5});
  REQUIRE(v.real.dimRoll(2).shape() == std::vector<std::size_t>{5, 3, 4});
  REQUIRE(v.real.dimRoll(0, 2).shape() == std::vector<std::size_t>{4, 5, 3});
  REQUIRE(v.real.dimShufflePartial({0}, {2}) == v.real.dimShuffle({1, 2, 0}));
  REQUIRE(v.real.flatten().isContiguous());
  REQUIRE_FALSE(v.real.slice(0, 0, 1).isContiguous()); // empty

  const Pair s = variable(9, {}); // a scalar variable
  REQUIRE(s.real.numElements() == 1);
  REQUIRE(s.real.isContiguous());
  REQUIRE(s.real.dimShuffle({}) == s.real);
  checkAgainstModel(s.real.expand({0, 0}), model::reshape(s.expected, {1, 1}));
  checkAgainstModel(s.real.flatten().broadcast(3, 0),
                    model::broadcast(model::reshape(s.expected, {1}), 3, 0));
  REQUIRE(s.real.reshape({1, 1}).squeeze({0, 1}) == s.real);
}

TEST_CASE("Equality compares every element's storage", "[poplar][tensor]") {
  const Pair v = variable(1, {12});
  // Same first element, different steps.
  REQUIRE(v.real.slice(0, 3) != v.real.subSample(2, 0).slice(0, 3));
  REQUIRE(v.real.subSample(2, 0).slice(0, 3) !=
          v.real.subSample(3, 0).slice(0, 3));
  // Same elements through different expressions.
  REQUIRE(v.real.reshape({3, 4}).transpose().transpose().flatten() == v.real);
  REQUIRE(concat(v.real.slice(0, 5), v.real.slice(5, 12)) == v.real);
  REQUIRE(concat(v.real.slice(0, 5), v.real.slice(6, 12)) !=
          v.real.slice(0, 11));
  const Pair w = variable(2, {12});
  REQUIRE(v.real != w.real);
  REQUIRE_FALSE(v.real.intersectsWith(w.real));
  REQUIRE(
      concat(v.real.slice(0, 2), w.real).intersectsWith(v.real.slice(1, 3)));
  REQUIRE_FALSE(
      concat(v.real.slice(0, 2), w.real).intersectsWith(v.real.slice(2, 3)));
  const Tensor other =
      layout::makeVariable(graphId + 1, 1, FLOAT, {12}, false, "g");
  REQUIRE_FALSE(v.real.intersectsWith(other));
}

TEST_CASE("Constants and debug strings", "[poplar][tensor]") {
  const Tensor c = layout::makeVariable(graphId, 50, FLOAT, {2}, true, "c");
  const Tensor a = layout::makeVariable(graphId, 51, FLOAT, {2}, false, "a");
  REQUIRE(c.containsConstant());
  REQUIRE_FALSE(c.isParallelWriteable());
  REQUIRE_FALSE(a.containsConstant());
  REQUIRE(concat(a, c).containsConstant());
  REQUIRE(concat(a, c).getDebugStr() == "{a, c}");
  REQUIRE(concat(a, a).getDebugStr() == "a");
  std::vector<Tensor> many;
  for (std::size_t i = 0; i != 6; ++i)
    many.push_back(layout::makeVariable(graphId, 60 + i, FLOAT, {1}, false,
                                        "n" + std::to_string(i)));
  REQUIRE(concat(many).getDebugStr() == "{n0, n1, n2, n3, ...}");
  std::ostringstream os;
  os << a.reshape({1, 2});
  REQUIRE(os.str() == "Tensor 'a' {1,2} float");
}

// --- Scale
// ----------------------------------------------------------------------

TEST_CASE("A 4096x4096 transpose stays compressed", "[poplar][tensor]") {
  const Tensor v =
      layout::makeVariable(graphId, 1, FLOAT, {4096, 4096}, false, "big");
  const Tensor t = v.transpose();
  REQUIRE(t.getImpl().getLayout().boxes.size() == 1);
  REQUIRE(layout::storageRanges(t).size() == 1);
  REQUIRE(layout::flatRuns(t).size() == 4096);
  REQUIRE_FALSE(t.containsAliases());
  const Tensor flat = t.flatten();
  REQUIRE(flat.getImpl().getLayout().boxes.size() == 4096);
  REQUIRE(layout::flatRuns(flat).size() == 4096);
  REQUIRE(layout::storageRanges(flat).size() == 1);
  REQUIRE(v.flatten().isContiguous());
  REQUIRE(layout::flatRuns(v.slice(1, 4095, 1)).size() == 4096);
  REQUIRE(layout::flatRuns(v.slice(1, 4095, 0)).size() == 1);
}

TEST_CASE("Broadcasting an empty tensor any number of times is instant",
          "[poplar][tensor]") {
  // Found by fuzz/TensorViewFuzzer.cpp: the layout took a step per copy.
  const Tensor v = layout::makeVariable(graphId, 0, FLOAT, {0, 3}, false, "v");
  const auto start = std::chrono::steady_clock::now();
  const Tensor t = v.broadcast(4000000000u, 1).broadcast(4000000000u, 0);
  REQUIRE(t.shape() == std::vector<std::size_t>{0, 12000000000});
  REQUIRE(t.getVarRegions().empty());
  REQUIRE(t.getContiguousRegions().empty());
  REQUIRE_FALSE(t.containsAliases());
  REQUIRE(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
}

TEST_CASE("A sub-sample past the end keeps one element without overflow",
          "[poplar][tensor]") {
  // Found by fuzz/TensorViewFuzzer.cpp under UBSan: the stride of the one
  // element left was multiplied by the step, past the range of int64.
  const Tensor v =
      layout::makeVariable(graphId, 0, FLOAT, {4, 1ull << 34}, false, "v");
  const Tensor t = v.subSample(4000000000u, 0);
  REQUIRE(t.shape() == std::vector<std::size_t>{1, 1ull << 34});
  REQUIRE(t == v.slice(0, 1, 0));
  REQUIRE(t.isContiguous());
}

TEST_CASE("Deep chains of views neither recurse nor go quadratic",
          "[poplar][tensor]") {
  const std::size_t depth = 100000;
  SECTION("appends of separate variables") {
    Tensor t = layout::makeVariable(graphId, 0, FLOAT, {1, 2}, false, "row0");
    for (std::size_t i = 1; i <= depth; ++i)
      t = append(t, layout::makeVariable(graphId, i, FLOAT, {2}, false, "row"));
    REQUIRE(t.shape() == std::vector<std::size_t>{depth + 1, 2});
    const std::vector<VariableInterval> regions = t.getVarRegions();
    REQUIRE(regions.size() == depth + 1);
    REQUIRE(regions.back() ==
            VariableInterval(VariableRef(graphId, depth), Interval(0, 2)));
    REQUIRE_FALSE(t.containsAliases());
    REQUIRE(t.getDebugStr() == "{row0, row}");
    t = Tensor(); // releasing the chain must not recurse either
  }
  SECTION("appends of the rows of one variable") {
    const Tensor v =
        layout::makeVariable(graphId, 0, FLOAT, {depth, 3}, false, "v");
    Tensor t = v.slice(0, 1);
    for (std::size_t i = 1; i != depth; ++i)
      t = append(t, v[i]);
    REQUIRE(t.isContiguous());
    REQUIRE(t.getImpl().getLayout().boxes.size() == 1);
    REQUIRE(t == v);
  }
  SECTION("transposes, reshapes and slices") {
    const Tensor v =
        layout::makeVariable(graphId, 0, FLOAT, {6, 4}, false, "v");
    Tensor t = v;
    for (std::size_t i = 0; i != depth; ++i) {
      switch (i % 4) {
      case 0:
      case 1:
        t = t.transpose();
        break;
      case 2:
        t = t.reshape({24}).slice(0, 24);
        break;
      default:
        t = t.reshape({6, 4});
      }
    }
    REQUIRE(t == v);
    REQUIRE(t.getContiguousRegions().size() == 1);
  }
}

TEST_CASE("Rows and slices of a shared view of many boxes", "[poplar][tensor]") {
  // The rows of v joined in a scrambled order: one box per row. Taking
  // every row and many slices of the kept layout must give the right
  // storage (the row index finds the boxes) and stay linear in the rows
  // (a row per vertex of a view of n boxes was n^2 before the index).
  const std::size_t rows = 20000;
  const Tensor v = layout::makeVariable(graphId, 0, FLOAT, {rows, 3}, false, "v");
  // Shuffled, so that neighbouring parts rarely continue each other with
  // one stride (which the concatenation would merge into one box).
  std::vector<std::size_t> order(rows);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  auto source = [&](std::size_t i) { return order[i]; };
  std::vector<Tensor> parts;
  for (std::size_t i = 0; i != rows; ++i)
    parts.push_back(v.slice(source(i), source(i) + 1, 0));
  const Tensor t = concat(parts, 0);
  REQUIRE(t.getImpl().getLayout().boxes.size() >= rows / 4);
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i != rows; ++i) {
    const std::vector<VariableInterval> regions = t[i].getVarRegions();
    REQUIRE(regions.size() == 1);
    REQUIRE(regions[0].interval ==
            Interval(3 * source(i), 3 * source(i) + 3));
  }
  for (std::size_t begin = 0; begin < rows; begin += 997) {
    const std::size_t end = std::min(rows, begin + 5);
    const Tensor slice = t.slice(begin, end, 0).slice(1, 3, 1);
    const std::vector<VariableInterval> regions = slice.getVarRegions();
    REQUIRE(regions.size() == end - begin);
    for (std::size_t k = 0; k != regions.size(); ++k)
      REQUIRE(regions[k].interval == Interval(3 * source(begin + k) + 1,
                                              3 * source(begin + k) + 3));
  }
  // 4 * 10^8 box visits without the index: seconds, not milliseconds.
  REQUIRE(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("Layouts of shared views are safe to compute from several threads",
          "[poplar][tensor]") {
  const Tensor v =
      layout::makeVariable(graphId, 0, FLOAT, {64, 64}, false, "v");
  const Tensor shared = v.transpose().reshape({32, 128});
  std::vector<Tensor> roots;
  for (unsigned i = 0; i != 8; ++i)
    roots.push_back(
        concat(shared.slice(i, 32 - i), shared.reverse(1).slice(0, i)));
  std::vector<std::vector<VariableInterval>> results(roots.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i != roots.size(); ++i)
    threads.emplace_back([&, i] { results[i] = roots[i].getVarRegions(); });
  for (std::thread &thread : threads)
    thread.join();
  for (std::size_t i = 0; i != roots.size(); ++i) {
    const Tensor fresh =
        concat(v.transpose().reshape({32, 128}).slice(i, 32 - i),
               v.transpose().reshape({32, 128}).reverse(1).slice(0, i));
    REQUIRE(results[i] == fresh.getVarRegions());
  }
}

// --- Errors
// ---------------------------------------------------------------------

namespace {

// Matches an exception whose message contains every given fragment.
class MessageContains : public Catch::MatcherBase<std::exception> {
public:
  MessageContains(std::initializer_list<std::string> fragments)
      : fragments(fragments) {}
  bool match(const std::exception &e) const override {
    const std::string message = e.what();
    return std::all_of(fragments.begin(), fragments.end(),
                       [&](const std::string &f) {
                         return message.find(f) != std::string::npos;
                       });
  }
  std::string describe() const override {
    std::string s = "message contains";
    for (const std::string &f : fragments)
      s += " \"" + f + "\"";
    return s;
  }

private:
  std::vector<std::string> fragments;
};

} // namespace

TEST_CASE("Range errors are index errors that name the tensor",
          "[poplar][tensor]") {
  const Tensor v1 = layout::makeVariable(graphId, 1, FLOAT, {4}, false, "v1");
  const Tensor m = layout::makeVariable(graphId, 2, FLOAT, {2, 3}, false, "m");
  REQUIRE_THROWS_MATCHES(
      v1.slice(2, 6), index_error,
      MessageContains(
          {"Tensor 'v1' of shape {4}: slice [2, 6) is out of range for "
           "dimension 0 (size 4)"}));
  const std::string v1Name = "Tensor 'v1' of shape {4}";
  const std::string mName = "Tensor 'm' of shape {2,3}";
  REQUIRE_THROWS_MATCHES(v1.slice(3, 2), index_error,
                         MessageContains({v1Name, "[3, 2)"}));
  REQUIRE_THROWS_MATCHES(v1.slice(0, 1, 1), index_error,
                         MessageContains({v1Name, "dimension 1"}));
  REQUIRE_THROWS_MATCHES(m.slice({0, 0}, {2, 4}), index_error,
                         MessageContains({mName, "[0, 4)"}));
  REQUIRE_THROWS_MATCHES(
      m.slice(std::vector<std::size_t>{0}, std::vector<std::size_t>{2}),
      index_error, MessageContains({mName, "{0}"}));
  REQUIRE_THROWS_MATCHES(m[2], index_error,
                         MessageContains({mName, "index 2"}));
  REQUIRE_THROWS_MATCHES(m.index({1, 3}), index_error,
                         MessageContains({"'m'", "{3}", "index 3"}));
  REQUIRE_THROWS_MATCHES(m.index({1, 1, 0}), index_error,
                         MessageContains({mName, "{1,1,0}"}));
  REQUIRE_THROWS_MATCHES(m[0][0][0], index_error,
                         MessageContains({"'m'", "rank 0"}));
  REQUIRE_THROWS_MATCHES(m.dim(2), index_error,
                         MessageContains({mName, "dimension 2"}));
  REQUIRE_THROWS_MATCHES(m.reshapePartial(1, 3, {3}), index_error,
                         MessageContains({mName, "[1, 3)"}));
  REQUIRE_THROWS_MATCHES(m.flatten(1, 1), index_error,
                         MessageContains({mName, "[1, 1)"}));
  REQUIRE_THROWS_MATCHES(m.expand({3}), index_error,
                         MessageContains({mName, "index 3"}));
  REQUIRE_THROWS_MATCHES(m.squeeze({2}), index_error,
                         MessageContains({mName, "dimension 2"}));
  REQUIRE_THROWS_MATCHES(m.dimRoll(0, 2), index_error,
                         MessageContains({mName, "dimension 2"}));
  REQUIRE_THROWS_MATCHES(m.dimShufflePartial({3}, {0}), index_error,
                         MessageContains({mName, "dimension 3"}));
  REQUIRE_THROWS_MATCHES(m.broadcast(2, 2), index_error,
                         MessageContains({mName, "dimension 2"}));
  REQUIRE_THROWS_MATCHES(m.reverse(5), index_error,
                         MessageContains({mName, "dimension 5"}));
  REQUIRE_THROWS_MATCHES(m.subSample(2, 2), index_error,
                         MessageContains({mName, "dimension 2"}));
  REQUIRE_THROWS_MATCHES(m.upsample(2, 2), index_error,
                         MessageContains({mName, "dimension 2"}));
  REQUIRE_THROWS_MATCHES(concat({m, m}, 2), index_error,
                         MessageContains({mName, "dimension 2"}));
  REQUIRE_THROWS_MATCHES(append(m, v1.slice(0, 3), 2), index_error,
                         MessageContains({mName, "dimension 2"}));
}

TEST_CASE("Shape errors are tensor creation errors that name the tensor",
          "[poplar][tensor]") {
  const Tensor m = layout::makeVariable(graphId, 2, FLOAT, {2, 3}, false, "m");
  const Tensor c =
      layout::makeVariable(graphId, 3, FLOAT, {2, 3, 1}, false, "c");
  const std::string mName = "Tensor 'm' of shape {2,3}";
  REQUIRE_THROWS_MATCHES(m.reshape({4, 2}), tensor_creation_error,
                         MessageContains({mName, "{4,2}"}));
  REQUIRE_THROWS_MATCHES(m.reshape({1ull << 32, 1ull << 32, 6}),
                         tensor_creation_error, MessageContains({mName}));
  REQUIRE_THROWS_MATCHES(m.reshapePartial(0, 1, {3}), tensor_creation_error,
                         MessageContains({mName, "{3}"}));
  REQUIRE_THROWS_MATCHES(m.squeeze({1}), tensor_creation_error,
                         MessageContains({mName, "dimension 1 has size 3"}));
  REQUIRE_THROWS_MATCHES(
      c.squeeze({2, 2}), tensor_creation_error,
      MessageContains({"Tensor 'c' of shape {2,3,1}", "twice"}));
  REQUIRE_THROWS_MATCHES(m.dimShuffle({0}), tensor_creation_error,
                         MessageContains({mName, "{0}"}));
  REQUIRE_THROWS_MATCHES(m.dimShuffle({1, 1}), tensor_creation_error,
                         MessageContains({mName, "{1,1}"}));
  REQUIRE_THROWS_MATCHES(m.dimShuffle({0, 2}), tensor_creation_error,
                         MessageContains({mName, "{0,2}"}));
  REQUIRE_THROWS_MATCHES(m.dimShufflePartial({0, 1}, {1}),
                         tensor_creation_error,
                         MessageContains({mName, "{0,1}"}));
  REQUIRE_THROWS_MATCHES(m.dimShufflePartial({0, 1}, {1, 1}),
                         tensor_creation_error,
                         MessageContains({mName, "{1,1}"}));
  REQUIRE_THROWS_MATCHES(
      c.transpose(), tensor_creation_error,
      MessageContains({"Tensor 'c' of shape {2,3,1}", "rank 2"}));
  REQUIRE_THROWS_MATCHES(m.subSample(0, 1), tensor_creation_error,
                         MessageContains({mName, "stride 0"}));
  REQUIRE_THROWS_MATCHES(
      m.broadcast(1u << 31, 0).broadcast(1u << 31, 1).broadcast(1u << 31, 0),
      tensor_creation_error, MessageContains({"'m'", "too many elements"}));
  REQUIRE_THROWS_MATCHES(concat(std::vector<Tensor>{}), tensor_creation_error,
                         MessageContains({"no tensors"}));
  REQUIRE_THROWS_MATCHES(concat(m, c), tensor_creation_error,
                         MessageContains({"Tensor 'c' of shape {2,3,1}",
                                          "'m' of shape {2,3}", "ranks"}));
  REQUIRE_THROWS_MATCHES(
      concat(m, m.transpose()), tensor_creation_error,
      MessageContains(
          {"of shape {3,2}", "'m' of shape {2,3}", "dimension 1 differs"}));
  REQUIRE_THROWS_MATCHES(
      concat(m, m.reinterpret(INT)), tensor_creation_error,
      MessageContains({"'m' of shape {2,3}", "element types"}));
  const Tensor elsewhere =
      layout::makeVariable(graphId + 1, 2, FLOAT, {2, 3}, false, "e");
  REQUIRE_THROWS_MATCHES(concat(m, elsewhere), tensor_creation_error,
                         MessageContains({"'e'", "different graphs"}));
  REQUIRE_THROWS_MATCHES(append(m, m, 0), tensor_creation_error,
                         MessageContains({mName, "rank must be one less"}));
}

TEST_CASE("Type and validity errors", "[poplar][tensor]") {
  const Tensor m = layout::makeVariable(graphId, 2, FLOAT, {2, 3}, false, "m");
  REQUIRE_THROWS_MATCHES(
      m.reinterpret(HALF), type_error,
      MessageContains({"Tensor 'm' of shape {2,3}", "half"}));
  REQUIRE_THROWS_MATCHES(m.reinterpret(Type()), type_error,
                         MessageContains({"'m'"}));
  REQUIRE(m.reinterpret(UNSIGNED_INT).elementType() == UNSIGNED_INT);

  const Tensor invalid;
  REQUIRE_FALSE(invalid.valid());
  auto isPlainPoplarError = [](const poplar_error &e) {
    return e.type == "poplar_error";
  };
  const std::vector<std::function<void()>> uses{
      [&] { invalid.shape(); },
      [&] { invalid.numElements(); },
      [&] { invalid.rank(); },
      [&] { invalid.elementType(); },
      [&] { invalid.slice(0, 1); },
      [&] { invalid[0]; },
      [&] { invalid.reshape({1}); },
      [&] { invalid.flatten(); },
      [&] { invalid.transpose(); },
      [&] { invalid.broadcast(2, 0); },
      [&] { invalid.isContiguous(); },
      [&] { invalid.getVarRegions(); },
      [&] { invalid.containsAliases(); },
      [&] { invalid.getDebugStr(); },
      [&] { (void)(invalid == m); },
      [&] { m.intersectsWith(invalid); },
      [&] { concat(m, invalid); },
      [&] { append(invalid, m[0]); },
      [&] { invalid.reinterpret(INT); },
      [&] { invalid.isParallelWriteable(); }};
  for (const auto &use : uses) {
    try {
      use();
      FAIL("an invalid tensor was used without an error");
    } catch (const poplar_error &e) {
      REQUIRE(isPlainPoplarError(e));
      REQUIRE_THAT(e.what(), Catch::Contains("not valid"));
    }
  }
  std::ostringstream os;
  os << invalid;
  REQUIRE(os.str() == "Tensor <invalid>");
  REQUIRE_THROWS_AS(layout::makeVariable(graphId, 9, FLOAT,
                                         {1ull << 40, 1ull << 40}, false,
                                         "huge"),
                    tensor_creation_error);
}

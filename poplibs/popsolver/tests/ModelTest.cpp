// popsolver: every constraint's meaning, and minimize() against brute-force
// enumeration of small models.
#include <popsolver/Model.hpp>

#include <catch2/catch.hpp>

#include <limits>
#include <random>

using namespace popsolver;

TEST_CASE("Arithmetic variables take the values they are defined by",
          "[popsolver]") {
  Model m;
  Variable a = m.addVariable(2, 9, "a");
  Variable b = m.addVariable(3, 7, "b");
  Variable p = m.product({a, b});
  Variable s = m.sum({a, b});
  Variable mx = m.max({a, b});
  Variable mn = m.min({a, b});
  Variable d = m.sub(a, b);
  Variable fd = m.floordiv(a, b);
  Variable cd = m.ceildiv(a, b);
  Variable md = m.mod(a, b);
  m.equal(a, 8);
  m.equal(b, 3);
  Solution sol = m.minimize(p);
  REQUIRE(sol.validSolution());
  CHECK(sol[p] == 24);
  CHECK(sol[s] == 11);
  CHECK(sol[mx] == 8);
  CHECK(sol[mn] == 3);
  CHECK(sol[d] == 5);
  CHECK(sol[fd] == 2);
  CHECK(sol[cd] == 3);
  CHECK(sol[md] == 2);
  CHECK(m.getDebugName(a) == "a");
}

TEST_CASE("minimize finds the optimum a brute force finds", "[popsolver]") {
  // Split `work` over x*y tiles (x, y in [1, 16], x*y <= 64): cycles are
  // ceil(work / (x*y)) plus an exchange cost of 3x + 2y, which trades off.
  for (unsigned work : {1u, 7u, 100u, 1000u, 4095u}) {
    Model m;
    Variable x = m.addVariable(1, 16, "x");
    Variable y = m.addVariable(1, 16, "y");
    Variable tiles = m.product({x, y});
    m.lessOrEqual(tiles, 64);
    Variable compute = m.ceildiv(m.addConstant(work), tiles);
    Variable exchange =
        m.sum({m.product({m.addConstant(3), x}), m.product({m.addConstant(2), y})});
    Variable cycles = m.sum({compute, exchange});
    Solution s = m.minimize({cycles, tiles});

    unsigned bestCycles = std::numeric_limits<unsigned>::max(), bestTiles = 0;
    for (unsigned i = 1; i <= 16; ++i)
      for (unsigned j = 1; j <= 16; ++j) {
        if (i * j > 64)
          continue;
        const unsigned c = (work + i * j - 1) / (i * j) + 3 * i + 2 * j;
        if (c < bestCycles || (c == bestCycles && i * j < bestTiles)) {
          bestCycles = c;
          bestTiles = i * j;
        }
      }
    CHECK(s[cycles] == bestCycles);
    CHECK(s[tiles] == bestTiles);
    CHECK(s[x].getAs<unsigned>() * s[y].getAs<unsigned>() == s[tiles]);
  }
}

TEST_CASE("Relations, factors, reified and boolean variables", "[popsolver]") {
  Model m;
  Variable a = m.addVariable(0, 20);
  Variable b = m.addVariable(0, 20);
  m.less(a, b);
  m.factorOf(a, m.addConstant(12));
  m.lessOrEqual(5, a);
  Variable isEq = m.reifiedEqual(a, m.addConstant(6));
  Variable notEq = m.booleanNot(isEq);
  Variable both = m.booleanAnd(isEq, m.reifiedLess(b, m.addConstant(8)));
  Variable either = m.booleanOr(isEq, notEq);
  Solution s = m.minimize({b});
  // a is a factor of 12 with 5 <= a < b: a = 6, so b = 7 is the least.
  CHECK(s[a] == 6);
  CHECK(s[b] == 7);
  CHECK(s[isEq] == 1);
  CHECK(s[notEq] == 0);
  CHECK(s[both] == 1);
  CHECK(s[either] == 1);
}

TEST_CASE("call computes from known operands and can rule values out",
          "[popsolver]") {
  Model m;
  Variable n = m.addVariable(1, 10, "n");
  // Odd values are not allowed; the cost is (n - 6)^2.
  Variable cost = m.call<unsigned>(
      {n}, [](const std::vector<unsigned> &v) -> std::optional<DataType> {
        if (v[0] % 2)
          return std::nullopt;
        const int d = int(v[0]) - 6;
        return DataType(d * d);
      });
  Solution s = m.minimize(cost);
  CHECK(s[n] == 6);
  CHECK(s[cost] == 0);
}

TEST_CASE("No solution throws NoSolution", "[popsolver]") {
  Model m;
  Variable a = m.addVariable(0, 5);
  m.less(a, 3);
  m.lessOrEqual(4, a);
  CHECK_THROWS_AS(m.minimize(a), NoSolution);

  Model other;
  Variable x = other.addVariable(1, 3);
  Model m2;
  CHECK_THROWS_AS(m2.minimize(Variable(7)), std::invalid_argument);
  CHECK_THROWS_AS(m2.addVariable(5, 2), std::invalid_argument);
  (void)x;
}

TEST_CASE("Random small models agree with brute force", "[popsolver]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial != 30; ++trial) {
    const unsigned hiA = 1 + rng() % 12, hiB = 1 + rng() % 12;
    const unsigned bound = rng() % 40;
    Model m;
    Variable a = m.addVariable(0, hiA);
    Variable b = m.addVariable(1, hiB);
    Variable cost = m.sum({m.floordiv(m.product({a, a}), b), m.mod(a, b)});
    Variable total = m.sum({a, b});
    m.lessOrEqual(m.addConstant(bound / 4), total);
    Solution s;
    bool any = false;
    unsigned best = ~0u, bestTotal = ~0u;
    for (unsigned i = 0; i <= hiA; ++i)
      for (unsigned j = 1; j <= hiB; ++j) {
        if (i + j < bound / 4)
          continue;
        const unsigned c = i * i / j + i % j;
        if (!any || c < best || (c == best && i + j < bestTotal)) {
          best = c;
          bestTotal = i + j;
          any = true;
        }
      }
    if (!any) {
      CHECK_THROWS_AS(m.minimize({cost, total}), NoSolution);
      continue;
    }
    s = m.minimize({cost, total});
    CHECK(s[cost] == best);
    CHECK(s[total] == bestTotal);
  }
}

TEST_CASE("Priority groups choose the variables split first", "[popsolver]") {
  // Two optima tie: x + y = 1. The variable split first takes its lower
  // half first, so it is the one that is 0.
  auto solve = [](bool yFirst) {
    popsolver::Model m;
    auto x = m.addVariable(0, 1, "x");
    auto y = m.addVariable(0, 1, "y");
    m.equal(m.sum({x, y}), m.one());
    if (yFirst) {
      auto ys = m.addPriorityGroup();
      auto xs = m.addPriorityGroup();
      CHECK(ys != xs);
      m.setPriorityGroup(y, ys);
      m.setPriorityGroup(x, xs);
      m.prioritiseOver(ys, xs);
    }
    auto s = m.minimize(m.sum({x, y}));
    return std::make_pair(*s[x], *s[y]);
  };
  CHECK(solve(false) == std::make_pair<std::uint64_t, std::uint64_t>(0, 1));
  CHECK(solve(true) == std::make_pair<std::uint64_t, std::uint64_t>(1, 0));
}

TEST_CASE("Priority groups that form a cycle are an error", "[popsolver]") {
  popsolver::Model m;
  auto x = m.addVariable(0, 3, "x");
  auto a = m.addPriorityGroup(), b = m.addPriorityGroup();
  m.setPriorityGroup(x, a);
  m.prioritiseOver(a, b);
  m.prioritiseOver(b, a);
  CHECK_THROWS_WITH(m.minimize(x), Catch::Contains("cycle"));
  CHECK_THROWS_AS(m.setPriorityGroup(x, popsolver::PriorityGroupID(7)),
                  std::invalid_argument);
}

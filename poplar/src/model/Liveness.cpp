// Liveness over the control programs, one step after another: a variable
// is live from the first step that touches it to the last, within each
// control program, starting again where a step writes all of it (unless
// the step is in a branch the earlier accesses are not in); across a loop
// when an iteration reads what an earlier one (or the code before the
// loop) wrote; and always when its contents must outlive a run (read
// before written), when the host reaches it (streams, host handles), when
// it is a constant or when no program uses it. Writes are followed element
// by element, so that a variable written in pieces before it is read is
// not mistaken for one read before written.
#include "model/Liveness.hpp"

#include <algorithm>
#include <limits>

namespace poplar::model {
namespace {

using SK = exec::Step::Kind;
using Interval = std::pair<std::size_t, std::size_t>;

constexpr std::uint32_t noStep = std::numeric_limits<std::uint32_t>::max();
// Strided writes are followed element by element up to this many elements
// a step; beyond it they are not counted as writing (so later reads may
// look read before written: more live, never less).
constexpr std::size_t stridedWriteBudget = std::size_t(1) << 16;
// Calls inlined deeper than this are not followed (Poplar has no
// recursion; this only bounds a malformed program).
constexpr unsigned maxCallDepth = 64;

// Sorted, disjoint, non-touching element ranges of one variable.
class IntervalSet {
public:
  void add(std::size_t b, std::size_t e) {
    if (b >= e)
      return;
    auto first = std::lower_bound(
        ranges.begin(), ranges.end(), b,
        [](const Interval &r, std::size_t x) { return r.second < x; });
    auto last = first;
    while (last != ranges.end() && last->first <= e) {
      b = std::min(b, last->first);
      e = std::max(e, last->second);
      ++last;
    }
    ranges.insert(ranges.erase(first, last), {b, e});
  }

  void add(const IntervalSet &o) {
    for (const auto &[b, e] : o.ranges)
      add(b, e);
  }

  // Removes what this set holds from `pieces` (sorted and disjoint).
  void removeFrom(std::vector<Interval> &pieces) const {
    std::vector<Interval> rest;
    for (auto [b, e] : pieces) {
      auto it = std::upper_bound(
          ranges.begin(), ranges.end(), b,
          [](std::size_t x, const Interval &r) { return x < r.second; });
      for (; b < e && it != ranges.end() && it->first < e; ++it) {
        if (it->first > b)
          rest.push_back({b, it->first});
        b = std::max(b, it->second);
      }
      if (b < e)
        rest.push_back({b, e});
    }
    pieces.swap(rest);
  }

  IntervalSet intersect(const IntervalSet &o) const {
    IntervalSet out;
    std::size_t i = 0, j = 0;
    while (i != ranges.size() && j != o.ranges.size()) {
      const std::size_t lo = std::max(ranges[i].first, o.ranges[j].first);
      const std::size_t hi = std::min(ranges[i].second, o.ranges[j].second);
      if (lo < hi)
        out.ranges.push_back({lo, hi});
      if (ranges[i].second < o.ranges[j].second)
        ++i;
      else
        ++j;
    }
    return out;
  }

  bool empty() const { return ranges.empty(); }

private:
  std::vector<Interval> ranges;
};

using Written = std::unordered_map<std::size_t, IntervalSet>;

// A stretch of the program in which writes are certain once it has run
// (a program, a loop body, a branch).
struct Scope {
  enum class Kind { Program, Loop, Branch };
  Kind kind = Kind::Program;
  std::uint32_t begin = 0; // its first step
  Written written;         // elements written in it so far
  /// Loops: variables an iteration reads before writing them.
  std::vector<std::size_t> carried;
};

Written intersect(const Written &a, const Written &b) {
  Written out;
  for (const auto &[var, set] : a) {
    auto it = b.find(var);
    if (it == b.end())
      continue;
    IntervalSet both = set.intersect(it->second);
    if (!both.empty())
      out.emplace(var, std::move(both));
  }
  return out;
}

// Sorts by variable and start and merges touching ranges.
void normalise(std::vector<StorageInterval> &v) {
  std::sort(v.begin(), v.end(), [](const StorageInterval &a, const StorageInterval &b) {
    return a.var != b.var ? a.var < b.var : a.begin < b.begin;
  });
  std::vector<StorageInterval> out;
  for (const auto &r : v) {
    if (!out.empty() && out.back().var == r.var && r.begin <= out.back().end)
      out.back().end = std::max(out.back().end, r.end);
    else
      out.push_back(r);
  }
  v.swap(out);
}

// The elements start + stride * i, i < length, of variable var: a hull for
// reads; for writes the exact elements, or none once `budget` is spent.
void addRun(std::vector<StorageInterval> &out, std::size_t var, std::int64_t start,
            std::int64_t stride, std::size_t length, bool exact, std::size_t &budget) {
  if (length == 0)
    return;
  const std::int64_t end = start + stride * std::int64_t(length - 1);
  const auto lo = std::size_t(std::min(start, end));
  const auto hi = std::size_t(std::max(start, end)) + 1;
  if (stride == 1 || stride == -1 || stride == 0 || length == 1 || !exact) {
    out.push_back({var, lo, hi});
    return;
  }
  if (length > budget)
    return;
  budget -= length;
  for (std::size_t i = 0; i != length; ++i) {
    const auto e = std::size_t(start + stride * std::int64_t(i));
    out.push_back({var, e, e + 1});
  }
}

class Analysis {
public:
  Analysis(const Executable::Impl &exe, const LivenessInputs &inputs)
      : exe(exe), inputs(inputs) {}

  Liveness run() {
    const std::size_t n = exe.variables.size();
    first.assign(n, noStep);
    last.assign(n, noStep);
    keep.assign(n, false);
    out.variables.resize(n);
    for (const auto &program : exe.programs) {
      scopes.push_back({Scope::Kind::Program, nextStep(), {}, {}});
      walk(program);
      scopes.pop_back();
      closeProgram();
    }
    // Read and written by the host between runs.
    for (const auto *handles : {&exe.hostWrites, &exe.hostReads})
      for (const auto &[name, access] : *handles)
        for (const auto &run : access.runs)
          keep[run.var] = true;
    for (std::size_t v = 0; v != n; ++v) {
      auto &live = out.variables[v];
      live.alwaysLive =
          keep[v] || exe.variables[v].isConstant || live.ranges.empty();
      if (live.alwaysLive)
        live.ranges.clear();
    }
    return std::move(out);
  }

private:
  std::uint32_t nextStep() const { return std::uint32_t(out.steps.size()); }

  std::uint32_t step(const exec::Step &s, long computeSet = -1) {
    auto it = inputs.stepProgram.find(&s);
    out.steps.push_back({it == inputs.stepProgram.end() ? 0u : it->second, computeSet});
    return nextStep() - 1;
  }

  void touch(std::size_t var, std::uint32_t at) {
    if (first[var] == noStep) {
      first[var] = last[var] = at;
      programVars.push_back(var);
    }
    last[var] = std::max(last[var], at);
  }

  // A read: which enclosing loops carry the elements into an iteration,
  // and whether they come from before the program.
  void read(const StorageInterval &r, std::uint32_t at) {
    touch(r.var, at);
    std::vector<Interval> rest{{r.begin, r.end}};
    for (std::size_t i = scopes.size(); i-- > 0;) {
      auto it = scopes[i].written.find(r.var);
      if (it != scopes[i].written.end())
        it->second.removeFrom(rest);
      if (rest.empty())
        return;
      if (scopes[i].kind == Scope::Kind::Loop)
        scopes[i].carried.push_back(r.var);
    }
    keep[r.var] = true; // read before written: from an earlier run
  }

  void write(const StorageInterval &w, std::uint32_t at) {
    if (w.begin == 0 && w.end == exe.variables[w.var].numElements && killsAt(w.var, at))
      closeRange(w.var);
    touch(w.var, at);
    scopes.back().written[w.var].add(w.begin, w.end);
  }

  // Whether a write of all of `var` at step `at` ends the life of what it
  // held: the step does not read it (reads are walked first) and every
  // path from its last access reaches this step (no branch since then).
  bool killsAt(std::size_t var, std::uint32_t at) const {
    if (first[var] == noStep || last[var] >= at)
      return false;
    for (const Scope &scope : scopes)
      if (scope.kind == Scope::Kind::Branch && scope.begin > last[var])
        return false;
    return true;
  }

  void closeRange(std::size_t var) {
    out.variables[var].ranges.push_back({first[var], last[var]});
    first[var] = last[var] = noStep;
  }

  void reads(const std::vector<StorageInterval> &rs, std::uint32_t at) {
    for (const auto &r : rs)
      read(r, at);
  }

  void writes(const std::vector<StorageInterval> &ws, std::uint32_t at) {
    for (const auto &w : ws)
      write(w, at);
  }

  std::vector<StorageInterval> intervals(const exec::TensorAccess &a, bool exact) {
    std::vector<StorageInterval> v;
    std::size_t budget = stridedWriteBudget;
    for (const auto &run : a.runs)
      addRun(v, run.var, run.start, run.stride, run.length, exact, budget);
    normalise(v);
    return v;
  }

  void readScalar(const exec::ScalarRef &s, std::uint32_t at) {
    read({s.var, s.element, s.element + 1}, at);
  }

  void copy(const exec::Step &s) {
    const std::uint32_t at = step(s);
    std::vector<StorageInterval> src, dst;
    std::size_t budget = stridedWriteBudget, unlimited = ~std::size_t(0);
    for (const auto &seg : s.segments) {
      addRun(src, seg.srcVar, seg.srcStart, seg.srcStride, seg.length, false, unlimited);
      addRun(dst, seg.dstVar, seg.dstStart, seg.dstStride, seg.length, true, budget);
    }
    normalise(src);
    normalise(dst);
    reads(src, at);
    writes(dst, at);
    for (const auto &seg : s.segments)
      touch(seg.dstVar, at); // also where the writes were too scattered to follow
  }

  // A host or remote copy, or a print: what it reads or writes of its
  // tensor, and the offsets it reads.
  void transfer(const exec::Step &s, bool toTensor, bool host) {
    const std::uint32_t at = step(s);
    for (const auto &o : s.offsets)
      readScalar(o, at);
    if (toTensor)
      writes(intervals(s.access, true), at);
    else
      reads(intervals(s.access, false), at);
    for (const auto &run : s.access.runs) {
      touch(run.var, at);
      if (host)
        keep[run.var] = true; // the host reaches it through a stream
    }
  }

  // Walks `body` in a scope of its own and returns the scope.
  Scope nested(Scope::Kind kind, const exec::Step &body) {
    scopes.push_back({kind, nextStep(), {}, {}});
    walk(body);
    Scope done = std::move(scopes.back());
    scopes.pop_back();
    return done;
  }

  // Variables an iteration of a loop reads from an earlier one are live
  // in the whole loop.
  void closeLoop(const Scope &loop) {
    if (nextStep() == loop.begin)
      return;
    const std::uint32_t end = nextStep() - 1;
    for (std::size_t var : loop.carried) {
      first[var] = std::min(first[var], loop.begin);
      last[var] = std::max(last[var], end);
    }
  }

  void certain(const Written &written) {
    for (const auto &[var, set] : written)
      scopes.back().written[var].add(set);
  }

  void walk(const exec::Step &s) {
    switch (s.kind) {
    case SK::Sequence:
      for (const auto &child : s.children)
        walk(child);
      return;
    case SK::Execute: {
      const std::uint32_t at = step(s, long(s.computeSet));
      const StepAccess &a = inputs.computeSetAccess.at(s.computeSet);
      reads(a.reads, at); // all reads of a compute set come before its writes
      writes(a.writes, at);
      return;
    }
    case SK::CopyTensors:
      copy(s);
      return;
    case SK::StreamToTensor:
    case SK::TensorToStream:
      transfer(s, s.kind == SK::StreamToTensor, true);
      return;
    case SK::RemoteToTensor:
    case SK::TensorToRemote:
      transfer(s, s.kind == SK::RemoteToTensor, false);
      return;
    case SK::PrintTensor:
      transfer(s, false, false);
      return;
    case SK::WriteUndef:
      // Its contents are dead: the variable starts a new life here.
      transfer(s, true, false);
      return;
    case SK::Repeat:
      if (s.count == 1) {
        walk(s.children[0]);
      } else if (s.count == 0) {
        nested(Scope::Kind::Branch, s.children[0]); // never runs
      } else {
        const Scope loop = nested(Scope::Kind::Loop, s.children[0]);
        closeLoop(loop);
        certain(loop.written);
      }
      return;
    case SK::RepeatWhile: {
      // The condition runs at least once; the body perhaps never.
      scopes.push_back({Scope::Kind::Loop, nextStep(), {}, {}});
      walk(s.children[0]);
      readScalar(s.scalar, step(s));
      nested(Scope::Kind::Branch, s.children[1]);
      const Scope loop = std::move(scopes.back());
      scopes.pop_back();
      closeLoop(loop);
      certain(loop.written);
      return;
    }
    case SK::If:
    case SK::Switch: {
      readScalar(s.scalar, step(s));
      Written both;
      for (std::size_t i = 0; i != s.children.size(); ++i) {
        Scope branch = nested(Scope::Kind::Branch, s.children[i]);
        both = i == 0 ? std::move(branch.written) : intersect(both, branch.written);
      }
      certain(both);
      return;
    }
    case SK::Call:
      if (callDepth < maxCallDepth && s.function < exe.functions.size()) {
        ++callDepth;
        walk(exe.functions[s.function]);
        --callDepth;
      }
      return;
    case SK::AbortOnCondition:
      readScalar(s.scalar, step(s));
      return;
    case SK::CrossReplicaCopy:
    case SK::CrossReplicaCollective: {
      const std::uint32_t at = step(s);
      reads(intervals(s.access, false), at);
      // Replicas the map leaves out keep their destination.
      if (s.kind == SK::CrossReplicaCollective)
        writes(intervals(s.dstAccess, true), at);
      for (const auto *a : {&s.access, &s.dstAccess})
        for (const auto &run : a->runs)
          touch(run.var, at);
      return;
    }
    case SK::Sync:
    case SK::Abort:
      return;
    }
  }

  // Ranges that overlap or touch become one (a loop may have extended a
  // range over earlier ones).
  void closeProgram() {
    for (std::size_t var : programVars) {
      if (first[var] != noStep)
        closeRange(var);
      auto &ranges = out.variables[var].ranges;
      std::sort(ranges.begin(), ranges.end());
      std::vector<StepRange> merged;
      for (const auto &r : ranges) {
        if (!merged.empty() && r.first <= merged.back().second + 1)
          merged.back().second = std::max(merged.back().second, r.second);
        else
          merged.push_back(r);
      }
      ranges.swap(merged);
    }
    programVars.clear();
  }

  const Executable::Impl &exe;
  const LivenessInputs &inputs;
  Liveness out;
  std::vector<Scope> scopes;
  // Per variable, in the control program being walked: the first and
  // last steps that touch it.
  std::vector<std::uint32_t> first, last;
  std::vector<std::size_t> programVars;
  std::vector<bool> keep; // always live
  unsigned callDepth = 0;
};

} // namespace

Liveness analyseLiveness(const Executable::Impl &exe, const LivenessInputs &inputs) {
  return Analysis(exe, inputs).run();
}

} // namespace poplar::model

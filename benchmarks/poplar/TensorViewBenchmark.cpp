// Costs of tensor views: making a view must not depend on the tensor's
// size; materialising its storage should cost in proportion to the blocks
// (boxes, runs) it is made of.
#include "graph/TensorImpl.hpp"

#include <poplar/Tensor.hpp>

#include <benchmark/benchmark.h>

#include <vector>

namespace {

using poplar::Tensor;

Tensor squareVariable(std::size_t n) {
  return poplar::layout::makeVariable(0, 1, poplar::FLOAT, {n, n}, false, "v");
}

// --- View creation -------------------------------------------------------

void CreateTranspose(benchmark::State &state) {
  const Tensor v = squareVariable(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(v.transpose());
}
BENCHMARK(CreateTranspose)->Arg(64)->Arg(4096);

void CreateSlice(benchmark::State &state) {
  const Tensor v = squareVariable(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(v.slice(10, 20, 1));
}
BENCHMARK(CreateSlice)->Arg(64)->Arg(4096);

void CreateReshape(benchmark::State &state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const Tensor v = squareVariable(n);
  for (auto _ : state)
    benchmark::DoNotOptimize(v.reshape({n / 2, n * 2}));
}
BENCHMARK(CreateReshape)->Arg(64)->Arg(4096);

void CreateIndex(benchmark::State &state) {
  const Tensor v = squareVariable(4096);
  for (auto _ : state)
    benchmark::DoNotOptimize(v[7]);
}
BENCHMARK(CreateIndex);

// --- Materialisation (each iteration makes a fresh view: layouts are cached
// per view) ------------------------------------------------------------------

void TransposeFlatRuns(benchmark::State &state) {
  const Tensor v = squareVariable(4096);
  for (auto _ : state)
    benchmark::DoNotOptimize(poplar::layout::flatRuns(v.transpose()));
}
BENCHMARK(TransposeFlatRuns)->Unit(benchmark::kMicrosecond);

void FlattenedTransposeFlatRuns(benchmark::State &state) {
  const Tensor v = squareVariable(4096);
  for (auto _ : state)
    benchmark::DoNotOptimize(poplar::layout::flatRuns(v.transpose().flatten()));
}
BENCHMARK(FlattenedTransposeFlatRuns)->Unit(benchmark::kMicrosecond);

void TransposeStorageRanges(benchmark::State &state) {
  const Tensor v = squareVariable(4096);
  for (auto _ : state)
    benchmark::DoNotOptimize(poplar::layout::storageRanges(v.transpose()));
}
BENCHMARK(TransposeStorageRanges)->Unit(benchmark::kMicrosecond);

void FlattenedTransposeStorageRanges(benchmark::State &state) {
  const Tensor v = squareVariable(4096);
  for (auto _ : state)
    benchmark::DoNotOptimize(
        poplar::layout::storageRanges(v.transpose().flatten()));
}
BENCHMARK(FlattenedTransposeStorageRanges)->Unit(benchmark::kMicrosecond);

// One interval per element: the answer itself is 16M intervals long.
void TransposeContiguousRegions(benchmark::State &state) {
  const Tensor v = squareVariable(4096);
  for (auto _ : state)
    benchmark::DoNotOptimize(v.transpose().getContiguousRegions());
}
BENCHMARK(TransposeContiguousRegions)->Unit(benchmark::kMillisecond);

void FlattenedTransposeContiguousRegions(benchmark::State &state) {
  const Tensor v = squareVariable(4096);
  for (auto _ : state)
    benchmark::DoNotOptimize(v.transpose().flatten().getContiguousRegions());
}
BENCHMARK(FlattenedTransposeContiguousRegions)->Unit(benchmark::kMillisecond);

void ContiguousRowsRegions(benchmark::State &state) {
  const Tensor v = squareVariable(4096);
  for (auto _ : state)
    benchmark::DoNotOptimize(v.slice(1, 4095, 1).getContiguousRegions());
}
BENCHMARK(ContiguousRowsRegions)->Unit(benchmark::kMicrosecond);

// --- Concatenation of many small tensors -----------------------------------

// 10,000 separate variables of 4 elements each.
void ConcatSeparateVariables(benchmark::State &state) {
  std::vector<Tensor> parts;
  for (std::size_t i = 0; i != 10000; ++i)
    parts.push_back(
        poplar::layout::makeVariable(0, i, poplar::FLOAT, {4}, false, "p"));
  for (auto _ : state) {
    const Tensor t = poplar::concat(parts);
    benchmark::DoNotOptimize(t.getVarRegions());
  }
}
BENCHMARK(ConcatSeparateVariables)->Unit(benchmark::kMicrosecond);

// The 10,000 rows of one variable, in order: they merge back into one box.
void ConcatRowsOfOneVariable(benchmark::State &state) {
  const Tensor v =
      poplar::layout::makeVariable(0, 1, poplar::FLOAT, {10000, 4}, false, "v");
  std::vector<Tensor> rows;
  for (std::size_t i = 0; i != 10000; ++i)
    rows.push_back(v.slice(i, i + 1));
  for (auto _ : state) {
    const Tensor t = poplar::concat(rows);
    benchmark::DoNotOptimize(t.isContiguous());
  }
}
BENCHMARK(ConcatRowsOfOneVariable)->Unit(benchmark::kMicrosecond);

// A chain of 10,000 appends, materialised once at the end.
void AppendChain(benchmark::State &state) {
  const Tensor v =
      poplar::layout::makeVariable(0, 1, poplar::FLOAT, {10000, 4}, false, "v");
  for (auto _ : state) {
    Tensor t = v.slice(0, 1);
    for (std::size_t i = 1; i != 10000; ++i)
      t = poplar::append(t, v[i]);
    benchmark::DoNotOptimize(t.isContiguous());
  }
}
BENCHMARK(AppendChain)->Unit(benchmark::kMillisecond);

} // namespace

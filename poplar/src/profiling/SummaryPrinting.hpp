// The two halves of the profile summary, each printed from profiles only.
#ifndef POPLAR_SRC_PROFILING_SUMMARYPRINTING_HPP
#define POPLAR_SRC_PROFILING_SUMMARYPRINTING_HPP

#include "profiling/SummaryFormat.hpp"

#include <poplar/ProfileValue.hpp>

namespace poplar::profiling {

/// Target, graph and memory (profiling/GraphSummary.cpp).
void printGraphPart(SummaryWriter &w, const ProfileValue &graphProfile,
                    const SummaryOptions &opts);
/// Execution totals, cycles by vertex type and, with showExecutionSteps,
/// the simulated steps (profiling/ExecutionSummary.cpp).
void printExecutionPart(SummaryWriter &w, const ProfileValue &graphProfile,
                        const ProfileValue &executionProfile,
                        const SummaryOptions &opts);

} // namespace poplar::profiling

#endif // POPLAR_SRC_PROFILING_SUMMARYPRINTING_HPP

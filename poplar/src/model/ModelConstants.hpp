// The constants of the IPU Model's cycle and memory estimates that are not
// fields of IPUModel/Target. Each says where it comes from; README.md in
// this folder gives the formulas that use them.
#ifndef POPLAR_SRC_MODEL_MODELCONSTANTS_HPP
#define POPLAR_SRC_MODEL_MODELCONSTANTS_HPP

#include <cstdint>

namespace poplar::model::constants {

// ----------------------------------------------------------------- compute

/// Default estimate of a vertex without one (thread cycles): a fixed cost
/// for entering the vertex and returning, plus per edge region a pointer
/// set-up and one cycle per element (one load or store each).
constexpr std::uint64_t defaultVertexCycles = 10;
constexpr std::uint64_t defaultRegionCycles = 2;
constexpr std::uint64_t defaultElementCycles = 1;

/// On-tile copies (poplar_rt::LongMemcpy, one per tile and copy) run on all
/// workers: a set-up cost, then per contiguous piece an address update and
/// the piece at IPUModel::memcpyBytesPerCycle.
constexpr std::uint64_t memcpyFixedCycles = 20;
constexpr std::uint64_t memcpyPieceCycles = 1;

// ---------------------------------------------------------------- exchange

/// Fixed latency of one exchange phase: 8 cycles from a send to the fabric,
/// at most 19 to cross the chip and 2 from the fabric into memory (pipeline
/// delays recovered from the Mk1 SDK; ipu_cycle_model.md section 1).
constexpr std::uint64_t exchangeLatencyCycles = 8 + 19 + 2;

/// Bytes per second the host link moves. The IPU Model's published totals
/// for tutorial 7 (40,044,000 bytes streamed) are 8,190,756 cycles at
/// 1.6 GHz (7.8 GB/s) and 6,681,766 at 1.33 GHz (8.0 GB/s).
constexpr double hostLinkBytesPerSecond = 8.0e9;

/// Bytes per second between two IPUs: two IPU-Links of 128 Gbit/s each
/// way at 85 % efficiency (poplibs' model of the links,
/// lib/poplibs_test/Util.cpp).
constexpr double ipuLinkBytesPerSecond = 2 * 16.0e9 * 0.85;

/// A GLOBAL sync also waits for the host: one round trip over the host
/// link on top of the external sync (ours: the order of a PCIe round
/// trip, about a microsecond; no published figure for the IPU's).
constexpr double hostSyncSeconds = 1.0e-6;

/// The internal sync releases tile t of an IPU (t + 1) / 16 cycles after
/// the tile nearest the sync controller (unless relativeSyncDelay is
/// NO_DELAY), so the farthest tile waits Target::getMaxIPUSyncDelay().
constexpr unsigned tilesPerSyncDelayCycle = 16;

// ------------------------------------------------------------ control flow

/// Supervisor instructions of control flow. The supervisor issues one
/// instruction per turn of the barrel, numWorkerContexts tile cycles.
constexpr unsigned repeatInstructions = 2;    // count down, branch
constexpr unsigned consensusInstructions = 3; // load, set consensus, branch
constexpr unsigned callInstructions = 2;      // call, return
constexpr unsigned switchBaseInstructions = 2;
constexpr unsigned switchCaseInstructions = 1; // compare and branch per case

// ------------------------------------------------------------------ memory

/// Memory is made of 16 KiB elements (Mk1: TMEM element size, recovered
/// from the SDK); interleaved memory starts at element
/// IPUModel::interleavedMemoryElementIndex.
constexpr std::uint64_t memoryElementBytes = 16 * 1024;

/// Stacks when the engine options target.workerStackSizeInBytes and
/// target.supervisorStackSizeInBytes are not given: six worker stacks and
/// one supervisor stack make 3,168 bytes per tile, the guide's example
/// (3,852,288 bytes of stack on 1,216 tiles).
constexpr std::uint64_t workerStackBytes = 448;
constexpr std::uint64_t supervisorStackBytes = 480;

/// Alignment of data (variables, buffers, field data: 64-bit loads), of
/// vertex state and code (32-bit words).
constexpr std::uint64_t dataAlignment = 8;
constexpr std::uint64_t wordAlignment = 4;

/// Vertex state on the device: a pointer is 4 bytes; a vector edge with a
/// size (SPAN) 8; compact layouts fit in 4 (SHORT_SPAN, COMPACT_PTR) or 2
/// (SCALED_PTR*); a list holds a pointer to its descriptors and a count;
/// a list item's descriptor is 8 bytes (pointer and size), or 4 for the
/// DeltaN layouts (offset and size packed).
constexpr std::uint64_t pointerBytes = 4;
constexpr std::uint64_t spanBytes = 8;
constexpr std::uint64_t compactBytes = 4;
constexpr std::uint64_t scaledPointerBytes = 2;
constexpr std::uint64_t listHeaderBytes = 8;
constexpr std::uint64_t listItemBytes = 8;
constexpr std::uint64_t deltaNItemBytes = 4;
/// A copy vertex holds source and destination pointers, and a descriptor
/// per piece.
constexpr std::uint64_t copyPointerBytes = 8;
constexpr std::uint64_t copyDescriptorBytes = 8;

/// Code, counted only when IPUModel::compileIPUCode is set (as the guide
/// says): instructions per vertex type, per field of it, and for the
/// supervisor part of a MultiVertex or SupervisorVertex; control code per
/// program step and per vertex launched; exchange code per exchange a tile
/// takes part in and per peer or piece.
constexpr unsigned vertexCodeInstructions = 16;
constexpr unsigned vertexFieldInstructions = 8;
constexpr unsigned supervisorCodeInstructions = 16;
constexpr unsigned controlStepInstructions = 4;
constexpr unsigned vertexLaunchInstructions = 2;
constexpr unsigned exchangeCodeInstructions = 4;
constexpr unsigned exchangePeerInstructions = 2;

} // namespace poplar::model::constants

#endif // POPLAR_SRC_MODEL_MODELCONSTANTS_HPP

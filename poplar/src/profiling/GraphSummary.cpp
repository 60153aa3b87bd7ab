// The graph half of the profile summary ("Profile summary output" in the
// guide): Target, Graph, memory usage by region and data type, vertex
// data, the per-tile histogram and, with showVarStorage, what is live.
// Everything comes from the graph profile.
#include "profiling/SummaryFormat.hpp"
#include "profiling/SummaryPrinting.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <map>
#include <ostream>
#include <tuple>
#include <vector>

namespace poplar::profiling {
namespace {

std::uint64_t u(const ProfileValue *v) {
  return v && v->type() == ProfileValue::Type::NUMBER ? v->asUint() : 0;
}

std::string kb(std::uint64_t bytes) {
  return withCommas1(double(bytes) / 1024) + " kB";
}

std::string mb(std::uint64_t bytes) {
  return withCommas1(double(bytes) / (1024.0 * 1024.0)) + " MB";
}

// Sums a per-tile vector over [first, last).
std::uint64_t sumTiles(const ProfileValue &perTile, unsigned first, unsigned last) {
  std::uint64_t sum = 0;
  const auto &v = perTile.asVector();
  for (unsigned t = first; t < last && t < v.size(); ++t)
    sum += v[t].asUint();
  return sum;
}

struct Category {
  const char *key;
  const char *label;
};

// The categories in the order and with the labels of the guide's
// "By Data Type" lists.
const Category categories[] = {
    {"variable", "Variables"},
    {"constant", "Constants"},
    {"message", "Internal Exchange Message Buffers"},
    {"outputEdge", "Output Edge Buffers"},
    {"rearrangement", "Data Rearrangement Buffers"},
    {"stack", "Stack"},
    {"vertexInstanceState", "Vertex Instances"},
    {"copyDescriptor", "Copy Descriptors"},
    {"vectorListDescriptor", "VectorList Descriptors"},
    {"vertexFieldData", "Vertex Field Data"},
    {"controlCode", "Control Code"},
    {"vertexCode", "Vertex Code"},
    {"internalExchangeCode", "Internal Exchange Code"},
    {"hostExchangeCode", "Host Exchange Code"},
    {"globalExchangeCode", "Global Exchange Code"},
};

void printTarget(SummaryWriter &w, const ProfileValue &target) {
  // The profile's target is one replica's; the device holds them all.
  const std::uint64_t replicas =
      std::max<std::uint64_t>(1, u(target.getOrNull("numReplicas")));
  const std::uint64_t ipus = u(target.getOrNull("numIPUs"));
  const std::uint64_t tilesPerIpu = u(target.getOrNull("tilesPerIPU"));
  const std::uint64_t tiles = u(target.getOrNull("numTiles"));
  const std::uint64_t perTile = u(target.getOrNull("bytesPerTile"));
  const std::uint64_t total = u(target.getOrNull("totalMemory"));
  const double clock = target.getOrNull("clockFrequency")
                           ? target["clockFrequency"].asDouble()
                           : 0.0;
  w.heading("", "Target:");
  w.left("  ", "Number of IPUs:", 24, withCommas(ipus * replicas));
  w.left("  ", "Tiles per IPU:", 24, withCommas(tilesPerIpu));
  w.left("  ", "Total Tiles:", 24, withCommas(tiles * replicas));
  w.left("  ", "Memory Per-Tile:", 24, kb(perTile));
  w.left("  ", "Total Memory:", 24, mb(total * replicas));
  w.left("  ", "Clock Speed (approx):", 24, withCommas1(clock / 1e6) + " MHz");
  w.left("  ", "Number of Replicas:", 24, withCommas(replicas));
  w.left("  ", "IPUs per Replica:", 24, withCommas(ipus));
  w.left("  ", "Tiles per Replica:", 24, withCommas(tiles));
  w.left("  ", "Memory per Replica:", 24, mb(total));
  w.os() << '\n';
}

void printGraph(SummaryWriter &w, const ProfileValue &graph) {
  w.heading("", "Graph:");
  auto line = [&](const char *label, const char *key) {
    std::string padded = label;
    padded.resize(24, ' ');
    w.right("  ", padded, withCommas(u(graph.getOrNull(key))), 38);
  };
  line("Number of vertices:", "numVertices");
  line("Number of edges:", "numEdges");
  line("Number of variables:", "numVars");
  line("Number of compute sets:", "numComputeSets");
  w.os() << '\n';
}

// Memory of tiles [first, last).
void printMemory(SummaryWriter &w, const ProfileValue &profile, unsigned first,
                 unsigned last, std::uint64_t bytesPerTile) {
  const ProfileValue &memory = profile["memory"];
  const ProfileValue &byTile = memory["byTile"];
  const ProfileValue &byCategory = memory["byCategory"];
  w.heading("", "Memory Usage:");
  w.os() << "  Total:\n";
  w.right("    ", "Including Gaps:", withCommas(sumTiles(byTile["totalIncludingGaps"], first, last)), 38, " B");
  w.os() << "    Excluding Gaps:\n"
         << "      By Memory Region:\n";
  w.right("        ", "Non-interleaved:", withCommas(sumTiles(byTile["nonInterleaved"], first, last)), 38, " B");
  w.right("        ", "Interleaved:", withCommas(sumTiles(byTile["interleaved"], first, last)), 38, " B");
  w.right("        ", "Overflowed:", withCommas(sumTiles(byTile["overflowed"], first, last)), 38, " B");
  w.right("      ", "Total:", withCommas(sumTiles(byTile["total"], first, last)), 38, " B");

  w.os() << "      By Data Type:\n";
  for (const bool overlapped : {false, true}) {
    w.os() << (overlapped ? "        Overlapped\n" : "        Not Overlapped\n");
    std::uint64_t total = 0;
    for (const auto &c : categories) {
      const ProfileValue *cat = byCategory.getOrNull(c.key);
      if (!cat)
        continue;
      std::uint64_t bytes = 0;
      for (const char *region : {"nonInterleaved", "interleaved", "overflowed"})
        bytes += sumTiles((*cat)[region][overlapped ? "overlapped" : "nonOverlapped"],
                          first, last);
      if (bytes == 0)
        continue;
      total += bytes;
      w.right("            ", std::string(c.label) + ":", withCommas(bytes), 59, " B");
    }
    w.right("          ", "Total:", withCommas(total), 59, " B");
    if (overlapped) {
      // The overlapped buffers share one block per tile.
      std::uint64_t all = sumTiles(byTile["total"], first, last), nonOverlapped = 0;
      for (const auto &c : categories)
        if (const ProfileValue *cat = byCategory.getOrNull(c.key))
          for (const char *region : {"nonInterleaved", "interleaved", "overflowed"})
            nonOverlapped += sumTiles((*cat)[region]["nonOverlapped"], first, last);
      w.right("          ", "Total After Overlapping:",
              withCommas(all >= nonOverlapped ? all - nonOverlapped : 0), 59, " B");
    }
  }

  // Vertex data by category and by type.
  const ProfileValue &byType = memory["byVertexType"];
  const auto &names = profile["vertexTypes"]["names"].asVector();
  auto sum2D = [&](const char *key) {
    std::uint64_t s = 0;
    for (const auto &row : byType[key].asVector())
      s += sumTiles(row, first, last);
    return s;
  };
  const std::uint64_t state = sum2D("vertexDataBytes");
  const std::uint64_t edges = sum2D("edgePtrBytes");
  const std::uint64_t copies = sum2D("copyPtrBytes");
  const std::uint64_t padding = sum2D("paddingBytes");
  const std::uint64_t descriptors = sum2D("descriptorBytes");
  w.os() << "      Vertex Data ("
         << withCommas(state + edges + copies + padding + descriptors) << "B):\n"
         << "        By Category:\n";
  w.right("          ", "Internal vertex state:", withCommas(state), 47, " B");
  w.right("          ", "Edge pointers:", withCommas(edges), 47, " B");
  w.right("          ", "Copy pointers:", withCommas(copies), 47, " B");
  w.right("          ", "Padding:", withCommas(padding), 47, " B");
  w.right("          ", "Descriptors:", withCommas(descriptors), 47, " B");
  w.os() << "        By Type:\n";
  std::vector<std::pair<std::uint64_t, std::string>> types;
  std::size_t width = 0;
  const auto &totals = byType["totalBytes"].asVector();
  const auto &code = byType["codeBytes"].asVector();
  for (std::size_t t = 0; t != names.size() && t != totals.size(); ++t) {
    const std::uint64_t bytes = sumTiles(totals[t], first, last) - sumTiles(code[t], first, last);
    if (bytes == 0)
      continue;
    types.push_back({bytes, names[t].asString()});
    width = std::max(width, names[t].size());
  }
  std::stable_sort(types.begin(), types.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  for (const auto &[bytes, name] : types) {
    std::string padded = name;
    padded.resize(width, ' ');
    w.right("          ", padded, withCommas(bytes), 10 + width + 15, " B");
  }
  w.os() << "\n\n";

  // Per-tile histogram, in KB bins (wider bins when the range is large).
  const auto &total = byTile["total"].asVector();
  const auto &withGaps = byTile["totalIncludingGaps"].asVector();
  if (first >= last || last > total.size())
    return;
  std::uint64_t lo = ~std::uint64_t(0), hi = 0, maxGaps = 0, maxNoGaps = 0;
  unsigned maxGapsTile = first, maxNoGapsTile = first, outOfMemory = 0;
  for (unsigned t = first; t != last; ++t) {
    const std::uint64_t b = total[t].asUint(), g = withGaps[t].asUint();
    lo = std::min(lo, b / 1024);
    hi = std::max(hi, b / 1024);
    if (g > maxGaps) {
      maxGaps = g;
      maxGapsTile = t;
    }
    if (b > maxNoGaps) {
      maxNoGaps = b;
      maxNoGapsTile = t;
    }
    outOfMemory += g > bytesPerTile;
  }
  const std::uint64_t binKb = std::max<std::uint64_t>(1, (hi - lo + 1 + 19) / 20);
  const std::size_t bins = (hi - lo) / binKb + 1;
  std::vector<std::uint64_t> counts(bins, 0);
  for (unsigned t = first; t != last; ++t)
    ++counts[(total[t].asUint() / 1024 - lo) / binKb];
  const std::uint64_t most = *std::max_element(counts.begin(), counts.end());
  w.heading("  ", "By Tile (Excluding Gaps):");
  w.os() << "    Range (KB) Histogram (Excluding Gaps)               Count (tiles)\n";
  for (std::size_t i = 0; i != bins; ++i) {
    const std::uint64_t from = lo + i * binKb;
    std::size_t stars = counts[i] == 0 ? 0
                        : std::max<std::size_t>(1, counts[i] * 40 / most);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%9llu - %2llu ",
                  static_cast<unsigned long long>(from),
                  static_cast<unsigned long long>(from + binKb));
    w.os() << buf << std::string(stars, '*') << std::string(40 - stars, ' ');
    std::snprintf(buf, sizeof buf, "%7llu\n", static_cast<unsigned long long>(counts[i]));
    w.os() << buf;
  }
  w.os() << '\n'
         << "    Maximum (Including Gaps): " << withCommas(maxGaps) << " ("
         << withCommas1(double(maxGaps) / 1024) << " K) on tile " << maxGapsTile << '\n'
         << "    Maximum (Excluding Gaps): " << withCommas(maxNoGaps) << " ("
         << withCommas1(double(maxNoGaps) / 1024) << " K) on tile " << maxNoGapsTile << '\n'
         << "    " << outOfMemory << " tile(s) out of memory\n";
  // When tiles do not fit, show what fills the worst few.
  if (outOfMemory != 0) {
    std::vector<unsigned> worst;
    for (unsigned t = first; t != last; ++t)
      if (withGaps[t].asUint() > bytesPerTile)
        worst.push_back(t);
    std::stable_sort(worst.begin(), worst.end(), [&](unsigned a, unsigned b) {
      return withGaps[a].asUint() > withGaps[b].asUint();
    });
    worst.resize(std::min<std::size_t>(worst.size(), 5));
    w.os() << "    Largest tiles:\n";
    for (unsigned t : worst) {
      w.os() << "      Tile " << t << ": " << withCommas(withGaps[t].asUint())
             << " B (including gaps)\n";
      for (const auto &c : categories) {
        const ProfileValue *cat = byCategory.getOrNull(c.key);
        const std::uint64_t bytes = cat ? (*cat)["total"][t].asUint() : 0;
        if (bytes != 0)
          w.right("        ", std::string(c.label) + ":", withCommas(bytes), 59, " B");
      }
    }
  }
  w.os() << "\n\n";
}

// Names and bytes, the names padded to one width.
void printNamed(SummaryWriter &w, const std::string &indent,
                const std::map<std::string, std::uint64_t> &named) {
  std::size_t width = 0;
  for (const auto &entry : named)
    width = std::max(width, entry.first.size());
  for (const auto &[name, bytes] : named) {
    std::string padded = name;
    padded.resize(width, ' ');
    w.right(indent, padded, withCommas(bytes), indent.size() + width + 12);
  }
}

void printLiveness(SummaryWriter &w, const ProfileValue &memory) {
  const ProfileValue *liveness = memory.getOrNull("liveness");
  if (!liveness)
    return;
  w.heading("  ", "Variable Storage Liveness: All tiles");
  w.os() << '\n';
  std::uint64_t always = 0;
  std::map<std::string, std::uint64_t> alwaysLive;
  for (const auto &[name, bytes] : (*liveness)["alwaysLive"].asMap()) {
    always += bytes.asUint();
    alwaysLive[name] = bytes.asUint();
  }
  w.os() << "    Always-live bytes: " << withCommas(always) << '\n'
         << "    Always-live variables:\n";
  printNamed(w, "      ", alwaysLive);
  const auto &steps = (*liveness)["steps"].asVector();
  std::uint64_t peak = 0;
  for (const auto &step : steps)
    peak = std::max(peak, step["liveBytes"].asUint());
  w.os() << '\n'
         << "    Maximum live bytes (including always-live): "
         << withCommas(always + peak) << "\n\n";
  // The variables live in each step, by name: (step, +-bytes, name).
  std::vector<std::tuple<std::uint64_t, std::int64_t, std::string>> changes;
  if (const ProfileValue *vars = liveness->getOrNull("notAlwaysLive"))
    for (const auto &v : vars->asVector())
      for (const auto &range : v["live"].asVector()) {
        const auto bytes = std::int64_t(v["bytes"].asUint());
        changes.emplace_back(range[0].asUint(), bytes, v["name"].asString());
        changes.emplace_back(range[1].asUint() + 1, -bytes, v["name"].asString());
      }
  std::sort(changes.begin(), changes.end());
  std::map<std::string, std::pair<std::uint64_t, unsigned>> live; // bytes, count
  std::size_t next = 0;
  for (std::size_t s = 0; s != steps.size(); ++s) {
    for (; next != changes.size() && std::get<0>(changes[next]) <= s; ++next) {
      auto &[bytes, count] = live[std::get<2>(changes[next])];
      const std::int64_t change = std::get<1>(changes[next]);
      bytes = std::uint64_t(std::int64_t(bytes) + change);
      count = change > 0 ? count + 1 : count - 1;
      if (count == 0)
        live.erase(std::get<2>(changes[next]));
    }
    const ProfileValue &step = steps[s];
    const std::string type = step["type"].asString(), name = step["name"].asString();
    w.os() << "    " << type << (name == type ? "" : ": " + name) << '\n'
           << "      Live Bytes (excluding always-live): "
           << withCommas(step["liveBytes"].asUint()) << '\n'
           << "      Live Vars (excluding always-live):\n";
    std::map<std::string, std::uint64_t> named;
    for (const auto &[var, entry] : live)
      named[var] = entry.first;
    if (const ProfileValue *buffers = step.getOrNull("bufferBytes"))
      for (const auto &[kind, bytes] : buffers->asMap())
        named["<" + kind + ">"] = bytes.asUint();
    printNamed(w, "        ", named);
  }
  w.os() << '\n';
}

} // namespace

void printGraphPart(SummaryWriter &w, const ProfileValue &graphProfile,
                    const SummaryOptions &opts) {
  if (graphProfile.type() != ProfileValue::Type::MAP ||
      !graphProfile.getOrNull("target"))
    throw poplar_error("printGraphSummary: the graph profile is empty or not "
                       "a graph profile");
  const ProfileValue &target = graphProfile["target"];
  printTarget(w, target);
  printGraph(w, graphProfile["graph"]);
  if (opts.showOptimizations) {
    w.heading("", "Optimizations:");
    for (const auto &[key, value] : graphProfile["optimizationInfo"].asMap())
      w.left("  ", key + ":", 24, withCommas1(value.asDouble()));
    w.os() << '\n';
  }
  const std::uint64_t tiles = u(target.getOrNull("numTiles"));
  const std::uint64_t perIpu = u(target.getOrNull("tilesPerIPU"));
  const std::uint64_t bytesPerTile = u(target.getOrNull("bytesPerTile"));
  w.heading("", "Memory on all IPUs:");
  printMemory(w, graphProfile, 0, unsigned(tiles), bytesPerTile);
  if (opts.showPerIpuMemoryUsage && perIpu != 0)
    for (std::uint64_t ipu = 0; ipu * perIpu < tiles; ++ipu) {
      w.heading("", "Memory on IPU " + std::to_string(ipu) + ":");
      printMemory(w, graphProfile, unsigned(ipu * perIpu),
                  unsigned(std::min(tiles, (ipu + 1) * perIpu)), bytesPerTile);
    }
  if (opts.showVarStorage)
    printLiveness(w, graphProfile["memory"]);
}

} // namespace poplar::profiling

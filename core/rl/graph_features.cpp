// Node features for the placement policies: one pass over ops and edges (O(ops + edges)),
// deterministic, every column scaled to roughly [0, 2] (log scales divided by a typical maximum).
#include "rl/graph_features.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <string>

#include "base/error.h"

namespace gp::rl {

namespace {

// Column layout of GraphFeatures::x.
enum Column : int {
  kFlops,
  kBytesRead,
  kBytesWritten,
  kParamBytes,
  kOpTime,
  kFanIn,
  kFanOut,
  kDepth,
  kOutputRank,
  kOutputElements,
  kRoleForward,
  kRoleBackward,
  kRoleUpdate,
  kColocated,
  kTimeShare,                                // op time / the graph's mean op time
  kCommRatio,                                // output transfer time / the graph's mean op time
  kMemShare,                                 // param + output bytes / a device's memory
  kDeviceLoad,                               // the current plan's load share of the op's device
  kCurrentDevice,                            // kMaxDevices columns
  kTopoRank = kCurrentDevice + kMaxDevices,  // rank / ops
  kPosition,                                 // 2 * kPositionPeriods columns: sin, cos per period
  kNumColumns = kPosition + 2 * kPositionPeriods,
};

int32_t findRoot(std::vector<int32_t>& parent, int32_t u) {
  while (parent[u] != u) u = parent[u] = parent[parent[u]];
  return u;
}

// Move groups: units joined with the units of each op's forward op (union-find), numbered by
// their first unit (units are numbered in topological order).
void buildGroups(const Graph& g, GraphFeatures& f) {
  std::vector<int32_t> parent(static_cast<size_t>(f.numUnits));
  std::iota(parent.begin(), parent.end(), 0);
  for (OpId op = 0; op < f.numOps; ++op) {
    const OpId fwd = g.forwardOf(op);
    if (fwd == kNone) continue;
    const int32_t a = findRoot(parent, f.unitOf[op]), b = findRoot(parent, f.unitOf[fwd]);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<int32_t> groupOfRoot(static_cast<size_t>(f.numUnits), -1);
  f.groupOf.resize(static_cast<size_t>(f.numUnits));
  f.numGroups = 0;
  for (int32_t u = 0; u < f.numUnits; ++u) {
    int32_t& gid = groupOfRoot[static_cast<size_t>(findRoot(parent, u))];
    if (gid < 0) gid = f.numGroups++;
    f.groupOf[static_cast<size_t>(u)] = gid;
  }
  // scopes, for the local search's scope moves: a group's scope is its first op's
  f.groupScope.assign(static_cast<size_t>(f.numGroups), -1);
  for (int32_t u = 0; u < f.numUnits; ++u) {
    int32_t& s = f.groupScope[static_cast<size_t>(f.groupOf[u])];
    if (s < 0) s = g.opScope(f.unitFirstOp[u]);
  }
  f.scopeParent.resize(static_cast<size_t>(g.numScopes()));
  for (ScopeId s = 0; s < g.numScopes(); ++s) f.scopeParent[s] = g.scopeParent(s) == kNone ? -1 : g.scopeParent(s);
}

// Upward rank (longest path to a sink at the fastest op times) -> priority n - position in
// decreasing rank order (ties: topological order).
void buildPriority(const Graph& g, const CostModel& cost, GraphFeatures& f) {
  const int32_t n = f.numOps;
  std::vector<double> rank(static_cast<size_t>(n), 0.0);
  for (auto it = f.topo.rbegin(); it != f.topo.rend(); ++it) {
    double tail = 0;
    for (OpId c : g.fanOut(*it)) tail = std::max(tail, rank[c]);
    rank[*it] = cost.fastestOpTime(*it) + tail;
  }
  std::vector<int32_t> order(f.topo);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return rank[a] > rank[b]; });
  f.priority.resize(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) f.priority[order[i]] = n - i;
}

// FNV-1a (32 bit): stable across runs, platforms and graphs, unlike std::hash.
uint32_t fnv1a(std::string_view s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

float logScaled(double v, double scale) {
  return static_cast<float>(std::log1p(std::max(0.0, v)) / scale);
}

}  // namespace

GraphFeatures buildGraphFeatures(const Graph& g, const CostModel& cost, const Plan* current) {
  const int32_t n = g.numOps();
  if (current != nullptr && static_cast<int32_t>(current->device.size()) != n)
    throw Error(g.name(), "the plan to refine has " + std::to_string(current->device.size()) + " devices for " +
                              std::to_string(n) + " ops");
  GraphFeatures f;
  f.numOps = n;
  f.featureDim = kNumColumns;
  f.x.assign(static_cast<size_t>(n) * kNumColumns, 0.0f);
  f.opType.resize(static_cast<size_t>(n));
  f.edgeSrc.reserve(static_cast<size_t>(g.numEdges()));
  f.edgeDst.reserve(static_cast<size_t>(g.numEdges()));
  f.edgeBytes.reserve(static_cast<size_t>(g.numEdges()));

  // Hash each distinct type name once.
  std::vector<int32_t> typeBucket(g.opTypeNames().size());
  for (size_t t = 0; t < typeBucket.size(); ++t)
    typeBucket[t] = static_cast<int32_t>(fnv1a(g.opTypeNames()[t]) % static_cast<uint32_t>(kOpTypeVocab));

  // Topological order, depth (longest path from a source) and units, all in one topo pass.
  const auto topo = g.topoOrder();
  f.topo.assign(topo.begin(), topo.end());
  std::vector<int32_t> depth(static_cast<size_t>(n), 0);
  int32_t maxDepth = 0;
  f.unitOf.assign(static_cast<size_t>(n), -1);
  std::vector<int32_t> groupUnit(g.colocGroupNames().size(), -1);
  for (OpId op : topo) {
    int32_t d = 0;
    for (OpId p : g.fanIn(op)) d = std::max(d, depth[p] + 1);
    depth[op] = d;
    maxDepth = std::max(maxDepth, d);
    const int32_t group = g.colocGroup(op);
    int32_t* slot = group == kNone ? nullptr : &groupUnit[static_cast<size_t>(group)];
    if (slot != nullptr && *slot >= 0) {
      f.unitOf[op] = *slot;
    } else {
      const auto unit = static_cast<int32_t>(f.unitFirstOp.size());
      f.unitFirstOp.push_back(op);
      f.unitOf[op] = unit;
      if (slot != nullptr) *slot = unit;
    }
  }
  f.numUnits = static_cast<int32_t>(f.unitFirstOp.size());
  buildGroups(g, f);
  buildPriority(g, cost, f);
  std::vector<int32_t> rankOf(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) rankOf[f.topo[i]] = i;

  // Scales of this graph on this cluster, so that the same op reads alike in a small and a large
  // graph and on fast and slow clusters: the mean op time, the mean bandwidth between two
  // devices, the smallest device memory.
  double meanOpTime = 0;
  for (OpId op = 0; op < n; ++op) meanOpTime += cost.fastestOpTime(op);
  meanOpTime = std::max(meanOpTime / std::max(n, 1), 1e-9);
  const Cluster& cl = cost.cluster();
  double bandwidth = 0;
  int pairs = 0;
  int64_t minMemory = std::numeric_limits<int64_t>::max();
  for (int a = 0; a < cl.numDevices(); ++a) {
    minMemory = std::min(minMemory, cl.device(a).memCapacity);
    for (int b = 0; b < cl.numDevices(); ++b)
      if (a != b) bandwidth += cl.routeBandwidth(a, b), ++pairs;
  }
  bandwidth = pairs > 0 ? std::max(bandwidth / pairs, 1.0) : 1e12;
  const double memory = static_cast<double>(std::max<int64_t>(minMemory, 1));
  f.numDevices = cl.numDevices();
  f.opTime.resize(static_cast<size_t>(n));
  f.opParamBytes.resize(static_cast<size_t>(n));
  f.deviceMemory.assign(kMaxDevices, 0.0);
  f.deviceX.assign(static_cast<size_t>(kMaxDevices) * kDeviceFeatures, 0.0f);
  double fastest = 0;
  for (int d = 0; d < cl.numDevices(); ++d) fastest = std::max(fastest, cl.device(d).peakFlops(DType::F32));
  for (int d = 0; d < std::min(cl.numDevices(), kMaxDevices); ++d) {
    f.deviceMemory[d] = static_cast<double>(cl.device(d).memCapacity);
    float* dx = f.deviceX.data() + static_cast<size_t>(d) * kDeviceFeatures;
    dx[0] = 1;
    dx[3] = fastest > 0 ? static_cast<float>(cl.device(d).peakFlops(DType::F32) / fastest) : 1.0f;
  }

  for (OpId op = 0; op < n; ++op) {
    float* row = f.x.data() + static_cast<size_t>(op) * kNumColumns;
    f.opType[op] = typeBucket[static_cast<size_t>(g.opTypeId(op))];
    for (OpId p : g.fanIn(op)) {
      f.edgeSrc.push_back(p);
      f.edgeDst.push_back(op);
      f.edgeBytes.push_back(static_cast<float>(g.bytesWritten(p)));
    }
    row[kFlops] = logScaled(g.flops(op), 30.0);                               // 1e13 FLOPs -> 1
    row[kBytesRead] = logScaled(static_cast<double>(g.bytesRead(op)), 23.0);  // 1e10 B -> 1
    row[kBytesWritten] = logScaled(static_cast<double>(g.bytesWritten(op)), 23.0);
    row[kParamBytes] = logScaled(static_cast<double>(g.paramBytes(op)), 23.0);
    row[kOpTime] = logScaled(cost.fastestOpTime(op) * 1e6, 14.0);  // in us; 1 s -> ~1
    row[kFanIn] = logScaled(static_cast<double>(g.fanIn(op).size()), 4.0);
    row[kFanOut] = logScaled(static_cast<double>(g.fanOut(op).size()), 4.0);
    row[kDepth] = maxDepth > 0 ? static_cast<float>(depth[op]) / static_cast<float>(maxDepth) : 0.0f;

    // Output shape summary: rank of the first output with a known shape (-0.25 when none is
    // known: unknown is not "scalar"), log1p of the elements of all shaped outputs.
    int rank = -1;
    double elements = 0;
    for (TensorId t : g.outputs(op)) {
      if (!g.hasShape(t)) continue;
      const auto shape = g.shape(t);
      if (rank < 0) rank = static_cast<int>(shape.size());
      double e = 1;
      for (int64_t d : shape) e *= static_cast<double>(std::max<int64_t>(d, 0));
      elements += e;
    }
    row[kOutputRank] = rank < 0 ? -0.25f : static_cast<float>(std::min(rank, 8)) / 4.0f;
    row[kOutputElements] = logScaled(elements, 20.0);
    switch (g.role(op)) {
      case OpRole::Forward:
        row[kRoleForward] = 1;
        break;
      case OpRole::Backward:
        row[kRoleBackward] = 1;
        break;
      case OpRole::Update:
        row[kRoleUpdate] = 1;
        break;
    }
    row[kColocated] = g.colocGroup(op) == kNone ? 0.0f : 1.0f;
    row[kTimeShare] = logScaled(cost.fastestOpTime(op) / meanOpTime, 5.0);  // 150x the mean -> 1
    row[kCommRatio] = logScaled(static_cast<double>(g.bytesWritten(op)) / bandwidth / meanOpTime, 5.0);
    row[kMemShare] = logScaled(1e4 * static_cast<double>(g.paramBytes(op) + g.bytesWritten(op)) / memory, 9.0);
    const double r = rankOf[op];
    row[kTopoRank] = n > 1 ? static_cast<float>(r / (n - 1)) : 0.0f;
    for (int k = 0; k < kPositionPeriods; ++k) {
      const double angle = 2 * std::numbers::pi * r / (8.0 * std::pow(4.0, k));
      row[kPosition + 2 * k] = static_cast<float>(std::sin(angle));
      row[kPosition + 2 * k + 1] = static_cast<float>(std::cos(angle));
    }
    f.opTime[op] = cost.fastestOpTime(op);
    f.opParamBytes[op] = g.paramBytes(op);
  }
  setCurrentDevices(f, current != nullptr ? current->device : std::vector<int32_t>{});
  return f;
}

void setCurrentDevices(GraphFeatures& f, const std::vector<int32_t>& opDevice) {
  const bool have = !opDevice.empty();
  if (have && static_cast<int32_t>(opDevice.size()) != f.numOps)
    throw Error("setCurrentDevices", std::to_string(opDevice.size()) + " devices for " + std::to_string(f.numOps) +
                                         " ops");
  std::vector<double> load(kMaxDevices, 0.0), params(kMaxDevices, 0.0);
  double total = 0;
  for (int32_t op = 0; op < f.numOps && have; ++op) {
    const int32_t d = opDevice[op];
    if (d < 0 || d >= kMaxDevices) continue;
    load[d] += f.opTime[op];
    params[d] += static_cast<double>(f.opParamBytes[op]);
    total += f.opTime[op];
  }
  const int32_t nd = std::min(f.numDevices, kMaxDevices);
  const double meanLoad = nd > 0 && total > 0 ? total / nd : 1.0;
  std::vector<float> share(kMaxDevices, 0.0f);
  for (int32_t d = 0; d < nd; ++d) {
    float* dx = f.deviceX.data() + static_cast<size_t>(d) * kDeviceFeatures;
    share[d] = static_cast<float>(load[d] / meanLoad);
    dx[1] = std::min(share[d], 16.0f) / 4.0f;
    dx[2] = static_cast<float>(std::min(4.0, params[d] / std::max(f.deviceMemory[d], 1.0)));
  }
  for (int32_t op = 0; op < f.numOps; ++op) {
    float* row = f.x.data() + static_cast<size_t>(op) * kNumColumns;
    std::fill(row + kCurrentDevice, row + kCurrentDevice + kMaxDevices, 0.0f);
    row[kDeviceLoad] = 0;
    if (!have) continue;
    const int32_t d = opDevice[op];
    if (d < 0 || d >= kMaxDevices) continue;
    row[kCurrentDevice + d] = 1;
    row[kDeviceLoad] = std::min(share[d], 16.0f) / 4.0f;
  }
}

int32_t currentDeviceColumn() { return kCurrentDevice; }

Plan planFromUnits(const GraphFeatures& f, const std::vector<int32_t>& unitDevice) {
  if (static_cast<int32_t>(unitDevice.size()) != f.numUnits)
    throw Error("planFromUnits",
                std::to_string(unitDevice.size()) + " devices for " + std::to_string(f.numUnits) + " placement units");
  Plan plan;
  plan.device.resize(static_cast<size_t>(f.numOps));
  for (int32_t op = 0; op < f.numOps; ++op) plan.device[static_cast<size_t>(op)] = unitDevice[f.unitOf[op]];
  return plan;
}

}  // namespace gp::rl

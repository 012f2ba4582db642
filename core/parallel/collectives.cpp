#include "parallel/collectives.h"

#include <algorithm>
#include <map>

#include "parallel/nccl_rings.h"

namespace gp {

namespace {

// Zeroed per-channel tables, reused by the ChannelLoads of this thread.
std::vector<std::vector<double>>& tablePool() {
  thread_local std::vector<std::vector<double>> pool;
  return pool;
}

}  // namespace

ChannelLoad::ChannelLoad(const Cluster& c) : c_(&c) {
  auto& pool = tablePool();
  if (!pool.empty()) {
    bytes_ = std::move(pool.back());
    pool.pop_back();
  }
  if (bytes_.size() < static_cast<size_t>(c.numChannels())) bytes_.assign(static_cast<size_t>(c.numChannels()), 0.0);
}

ChannelLoad::~ChannelLoad() {
  clear();
  tablePool().push_back(std::move(bytes_));
}

void ChannelLoad::send(int from, int to, double bytes) {
  if (from == to || bytes <= 0) return;
  for (int ch : c_->route(from, to)) {
    if (bytes_[static_cast<size_t>(ch)] == 0) used_.push_back(ch);
    bytes_[static_cast<size_t>(ch)] += bytes;
  }
  latency_ = std::max(latency_, c_->routeLatency(from, to));
}

double ChannelLoad::busyTime() const {
  double t = 0;
  for (int ch : used_) t = std::max(t, bytes_[static_cast<size_t>(ch)] / c_->channel(ch).bandwidth);
  return t;
}

void ChannelLoad::clear() {
  for (int ch : used_) bytes_[static_cast<size_t>(ch)] = 0;
  used_.clear();
  latency_ = 0;
}

namespace {

// Trees reach this share of the bandwidth rings reach over the same links: NCCL's tuning model
// (src/graph/tuning.cc, ncclTopoTuneModel) prices its trees at 0.9 of the ring's bus bandwidth.
constexpr double kTreeBandwidthShare = 0.9;

// Per-edge volume factor and step count of a ring collective over n ranks.
void ringShape(Collective kind, int n, double& factor, int& steps) {
  const double nn = n;
  switch (kind) {
    case Collective::AllReduce: factor = 2 * (nn - 1) / nn, steps = 2 * (n - 1); break;
    case Collective::ReduceScatter:
    case Collective::AllGather: factor = (nn - 1) / nn, steps = n - 1; break;
    case Collective::AllToAll: factor = 1 / nn, steps = 1; break;
  }
}

// One phase: every group runs `kind` flat over its members, all groups at once.
double flatPhase(const Cluster& c, ChannelLoad& load, Collective kind, std::span<const std::vector<int>> groups, double bytes,
                 std::span<const int> serverOf) {
  const int n = groups.empty() ? 0 : static_cast<int>(groups[0].size());
  if (n < 2 || bytes <= 0) return 0;
  double factor = 0;
  int steps = 0;
  ringShape(kind, n, factor, steps);
  for (const std::vector<int>& g : groups) {
    if (kind == Collective::AllToAll) {
      for (int a : g)
        for (int b : g) load.send(a, b, factor * bytes);
    } else if (!mayPackRings(c, g, serverOf)) {
      for (size_t i = 0; i < g.size(); ++i) load.send(g[i], g[(i + 1) % g.size()], factor * bytes);
    } else {
      const RingSet& rings = ringsOver(c, g, serverOf);
      for (size_t r = 0; r < rings.orders.size(); ++r) {
        const std::vector<int>& o = rings.orders[r];
        for (size_t i = 0; i < o.size(); ++i) load.send(o[i], o[(i + 1) % o.size()], factor * bytes * rings.shares[r]);
      }
    }
  }
  return load.busyTime() + steps * load.maxLatency();
}

// The binary tree over positions 0..n-1 (heap order) and its mirror, NCCL's double binary tree:
// a rank interior in one is a leaf in the other. Each tree reduces half the bytes towards its
// root and broadcasts the sum back, so every tree edge carries S/2 each way; the two trees
// pipeline their chunks over 2 log2(n) steps (reduce up, broadcast down).
double treeAllReducePhase(ChannelLoad& load, std::span<const std::vector<int>> groups, double bytes) {
  const int n = groups.empty() ? 0 : static_cast<int>(groups[0].size());
  if (n < 2 || bytes <= 0) return 0;
  for (const std::vector<int>& g : groups)
    for (int mirror = 0; mirror < 2; ++mirror)
      for (int i = 1; i < n; ++i) {
        const int parent = (i - 1) / 2;
        const int a = mirror ? g[static_cast<size_t>(n - 1 - i)] : g[static_cast<size_t>(i)];
        const int b = mirror ? g[static_cast<size_t>(n - 1 - parent)] : g[static_cast<size_t>(parent)];
        load.send(a, b, bytes / 2);
        load.send(b, a, bytes / 2);
      }
  int depth = 0;
  while ((1 << depth) < n + 1) ++depth;  // levels of a heap of n
  return load.busyTime() / kTreeBandwidthShare + 2 * (depth - 1) * load.maxLatency();
}

}  // namespace

void addChannels(std::vector<int>& into, const std::vector<int>& from, int numChannels) {
  thread_local std::vector<char> held;  // all 0 between calls
  if (held.size() < static_cast<size_t>(numChannels)) held.assign(static_cast<size_t>(numChannels), 0);
  for (int ch : into) held[static_cast<size_t>(ch)] = 1;
  for (int ch : from)
    if (!held[static_cast<size_t>(ch)]) held[static_cast<size_t>(ch)] = 1, into.push_back(ch);
  for (int ch : into) held[static_cast<size_t>(ch)] = 0;
}

CollectiveCost collectiveCost(const Cluster& c, Collective kind, std::span<const std::vector<int>> groups, double bytes,
                              std::span<const int> serverOf) {
  CollectiveCost flat;
  if (groups.empty() || groups[0].size() < 2 || bytes <= 0) return flat;
  ChannelLoad load(c);
  flat.time = flatPhase(c, load, kind, groups, bytes, serverOf);
  flat.channels = load.channels();
  if (kind == Collective::AllToAll) return flat;

  // Hierarchical: members per server, equal on every server and above one, several servers.
  // Intra-server parts and inter-server rings go into per-thread pools whose vectors keep their
  // capacity: the searches cost thousands of collectives over thousands of groups.
  thread_local std::vector<std::vector<int>> intraPool, interPool;
  thread_local std::vector<std::pair<int, int>> byServer;  // (server, position in the group)
  size_t nIntra = 0, nInter = 0;
  auto slot = [](std::vector<std::vector<int>>& pool, size_t& n) -> std::vector<int>& {
    if (pool.size() <= n) pool.emplace_back();
    std::vector<int>& v = pool[n++];
    v.clear();
    return v;
  };
  size_t g = 0;
  for (const std::vector<int>& grp : groups) {
    byServer.clear();
    for (size_t i = 0; i < grp.size(); ++i) byServer.emplace_back(serverOf[static_cast<size_t>(grp[i])], static_cast<int>(i));
    std::sort(byServer.begin(), byServer.end());  // by server, members in group order
    const size_t firstPart = nIntra;
    for (size_t i = 0; i < byServer.size();) {
      size_t j = i;
      while (j < byServer.size() && byServer[j].first == byServer[i].first) ++j;
      if (g == 0) g = j - i;
      if (j - i != g) return flat;
      std::vector<int>& m = slot(intraPool, nIntra);
      for (size_t k = i; k < j; ++k) m.push_back(grp[static_cast<size_t>(byServer[k].second)]);
      i = j;
    }
    if (nIntra - firstPart < 2 || g < 2) return flat;
    for (size_t local = 0; local < g; ++local) {
      std::vector<int>& ring = slot(interPool, nInter);
      for (size_t p = firstPart; p < nIntra; ++p) ring.push_back(intraPool[p][local]);
    }
  }
  const std::span<const std::vector<int>> intra(intraPool.data(), nIntra), inter(interPool.data(), nInter);
  CollectiveCost hier;
  hier.hierarchical = true;
  const double shard = bytes / static_cast<double>(g);
  std::vector<int> intraChannels;  // the phases inside the servers, which a tree keeps
  auto phase = [&](Collective k, std::span<const std::vector<int>> gs, double b, bool inside) {
    load.clear();
    hier.time += flatPhase(c, load, k, gs, b, serverOf);
    addChannels(hier.channels, load.channels(), c.numChannels());
    if (inside) addChannels(intraChannels, load.channels(), c.numChannels());
  };
  if (kind != Collective::AllGather) phase(Collective::ReduceScatter, intra, bytes, true);
  const double beforeInter = hier.time;
  phase(kind, inter, shard, false);
  const double afterInter = hier.time;
  if (kind != Collective::ReduceScatter) phase(Collective::AllGather, intra, bytes, true);
  CollectiveCost best = hier.time < flat.time ? hier : flat;
  // All-reduce across servers may run as double binary trees in place of the rings between them.
  if (kind == Collective::AllReduce && inter[0].size() > 2) {
    CollectiveCost tree;
    tree.hierarchical = tree.tree = true;
    tree.time = beforeInter + (hier.time - afterInter);  // the same phases inside each server
    tree.channels = std::move(intraChannels);
    load.clear();
    tree.time += treeAllReducePhase(load, inter, shard);
    addChannels(tree.channels, load.channels(), c.numChannels());
    if (tree.time < best.time) best = std::move(tree);
  }
  return best;
}

CollectiveCost pointToPointCost(const Cluster& c, std::span<const int> from, std::span<const int> to, double bytes) {
  CollectiveCost out;
  ChannelLoad load(c);
  for (size_t i = 0; i < from.size() && i < to.size(); ++i) load.send(from[i], to[i], bytes);
  out.time = load.busyTime() + load.maxLatency();
  out.channels = load.channels();
  return out;
}

}  // namespace gp

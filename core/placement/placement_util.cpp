#include "placement/placement_util.h"

#include <algorithm>
#include <cctype>
#include <numeric>

#include "graph/graph_builder.h"

namespace gp::placement {

Context::Context(const CostModel& cm, Simulator& s)
    : cost(cm), g(cm.graph()), c(cm.cluster()), sim(s), n(cm.cluster().numDevices()) {
  const int32_t numOps = g.numOps();
  avgTime.resize(numOps);
  mem.resize(numOps);
  topoPos.resize(numOps);
  for (int32_t i = 0; i < numOps; ++i) topoPos[g.topoOrder()[i]] = i;
  for (OpId op = 0; op < numOps; ++op) {
    double t = 0;
    for (int d = 0; d < n; ++d) t += cost.opTime(op, d);
    avgTime[op] = n ? t / n : 0;
    int64_t bytes = g.paramBytes(op);
    for (TensorId out : g.outputs(op)) bytes = saturatingAdd(bytes, g.tensorBytes(out));
    mem[op] = bytes;
  }

  // 1. Units: one per colocation group, one per free op; numbered in topological order.
  Units& u = units;
  u.unitOf.assign(numOps, -1);
  std::vector<int32_t> unitOfGroup(g.colocGroupNames().size(), -1);
  for (OpId op : g.topoOrder()) {
    int32_t grp = g.colocGroup(op);
    int32_t& slot = grp != kNone ? unitOfGroup[grp] : u.unitOf[op];
    if (slot < 0) {
      slot = static_cast<int32_t>(u.pinned.size());
      u.pinned.push_back(-1);
      u.order.push_back(slot);
    }
    u.unitOf[op] = slot;
  }
  const int32_t numUnits = u.size();
  u.time.assign(numUnits, 0);
  u.mem.assign(numUnits, 0);
  u.off.assign(numUnits + 1, 0);
  for (OpId op = 0; op < numOps; ++op) ++u.off[u.unitOf[op] + 1];
  std::partial_sum(u.off.begin(), u.off.end(), u.off.begin());
  u.ops.resize(numOps);
  std::vector<int32_t> fill(u.off.begin(), u.off.end() - 1);
  for (OpId op : g.topoOrder()) {
    int32_t un = u.unitOf[op];
    u.ops[fill[un]++] = op;
    u.time[un] += avgTime[op];
    u.mem[un] = saturatingAdd(u.mem[un], mem[op]);
    // 2. A unit is pinned to the first device one of its ops requests that the cluster has.
    if (u.pinned[un] < 0 && !g.requestedDevice(op).empty()) u.pinned[un] = resolveDevice(c, g.requestedDevice(op));
  }

  // 3. Families: union the unit of every derived op with the unit of its forward op.
  std::vector<int32_t> root(numUnits);
  std::iota(root.begin(), root.end(), 0);
  auto find = [&](int32_t x) {
    while (root[x] != x) x = root[x] = root[root[x]];
    return x;
  };
  for (OpId op = 0; op < numOps; ++op)
    if (g.forwardOf(op) != kNone) {
      int32_t a = find(u.unitOf[op]), b = find(u.unitOf[g.forwardOf(op)]);
      if (a != b) root[std::max(a, b)] = std::min(a, b);  // the root is the earliest unit
    }
  std::vector<int32_t> famIndex(numUnits, -1);
  std::vector<int32_t> famOf(numUnits);
  int32_t numFams = 0;
  for (int32_t un : u.order) {
    int32_t r = find(un);
    if (famIndex[r] < 0) famIndex[r] = numFams++;
    famOf[un] = famIndex[r];
  }
  u.famOff.assign(numFams + 1, 0);
  for (int32_t un = 0; un < numUnits; ++un) ++u.famOff[famOf[un] + 1];
  std::partial_sum(u.famOff.begin(), u.famOff.end(), u.famOff.begin());
  u.famUnits.resize(numUnits);
  std::vector<int32_t> famFill(u.famOff.begin(), u.famOff.end() - 1);
  for (int32_t un : u.order) u.famUnits[famFill[famOf[un]]++] = un;
}

int Context::largestDevice() const {
  int best = 0;
  for (int d = 1; d < n; ++d)
    if (capacity(d) > capacity(best)) best = d;
  return best;
}

int resolveDevice(const Cluster& c, const std::string& requested) {
  int d = c.findDevice(requested);
  if (d >= 0) return d;
  // "/job:x/replica:0/task:0/device:GPU:1" and "gpu:1" -> "gpu1"
  std::string s = requested;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (size_t p = s.rfind("device:"); p != std::string::npos) s = s.substr(p + 7);
  std::erase(s, ':');
  if (s.starts_with('/')) s.erase(0, 1);
  return s.empty() ? -1 : c.findDevice(s);
}

void enforceUnits(const Context& ctx, Plan& plan) {
  const Units& u = ctx.units;
  for (int32_t un = 0; un < u.size(); ++un) {
    int32_t first = u.ops[u.off[un]];
    int32_t d = u.pinned[un] >= 0 ? u.pinned[un] : std::clamp(plan.device[first], 0, ctx.n - 1);
    for (int32_t i = u.off[un]; i < u.off[un + 1]; ++i) plan.device[u.ops[i]] = d;
  }
}

bool repairMemory(const Context& ctx, Plan& plan, Measurement& m, std::string& note) {
  const Units& u = ctx.units;
  const int maxRounds = 8 * ctx.n + 16;
  int moves = 0;
  for (int round = 0; round < maxRounds; ++round) {
    ctx.sim.run(plan, m, /*recordTimeline=*/false);
    if (m.feasible) break;
    // 1. The most over-full device, and the device with the most room (the move target).
    int over = -1, target = -1;
    int64_t worst = 0, room = INT64_MIN;
    for (int d = 0; d < ctx.n; ++d) {
      int64_t excess = m.devices[d].peakMemory - m.devices[d].capacity;
      if (excess > worst) worst = excess, over = d;
    }
    if (over < 0) return false;  // infeasible for another reason (an invalid plan): nothing to repair
    for (int d = 0; d < ctx.n; ++d)
      if (d != over && m.devices[d].capacity - m.devices[d].peakMemory > room)
        room = m.devices[d].capacity - m.devices[d].peakMemory, target = d;
    if (target < 0) return false;
    // 2. Move unpinned units off it in topological order until their estimated bytes cover the
    //    excess: the estimate counts every output as kept, so the real peak drops by less and
    //    the loop goes round again if needed.
    int64_t moved = 0;
    for (int32_t f = 0; f + 1 < static_cast<int32_t>(u.famOff.size()) && moved <= worst; ++f)
      for (int32_t k = u.famOff[f]; k < u.famOff[f + 1]; ++k) {
        int32_t un = u.famUnits[k];
        if (u.pinned[un] >= 0 || plan.device[u.ops[u.off[un]]] != over) continue;
        for (int32_t i = u.off[un]; i < u.off[un + 1]; ++i) plan.device[u.ops[i]] = target;
        moved += u.mem[un];
      }
    if (moved == 0) return false;
    ++moves;
  }
  if (moves > 0 && m.feasible) note += (note.empty() ? "" : "; ") + std::string("memory repaired in ") + std::to_string(moves) + " moves";
  return m.feasible;
}

Plan memoryBalancedPlan(const Context& ctx) {
  const Units& u = ctx.units;
  Plan plan = Plan::singleDevice(ctx.g.numOps());
  int64_t total = 0, capTotal = 0;
  for (int32_t un = 0; un < u.size(); ++un) total = saturatingAdd(total, u.mem[un]);
  for (int d = 0; d < ctx.n; ++d) capTotal += ctx.capacity(d);
  std::vector<int64_t> used(ctx.n, 0);
  int d = 0;
  auto share = [&](int k) {  // each device takes a share of the estimate proportional to its capacity
    return static_cast<int64_t>(static_cast<double>(total) * static_cast<double>(ctx.capacity(k)) /
                                static_cast<double>(std::max<int64_t>(capTotal, 1)));
  };
  for (int32_t f = 0; f + 1 < static_cast<int32_t>(u.famOff.size()); ++f) {
    int64_t famMem = 0;
    for (int32_t k = u.famOff[f]; k < u.famOff[f + 1]; ++k) famMem += u.mem[u.famUnits[k]];
    while (d < ctx.n - 1 && used[d] + famMem / 2 > share(d)) ++d;
    for (int32_t k = u.famOff[f]; k < u.famOff[f + 1]; ++k) {
      int32_t un = u.famUnits[k];
      int dev = u.pinned[un] >= 0 ? u.pinned[un] : d;  // a family fills one device, pins aside
      used[dev] += u.mem[un];
      for (int32_t i = u.off[un]; i < u.off[un + 1]; ++i) plan.device[u.ops[i]] = dev;
    }
  }
  return plan;
}

}  // namespace gp::placement

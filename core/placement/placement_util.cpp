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
  u.params.assign(numUnits, 0);
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
    u.params[un] = saturatingAdd(u.params[un], g.paramBytes(op));
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

MemoryTracker::Timeline::Timeline(int32_t steps)
    : size_(std::max(steps, 1)),
      top_(4 * static_cast<size_t>(size_), 0),
      lazy_(4 * static_cast<size_t>(size_), 0) {}

void MemoryTracker::Timeline::add(int node, int32_t l, int32_t r, int32_t from, int64_t bytes) {
  if (r < from) return;
  if (l >= from) {
    top_[node] += bytes;
    lazy_[node] += bytes;
    return;
  }
  const int32_t mid = (l + r) / 2;
  add(2 * node, l, mid, from, bytes);
  add(2 * node + 1, mid + 1, r, from, bytes);
  top_[node] = std::max(top_[2 * node], top_[2 * node + 1]) + lazy_[node];
}

int64_t MemoryTracker::Timeline::max(int node, int32_t l, int32_t r, int32_t lo, int32_t hi) const {
  if (r < lo || l > hi) return INT64_MIN / 2;
  if (lo <= l && r <= hi) return top_[node];
  const int32_t mid = (l + r) / 2;
  return std::max(max(2 * node, l, mid, lo, hi), max(2 * node + 1, mid + 1, r, lo, hi)) + lazy_[node];
}

MemoryTracker::MemoryTracker(const Context& ctx)
    : ctx_(ctx),
      capacity_(ctx.n),
      mem_(ctx.n, Timeline(ctx.g.numOps() + 1)),
      stepOf_(ctx.g.numOps(), -1),
      lastUse_(static_cast<size_t>(ctx.g.numTensors()) * ctx.n, -1),
      remaining_(ctx.g.numTensors(), 0),
      home_(ctx.g.numTensors(), -1),
      charged_(ctx.units.size(), 0),
      seen_(ctx.g.numTensors(), 0) {
  for (int d = 0; d < ctx.n; ++d) capacity_[d] = ctx.capacity(d);
  for (OpId op = 0; op < ctx.g.numOps(); ++op)
    for (TensorId in : ctx.g.inputs(op)) ++remaining_[in];
}

int64_t MemoryTracker::used(int d) const { return mem_[d].max(step_, step_); }
int64_t MemoryTracker::peak(int d) const { return mem_[d].peak(); }

MemoryTracker::Need MemoryTracker::need(OpId op, int d) const {
  const Graph& g = ctx_.g;
  Need r;
  r.from = step_;
  const int32_t un = ctx_.units.unitOf[op];
  if (!charged_[un] && ctx_.units.params[un] > 0) r.total = r.early = ctx_.units.params[un], r.from = 0;
  ++stamp_;
  for (TensorId in : g.inputs(op)) {
    if (seen_[in] == stamp_ || lastUse_[at(in, d)] >= 0) continue;
    seen_[in] = stamp_;
    int32_t from = 0;  // graph inputs and parameters away from home: there from the start
    if (g.tensorKind(in) == TensorKind::Parameter) {
      if (home_[in] < 0 || home_[in] == d) continue;  // its home, or its owner is not placed yet
    } else if (g.tensorKind(in) == TensorKind::Activation) {
      const OpId p = g.producer(in);
      from = p != kNone && stepOf_[p] >= 0 ? stepOf_[p] : step_;
    }
    r.total = saturatingAdd(r.total, g.tensorBytes(in));
    if (from < step_) r.early = saturatingAdd(r.early, g.tensorBytes(in)), r.from = std::min(r.from, from);
  }
  for (TensorId out : g.outputs(op)) r.total = saturatingAdd(r.total, g.tensorBytes(out));
  return r;
}

int64_t MemoryTracker::overflow(OpId op, int d) const {
  const Need r = need(op, d);
  int64_t over = used(d) + r.total - capacity_[d];
  if (r.early > 0) over = std::max(over, mem_[d].max(r.from, step_) + r.early - capacity_[d]);
  return over;
}

int MemoryTracker::leastOverflow(OpId op) const {
  int best = 0;
  int64_t bestOver = overflow(op, 0);
  for (int d = 1; d < devices(); ++d)
    if (const int64_t over = overflow(op, d); over < bestOver) best = d, bestOver = over;
  return best;
}

void MemoryTracker::charge(TensorId t, int d, int32_t from) {
  lastUse_[at(t, d)] = step_;
  mem_[d].add(from, ctx_.g.tensorBytes(t));
}

void MemoryTracker::place(OpId op, int d) {
  const Graph& g = ctx_.g;
  stepOf_[op] = step_;
  const int32_t un = ctx_.units.unitOf[op];
  if (!charged_[un]) charged_[un] = 1, mem_[d].add(0, ctx_.units.params[un]);
  ++stamp_;
  for (TensorId in : g.inputs(op)) {
    if (seen_[in] == stamp_) continue;
    seen_[in] = stamp_;
    int32_t& last = lastUse_[at(in, d)];
    if (last >= 0) {  // already here: this read extends its life
      last = step_;
      continue;
    }
    int32_t from = 0;
    if (g.tensorKind(in) == TensorKind::Parameter) {
      if (home_[in] == d || (home_[in] < 0 && g.consumers(in)[0] != op)) continue;
      if (home_[in] < 0) {  // the owner: the parameter's bytes are among its resident bytes
        home_[in] = d;
        last = step_;
        continue;
      }
    } else if (g.tensorKind(in) == TensorKind::Activation) {
      const OpId p = g.producer(in);
      from = p != kNone && stepOf_[p] >= 0 ? stepOf_[p] : step_;
    }
    charge(in, d, from);
  }
  for (TensorId out : g.outputs(op)) home_[out] = d, charge(out, d, step_);
  // A tensor whose every reader is placed now: each copy is given back after its last use there
  // (a parameter stays home).
  for (TensorId in : g.inputs(op)) {
    if (--remaining_[in] != 0) continue;
    for (int k = 0; k < ctx_.n; ++k) {
      int32_t& last = lastUse_[at(in, k)];
      if (last < 0) continue;
      if (g.tensorKind(in) != TensorKind::Parameter || k != home_[in])
        mem_[k].add(last + 1, -g.tensorBytes(in));
      last = -1;
    }
  }
  ++step_;
}

std::vector<int64_t> estimatePeakMemory(const Context& ctx, const Plan& plan, std::span<const OpId> order) {
  const Graph& g = ctx.g;
  const int n = ctx.n;
  const auto at = [n](TensorId t, int d) { return static_cast<size_t>(t) * n + d; };
  std::vector<int64_t> now(n, 0), peak(n, 0);
  auto allocate = [&](int d, int64_t bytes) {
    now[d] = saturatingAdd(now[d], bytes);
    peak[d] = std::max(peak[d], now[d]);
  };
  // 1. Readers per (tensor, device), counting an op that reads a tensor twice once.
  std::vector<int32_t> uses(static_cast<size_t>(g.numTensors()) * n, 0), seen(g.numTensors(), -1);
  for (OpId op = 0; op < g.numOps(); ++op) {
    allocate(plan.device[op], g.paramBytes(op));  // resident from the start
    for (TensorId in : g.inputs(op))
      if (seen[in] != op) seen[in] = op, ++uses[at(in, plan.device[op])];
  }
  // 2. Homes; the home copy is also read by one transfer per other reading device. Graph inputs
  //    are fed to their readers at the start, parameters sent from home at the start.
  std::vector<int32_t> home(g.numTensors(), -1);
  for (TensorId t = 0; t < g.numTensors(); ++t) {
    const TensorKind kind = g.tensorKind(t);
    if (kind == TensorKind::Activation && g.producer(t) != kNone) home[t] = plan.device[g.producer(t)];
    if (kind == TensorKind::Parameter && !g.consumers(t).empty()) home[t] = plan.device[g.consumers(t)[0]];
    for (int k = 0; k < n; ++k) {
      if (k == home[t] || uses[at(t, k)] == 0) continue;
      if (kind != TensorKind::Activation) allocate(k, g.tensorBytes(t));  // there from the start
      else if (home[t] >= 0) ++uses[at(t, home[t])];                     // sent when produced
    }
  }
  auto release = [&](TensorId t, int d) {
    if (--uses[at(t, d)] == 0 && !(g.tensorKind(t) == TensorKind::Parameter && d == home[t]))
      now[d] -= g.tensorBytes(t);
  };
  // 3. The ops in order: outputs allocated, inputs released, outputs sent.
  std::fill(seen.begin(), seen.end(), -1);
  for (OpId op : order) {
    const int d = plan.device[op];
    for (TensorId out : g.outputs(op)) allocate(d, g.tensorBytes(out));
    for (TensorId in : g.inputs(op))
      if (seen[in] != op) seen[in] = op, release(in, d);
    for (TensorId out : g.outputs(op))
      for (int k = 0; k < n; ++k)
        if (k != d && uses[at(out, k)] > 0) allocate(k, g.tensorBytes(out)), release(out, d);
  }
  return peak;
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

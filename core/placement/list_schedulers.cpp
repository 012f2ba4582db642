// List-scheduling baselines: Baechi's m-ETF and m-SCT (Jeon et al., SoCC 2020) and HEFT
// (Topcuoglu et al. 2002). Each simulates its own schedule with the cost model (op times per
// device, transfer times along the cluster's routes), and hands the simulator the devices plus
// a priority per op from the schedule's start order. Memory-aware as Baechi's "m-" variants: a
// unit (colocation group) goes only on a device with room for its estimated bytes.
#include <algorithm>
#include <map>
#include <numeric>
#include <queue>
#include <unordered_map>

#include "placement/placement_util.h"

namespace gp::placement {
namespace {

class Schedule {
 public:
  explicit Schedule(const Context& c)
      : ctx(c), dev(c.g.numOps(), -1), start(c.g.numOps(), 0), finish(c.g.numOps(), 0),
        unitDev(c.units.pinned), counted(c.units.size(), 0), used(c.n, 0) {}

  int32_t unit(OpId op) const { return ctx.units.unitOf[op]; }
  // The op's unit is on d already, or is free (no pin, no op placed yet).
  bool allowed(OpId op, int d) const { return unitDev[unit(op)] < 0 || unitDev[unit(op)] == d; }
  bool fits(OpId op, int d) const {
    return counted[unit(op)] || used[d] + ctx.units.mem[unit(op)] <= ctx.capacity(d);
  }
  bool usable(OpId op, int d) const { return allowed(op, d) && fits(op, d); }
  // Where an op goes when no device has room: its unit's device, else the one with most room.
  int fallbackDevice(OpId op) const {
    if (unitDev[unit(op)] >= 0) return unitDev[unit(op)];
    int best = 0;
    for (int d = 1; d < ctx.n; ++d)
      if (ctx.capacity(d) - used[d] > ctx.capacity(best) - used[best]) best = d;
    return best;
  }
  // When all its inputs could be on d: producer finish, or the arrival of a transfer along the
  // route that waits for the route's channels as the simulator does (one transfer per channel
  // direction at a time); a tensor already sent to d is not sent again.
  double dataReady(OpId op, int d) const { return inputsReady(op, d, false); }
  void place(OpId op, int d, double at) {
    const double ready = inputsReady(op, d, true);  // commits the transfers this placement needs
    dev[op] = d;
    start[op] = std::max(at, ready);
    finish[op] = start[op] + ctx.cost.opTime(op, d);
    int32_t u = unit(op);
    unitDev[u] = d;
    if (!counted[u]) counted[u] = 1, used[d] += ctx.units.mem[u];
  }
  // Devices, and priorities that make each device run its ops in the schedule's order.
  Plan plan() const {
    const int32_t n = ctx.g.numOps();
    Plan p{dev, std::vector<int32_t>(n), {}};
    std::vector<int32_t> byStart(n);
    std::iota(byStart.begin(), byStart.end(), 0);
    std::sort(byStart.begin(), byStart.end(), [&](OpId a, OpId b) {
      return start[a] != start[b] ? start[a] < start[b] : ctx.topoPos[a] < ctx.topoPos[b];
    });
    for (int32_t i = 0; i < n; ++i) p.priority[byStart[i]] = n - i;
    return p;
  }

  // When every input of op could be on d. Activations come from their producer's device after
  // it finishes; parameters live with their owner (first reader) and are sent from there at
  // time 0, as the simulator does. With `commit`, the transfers are reserved.
  double inputsReady(OpId op, int d, bool commit) const {
    double t = 0;
    for (TensorId in : ctx.g.inputs(op)) {
      const OpId p = ctx.g.producer(in);
      if (p != kNone) {
        t = std::max(t, dev[p] == d ? finish[p] : arrival(in, dev[p], finish[p], d, commit));
      } else if (ctx.g.tensorKind(in) == TensorKind::Parameter) {
        const OpId owner = ctx.g.consumers(in)[0];
        if (owner != op && dev[owner] >= 0 && dev[owner] != d) t = std::max(t, arrival(in, dev[owner], 0, d, commit));
      }
    }
    return t;
  }
  // Arrival on d of tensor t sent from `src` once it exists (`from`); a tensor is sent to a
  // device once; a transfer waits for every channel of its route (one transfer per direction).
  double arrival(TensorId t, int src, double from, int d, bool commit) const {
    const int64_t key = static_cast<int64_t>(t) * ctx.n + d;
    if (auto it = sent.find(key); it != sent.end()) return it->second;
    auto route = ctx.c.route(src, d);
    double begin = from;
    for (int ch : route) begin = std::max(begin, channelFree[ch]);
    const double end = begin + ctx.cost.transferTime(ctx.g.tensorBytes(t), src, d);
    if (commit) {
      for (int ch : route) channelFree[ch] = end;
      sent.emplace(key, end);
    }
    return end;
  }

  const Context& ctx;
  mutable std::vector<double> channelFree = std::vector<double>(static_cast<size_t>(ctx.c.numChannels()), 0.0);
  mutable std::unordered_map<int64_t, double> sent;
  std::vector<int32_t> dev;
  std::vector<double> start, finish;
  std::vector<int32_t> unitDev;
  std::vector<uint8_t> counted;
  std::vector<int64_t> used;
};

// Bytes op p sends to each consumer, for `visit(consumer, bytes)`.
template <class F>
void forEachChild(const Graph& g, OpId p, std::vector<int64_t>& acc, F visit) {
  for (OpId c : g.fanOut(p)) acc[c] = 0;
  for (TensorId t : g.outputs(p))
    for (OpId c : g.consumers(t)) acc[c] += g.tensorBytes(t);
  for (OpId c : g.fanOut(p)) visit(c, acc[c]);
}

// ETF (Hwang et al. 1989): repeatedly start the (ready op, device) pair that can start
// earliest, ties to the op with the longest path to the end. With `sct`, Baechi's m-SCT: an
// op's favourite child (the one it sends the most bytes to) is only offered to the parent's
// device, so the heaviest edge of every op is never cut. Baechi picks favourite children by
// solving the SCT linear program; this uses its favourite-child rule with the byte heuristic.
Plan earliestTaskFirst(const Context& ctx, bool sct, std::string& note) {
  const Graph& g = ctx.g;
  const int32_t numOps = g.numOps();
  Schedule s(ctx);
  std::vector<double> level(numOps, 0);  // static b-level at average op times
  for (auto it = g.topoOrder().rbegin(); it != g.topoOrder().rend(); ++it) {
    double tail = 0;
    for (OpId c : g.fanOut(*it)) tail = std::max(tail, level[c]);
    level[*it] = ctx.avgTime[*it] + tail;
  }
  std::vector<OpId> favParent(numOps, kNone);
  if (sct) {
    std::vector<int64_t> acc(numOps, 0), favBytes(numOps, -1);
    for (OpId p = 0; p < numOps; ++p) {
      OpId fav = kNone;
      int64_t most = -1;
      forEachChild(g, p, acc, [&](OpId c, int64_t bytes) {
        if (bytes > most) most = bytes, fav = c;
      });
      if (fav != kNone && most > favBytes[fav]) favBytes[fav] = most, favParent[fav] = p;
    }
    note = "SCT linear program replaced by Baechi's favourite-child rule (heaviest out-edge)";
  }

  struct Entry {
    double ready;
    double level;
    OpId op;
    bool forced;  // no device had room: ignore memory for this op
    bool operator<(const Entry& o) const {  // priority_queue top = earliest, then longest level
      if (ready != o.ready) return ready > o.ready;
      if (level != o.level) return level < o.level;
      return op > o.op;
    }
  };
  std::vector<std::priority_queue<Entry>> heaps(ctx.n);
  std::vector<int32_t> live(numOps, 0), pending(numOps);
  std::vector<std::pair<int, Entry>> deferred;
  auto pushForced = [&](OpId op, std::vector<std::pair<int, Entry>>& out) {
    int d = s.fallbackDevice(op);
    out.push_back({d, Entry{s.dataReady(op, d), level[op], op, true}});
  };
  auto offer = [&](OpId op) {
    // 1. m-SCT: a favourite child goes where its favourite parent is, if there is room.
    if (sct && favParent[op] != kNone) {
      int d = s.dev[favParent[op]];
      if (s.usable(op, d)) {
        heaps[d].push({s.dataReady(op, d), level[op], op, false}), live[op] = 1;
        return;
      }
    }
    // 2. Every device the op's unit may use and has room on.
    for (int d = 0; d < ctx.n; ++d)
      if (s.usable(op, d)) heaps[d].push({s.dataReady(op, d), level[op], op, false}), ++live[op];
    if (live[op] == 0) {
      pushForced(op, deferred);
      heaps[deferred.back().first].push(deferred.back().second), live[op] = 1, deferred.pop_back();
    }
  };
  for (OpId op = 0; op < numOps; ++op) {
    pending[op] = static_cast<int32_t>(g.fanIn(op).size());
    if (pending[op] == 0) offer(op);
  }
  std::vector<double> freeAt(ctx.n, 0);
  for (int32_t done = 0; done < numOps;) {
    // 3. The device whose best valid entry starts earliest. Entries go stale when their op was
    //    placed elsewhere, its unit got a device, or the device filled up; an op whose last
    //    entry goes stale is offered again, ignoring memory.
    int best = -1;
    double bestStart = 0, bestLevel = 0;
    for (int d = 0; d < ctx.n; ++d) {
      auto& h = heaps[d];
      while (!h.empty()) {
        const Entry e = h.top();
        if (s.dev[e.op] >= 0) { h.pop(); continue; }
        if (e.forced ? s.allowed(e.op, d) : s.usable(e.op, d)) break;
        h.pop();
        if (--live[e.op] == 0) pushForced(e.op, deferred);
      }
      if (h.empty()) continue;
      double st = std::max(freeAt[d], h.top().ready);
      if (best < 0 || st < bestStart || (st == bestStart && h.top().level > bestLevel))
        best = d, bestStart = st, bestLevel = h.top().level;
    }
    if (best >= 0) {
      OpId op = heaps[best].top().op;
      heaps[best].pop();
      s.place(op, best, bestStart);
      freeAt[best] = s.finish[op];
      ++done;
      for (OpId c : g.fanOut(op))
        if (--pending[c] == 0) offer(c);
    } else if (deferred.empty()) {
      break;  // cannot happen on a DAG; the remaining ops keep device 0 below
    }
    for (auto& [d, e] : deferred) heaps[d].push(e), live[e.op] = 1;
    deferred.clear();
  }
  for (OpId op = 0; op < numOps; ++op)
    if (s.dev[op] < 0) s.dev[op] = 0;
  return s.plan();
}

// The earliest start >= ready of a gap of length w in a device's busy intervals (start -> end).
double earliestSlot(const std::map<double, double>& busy, double ready, double w) {
  double t = ready;
  auto it = busy.upper_bound(ready);
  if (it != busy.begin()) t = std::max(t, std::prev(it)->second);
  for (int scanned = 0; it != busy.end(); ++it, ++scanned) {
    if (it->first - t >= w) return t;
    if (scanned > 256) return std::max(ready, busy.rbegin()->second);  // bound the search: append
    t = std::max(t, it->second);
  }
  return t;
}

}  // namespace

Plan placeEtf(const Context& ctx, std::string& note) { return earliestTaskFirst(ctx, false, note); }
Plan placeSct(const Context& ctx, std::string& note) { return earliestTaskFirst(ctx, true, note); }

// HEFT: ops by decreasing upward rank (average op time + average transfer time + the heaviest
// successor's rank), each on the device where it finishes earliest, inserted into an idle gap
// of that device's schedule when one is long enough.
Plan placeHeft(const Context& ctx, std::string&) {
  const Graph& g = ctx.g;
  const int32_t numOps = g.numOps();
  Schedule s(ctx);
  // 1. Average transfer time of b bytes over all ordered device pairs: lat + b * invBw.
  double lat = 0, invBw = 0;
  for (int a = 0; a < ctx.n; ++a)
    for (int b = 0; b < ctx.n; ++b)
      if (a != b) lat += ctx.c.routeLatency(a, b), invBw += 1.0 / ctx.c.routeBandwidth(a, b);
  const double pairs = ctx.n > 1 ? ctx.n * (ctx.n - 1.0) : 1;
  lat /= pairs, invBw /= pairs;
  // 2. Upward ranks.
  std::vector<double> rank(numOps, 0);
  for (auto it = g.topoOrder().rbegin(); it != g.topoOrder().rend(); ++it) {
    double tail = 0;
    for (TensorId t : g.outputs(*it))
      for (OpId c : g.consumers(t))
        tail = std::max(tail, (ctx.n > 1 ? lat + static_cast<double>(g.tensorBytes(t)) * invBw : 0) + rank[c]);
    rank[*it] = ctx.avgTime[*it] + tail;
  }
  // 3. Ready ops by rank (a ready list keeps the order topological even when ranks tie).
  auto lower = [&](OpId a, OpId b) { return rank[a] != rank[b] ? rank[a] < rank[b] : ctx.topoPos[a] > ctx.topoPos[b]; };
  std::priority_queue<OpId, std::vector<OpId>, decltype(lower)> ready(lower);
  std::vector<int32_t> pending(numOps);
  for (OpId op = 0; op < numOps; ++op)
    if ((pending[op] = static_cast<int32_t>(g.fanIn(op).size())) == 0) ready.push(op);
  std::vector<std::map<double, double>> busy(ctx.n);
  while (!ready.empty()) {
    OpId op = ready.top();
    ready.pop();
    // 4. Earliest finish over the devices with room (or, if none has, the fallback device).
    bool any = false;
    for (int d = 0; d < ctx.n; ++d) any = any || s.usable(op, d);
    int best = -1;
    double bestStart = 0, bestFinish = 0;
    for (int d = 0; d < ctx.n; ++d) {
      if (any ? !s.usable(op, d) : d != s.fallbackDevice(op)) continue;
      double w = ctx.cost.opTime(op, d);
      double st = earliestSlot(busy[d], s.dataReady(op, d), w);
      if (best < 0 || st + w < bestFinish) best = d, bestStart = st, bestFinish = st + w;
    }
    s.place(op, best, bestStart);
    if (s.finish[op] > s.start[op]) busy[best][s.start[op]] = s.finish[op];
    for (OpId c : g.fanOut(op))
      if (--pending[c] == 0) ready.push(c);
  }
  return s.plan();
}

}  // namespace gp::placement

// List-scheduling baselines: Baechi's m-ETF and m-SCT (Jeon et al., SoCC 2020) and HEFT
// (Topcuoglu, Hariri and Wu, IEEE TPDS 2002). Each builds a schedule with the cost model (op
// time per device, transfers along the cluster's routes with the simulator's channel semantics,
// placement/schedule_state.h) and hands the simulator the devices plus a priority per op from
// the schedule's start order, as Baechi hands TensorFlow its schedule hints, so that each device
// runs its ops in the order the scheduler assumed and the predicted step time is the simulated
// one up to the ways the two differ (listed below).
//
// m-ETF (Hwang et al. 1989, memory-constrained as Baechi): repeatedly start the (ready op,
//   device) pair with the earliest start time = max(device free, inputs arrived on that device),
//   ties to the higher static level (longest path to the end at average op times), then
//   topological order. Only devices with room for the op's colocation group are candidates.
// m-SCT (Hanen and Munier's small-communication-time algorithm as Baechi runs it): ETF, plus
//   favourite children: a device whose last op's favourite child is ready and starts earliest
//   on it waits for that child rather than start another op first.
// HEFT: ops by decreasing upward rank (average op time + max over children of average transfer
//   time of the edge's bytes + the child's rank), each on the device where it finishes earliest,
//   inserted into the earliest idle gap of that device long enough for it (insertion policy).
//
// Deviations, and why:
// - Baechi picks m-SCT's favourite children by solving the SCT linear program (one favourite
//   child per op, one favourite parent per op, rounded at 0.5). Here each op's favourite child is
//   the child it sends the most bytes to, and a child with several such parents keeps the one that
//   sends it the most: the LP has edges + ops variables (~200k on GNMT) and is too slow for a
//   baseline that should take seconds.
// - Memory: as Baechi, each device's live memory is tracked as the schedule proceeds
//   (MemoryTracker: resident bytes, outputs from their op's placement, copies on the devices that
//   read them) and a device is a candidate for an op only if what the op allocates fits what is
//   free there. A copy is freed once every consumer of its tensor is placed, not at its last
//   reader on that device (later readers' devices are unknown): pessimistic for tensors read on
//   several devices. placer.cpp repairs or replaces plans the simulator finds over a device's
//   memory.
// - m-SCT's devices wait for a favourite child without Hanen and Munier's exception for urgent
//   ops (ready on every device): checking urgency costs a data-ready estimate per device per op
//   every time a device waits, which made m-SCT minutes long on the NMT graphs.
// - On very wide graphs an ETF entry's start is refreshed at most kMaxRefresh times (below), then
//   taken as it stands.
// - Ties in ETF go to the higher static level (Hwang et al.) where Baechi uses topological order.
// - The simulator is work-conserving: a device with nothing of higher priority ready runs the
//   next ready op at once. Where the schedule leaves a device idle on purpose (HEFT's insertion,
//   SCT waiting for a favourite child) the simulator may start a later op earlier.
#include "placement/list_schedulers.h"

#include <algorithm>
#include <queue>

#include "placement/schedule_state.h"

namespace gp::placement {
namespace {

// Bytes op p sends to each consumer, for `visit(consumer, bytes)`; `acc` is scratch (one per op).
template <class F>
void forEachChild(const Graph& g, OpId p, std::vector<int64_t>& acc, F visit) {
  for (OpId c : g.fanOut(p)) acc[c] = 0;
  for (TensorId t : g.outputs(p))
    for (OpId c : g.consumers(t)) acc[c] += g.tensorBytes(t);
  for (OpId c : g.fanOut(p)) visit(c, acc[c]);
}

ListSchedule toResult(const ScheduleState& s) {
  std::vector<int64_t> peak;
  for (int d = 0; d < static_cast<int>(s.memory().devices()); ++d) peak.push_back(s.memory().peak(d));
  return ListSchedule{s.plan(), s.start, s.finish, s.makespan(), std::move(peak)};
}

// Favourite child of every op (kNone if none): the child it sends the most bytes to, kept only
// if no other parent sends that child more.
std::vector<OpId> favouriteChildren(const Graph& g) {
  const int32_t numOps = g.numOps();
  std::vector<int64_t> acc(numOps, 0), favBytes(numOps, -1);
  std::vector<OpId> heaviest(numOps, kNone), favParent(numOps, kNone), fav(numOps, kNone);
  for (OpId p = 0; p < numOps; ++p) {
    int64_t most = 0;
    forEachChild(g, p, acc, [&](OpId c, int64_t bytes) {
      if (bytes > most) most = bytes, heaviest[p] = c;
    });
    if (heaviest[p] != kNone && most > favBytes[heaviest[p]]) favBytes[heaviest[p]] = most, favParent[heaviest[p]] = p;
  }
  for (OpId c = 0; c < numOps; ++c)
    if (favParent[c] != kNone) fav[favParent[c]] = c;
  return fav;
}

// Once the schedule has refreshed kRefreshBudget starts per op in all, an entry's start is
// brought up to date at most kMaxRefresh times; after that its last figure stands (the op still
// starts when its inputs are there). Every reservation may delay every device's data-ready
// times, and on wide graphs (thousands of ready ops on GNMT's backward pass) refreshing every
// entry after every placement took 4.7 million refreshes and 20 s on GNMT. Within the budget
// (the zoo's other models) the schedule is exact ETF.
constexpr int32_t kMaxRefresh = 16;
constexpr int64_t kRefreshBudget = 8;

class EtfScheduler {
 public:
  EtfScheduler(const Context& ctx, bool sct)
      : ctx_(ctx), g_(ctx.g), s_(ctx), level_(g_.numOps(), 0), live_(g_.numOps(), 0),
        pending_(g_.numOps()), freeAt_(ctx.n, 0), lastOp_(ctx.n, kNone),
        waitFor_(ctx.n, kNone), waitStart_(ctx.n, 0), waits_(ctx.n, 0) {
    for (auto it = g_.topoOrder().rbegin(); it != g_.topoOrder().rend(); ++it) {
      double tail = 0;
      for (OpId c : g_.fanOut(*it)) tail = std::max(tail, level_[c]);
      level_[*it] = ctx.avgTime[*it] + tail;
    }
    if (sct) fav_ = favouriteChildren(g_);
  }

  ListSchedule run() {
    for (OpId op = 0; op < g_.numOps(); ++op)
      if ((pending_[op] = static_cast<int32_t>(g_.fanIn(op).size())) == 0) offer(op);
    while (!heap_.empty()) {
      Entry e = heap_.top();
      heap_.pop();
      if (s_.placed(e.op)) continue;
      // 1. Start times only grow as devices and channels fill up: an entry whose start is
      //    still what it was when it was pushed is the true earliest, and so is one whose
      //    start, brought up to date, still comes before every other entry (each a lower
      //    bound); otherwise it goes back with its new start.
      const bool mayRefresh = e.refreshed < kMaxRefresh || refreshes_ < kRefreshBudget * g_.numOps();
      if (e.epoch != s_.epoch(e.d) && mayRefresh) {
        ++e.refreshed;
        ++refreshes_;
        e.ready = s_.dataReady(e.op, e.d);
        e.epoch = s_.epoch(e.d);
      }
      if (const double start = std::max(e.ready, freeAt_[e.d]); start > e.start) {
        e.start = start;
        if (!heap_.empty() && e > heap_.top()) {
          heap_.push(e);  // checked for room when it comes back on top
          continue;
        }
      }
      // 2. Entries go stale when the op's unit got another device or the device filled up; an
      //    op whose last entry goes stale is offered again on its fallback device.
      if (!(e.forced ? s_.allowed(e.op, e.d) : s_.usable(e.op, e.d))) {
        if (--live_[e.op] == 0) push(e.op, s_.fallbackDevice(e.op), true);
        continue;
      }
      // 3. m-SCT: a device waiting for its last op's favourite child runs nothing else first.
      //    An entry it pushed back keeps its later start (e.start >= start).
      if (!fav_.empty() && waitsForFavourite(e)) continue;
      place(e.op, e.d, e.start);
    }
    return toResult(s_);
  }

 private:
  struct Entry {
    double start;
    double level;
    int32_t topo;
    OpId op;
    int32_t d;
    double ready;    // data-ready time on d when pushed
    uint64_t epoch;  // s_.epoch(d) when `ready` was computed
    bool forced;     // no device had room: memory ignored
    int32_t refreshed = 0;  // times its start was brought up to date
    bool operator>(const Entry& o) const {  // the queue's top: earliest start, then highest level
      if (start != o.start) return start > o.start;
      if (level != o.level) return level < o.level;
      if (topo != o.topo) return topo > o.topo;
      return d > o.d;
    }
  };

  void push(OpId op, int d, bool forced) {
    const double ready = s_.dataReady(op, d);
    heap_.push({std::max(ready, freeAt_[d]), level_[op], ctx_.topoPos[op], op, d, ready, s_.epoch(d), forced});
    ++live_[op];
  }
  // A newly ready op: an entry per device with room for it, else one on its fallback device.
  void offer(OpId op) {
    for (int d = 0; d < ctx_.n; ++d)
      if (s_.usable(op, d)) push(op, d, false);
    if (live_[op] == 0) push(op, s_.fallbackDevice(op), true);
  }
  void place(OpId op, int d, double at) {
    s_.place(op, d, at);
    freeAt_[d] = s_.finish[op];
    lastOp_[d] = op;
    live_[op] = 0;
    for (OpId c : g_.fanOut(op))
      if (--pending_[c] == 0) offer(c);
  }
  double startOn(OpId op, int d) { return std::max(s_.dataReady(op, d), freeAt_[d]); }

  // True if entry e (starting at e.start) must not run because e.d waits for the favourite child
  // j of its last op (j is ready and starts earliest on e.d); then j is placed if it starts now,
  // else e is pushed back to j's start. The decision is made once per (device, child).
  bool waitsForFavourite(const Entry& e) {
    const OpId last = lastOp_[e.d];
    const OpId j = last != kNone ? fav_[last] : kNone;
    if (j == kNone || j == e.op || s_.placed(j) || pending_[j] != 0 || !s_.usable(j, e.d)) return false;
    if (waitFor_[e.d] != j) {
      waitFor_[e.d] = j;
      waitStart_[e.d] = startOn(j, e.d);
      waits_[e.d] = 1;
      for (int d = 0; d < ctx_.n && waits_[e.d]; ++d)
        if (d != e.d && s_.usable(j, d) && startOn(j, d) < waitStart_[e.d]) waits_[e.d] = 0;  // j is better off elsewhere
    }
    if (!waits_[e.d]) return false;
    if (waitStart_[e.d] > e.start) {
      heap_.push({waitStart_[e.d], e.level, e.topo, e.op, e.d, e.ready, e.epoch, e.forced});
      return true;
    }
    // j's start was a lower bound; every true start is at least the popped one.
    const double sj = startOn(j, e.d);
    if (sj <= e.start) place(j, e.d, sj);
    else waitStart_[e.d] = sj;
    heap_.push(e);
    return true;
  }

  const Context& ctx_;
  const Graph& g_;
  ScheduleState s_;
  std::vector<double> level_;
  std::vector<OpId> fav_;
  std::vector<int32_t> live_, pending_;
  std::vector<double> freeAt_;
  std::vector<OpId> lastOp_, waitFor_;
  std::vector<double> waitStart_;
  std::vector<uint8_t> waits_;
  int64_t refreshes_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
};

}  // namespace

ListSchedule scheduleEtf(const Context& ctx, bool sct, std::string& note) {
  if (sct) note = "SCT linear program replaced by a favourite-child rule (the child receiving the most bytes)";
  return EtfScheduler(ctx, sct).run();
}

ListSchedule scheduleHeft(const Context& ctx, std::string&) {
  const Graph& g = ctx.g;
  const int32_t numOps = g.numOps();
  ScheduleState s(ctx);
  // 1. Average transfer time of b bytes over all ordered device pairs: lat + b * invBw.
  double lat = 0, invBw = 0;
  for (int a = 0; a < ctx.n; ++a)
    for (int b = 0; b < ctx.n; ++b)
      if (a != b) lat += ctx.c.routeLatency(a, b), invBw += 1.0 / ctx.c.routeBandwidth(a, b);
  const double pairs = ctx.n > 1 ? ctx.n * (ctx.n - 1.0) : 1;
  lat /= pairs, invBw /= pairs;
  // 2. Upward ranks; an edge's data is every tensor the parent sends the child.
  std::vector<double> rank(numOps, 0);
  std::vector<int64_t> acc(numOps, 0);
  for (auto it = g.topoOrder().rbegin(); it != g.topoOrder().rend(); ++it) {
    double tail = 0;
    forEachChild(g, *it, acc, [&](OpId c, int64_t bytes) {
      tail = std::max(tail, (ctx.n > 1 ? lat + static_cast<double>(bytes) * invBw : 0) + rank[c]);
    });
    rank[*it] = ctx.avgTime[*it] + tail;
  }
  // 3. Ready ops by rank (a ready list keeps the order topological when ranks tie).
  auto lower = [&](OpId a, OpId b) { return rank[a] != rank[b] ? rank[a] < rank[b] : ctx.topoPos[a] > ctx.topoPos[b]; };
  std::priority_queue<OpId, std::vector<OpId>, decltype(lower)> ready(lower);
  std::vector<int32_t> pending(numOps);
  for (OpId op = 0; op < numOps; ++op)
    if ((pending[op] = static_cast<int32_t>(g.fanIn(op).size())) == 0) ready.push(op);
  std::vector<std::map<double, double>> busy(ctx.n);
  while (!ready.empty()) {
    const OpId op = ready.top();
    ready.pop();
    // 4. Earliest finish over the devices with room (or, if none has, the fallback device).
    bool any = false;
    for (int d = 0; d < ctx.n; ++d) any = any || s.usable(op, d);
    int best = -1;
    double bestFinish = 0;
    for (int d = 0; d < ctx.n; ++d) {
      if (any ? !s.usable(op, d) : d != s.fallbackDevice(op)) continue;
      const double w = ctx.cost.opTime(op, d);
      const double st = earliestGap(busy[d], s.dataReady(op, d), w);
      if (best < 0 || st + w < bestFinish) best = d, bestFinish = st + w;
    }
    // 5. The slot is found again after the transfers are reserved (the same figure: the dry run
    //    reserves them in the same order), so the op never overlaps another.
    const double w = ctx.cost.opTime(op, best);
    const double st = earliestGap(busy[best], s.reserveInputs(op, best), w);
    s.assign(op, best, st);
    if (w > 0) busy[best].emplace(st, st + w);
    for (OpId c : g.fanOut(op))
      if (--pending[c] == 0) ready.push(c);
  }
  return toResult(s);
}

Plan placeEtf(const Context& ctx, std::string& note) { return scheduleEtf(ctx, false, note).plan; }
Plan placeSct(const Context& ctx, std::string& note) { return scheduleEtf(ctx, true, note).plan; }
Plan placeHeft(const Context& ctx, std::string& note) { return scheduleHeft(ctx, note).plan; }

}  // namespace gp::placement

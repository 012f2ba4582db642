#include "placement/schedule_state.h"

#include <algorithm>
#include <numeric>

namespace gp::placement {

double earliestGap(const std::map<double, double>& busy, double ready, double w) {
  constexpr int kMaxScan = 64;
  double t = ready;
  auto it = busy.upper_bound(ready);
  if (it != busy.begin()) t = std::max(t, std::prev(it)->second);
  for (int scanned = 0; it != busy.end(); ++it, ++scanned) {
    if (it->first - t >= w) return t;
    if (scanned >= kMaxScan) return std::max(t, busy.rbegin()->second);  // bound the search: append
    t = std::max(t, it->second);
  }
  return t;
}

ScheduleState::ScheduleState(const Context& ctx)
    : dev(ctx.g.numOps(), -1),
      start(ctx.g.numOps(), 0),
      finish(ctx.g.numOps(), 0),
      ctx_(ctx),
      unitDev_(ctx.units.pinned),
      mem_(ctx),
      channelBusy_(static_cast<size_t>(ctx.c.numChannels())),
      channelDests_(static_cast<size_t>(ctx.c.numChannels())),
      epoch_(ctx.n, 0) {
  paramOff_.assign(ctx.g.numOps() + 1, 0);
  for (OpId op = 0; op < ctx.g.numOps(); ++op) {
    for (TensorId in : ctx.g.inputs(op))
      if (ctx.g.producer(in) == kNone && ctx.g.tensorKind(in) == TensorKind::Parameter &&
          ctx.g.consumers(in)[0] != op)
        paramOwners_.push_back(ctx.g.consumers(in)[0]);
    paramOff_[op + 1] = static_cast<int32_t>(paramOwners_.size());
  }
  for (int a = 0; a < ctx.n; ++a)
    for (int b = 0; b < ctx.n; ++b)
      for (int ch : ctx.c.route(a, b))
        if (std::find(channelDests_[ch].begin(), channelDests_[ch].end(), b) == channelDests_[ch].end())
          channelDests_[ch].push_back(b);
}

int ScheduleState::fallbackDevice(OpId op) const {
  if (unitDev_[unit(op)] >= 0) return unitDev_[unit(op)];
  return mem_.leastOverflow(op);
}

void ScheduleState::assign(OpId op, int d, double at) {
  dev[op] = d;
  start[op] = at;
  finish[op] = start[op] + ctx_.cost.opTime(op, d);
  makespan_ = std::max(makespan_, finish[op]);
  const int32_t u = unit(op);
  unitDev_[u] = d;
  mem_.place(op, d);
}

double ScheduleState::inputsReady(OpId op, int d, bool commit) {
  double t = 0;
  for (TensorId in : ctx_.g.inputs(op)) {
    const OpId p = ctx_.g.producer(in);
    if (p != kNone) {
      t = std::max(t, dev[p] == d ? finish[p] : arrival(in, dev[p], finish[p], d));
    } else if (ctx_.g.tensorKind(in) == TensorKind::Parameter) {
      // Parameters live on the device of their first consumer and leave it at time 0.
      const OpId owner = ctx_.g.consumers(in)[0];
      if (owner != op && dev[owner] >= 0 && dev[owner] != d) t = std::max(t, arrival(in, dev[owner], 0, d));
    }
  }
  if (commit) {
    // Keep the reservations; every device whose inbound routes cross a reserved channel may
    // see later data-ready times now.
    for (const auto& [ch, begin] : undoChannels_)
      for (int dst : channelDests_[ch]) ++epoch_[dst];
    undoChannels_.clear();
    undoSent_.clear();
  } else {
    undo();
  }
  return t;
}

double ScheduleState::arrival(TensorId t, int src, double from, int d) {
  const int64_t key = static_cast<int64_t>(t) * ctx_.n + d;
  if (auto it = sent_.find(key); it != sent_.end()) return it->second;
  const auto route = ctx_.c.route(src, d);
  const double w = ctx_.cost.transferTime(ctx_.g.tensorBytes(t), src, d);
  // The earliest time every channel of the route is free for w seconds.
  double begin = from;
  for (bool moved = true; moved;) {
    moved = false;
    for (int ch : route) {
      const double s = earliestGap(channelBusy_[ch], begin, w);
      if (s > begin) begin = s, moved = true;
    }
  }
  const double end = begin + w;
  if (w > 0)
    for (int ch : route) {
      channelBusy_[ch].emplace(begin, end);
      undoChannels_.emplace_back(ch, begin);
    }
  sent_.emplace(key, end);
  undoSent_.push_back(key);
  return end;
}

void ScheduleState::undo() {
  for (const auto& [ch, begin] : undoChannels_) channelBusy_[ch].erase(begin);
  for (int64_t key : undoSent_) sent_.erase(key);
  undoChannels_.clear();
  undoSent_.clear();
}

Plan ScheduleState::plan() const {
  const int32_t n = ctx_.g.numOps();
  Plan p{dev, std::vector<int32_t>(n), {}};
  for (int32_t& d : p.device) d = std::max(d, 0);
  std::vector<int32_t> byStart(n);
  std::iota(byStart.begin(), byStart.end(), 0);
  std::sort(byStart.begin(), byStart.end(), [&](OpId a, OpId b) {
    return start[a] != start[b] ? start[a] < start[b] : ctx_.topoPos[a] < ctx_.topoPos[b];
  });
  for (int32_t i = 0; i < n; ++i) p.priority[byStart[i]] = n - i;
  return p;
}

}  // namespace gp::placement

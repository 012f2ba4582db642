#include "sim/simulator.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>

#include "base/byte_text.h"
#include "sim/lower_bound.h"
#include "sim/plan_check.h"

namespace gp {

namespace {
std::string gigabytes(int64_t bytes) { return gibText(static_cast<double>(bytes)); }
}  // namespace

Simulator::Simulator(const CostModel& cost) : cost_(cost), g_(cost.graph()), c_(cost.cluster()) {
  const auto n = static_cast<size_t>(g_.numOps()), nt = static_cast<size_t>(g_.numTensors());
  pending_.resize(n);
  stamp_.resize(n);
  copyOff_.resize(nt + 1);
  home_.resize(nt);
  ready_.resize(static_cast<size_t>(c_.numDevices()));
  busy_.resize(static_cast<size_t>(c_.numDevices()));
  memNow_.resize(static_cast<size_t>(c_.numDevices()));
  channelFree_.resize(static_cast<size_t>(c_.numChannels()));
  arriveMark_.resize(n);
  releaseMark_.resize(nt);
  donatedBy_.resize(nt);
  // Elementwise ops may write over their first input (frameworks forward the buffer when no
  // one else reads it: TensorFlow's forward_input_or_allocate_output, PyTorch's in-place
  // activations, XLA's buffer assignment).
  inPlaceInput_.assign(n, kNone);
  for (OpId op = 0; op < g_.numOps(); ++op) {
    const auto ins = g_.inputs(op);
    const auto outs = g_.outputs(op);
    if (ins.empty() || outs.size() != 1 || cost.opClass(op) != OpClass::Elementwise) continue;
    const TensorId in = ins[0];
    if (g_.tensorKind(in) == TensorKind::Activation && g_.tensorBytes(outs[0]) <= g_.tensorBytes(in))
      inPlaceInput_[op] = in;
  }
  lowerBound_ = lowerBound(cost);
}

Measurement Simulator::run(const Plan& plan, bool recordTimeline) {
  Measurement m;
  run(plan, m, recordTimeline);
  return m;
}

Simulator::Copy* Simulator::copyOn(TensorId t, int32_t device) {
  for (int32_t i = copyOff_[t]; i < copyOff_[t + 1]; ++i)
    if (copies_[i].device == device) return &copies_[i];
  return nullptr;
}

void Simulator::buildCopies(const Plan& plan) {
  std::fill(pending_.begin(), pending_.end(), 0);
  std::fill(stamp_.begin(), stamp_.end(), -1);
  copies_.clear();
  for (TensorId t = 0; t < g_.numTensors(); ++t) {
    copyOff_[t] = static_cast<int32_t>(copies_.size());
    const TensorKind kind = g_.tensorKind(t);
    const OpId producer = g_.producer(t);
    auto cons = g_.consumers(t);
    int32_t home = -1;
    if (kind == TensorKind::Activation && producer != kNone) home = plan.device[producer];
    if (kind == TensorKind::Parameter && !cons.empty()) home = plan.device[cons[0]];
    home_[t] = home;
    if (home >= 0) copies_.push_back({home, 0});
    const int32_t producerTask = producer != kNone ? kernels_.kernelOf(producer) : -1;
    for (OpId c : cons) {
      const int32_t task = kernels_.kernelOf(c);
      if (task == producerTask || stamp_[task] == t) continue;  // internal to a fused kernel, or seen
      stamp_[task] = t;
      const int32_t dev = plan.device[c];
      Copy* cp = nullptr;
      for (size_t i = static_cast<size_t>(copyOff_[t]); i < copies_.size(); ++i)
        if (copies_[i].device == dev) cp = &copies_[i];
      if (!cp) {
        copies_.push_back({dev, 0});
        cp = &copies_.back();
      }
      ++cp->uses;
      // Graph inputs are fed to every device at time 0; parameters live on their home.
      if (kind == TensorKind::Activation || (kind == TensorKind::Parameter && dev != home)) ++pending_[task];
    }
    if (home >= 0)  // one outgoing transfer per other device
      copies_[copyOff_[t]].uses += static_cast<int32_t>(copies_.size()) - copyOff_[t] - 1;
  }
  copyOff_[g_.numTensors()] = static_cast<int32_t>(copies_.size());
}

void Simulator::allocate(int32_t device, int64_t bytes) {
  memNow_[device] += bytes;
  auto& peak = m_->devices[device].peakMemory;
  peak = std::max(peak, memNow_[device]);
}

void Simulator::release(Copy* c, TensorId t) {
  if (!c || c->uses <= 0) return;
  if (--c->uses > 0) return;
  if (g_.tensorKind(t) == TensorKind::Parameter && c->device == home_[t]) return;  // resident
  int64_t bytes = g_.tensorBytes(t);
  // a buffer an in-place op wrote over is now its output's (only the original's, on its device)
  if (const OpId by = donatedBy_[t]; by != kNone && c->device == home_[t]) bytes -= g_.tensorBytes(g_.outputs(by)[0]);
  memNow_[c->device] -= bytes;
}

void Simulator::pushEvent(double time, int32_t kind, int32_t a, int32_t b) {
  events_.push_back({time, seq_++, kind, a, b});
  std::push_heap(events_.begin(), events_.end(), std::greater<>());
}

void Simulator::makeReady(int32_t task) {
  // Smallest key first: FIFO is the order kernels became ready; with priorities, the highest
  // priority (a fused kernel takes its ops' highest) comes first, FIFO among equals.
  uint64_t key = seq_++;
  if (!plan_->priority.empty()) {
    int64_t best = std::numeric_limits<int32_t>::min();
    for (OpId op : kernels_.ops(task)) best = std::max<int64_t>(best, plan_->priority[op]);
    key |= static_cast<uint64_t>(std::numeric_limits<int32_t>::max() - best) << 32;
  }
  auto& q = ready_[plan_->device[task]];
  q.emplace_back(key, task);
  std::push_heap(q.begin(), q.end(), std::greater<>());
}

void Simulator::arrive(TensorId t, int32_t device) {
  const OpId producer = g_.producer(t);
  const int32_t producerTask = producer != kNone ? kernels_.kernelOf(producer) : -1;
  for (OpId c : g_.consumers(t)) {
    const int32_t task = kernels_.kernelOf(c);
    if (plan_->device[c] != device || task == producerTask || arriveMark_[task] == t) continue;
    arriveMark_[task] = t;  // a fused kernel may read t in several ops: count it once
    if (--pending_[task] == 0) makeReady(task);
  }
}

void Simulator::sendFrom(TensorId t, int32_t src, double now, Measurement& m, bool record) {
  const int64_t bytes = g_.tensorBytes(t);
  for (int32_t i = copyOff_[t]; i < copyOff_[t + 1]; ++i) {
    const int32_t dst = copies_[i].device;
    if (dst == src) continue;
    auto route = c_.route(src, dst);
    double start = now;
    for (int ch : route) start = std::max(start, channelFree_[ch]);
    const double end = start + cost_.transferTime(bytes, src, dst);
    for (int ch : route) {
      channelFree_[ch] = end;
      m.channelBytes[ch] += bytes;
    }
    m.commBytes += bytes;
    allocate(dst, bytes);  // the receive buffer
    if (record)
      m.timeline.push_back({TimelineEvent::Kind::Transfer, t, route.empty() ? -1 : route[0], dst, start, end, bytes});
    pushEvent(end, 1, t, dst);
  }
}

double Simulator::taskDuration(int32_t task) {
  return kernelTime(cost_, kernels_, task, plan_->device[task], kernelScratch_);
}

void Simulator::startReady(int32_t device, double now, Measurement& m, bool record) {
  auto& q = ready_[device];
  if (busy_[device] || q.empty()) return;
  std::pop_heap(q.begin(), q.end(), std::greater<>());
  const int32_t task = q.back().second;
  q.pop_back();
  busy_[device] = 1;
  const double dur = taskDuration(task);
  m.devices[device].busy += dur;
  const bool single = !kernels_.fused(task);
  for (OpId op : kernels_.ops(task)) {
    bool inPlace = false;
    if (const TensorId in = inPlaceInput_[op]; single && in != kNone) {
      const Copy* c = copyOn(in, device);
      inPlace = c && c->uses == 1 && home_[in] == device;  // the last reader of its own copy: write over it
      if (inPlace) donatedBy_[in] = op;
    }
    for (TensorId t : inPlace ? std::span<const TensorId>() : g_.outputs(op)) {
      const bool internal = !g_.consumers(t).empty() && copyOff_[t + 1] - copyOff_[t] == 1 &&
                            copies_[copyOff_[t]].uses == 0;
      if (!internal) allocate(device, g_.tensorBytes(t));
    }
    if (record) {
      const int32_t grp = plan_->fusionGroup.empty() ? -1 : plan_->fusionGroup[op];
      m.timeline.push_back({TimelineEvent::Kind::Op, op, device, grp, now, now + dur, 0});
    }
  }
  pushEvent(now + dur, 0, task, device);
}

void Simulator::finishTask(int32_t task, double now, Measurement& m, bool record) {
  const int32_t dev = plan_->device[task];
  busy_[dev] = 0;
  ++doneTasks_;
  // inputs read for the last time on this device are freed
  for (OpId op : kernels_.ops(task))
    for (TensorId t : g_.inputs(op)) {
      const OpId p = g_.producer(t);
      if (p != kNone && kernels_.kernelOf(p) == task) continue;
      if (releaseMark_[t] == task) continue;  // several ops of a fused kernel read it
      releaseMark_[t] = task;
      release(copyOn(t, dev), t);
    }
  // outputs become available here and travel to the other devices that read them
  for (OpId op : kernels_.ops(task))
    for (TensorId t : g_.outputs(op)) {
      arrive(t, dev);
      sendFrom(t, dev, now, m, record);
    }
}

void Simulator::run(const Plan& plan, Measurement& m, bool recordTimeline) {
  const int32_t nd = c_.numDevices();
  m_ = &m;
  plan_ = &plan;
  m.feasible = true;
  m.problem.clear();
  m.stepTime = 0;
  m.commBytes = 0;
  m.timeline.clear();
  m.devices.assign(static_cast<size_t>(nd), DeviceStats{});
  m.channelBytes.assign(static_cast<size_t>(c_.numChannels()), 0);
  for (int32_t d = 0; d < nd; ++d) m.devices[d].capacity = c_.device(d).memCapacity;
  m.lowerBound = lowerBound_;
  if (std::string why = planProblem(g_, nd, plan, stamp_); !why.empty()) {
    m.feasible = false;
    m.problem = std::move(why);
    return;
  }
  kernels_.form(plan, g_.numOps());
  if (kernels_.anyFused()) m.lowerBound = lowerBound(cost_, plan.fusionGroup);
  buildCopies(plan);
  if (recordTimeline) m.timeline.reserve(static_cast<size_t>(g_.numOps()) * 2);
  std::fill(busy_.begin(), busy_.end(), 0);
  std::fill(memNow_.begin(), memNow_.end(), 0);
  std::fill(channelFree_.begin(), channelFree_.end(), 0.0);
  for (auto& q : ready_) q.clear();
  events_.clear();
  seq_ = 0;
  doneTasks_ = 0;
  std::fill(arriveMark_.begin(), arriveMark_.end(), -1);
  std::fill(releaseMark_.begin(), releaseMark_.end(), -1);
  std::fill(donatedBy_.begin(), donatedBy_.end(), kNone);

  // time 0: resident parameters, graph inputs fed to the devices that read them
  for (OpId op = 0; op < g_.numOps(); ++op) allocate(plan.device[op], g_.paramBytes(op));
  for (TensorId t = 0; t < g_.numTensors(); ++t)
    if (g_.tensorKind(t) == TensorKind::GraphInput)
      for (int32_t i = copyOff_[t]; i < copyOff_[t + 1]; ++i) allocate(copies_[i].device, g_.tensorBytes(t));
  for (TensorId t = 0; t < g_.numTensors(); ++t)
    if (g_.tensorKind(t) == TensorKind::Parameter && home_[t] >= 0) sendFrom(t, home_[t], 0, m, recordTimeline);
  for (OpId op = 0; op < g_.numOps(); ++op)  // nothing to wait for: ready at 0, in op order
    if (kernels_.kernelOf(op) == op && pending_[op] == 0) makeReady(op);
  for (int32_t d = 0; d < nd; ++d) startReady(d, 0, m, recordTimeline);

  double now = 0;
  while (!events_.empty()) {
    std::pop_heap(events_.begin(), events_.end(), std::greater<>());
    const Event e = events_.back();
    events_.pop_back();
    now = e.time;
    if (e.kind == 0) {
      finishTask(e.a, now, m, recordTimeline);
      for (int32_t d = 0; d < nd; ++d) startReady(d, now, m, recordTimeline);
    } else {
      release(copyOn(e.a, home_[e.a]), e.a);  // the sender's copy
      arrive(e.a, e.b);
      startReady(e.b, now, m, recordTimeline);
    }
  }
  m.stepTime = now;
  for (int32_t d = 0; d < nd; ++d) {
    auto& dev = m.devices[d];
    dev.capacity = c_.device(d).memCapacity;
    dev.utilization = m.stepTime > 0 ? dev.busy / m.stepTime : 0;
  }
  if (doneTasks_ < kernels_.count()) {
    m.feasible = false;
    m.problem = "the plan deadlocks: " + std::to_string(kernels_.count() - doneTasks_) +
                " kernels never became ready (fusion groups that form a cycle)";
    return;
  }
  int32_t worst = -1;
  int64_t worstOver = 0;
  for (int32_t d = 0; d < nd; ++d) {
    const int64_t over = m.devices[d].peakMemory - m.devices[d].capacity;
    if (over > worstOver) {
      worstOver = over;
      worst = d;
    }
  }
  if (worst >= 0) {
    m.feasible = false;
    m.problem = c_.device(worst).name + " needs " + gigabytes(m.devices[worst].peakMemory) + ", " +
                gigabytes(worstOver) + " over its " + gigabytes(m.devices[worst].capacity);
  }
}

}  // namespace gp

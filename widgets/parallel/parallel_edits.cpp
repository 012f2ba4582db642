#include "parallel/parallel_edits.h"

#include <algorithm>

#include "parallel/plan_knobs.h"

namespace gp::pedit {

namespace {

bool sameStages(const std::vector<PipeStage>& a, const std::vector<PipeStage>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const PipeStage& x, const PipeStage& y) {
    return x.first == y.first && x.last == y.last && x.recompute == y.recompute;
  });
}

// The micro-batch count for `batch` over dp replicas keeping the micro-batch size `mbs` when
// it divides, else `fallback`.
int countKeepingSize(int64_t batch, int dp, int64_t mbs, int fallback) {
  const int64_t per = int64_t{dp} * mbs;
  if (mbs > 0 && per > 0 && batch % per == 0 && batch / per >= 1) return static_cast<int>(batch / per);
  return fallback;
}

// Chunks of near-equal layer counts, each with the least recomputation any stage had: re-split
// stages start alike.
std::vector<PipeStage> resplit(const ParallelPlan& p, int layers, int chunks) {
  Recompute least = p.stages.empty() ? Recompute::None : Recompute::Full;
  for (const PipeStage& s : p.stages) least = std::min(least, s.recompute);
  return evenStages(layers, chunks, least);
}

}  // namespace

bool samePlan(const ParallelPlan& a, const ParallelPlan& b) {
  return sameKnobs(a, b) && sameStages(a.stages, b.stages) && a.devices == b.devices;
}

bool sameState(const PlanState& a, const PlanState& b) { return a.batch == b.batch && samePlan(a.plan, b.plan); }

ParallelPlan startPlan(int devices, int layers, int64_t /*batch*/) {
  ParallelPlan p;
  p.dp = std::max(1, devices);
  p.stages = evenStages(layers, 1);
  return p;
}

std::array<int, 3> meshWith(const ParallelPlan& p, int devices, int which, int value) {
  std::array<int, 3> d{p.dp, p.tp, p.pp};
  d[static_cast<size_t>(which)] = value;
  auto absorb = [&](size_t k) {  // degree k takes what the other two leave, if it divides
    const int64_t others = int64_t{d[(k + 1) % 3]} * d[(k + 2) % 3];
    if (others < 1 || devices % others != 0) return false;
    d[k] = static_cast<int>(devices / others);
    return true;
  };
  if (which != 0) absorb(0);
  else if (!absorb(2)) absorb(1);
  return d;
}

ParallelPlan withMesh(const ParallelPlan& p, int layers, int64_t batch, int dp, int tp, int pp) {
  ParallelPlan out = p;
  const int64_t mbs = p.dp > 0 && p.microbatches > 0 ? batch / (int64_t{p.dp} * p.microbatches) : 0;
  out.dp = dp;
  out.tp = tp;
  out.pp = pp;
  if (pp < 2) out.virtualStages = 1;  // nothing to interleave
  if (pp != p.pp || static_cast<int>(p.stages.size()) != out.chunks()) out.stages = resplit(p, layers, out.chunks());
  if (tp < 2) out.sequenceParallel = out.overlapTpComm = false;  // nothing to split the sequence over
  if (dp != p.dp) out.microbatches = countKeepingSize(batch, dp, mbs, p.microbatches);
  if (pp == 1 && out.schedule == PipeSchedule::GPipe) out.schedule = PipeSchedule::OneFOneB;
  if (out.shardGroup > 0 && out.gradientGroup() % out.shardGroup != 0) out.shardGroup = 0;  // no longer divides
  out.devices.clear();  // a custom device order is for its own degrees only
  return out;
}

PlanState withBatch(const PlanState& s, int64_t batch) {
  PlanState out = s;
  out.batch = batch;
  const int64_t mbs = s.plan.microbatchSize(s.batch);
  out.plan.microbatches = countKeepingSize(batch, s.plan.dp, mbs, s.plan.microbatches);
  return out;
}

ParallelPlan withMicrobatches(const ParallelPlan& p, int microbatches) {
  ParallelPlan out = p;
  out.microbatches = microbatches;
  return out;
}

ParallelPlan withSchedule(const ParallelPlan& p, PipeSchedule schedule) {
  ParallelPlan out = p;
  out.schedule = schedule;
  return out;
}

ParallelPlan withContextParallel(const ParallelPlan& p, int devices, int64_t batch, int cp) {
  ParallelPlan out = p;
  out.cp = cp;
  const int64_t others = int64_t{p.tp} * p.pp * cp;
  if (others > 0 && devices % others == 0 && devices / others >= 1) {
    const int64_t mbs = p.dp > 0 && p.microbatches > 0 ? batch / (int64_t{p.dp} * p.microbatches) : 0;
    out.dp = static_cast<int>(devices / others);
    if (out.dp != p.dp) out.microbatches = countKeepingSize(batch, out.dp, mbs, p.microbatches);
  }
  if (cp > 1) out.expertParallel = false;  // not modelled together
  if (out.shardGroup > 0 && out.gradientGroup() % out.shardGroup != 0) out.shardGroup = 0;  // no longer divides
  out.devices.clear();
  return out;
}

ParallelPlan withVirtualStages(const ParallelPlan& p, int layers, int virtualStages) {
  ParallelPlan out = p;
  out.virtualStages = virtualStages;
  if (virtualStages > 1) out.schedule = PipeSchedule::OneFOneB;  // interleaving is a 1F1B schedule
  if (virtualStages != p.virtualStages || static_cast<int>(p.stages.size()) != out.chunks())
    out.stages = resplit(p, layers, out.chunks());
  return out;
}

ParallelPlan withZero(const ParallelPlan& p, int zero) {
  ParallelPlan out = p;
  out.zero = zero;
  if (zero == 0) out.shardGroup = 0;
  return out;
}

ParallelPlan withShardGroup(const ParallelPlan& p, int group) {
  ParallelPlan out = p;
  out.shardGroup = p.zero > 0 ? group : 0;
  return out;
}

std::vector<int> shardGroupChoices(const ParallelPlan& p) {
  std::vector<int> out{0};
  if (p.zero == 0) return out;
  const int g = p.gradientGroup();
  for (int d = 1; d < g; ++d)
    if (g % d == 0) out.push_back(d);
  return out;
}

ParallelPlan withFramework(const ParallelPlan& p, TrainingFramework f) {
  ParallelPlan out = p;
  out.training.framework = f;
  return out;
}

ParallelPlan withRecompute(const ParallelPlan& p, int stage, Recompute r) {
  ParallelPlan out = p;
  if (stage >= 0 && stage < static_cast<int>(out.stages.size())) out.stages[static_cast<size_t>(stage)].recompute = r;
  return out;
}

ParallelPlan withFp8(const ParallelPlan& p, bool on) {
  ParallelPlan out = p;
  out.fp8 = on;
  return out;
}

ParallelPlan withSequenceParallel(const ParallelPlan& p, bool on) {
  ParallelPlan out = p;
  out.sequenceParallel = on;
  out.overlapTpComm = on;  // the TP overlap needs sequence parallelism; the searches pair them
  return out;
}

ParallelPlan withTpOverlap(const ParallelPlan& p, bool on) {
  ParallelPlan out = p;
  out.overlapTpComm = on && p.sequenceParallel;
  return out;
}

ParallelPlan withAttention(const ParallelPlan& p, AttentionImpl a) {
  ParallelPlan out = p;
  out.attention = a;
  return out;
}

std::pair<int, int> boundaryRange(const ParallelPlan& p, int boundary) {
  if (boundary < 1 || boundary >= static_cast<int>(p.stages.size())) return {0, -1};
  const PipeStage& before = p.stages[static_cast<size_t>(boundary - 1)];
  const PipeStage& after = p.stages[static_cast<size_t>(boundary)];
  return {before.first + 1, after.last - 1};
}

ParallelPlan withBoundary(const ParallelPlan& p, int boundary, int first) {
  const auto [lo, hi] = boundaryRange(p, boundary);
  if (hi < lo) return p;
  ParallelPlan out = p;
  const int at = std::clamp(first, lo, hi);
  out.stages[static_cast<size_t>(boundary - 1)].last = at;
  out.stages[static_cast<size_t>(boundary)].first = at;
  return out;
}

std::vector<int> microbatchChoices(int64_t batch, int dp) {
  std::vector<int> out;
  if (dp < 1 || batch < 1 || batch % dp != 0) return out;
  const int64_t per = batch / dp;
  std::vector<int> large;
  for (int64_t m = 1; m * m <= per; ++m)
    if (per % m == 0) {
      out.push_back(static_cast<int>(m));
      if (m * m != per && per / m <= (int64_t{1} << 30)) large.push_back(static_cast<int>(per / m));
    }
  out.insert(out.end(), large.rbegin(), large.rend());
  return out;
}

std::vector<int> virtualStageChoices(int layers, int pp, int current) {
  std::vector<int> out{1};
  if (pp > 1 && layers % pp == 0)
    for (int v = 2; v <= layers / pp; ++v)
      if ((layers / pp) % v == 0) out.push_back(v);
  if (std::find(out.begin(), out.end(), current) == out.end()) out.push_back(current);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> degreeChoices(int devices, int limit) {
  std::vector<int> out;
  for (int d = 1; d <= std::min(devices, limit); ++d)
    if (devices % d == 0) out.push_back(d);
  return out;
}

}  // namespace gp::pedit

#include "parallel/plan_decisions.h"

#include <algorithm>
#include <cmath>

#include "parallel/memory_verdict.h"

namespace gp {
namespace {

float log2f1(double v) { return v > 0 ? static_cast<float>(std::log2(v)) : 0.0f; }
float log10f1(double v) { return v > 0 ? static_cast<float>(std::log10(v)) : 0.0f; }

// Parameters on one TP rank of the whole model.
double paramsOnRank(const LayerStack& st, int tp) {
  auto rank = [tp](const StackPart& p) {
    return static_cast<double>(p.params - p.shardedParams) + static_cast<double>(p.shardedParams) / tp;
  };
  double total = rank(st.prologue) + rank(st.epilogue);
  for (const StackPart& l : st.layers) total += rank(l);
  return total;
}

}  // namespace

PlanDecisions::PlanDecisions(const StageCostModel& model, int64_t globalBatch, FixedKnobs fixed)
    : model_(&model),
      batch_(globalBatch),
      n_(model.cluster().numDevices()),
      perServer_(devicesPerServer(model.cluster())),
      knobs_(fixed) {
  const Cluster& c = model.cluster();
  const LayerStack& st = model.stack();
  capacity_ = INT64_MAX;
  for (int d = 0; d < n_; ++d)
    if (c.device(d).memCapacity > 0) capacity_ = std::min(capacity_, c.device(d).memCapacity);
  const std::vector<int> order = serverOrder(c);
  const std::vector<int> server = serverOf(c);
  double intra = 0, inter = 0;
  for (int d : order) {
    if (d == order[0]) continue;
    double& bw = server[static_cast<size_t>(d)] == server[static_cast<size_t>(order[0])] ? intra : inter;
    if (bw == 0) bw = c.routeBandwidth(order[0], d);
  }
  const double params = static_cast<double>(st.totalParams());
  double expert = 0, sharded = 0, saved = 0;
  for (const StackPart& l : st.layers) {
    expert += static_cast<double>(l.expertParams), sharded += static_cast<double>(l.shardedParams);
    for (const StackOp& op : l.ops) saved += op.savedBytes + op.savedSplitBytes;
    for (const StackAttention& a : l.attention) saved += a.keptBytes + a.outBytes;
  }
  const int L = std::max(1, st.numLayers());
  const int elem = std::max(1, dtypeSize(st.activationType));
  const double tokens = st.hidden > 0 && L > 0 ? st.layers[0].outputBytes / (static_cast<double>(st.hidden) * elem) : 0;
  const double peak = c.device(order[0]).peakFlops(st.activationType);
  const TrainingBytes tb = model.bytes(fixed.training, 0);
  fixed_ = {log10f1(params) / 12,
            static_cast<float>(L) / 128,
            log2f1(static_cast<double>(st.hidden)) / 16,
            static_cast<float>(st.heads) / 128,
            log2f1(tokens) / 14,
            static_cast<float>(st.experts) / 128,
            log10f1(st.forwardFlopsPerSample()) / 15,
            params > 0 ? static_cast<float>(expert / params) : 0.0f,
            static_cast<float>(n_) / 64,
            static_cast<float>(perServer_) / 16,
            log10f1(intra) / 12,
            log10f1(inter) / 12,
            static_cast<float>(static_cast<double>(capacity_) / (1u << 30)) / 128,
            log10f1(peak) / 16,
            log2f1(static_cast<double>(globalBatch)) / 12,
            log10f1((tb.weight + tb.grad + tb.optimizer) * params / static_cast<double>(capacity_)) / 3,
            log2f1(saved / L) / 32,
            params > 0 ? static_cast<float>(sharded / params) : 0.0f,
            params > 0 ? static_cast<float>((st.prologue.params + st.epilogue.params) / params) : 0.0f,
            1.0f};
}

std::array<bool, kNumActions> PlanDecisions::mask(const PartialPlan& p) const {
  std::array<bool, kNumActions> m{};
  const LayerStack& st = model_->stack();
  double perParam = 0;  // the least any ZeRO stage keeps per parameter (before sharding)
  for (int zero = 0; zero <= 3; ++zero) {
    const TrainingBytes tb = model_->bytes(knobs_.training, zero);
    perParam = zero == 0 ? tb.weight + tb.grad + tb.optimizer : std::min(perParam, tb.weight + tb.grad + tb.optimizer);
  }
  auto divides = [](int64_t whole, int64_t part) { return part > 0 && whole % part == 0; };
  // Does (tp, pp) leave room for the parameter state at ZeRO-3 (a lower bound on any plan)?
  auto stateFits = [&](int tp, int pp) {
    const double dp = static_cast<double>(n_) / (tp * pp);
    return perParam * paramsOnRank(st, tp) / pp / dp <= static_cast<double>(capacity_);
  };
  auto mbsFits = [&](int tp, int pp, int mbs) {
    const double dp = static_cast<double>(n_) / (tp * pp);
    const double state = perParam * paramsOnRank(st, tp) / pp / dp;
    double inputs = 0;
    for (const StackPart& l : st.layers) inputs += l.outputBytes;
    return state + inputs / pp * mbs <= static_cast<double>(capacity_);
  };
  auto ppValid = [&](int tp, int pp) {
    if (!divides(n_ / tp, pp) || pp > st.numLayers() || !stateFits(tp, pp)) return false;
    const int dp = n_ / tp / pp;
    if (!divides(batch_, dp)) return false;
    for (int v : kDecisionValues)
      if (divides(batch_ / dp, v) && mbsFits(tp, pp, v)) return true;
    return false;
  };
  for (int a = 0; a < kNumActions; ++a) {
    const int v = kDecisionValues[static_cast<size_t>(a)];
    switch (p.step) {
      case DecisionStep::Tp: {
        if (!divides(n_, v) || v > perServer_ || !st.tpDivides(v)) break;
        for (int pp : kDecisionValues)
          if (ppValid(v, pp)) {
            m[static_cast<size_t>(a)] = true;
            break;
          }
        break;
      }
      case DecisionStep::Pp: m[static_cast<size_t>(a)] = ppValid(p.tp, v); break;
      case DecisionStep::MicrobatchSize: m[static_cast<size_t>(a)] = divides(batch_ / p.dp, v) && mbsFits(p.tp, p.pp, v); break;
      case DecisionStep::Schedule: m[static_cast<size_t>(a)] = a < 2; break;
      case DecisionStep::Zero: m[static_cast<size_t>(a)] = a < 4; break;
      case DecisionStep::ExpertParallel: m[static_cast<size_t>(a)] = a < 2; break;
      case DecisionStep::Done: break;
    }
  }
  return m;
}

PartialPlan PlanDecisions::apply(PartialPlan p, int a) const {
  const int v = kDecisionValues[static_cast<size_t>(a)];
  switch (p.step) {
    case DecisionStep::Tp: p.tp = v, p.step = DecisionStep::Pp; break;
    case DecisionStep::Pp:
      p.pp = v, p.dp = n_ / (p.tp * v);
      p.step = DecisionStep::MicrobatchSize;
      break;
    case DecisionStep::MicrobatchSize:
      p.mbs = v;
      p.step = p.pp > 1 ? DecisionStep::Schedule : p.dp > 1 ? DecisionStep::Zero : DecisionStep::Done;  // dp 1: no expert choice
      break;
    case DecisionStep::Schedule:
      p.schedule = a == 0 ? PipeSchedule::OneFOneB : PipeSchedule::GPipe;
      p.step = p.dp > 1 ? DecisionStep::Zero : DecisionStep::Done;
      break;
    case DecisionStep::Zero: p.zero = a, p.step = expertChoice(p) ? DecisionStep::ExpertParallel : DecisionStep::Done; break;
    case DecisionStep::ExpertParallel: p.expertParallel = a == 1, p.step = DecisionStep::Done; break;
    case DecisionStep::Done: break;
  }
  return p;
}

std::array<float, kNumDecisionFeatures> PlanDecisions::features(const PartialPlan& p) const {
  std::array<float, kNumDecisionFeatures> f{};
  std::copy(fixed_.begin(), fixed_.end(), f.begin());
  const size_t base = fixed_.size();
  if (p.step != DecisionStep::Done) f[base + static_cast<size_t>(p.step)] = 1;
  f[base + 6] = log2f1(p.tp) / 6;
  f[base + 7] = log2f1(p.pp) / 7;
  f[base + 8] = log2f1(p.dp) / 6;
  f[base + 9] = log2f1(p.mbs) / 9;
  f[base + 10] = p.schedule == PipeSchedule::GPipe ? 1.0f : 0.0f;
  f[base + 11] = static_cast<float>(p.zero) / 3;
  f[base + 12] = p.dp > 0 && p.mbs > 0 ? log2f1(static_cast<double>(batch_) / (p.dp * p.mbs)) / 10 : 0.0f;
  f[base + 13] = p.expertParallel ? 1.0f : 0.0f;
  return f;
}

PlanShape PlanDecisions::shape(const PartialPlan& p) const {
  PlanShape s;
  s.tp = p.tp, s.pp = p.pp, s.dp = p.dp, s.zero = p.zero, s.schedule = p.schedule, s.expertParallel = p.expertParallel;
  s.microbatches = static_cast<int>(batch_ / (int64_t{p.dp} * p.mbs));
  s.sequenceParallel = sequenceParallelFits(model_->stack(), p.tp);
  s.fixed = knobs_;
  return s;
}

const PlanEvaluator::Outcome& PlanEvaluator::evaluate(const PlanShape& s) {
  const std::array<int, 7> key{s.dp, s.tp, s.pp, s.microbatches, static_cast<int>(s.schedule), s.zero, s.expertParallel ? 1 : 0};
  auto [it, fresh] = seen_.try_emplace(key);
  Outcome& o = it->second;
  if (!fresh) return o;
  const StageCostModel& model = env_->model();
  if (auto part = partitionStages(model, env_->globalBatch(), s)) {
    ParallelPlan plan = planOf(s, part->stages);
    o.measurement = simulateParallel(model, env_->globalBatch(), plan, {false, true});
    ++simulated_;
    if (o.measurement.feasible) {
      o.reward = o.measurement.mfu;
      o.plan = std::move(plan);
    }
  }
  // The best so far as the exact search ranks plans: one that fits with room beyond the peak's
  // error before one at out-of-memory risk, then the higher MFU (the reward is MFU either way).
  if (o.plan) {
    const bool room = fitsWithRoom(o.measurement), bestRoom = best_.plan && fitsWithRoom(best_.measurement);
    if (!best_.plan || (room && !bestRoom) || (room == bestRoom && o.reward > best_.reward)) best_ = o;
  }
  return o;
}

}  // namespace gp

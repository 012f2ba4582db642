#include "rl/training_ranks.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <thread>

#include "base/error.h"
#include "rl/dist_group.h"

namespace gp::rl {
namespace {

constexpr auto kRendezvous = std::chrono::minutes(5);  // ranks started by hand on several machines

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(std::max(0.001, seconds) * 1000));
}

// FNV-1a over every parameter's bytes, as two int32 halves.
std::vector<int32_t> fingerprint(GdpPolicy& policy) {
  uint64_t h = 1469598103934665603ull;
  for (const torch::Tensor& p : policy->parameters()) {
    const torch::Tensor c = p.detach().contiguous();
    const auto* bytes = static_cast<const unsigned char*>(c.data_ptr());
    for (size_t i = 0; i < c.nbytes(); ++i) h = (h ^ bytes[i]) * 1099511628211ull;
  }
  return {static_cast<int32_t>(h & 0xffffffffu), static_cast<int32_t>(h >> 32)};
}

}  // namespace

TrainingRanks::TrainingRanks(const std::optional<DistEnv>& env, double timeoutSeconds) {
  if (!env) return;
  group_ = std::make_unique<DistGroup>(*env, millis(timeoutSeconds),
                                       std::max<std::chrono::milliseconds>(kRendezvous, millis(timeoutSeconds)));
  rank_ = group_->rank();
  world_ = group_->worldSize();
}

TrainingRanks::~TrainingRanks() = default;

int TrainingRanks::threadsFor(const std::optional<DistEnv>& env, int threads) {
  if (threads > 0 || !env) return threads;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / std::max(1, env->localWorldSize));
}

std::vector<int> TrainingRanks::slots(const std::vector<size_t>& train, const std::vector<PretrainTask>& tasks) const {
  std::vector<int> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  if (world_ == 1) return order;
  // largest first, each to the rank with the least work so far among those with a free slot
  auto ops = [&](int k) { return static_cast<int64_t>(tasks[train[static_cast<size_t>(k)]].cost->graph().numOps()); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return ops(a) > ops(b); });
  const size_t perRank = (order.size() + static_cast<size_t>(world_) - 1) / static_cast<size_t>(world_);
  std::vector<int64_t> load(static_cast<size_t>(world_), 0);
  std::vector<std::vector<int>> dealt(static_cast<size_t>(world_));
  for (int k : order) {
    size_t to = 0;
    for (size_t r = 1; r < dealt.size(); ++r)
      if (dealt[to].size() >= perRank || (dealt[r].size() < perRank && load[r] < load[to])) to = r;
    dealt[to].push_back(k);
    load[to] += ops(k);
  }
  std::vector<int> out = dealt[static_cast<size_t>(rank_)];  // largest first: slot j pairs like sizes
  out.resize(perRank, -1);
  return out;
}

void TrainingRanks::shareWeights(GdpPolicy& policy) {
  if (!group_) return;
  torch::NoGradGuard noGrad;
  std::vector<torch::Tensor> all;
  for (const torch::Tensor& p : policy->parameters()) all.push_back(p.detach());
  for (const torch::Tensor& b : policy->buffers()) all.push_back(b);
  group_->broadcast(all);
}

std::shared_ptr<GradientSync> TrainingRanks::sync(GdpPolicy& policy, double maxGradNorm) {
  return std::make_shared<GradientSync>(group_.get(), policy->parameters(), maxGradNorm);
}

bool TrainingRanks::stopTogether(bool interrupted, bool budgetSpent, bool& cancelled) {
  const std::vector<double> any = sum({interrupted ? 1.0 : 0.0, budgetSpent ? 1.0 : 0.0});
  if (any[0] > 0) cancelled = true;
  return any[0] > 0 || any[1] > 0;
}

std::vector<double> TrainingRanks::sum(std::vector<double> values) {
  if (!group_ || values.empty()) return values;
  std::vector<torch::Tensor> t{torch::tensor(values, torch::kFloat64)};
  group_->allReduceSum(t);
  std::memcpy(values.data(), t[0].data_ptr<double>(), values.size() * sizeof(double));
  return values;
}

std::vector<std::vector<double>> TrainingRanks::gather(const std::vector<double>& mine) {
  if (!group_) return {mine};
  // the doubles' bits as pairs of int32
  std::vector<int32_t> bits(2 * mine.size());
  std::memcpy(bits.data(), mine.data(), mine.size() * sizeof(double));
  std::vector<std::vector<double>> out;
  for (const std::vector<int32_t>& b : group_->allGather(bits)) {
    std::vector<double> v(b.size() / 2);
    std::memcpy(v.data(), b.data(), v.size() * sizeof(double));
    out.push_back(std::move(v));
  }
  return out;
}

double TrainingRanks::collectiveSeconds() const { return group_ ? group_->collectiveSeconds() : 0.0; }

std::vector<Decisions> TrainingRanks::gather(const std::vector<std::pair<int, Decisions>>& mine, size_t count) {
  // per task: index, the three lengths, then the values
  std::vector<int32_t> packed;
  for (const auto& [k, d] : mine) {
    packed.insert(packed.end(), {k, static_cast<int32_t>(d.units.size()), static_cast<int32_t>(d.schedule.size()),
                                 static_cast<int32_t>(d.fusion.size())});
    for (const auto* v : {&d.units, &d.schedule, &d.fusion}) packed.insert(packed.end(), v->begin(), v->end());
  }
  std::vector<std::vector<int32_t>> all = group_ ? group_->allGather(packed) : std::vector<std::vector<int32_t>>{packed};
  std::vector<Decisions> out(count);
  for (const std::vector<int32_t>& p : all)
    for (size_t at = 0; at + 4 <= p.size();) {
      const auto k = static_cast<size_t>(p[at]);
      const size_t nu = p[at + 1], ns = p[at + 2], nf = p[at + 3];
      at += 4;
      if (k >= count || at + nu + ns + nf > p.size()) throw Error("distributed", "a rank sent malformed decisions");
      Decisions& d = out[k];
      d.units.assign(p.begin() + at, p.begin() + at + nu);
      d.schedule.assign(p.begin() + at + nu, p.begin() + at + nu + ns);
      d.fusion.assign(p.begin() + at + nu + ns, p.begin() + at + nu + ns + nf);
      at += nu + ns + nf;
    }
  return out;
}

void TrainingRanks::checkSameWeights(GdpPolicy& policy, int round) {
  if (!group_) return;
  const std::vector<std::vector<int32_t>> all = group_->allGather(fingerprint(policy));
  for (int r = 1; r < world_; ++r)
    if (all[r] != all[0])
      throw Error("distributed", "rank " + std::to_string(r) + "'s weights differ from rank 0's after round " +
                                     std::to_string(round) + " (the ranks' updates went out of step)");
}

TrainingRanks::Best TrainingRanks::best(double myStep, const Decisions& mine) {
  std::vector<double> steps(static_cast<size_t>(world_), 0.0);
  steps[static_cast<size_t>(rank_)] = myStep;
  steps = sum(std::move(steps));
  Best b;
  b.rank = static_cast<int>(std::min_element(steps.begin(), steps.end()) - steps.begin());
  b.step = steps[static_cast<size_t>(b.rank)];
  std::vector<std::pair<int, Decisions>> sent;
  if (b.rank == rank_) sent.emplace_back(0, mine);
  b.decisions = gather(sent, 1)[0];
  return b;
}

}  // namespace gp::rl

// Policy-guided local search: see local_search.h.
#include "rl/local_search.h"

#include <algorithm>

namespace gp::rl {

LocalSearch::LocalSearch(const GraphFeatures& f, int32_t numDevices, uint64_t seed)
    : f_(f), numDevices_(numDevices), rng_(seed ^ 0x9e3779b97f4a7c15ull) {
  groupOff_.assign(static_cast<size_t>(f.numGroups) + 1, 0);
  for (int32_t u = 0; u < f.numUnits; ++u) ++groupOff_[static_cast<size_t>(f.groupOf[u]) + 1];
  for (size_t g = 1; g < groupOff_.size(); ++g) groupOff_[g] += groupOff_[g - 1];
  groupUnits_.resize(static_cast<size_t>(f.numUnits));
  std::vector<int32_t> fill(groupOff_.begin(), groupOff_.end() - 1);
  for (int32_t u = 0; u < f.numUnits; ++u) groupUnits_[static_cast<size_t>(fill[f.groupOf[u]]++)] = u;
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (size_t e = 0; e < f.edgeSrc.size(); ++e) {
    const int32_t a = f.groupOf[f.unitOf[f.edgeSrc[e]]], b = f.groupOf[f.unitOf[f.edgeDst[e]]];
    if (a != b) {
      edges.emplace_back(a, b);
      edges.emplace_back(b, a);
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  succOff_.assign(static_cast<size_t>(f.numGroups) + 1, 0);
  for (const auto& e : edges) ++succOff_[static_cast<size_t>(e.first) + 1];
  for (size_t g = 1; g < succOff_.size(); ++g) succOff_[g] += succOff_[g - 1];
  succ_.reserve(edges.size());
  for (const auto& e : edges) succ_.push_back(e.second);
  mark_.assign(static_cast<size_t>(f.numGroups), 0);

  // scope regions: the groups filed under each scope or below it; the root (everything) and
  // scopes holding a single group (a group move already covers them) are left out
  const auto S = static_cast<int32_t>(f.scopeParent.size());
  std::vector<std::vector<int32_t>> members(static_cast<size_t>(S));
  for (int32_t g = 0; g < f.numGroups; ++g)
    for (int32_t sc = f.groupScope[g]; sc >= 0 && sc < S; sc = f.scopeParent[sc]) members[sc].push_back(g);
  scopeOff_.assign(1, 0);
  for (int32_t sc = 0; sc < S; ++sc) {
    const auto& m = members[sc];
    if (f.scopeParent[sc] < 0 || m.size() < 2 || static_cast<int32_t>(m.size()) == f.numGroups) continue;
    scopeGroups_.insert(scopeGroups_.end(), m.begin(), m.end());
    scopeOff_.push_back(static_cast<int32_t>(scopeGroups_.size()));
  }
}

int LocalSearch::run(std::vector<int32_t>& units, const std::vector<float>& probs, int moves, double step,
                     const EvaluateBatch& evaluate, const std::function<bool()>& stop, int batch) {
  const int32_t G = f_.numGroups, D = numDevices_;
  if (G == 0 || D < 2 || moves <= 0) return 0;
  const auto p = [&](int32_t u, int32_t d) { return static_cast<double>(probs[static_cast<size_t>(u) * D + d]); };
  // group weights: mean probability of leaving the incumbent device (floor: every group can move)
  std::vector<double> weight(static_cast<size_t>(G));
  for (int32_t g = 0; g < G; ++g) {
    double w = 0;
    const int32_t b = groupOff_[g], e = groupOff_[g + 1];
    for (int32_t i = b; i < e; ++i) w += 1.0 - p(groupUnits_[i], units[groupUnits_[i]]);
    weight[g] = std::max(w / std::max(1, e - b), 1e-4);
  }
  std::discrete_distribution<int32_t> pickGroup(weight.begin(), weight.end());
  std::vector<double> unitWeight(static_cast<size_t>(f_.numUnits));
  for (int32_t u = 0; u < f_.numUnits; ++u) unitWeight[u] = std::max(1.0 - p(u, units[u]), 1e-4);
  std::discrete_distribution<int32_t> pickUnit(unitWeight.begin(), unitWeight.end());
  std::uniform_int_distribution<int> pickSpan(0, 3);
  std::vector<double> devWeight(static_cast<size_t>(D));
  const auto numScopes = static_cast<int32_t>(scopeOff_.size()) - 1;
  std::vector<double> scopeWeight(static_cast<size_t>(std::max(numScopes, 0)));
  for (int32_t sc = 0; sc < numScopes; ++sc) {
    double w = 0;
    for (int32_t i = scopeOff_[sc]; i < scopeOff_[sc + 1]; ++i) w += weight[scopeGroups_[i]];
    scopeWeight[sc] = w / (scopeOff_[sc + 1] - scopeOff_[sc]);
  }
  std::discrete_distribution<int32_t> pickScope(scopeWeight.begin(), scopeWeight.end());
  // a move proposed from the walk's current `units` (an empty candidate when it changes nothing)
  auto propose = [&](int m) {
    Proposal out;
    std::vector<int32_t> cand = units;
    if (m % 4 == 2 && numScopes > 0) {  // a whole scope to one device
      const int32_t sc = pickScope(rng_);
      std::fill(devWeight.begin(), devWeight.end(), 0.0);
      for (int32_t i = scopeOff_[sc]; i < scopeOff_[sc + 1]; ++i)
        for (int32_t j = groupOff_[scopeGroups_[i]]; j < groupOff_[scopeGroups_[i] + 1]; ++j)
          for (int32_t d = 0; d < D; ++d) devWeight[d] += p(groupUnits_[j], d);
      for (double& w : devWeight) w = std::max(w, 1e-6);
      const int32_t to = std::discrete_distribution<int32_t>(devWeight.begin(), devWeight.end())(rng_);
      bool changed = false;
      for (int32_t i = scopeOff_[sc]; i < scopeOff_[sc + 1]; ++i)
        for (int32_t j = groupOff_[scopeGroups_[i]]; j < groupOff_[scopeGroups_[i] + 1]; ++j) {
          changed |= cand[groupUnits_[j]] != to;
          cand[groupUnits_[j]] = to;
        }
      if (changed) out = {std::move(cand), /*sideways=*/true};
      return out;
    }
    if (m % 2 == 1) {  // a single unit
      const int32_t u = pickUnit(rng_);
      for (int32_t d = 0; d < D; ++d) devWeight[d] = d == units[u] ? 0.0 : std::max(p(u, d), 1e-6);
      cand[u] = std::discrete_distribution<int32_t>(devWeight.begin(), devWeight.end())(rng_);
      return Proposal{std::move(cand), /*sideways=*/false};
    }
    const int32_t g = pickGroup(rng_);
    const int32_t from = units[groupUnits_[groupOff_[g]]];
    for (int32_t d = 0; d < D; ++d) {
      double w = 0;
      for (int32_t i = groupOff_[g]; i < groupOff_[g + 1]; ++i) w += p(groupUnits_[i], d);
      devWeight[d] = d == from ? 0.0 : std::max(w, 1e-6);
    }
    const int32_t to = std::discrete_distribution<int32_t>(devWeight.begin(), devWeight.end())(rng_);
    const size_t span = size_t{1} << pickSpan(rng_);
    // region: breadth-first from g along data edges (both ways) through groups on `from`
    queue_.assign(1, g);
    mark_[g] = m + 1;
    for (size_t q = 0; q < queue_.size() && queue_.size() < span; ++q)
      for (int32_t i = succOff_[queue_[q]]; i < succOff_[queue_[q] + 1] && queue_.size() < span; ++i) {
        const int32_t h = succ_[i];
        if (mark_[h] == m + 1 || units[groupUnits_[groupOff_[h]]] != from) continue;
        mark_[h] = m + 1;
        queue_.push_back(h);
      }
    bool changed = false;
    for (int32_t h : queue_)
      for (int32_t i = groupOff_[h]; i < groupOff_[h + 1]; ++i) {
        changed |= cand[groupUnits_[i]] != to;
        cand[groupUnits_[i]] = to;
      }
    if (changed) out = {std::move(cand), /*sideways=*/queue_.size() > 1};
    return out;
  };
  return walkInBatches(moves, batch, step, evaluate, stop, propose,
                       [&](const Proposal& taken) { units = taken.candidate; });
}

}  // namespace gp::rl

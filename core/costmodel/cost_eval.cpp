#include "costmodel/cost_eval.h"

#include <cmath>
#include <stdexcept>

#include "costmodel/ranking_metrics.h"

namespace gp {

RankingScores scoreRanking(const CostDataset& d, const std::vector<std::vector<double>>& predictions) {
  if (predictions.size() != d.graphs.size()) throw std::invalid_argument("one prediction list per graph expected");
  RankingScores s;
  std::vector<double> allMeasured, allPredicted;
  int64_t ranked = 0;
  for (size_t i = 0; i < d.graphs.size(); ++i) {
    const auto& m = d.graphs[i].runtime;
    const auto& p = predictions[i];
    if (p.size() != m.size()) throw std::invalid_argument("graph " + d.graphs[i].name + ": prediction count differs");
    allMeasured.insert(allMeasured.end(), m.begin(), m.end());
    allPredicted.insert(allPredicted.end(), p.begin(), p.end());
    ++s.graphs;
    if (m.size() < 2) continue;
    ++ranked;
    s.kendallTau += kendallTau(m, p);
    s.opa += orderedPairAccuracy(m, p);
    s.top1 += topKSlowdown(m, p, 1);
    s.top5 += topKSlowdown(m, p, 5);
    s.top10 += topKSlowdown(m, p, 10);
  }
  if (ranked > 0)
    for (double* v : {&s.kendallTau, &s.opa, &s.top1, &s.top5, &s.top10}) *v /= static_cast<double>(ranked);
  s.samples = static_cast<int64_t>(allMeasured.size());
  s.globalTau = kendallTau(allMeasured, allPredicted);
  return s;
}

CostDataset subsampleConfigs(const CostDataset& d, int64_t keep) {
  CostDataset out = d;
  if (keep <= 0) return out;
  for (CostGraph& g : out.graphs) {
    const int64_t c = g.numConfigs();
    if (c <= keep) continue;
    const int64_t rows = g.configRows(), w = d.configWidth;
    CostGraph sub = g;
    sub.runtime.clear(), sub.spread.clear(), sub.threads.clear(), sub.conversionBytes.clear(), sub.configFeatures.clear();
    for (int64_t j = 0; j < keep; ++j) {
      const auto i = static_cast<size_t>(keep == 1 ? 0 : std::llround(static_cast<double>(j) * static_cast<double>(c - 1) /
                                                                      static_cast<double>(keep - 1)));
      sub.runtime.push_back(g.runtime[i]);
      if (!g.spread.empty()) sub.spread.push_back(g.spread[i]);
      if (!g.threads.empty()) sub.threads.push_back(g.threads[i]);
      if (!g.conversionBytes.empty()) sub.conversionBytes.push_back(g.conversionBytes[i]);
      const auto from = g.configFeatures.begin() + static_cast<std::ptrdiff_t>(static_cast<int64_t>(i) * rows * w);
      sub.configFeatures.insert(sub.configFeatures.end(), from, from + rows * w);
    }
    g = std::move(sub);
  }
  return out;
}

}  // namespace gp

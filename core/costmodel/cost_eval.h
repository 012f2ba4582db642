// Scoring a cost model's predictions on a dataset the way TpuGraphs does: per graph over its
// configurations (Kendall's tau, ordered-pair accuracy, top-K slowdown), averaged over graphs;
// plus Kendall's tau over every (graph, configuration) sample at once, which also asks whether
// the model orders different kernels.
#pragma once
#include <cstdint>
#include <vector>

#include "costmodel/cost_dataset.h"

namespace gp {

struct RankingScores {
  int64_t graphs = 0, samples = 0;
  double kendallTau = 0;  // mean over graphs with at least two configurations
  double opa = 0;         // mean ordered-pair accuracy
  double top1 = 0, top5 = 0, top10 = 0;  // mean top-K slowdown
  double globalTau = 0;   // over every sample at once
};

// predictions[g][c]: the prediction of configuration c of graph g (any monotone scale).
// Throws std::invalid_argument when the shapes disagree with the dataset.
RankingScores scoreRanking(const CostDataset& d, const std::vector<std::vector<double>>& predictions);

// `keep` evenly spaced configurations of each graph (all when keep <= 0 or the graph has
// fewer): TpuGraphs' validation protocol scores 1,000 per graph.
CostDataset subsampleConfigs(const CostDataset& d, int64_t keep);

}  // namespace gp

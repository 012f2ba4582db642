// Training and using the learned cost model (the LibTorch part is in the RL plugin:
// rl/cost_gnn.h, rl/cost_training.h; optimize/cost_plugin.h calls it). TpuGraphs' baseline
// architecture: an opcode embedding and the node row, the configuration row joined early,
// GraphSAGE layers, sum pooling of per-node costs and mean pooling into a correction, the
// log runtime out. Losses: a ranking loss over the configurations of a graph (ListMLE or
// pairwise hinge) plus a squared error on the log runtime (weighted 1 on the kernel task,
// which must also predict absolute times, 0.1 on the plan task).
//
// Graph Segment Training (segmentNodes > 0): a graph is cut into segments of that many nodes
// (topological order; message passing stays inside a segment), an update back-propagates
// through `segmentsPerStep` sampled segments and takes every other segment's pooled output
// from a historical table, each kept with probability `keep` (stale-embedding dropout, the kept
// ones scaled by 1 / keep). The table is refreshed by a full pass without autograd when a graph
// comes up in an epoch (memory of one segment's activations, not the graph's) and updated with
// the sampled segments after every update.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gp {

enum class RankingLoss : uint8_t { ListMle, Hinge, None };

struct CostTrainOptions {
  int epochs = 60;
  double budgetSeconds = 0;  // 0: no limit; else stop after the epoch that passes it
  double learningRate = 2e-3;
  RankingLoss loss = RankingLoss::ListMle;
  int hidden = 64, layers = 3;
  int configsPerStep = 16;    // configurations of one graph per update (plan task)
  int graphsPerStep = 64;     // kernel graphs per update (kernel task)
  int64_t segmentNodes = 0;   // GST segment length; 0: whole graphs
  int segmentsPerStep = 2;
  double keep = 0.5;          // stale-embedding dropout: probability a stale segment is kept
  uint64_t seed = 1;
};

struct CostTrainReport {
  int epoch = 0;
  double loss = 0, seconds = 0;
};
using CostTrainFn = std::function<void(const CostTrainReport&)>;

struct CostTrainResult {
  int epochs = 0;
  double seconds = 0, finalLoss = 0;
  double secondsPerStep = 0;  // mean wall time of one update
  int64_t steps = 0;
};

}  // namespace gp

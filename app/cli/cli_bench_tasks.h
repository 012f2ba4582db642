// graphplace-cli bench --tasks-table: GO's table. For each model on the
// cluster, the step time of:
//   single        one device, FIFO, no fusion (the unoptimized single GPU)
//   single+fuse   one device, FIFO, the default fuser (compilers' elementwise-chain fusion)
//   expert        the human-expert placement with its placer's order, default fusion (the
//                 framework's defaults)
//   p             optimized placement (the start plan's order, default fusion)
//   p|s           p's plan, then the schedule optimized on it (separately)
//   p+s           placement and schedule optimized jointly (default fusion)
//   s+f expert    schedule and fusion optimized jointly on the expert placement
//   p|s|f         p|s's plan, then fusion optimized on it (separately)
//   p+s+f         all three jointly
// Every optimizer stage gets --budget-seconds B per task it optimizes, so the joint rows get the
// time the separate chains get in total (p|s = B + B, p+s = 2B; p|s|f = 3B, p+s+f = 3B; s+f = 2B).
// Optimized rows start from the best baseline's plan (devices and its order, no groups), as
// optimize does, and rows that optimize placement also try every baseline's plan under their
// tasks' first decisions (OptimizeOptions::startCandidates). Baselines' plans carry a priority
// per op (their list-schedule order): a schedule left out keeps it. Gains: joint vs separate =
// (p|s|f - p+s+f) / p|s|f, and p+s+f against single and expert (when they fit in memory).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_args.h"
#include "cluster/cluster.h"

namespace gp::cli {

int runBenchTasks(const Args& a, const std::vector<std::string>& models, const Cluster& cluster, std::ostream& out);

}  // namespace gp::cli

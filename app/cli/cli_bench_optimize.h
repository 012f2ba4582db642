// graphplace-cli bench --optimize: the RL optimizer's quality table. For each
// model on the cluster: the lower bound, the human-expert rule, the best baseline, and the
// optimized plan (started from the best baseline, as optimize does), with the gains in percent
// of step time; the means at the end.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_args.h"
#include "cluster/cluster.h"

namespace gp::cli {

int runBenchOptimize(const Args& a, const std::vector<std::string>& models, const Cluster& cluster, std::ostream& out);

}  // namespace gp::cli

// graphplace-cli dataset make / costmodel train|eval|predict: measured runs as data and the
// learned cost model (costmodel/, the RL plugin's rl/cost_*.h).
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace gp::cli {

int runDataset(const std::vector<std::string>& args, std::ostream& out);
int runCostModel(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gp::cli

// graphplace-cli train-moves: the move ranker trained on a corpus and judged on its held-out
// families (sim/move_ranker.h).
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace gp::cli {

int runTrainMoves(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gp::cli

// graphplace-cli fidelity: the published corpus simulated, per row and summarised.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace gp::cli {

// fidelity [--corpus DIR|FILE] [--cluster PROFILED.json] [--calibration TABLE.json] [--json]
int runFidelityCommand(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gp::cli

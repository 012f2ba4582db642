// The subcommands of graphplace-cli. Each returns the process exit code and throws
// gp::Error / std::invalid_argument for bad input (main prints one line and exits 1).
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace gp::cli {

int runInfo(const std::vector<std::string>& args, std::ostream& out);
int runZoo(const std::vector<std::string>& args, std::ostream& out);
int runEvaluate(const std::vector<std::string>& args, std::ostream& out);
int runExplain(const std::vector<std::string>& args, std::ostream& out);
int runBaseline(const std::vector<std::string>& args, std::ostream& out);
int runOptimize(const std::vector<std::string>& args, std::ostream& out);
int runPretrain(const std::vector<std::string>& args, std::ostream& out);
int runBench(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gp::cli

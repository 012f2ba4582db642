// graphplace-cli: headless front end. Bad input -> one line on stderr, exit code 1.
#include <exception>
#include <iostream>
#include <stdexcept>

#include "cli/cli_commands.h"
#include "cli/cli_costmodel.h"
#include "cli/cli_fidelity.h"
#include "cli/cli_measure.h"
#include "cli/cli_option_tables.h"
#include "cli/cli_parallelize.h"
#include "cli/cli_profile.h"
#include "cli/cli_train_moves.h"
#include "base/error.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    gp::cli::printUsage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "info") return gp::cli::runInfo(args, std::cout);
    if (cmd == "zoo") return gp::cli::runZoo(args, std::cout);
    if (cmd == "evaluate") return gp::cli::runEvaluate(args, std::cout);
    if (cmd == "explain") return gp::cli::runExplain(args, std::cout);
    if (cmd == "baseline") return gp::cli::runBaseline(args, std::cout);
    if (cmd == "optimize") return gp::cli::runOptimize(args, std::cout);
    if (cmd == "pretrain") return gp::cli::runPretrain(args, std::cout);
    if (cmd == "train-moves") return gp::cli::runTrainMoves(args, std::cout);
    if (cmd == "bench") return gp::cli::runBench(args, std::cout);
    if (cmd == "profile") return gp::cli::runProfileCommand(args, std::cout);
    if (cmd == "measure") return gp::cli::runMeasure(args, std::cout);
    if (cmd == "parallelize") return gp::cli::runParallelize(args, std::cout);
    if (cmd == "pretrain-parallel") return gp::cli::runPretrainParallel(args, std::cout);
    if (cmd == "dataset") return gp::cli::runDataset(args, std::cout);
    if (cmd == "costmodel") return gp::cli::runCostModel(args, std::cout);
    if (cmd == "fidelity") return gp::cli::runFidelityCommand(args, std::cout);
    if (cmd == "--version") {
      std::cout << "graphplace-cli " GP_VERSION "\n";
      return 0;
    }
    throw std::invalid_argument("unknown command '" + cmd + "' (try --help)");
  } catch (const gp::Error& e) {
    std::cerr << "graphplace-cli: error: " << e.what() << "\n";
  } catch (const std::invalid_argument& e) {
    std::cerr << "graphplace-cli: error: " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    std::cerr << "graphplace-cli: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "graphplace-cli: error: " << e.what() << "\n";
  }
  return 1;
}

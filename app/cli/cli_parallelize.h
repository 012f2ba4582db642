// graphplace-cli parallelize: a data / tensor / pipeline parallel training plan for a model
// made of repeated layers (core/parallel): Megatron-LM's rule, pure data parallelism with
// ZeRO, the exact search and Auto-MAP's DQN, each simulated for one step — samples/s, step time, model FLOPs
// utilisation, bubble and communication shares, per-device memory. --plan FILE evaluates a
// saved plan; --out writes the best plan, --trace its pipeline as a Chrome / Perfetto trace,
// --json one object. Throws gp::Error or std::invalid_argument for bad input.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace gp::cli {

int runParallelize(const std::vector<std::string>& args, std::ostream& out);
// graphplace-cli pretrain-parallel --out FILE: pre-trains the parallel-plan DQN on synthetic
// GPT stacks (optimize/parallel_corpus.h) for --budget-seconds (120) or --episodes.
int runPretrainParallel(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gp::cli

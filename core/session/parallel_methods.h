// The parallel-plan methods by name, one table for every front end: `parallelize --method`, the
// app's Parallel Plan view, the Python module. Each runs on a stage cost model and a global
// batch and returns a ParallelResult (parallel/parallel_search.h):
//   megatron  Megatron-LM's rule: the smallest tensor x pipeline size that fits
//   dp        data parallelism on every device, over ZeRO, accumulation and recomputation
//   recipe    the closest published recipe (parallel/published_recipes.h)
//   exact     the exact search (its budget in seconds)
//   dqn       Auto-MAP's DQN (optimize/parallel_dqn.h): the pre-trained policy or from scratch
//   random    the same episodes with random actions (epsilon 1): the DQN's control
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "optimize/parallel_dqn.h"
#include "parallel/parallel_search.h"
#include "parallel/parallel_task.h"

namespace gp {

enum class ParallelMethod { Megatron, DataParallel, Recipe, Exact, Dqn, Random };

struct ParallelMethodInfo {
  ParallelMethod method;
  std::string_view name;   // "megatron": what --method takes and results are called
  std::string_view label;  // "Megatron": how a window names it (the app translates it)
  bool inAll;              // one of "all"
};

// Every method, in the order "all" runs them.
const std::vector<ParallelMethodInfo>& parallelMethodTable();
const ParallelMethodInfo& parallelMethodInfo(ParallelMethod m);
// "all", one name, or several joined by commas ("exact,recipe"), each once in the order given;
// std::invalid_argument naming --method and the names otherwise.
std::vector<ParallelMethod> parallelMethodsFrom(const std::string& text);

struct ParallelMethodOptions {
  // The exact search's budget and prunes, the knobs every method's plans keep (search.fixed)
  // and the cancel flag every method honours.
  ParallelSearchOptions search;
  DqnOptions dqn;  // the DQN's and random's episodes (its `fixed` is search.fixed)
};

ParallelResult runParallelMethod(ParallelMethod m, const StageCostModel& model, int64_t globalBatch,
                                 const ParallelMethodOptions& options, const DqnEpisodeFn& onEpisode = {});

// The plan a task is first shown with: data parallelism on every device in one stage when it
// fits, else Megatron's rule when that fits (`megatron` true), else the data-parallel plan.
struct StartingPlan {
  ParallelPlan plan;
  bool megatron = false;
};
StartingPlan startingParallelPlan(const ParallelTask& t, int64_t globalBatch);

}  // namespace gp

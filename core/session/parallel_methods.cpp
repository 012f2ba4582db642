#include "session/parallel_methods.h"

#include <algorithm>
#include <stdexcept>

#include "parallel/published_recipes.h"

namespace gp {

const std::vector<ParallelMethodInfo>& parallelMethodTable() {
  static const std::vector<ParallelMethodInfo> table = {
      {ParallelMethod::Megatron, "megatron", "Megatron", true},
      {ParallelMethod::DataParallel, "dp", "Data parallel", true},
      {ParallelMethod::Recipe, "recipe", "Published recipe", true},
      {ParallelMethod::Exact, "exact", "Exact", true},
      {ParallelMethod::Dqn, "dqn", "DQN", true},
      {ParallelMethod::Random, "random", "Random", false},
  };
  return table;
}

const ParallelMethodInfo& parallelMethodInfo(ParallelMethod m) {
  const auto& t = parallelMethodTable();
  return *std::find_if(t.begin(), t.end(), [m](const ParallelMethodInfo& i) { return i.method == m; });
}

std::vector<ParallelMethod> parallelMethodsFrom(const std::string& text) {
  const auto& table = parallelMethodTable();
  std::vector<ParallelMethod> out;
  if (text == "all") {
    for (const ParallelMethodInfo& i : table)
      if (i.inAll) out.push_back(i.method);
    return out;
  }
  size_t at = 0;
  while (true) {
    const size_t comma = text.find(',', at);
    const std::string name = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const auto it = std::find_if(table.begin(), table.end(), [&](const ParallelMethodInfo& i) { return i.name == name; });
    if (it == table.end()) {
      std::string names;
      for (const ParallelMethodInfo& i : table) names += (names.empty() ? "" : ", ") + std::string(i.name);
      throw std::invalid_argument("--method must be all, or one or more of " + names + " joined by commas; got '" + text + "'");
    }
    if (std::find(out.begin(), out.end(), it->method) == out.end()) out.push_back(it->method);
    if (comma == std::string::npos) return out;
    at = comma + 1;
  }
}

ParallelResult runParallelMethod(ParallelMethod m, const StageCostModel& model, int64_t globalBatch,
                                 const ParallelMethodOptions& o, const DqnEpisodeFn& onEpisode) {
  const FixedKnobs& fixed = o.search.fixed;
  DqnOptions dqn = o.dqn;
  dqn.fixed = fixed;
  switch (m) {
    case ParallelMethod::Megatron: return megatronPlan(model, globalBatch, fixed);
    case ParallelMethod::DataParallel: return dataParallelPlan(model, globalBatch, fixed);
    case ParallelMethod::Recipe: return recipePlan(model, globalBatch, shippedRecipes(), fixed);
    case ParallelMethod::Exact: return exactSearch(model, globalBatch, o.search);
    case ParallelMethod::Dqn: return parallelizeDqn(model, globalBatch, dqn, onEpisode, o.search.cancel);
    case ParallelMethod::Random:
      dqn.epsilonStart = dqn.epsilonEnd = 1;
      return parallelizeDqn(model, globalBatch, dqn, onEpisode, o.search.cancel);
  }
  return {};
}

StartingPlan startingParallelPlan(const ParallelTask& t, int64_t globalBatch) {
  StartingPlan s;
  s.plan.dp = std::max(1, t.c.numDevices());
  s.plan.stages = evenStages(t.stack.numLayers(), 1);
  const ParallelMeasurement first = simulateParallel(t.model, globalBatch, s.plan, {/*timeline=*/false, /*skipWhenOverMemory=*/true});
  if (first.feasible) return s;
  const ParallelResult megatron = megatronPlan(t.model, globalBatch);
  if (megatron.found && megatron.measurement.feasible) {
    s.plan = megatron.plan;
    s.megatron = true;
  }
  return s;
}

}  // namespace gp

// The plans of published LLM training runs as recipes: the plan most practitioners would pick
// for a model is the published one closest in shape, carried over to their model and GPUs.
//
// The recipes (resources/recipes/published_llm_plans.json) are the parallel runs of the fidelity
// corpus (tests/data/published/llm_training.json, whose rows cite each source), made by
// tests/data/llm_runs/make_corpus_rows.py: each run's plan in full and the shape that decides
// which is closest — parameters, GPUs, GPU generation, sequence length.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "parallel/parallel_search.h"

namespace gp {

struct PublishedRecipe {
  std::string name, source;
  std::string gpu;  // the GPU generation, "A100", "H100": matched against the cluster's device kind
  int gpus = 0;
  double parameters = 0;
  int layers = 0;
  int64_t hidden = 0, seqLen = 0, globalBatch = 0, microBatch = 0;
  ParallelPlan plan;  // its knobs as published (dp and micro-batches for its own batch), no stages
  Recompute recompute = Recompute::None;
};

// Throws gp::Error(source, ...) naming the recipe and field at fault.
std::vector<PublishedRecipe> parsePublishedRecipes(const std::string& text, const std::string& source);
// The shipped recipes (the resource folder "recipes"); throws gp::Error when the file is missing.
const std::vector<PublishedRecipe>& shippedRecipes();

// How far a recipe's run is from a model and cluster: |ln parameters ratio| + |ln GPUs ratio| +
// 0.5 |ln sequence ratio| + 0.25 when the GPU generation differs (the cluster's device kind does
// not name the recipe's GPU).
double recipeDistance(const PublishedRecipe& r, double parameters, int gpus, int64_t seqLen, const std::string& deviceKind);

// The recipe's plan on this model, cluster and global batch: its tp, cp, pp, virtual stages,
// ZeRO stage, recomputation, sequence parallelism, overlaps and micro-batch size, dp filling the
// devices, attention and FP8 as `fixed` says (as every method runs them). A degree the model or
// the cluster cannot take is lowered to the largest that can (tp dividing the heads and the
// devices, pp at most the layers, ...), and `adjusted` says which ("tp 8 -> 4"). nullopt, with
// the reason in `adjusted`, when the global batch does not split over the replicas or the plan
// breaks a rule.
std::optional<ParallelPlan> carryRecipe(const PublishedRecipe& r, const LayerStack& st, const Cluster& c, int64_t globalBatch,
                                        FixedKnobs fixed, std::string& adjusted);

// Method "recipe": the closest recipe whose plan carries over and fits memory — first as
// published, then with more recomputation (selective, full), as a practitioner would — simulated.
// The note names the recipe, its source and what was adjusted.
ParallelResult recipePlan(const StageCostModel& model, int64_t globalBatch, const std::vector<PublishedRecipe>& recipes,
                          FixedKnobs fixed = {});

}  // namespace gp

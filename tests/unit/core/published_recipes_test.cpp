// The published plans as recipes: the shipped file holds exactly the corpus's parallel runs, a
// recipe carried over to its own run is that run's plan, degrees a model cannot take are lowered
// and said, the closest recipe is the one of the same shape, and bad files are one-line errors.
#include <gtest/gtest.h>

#include <map>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "fidelity/published_corpus.h"
#include "io/model_loader.h"
#include "parallel/plan_knobs.h"
#include "parallel/published_recipes.h"
#include "test_paths.h"

using namespace gp;

namespace {

struct RunModel {
  Graph g;
  LayerStack st;
  Cluster c;
};

RunModel runModel(const PublishedRow& r) {
  LoadOptions lo;
  lo.mode = GraphMode::Inference;
  lo.precision = r.precision;
  lo.zoo.batch = 1;
  lo.zoo.seqLen = static_cast<int>(r.parallel->seqLen);
  Graph g = loadModel(r.model, lo);
  LayerStack st = detectLayerStack(g, r.model, 1);
  return {std::move(g), std::move(st), loadCluster(r.cluster)};
}

std::string errorOf(const std::string& text) {
  try {
    parsePublishedRecipes(text, "recipes.json");
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return what.substr(std::string("recipes.json: ").size());
  }
  return "no error";
}

}  // namespace

TEST(PublishedRecipes, ShippedFileHoldsTheCorpusRunsAndEachCarriesOverToItself) {
  const std::vector<PublishedRecipe>& recipes = shippedRecipes();
  std::map<std::string, const PublishedRecipe*> byName;
  for (const PublishedRecipe& r : recipes) byName[r.name] = &r;
  const std::vector<PublishedRow> rows = loadPublishedCorpus(gptest::dataPath("published/llm_training.json"));
  ASSERT_EQ(recipes.size(), rows.size());
  for (const PublishedRow& row : rows) {
    ASSERT_TRUE(byName.contains(row.name)) << row.name;
    const PublishedRecipe& r = *byName[row.name];
    ParallelPlan layout = row.parallel->plan;  // a recipe is the run's layout; the framework is the user's
    layout.training = {};
    EXPECT_TRUE(sameKnobs(r.plan, layout)) << row.name;
    EXPECT_EQ(r.recompute, row.parallel->recompute) << row.name;
    EXPECT_EQ(r.gpus, row.parallel->plan.devicesUsed()) << row.name;
    EXPECT_EQ(r.globalBatch, row.parallel->globalBatch) << row.name;
  }
  // Carried over to its own model, GPUs and batch, a recipe is the run's plan, nothing adjusted
  // (a small, a context-parallel, an interleaved and a long pipeline run).
  for (const char* name : {"narayanan2021-t1-gpt-1.7b-32xa100", "torchtitan-h100-llama3.1-8b-8gpu-tp1-pp1-cp4-seq128k",
                           "korthikanti2022-gpt-22b-selective-sp-8xa100", "narayanan2021-t1-gpt-39.1b-512xa100"}) {
    const PublishedRow* row = nullptr;
    for (const PublishedRow& x : rows)
      if (x.name == name) row = &x;
    ASSERT_NE(row, nullptr) << name;
    const RunModel m = runModel(*row);
    const PublishedRecipe& r = *byName[name];
    std::string adjusted;
    FixedKnobs fixed;
    fixed.attention = r.plan.attention, fixed.fp8 = r.plan.fp8;
    const std::optional<ParallelPlan> p = carryRecipe(r, m.st, m.c, r.globalBatch, fixed, adjusted);
    ASSERT_TRUE(p.has_value()) << name << ": " << adjusted;
    EXPECT_EQ(adjusted, "") << name;
    EXPECT_TRUE(sameKnobs(*p, r.plan)) << name << ": " << planChanges(r.plan, *p, r.globalBatch);
    // The closest recipe to a run is a run of its shape (the same model on the same GPUs at its
    // sequence: distance 0).
    EXPECT_DOUBLE_EQ(recipeDistance(r, r.parameters, r.gpus, r.seqLen, m.c.device(0).kind), 0.0) << name;
  }
}

TEST(PublishedRecipes, DegreesTheModelCannotTakeAreLoweredAndSaid) {
  PublishedRecipe r;
  r.name = "wide", r.source = "test", r.gpu = "H100";
  r.gpus = 64, r.parameters = 175e9, r.layers = 96, r.hidden = 12288, r.seqLen = 2048, r.globalBatch = 512, r.microBatch = 4;
  r.plan.dp = 1, r.plan.tp = 8, r.plan.pp = 8, r.plan.virtualStages = 12, r.plan.microbatches = 128;
  r.plan.sequenceParallel = r.plan.overlapTpComm = true;
  r.recompute = Recompute::Selective;
  // BERT-base: 12 heads (tp 8 does not divide them: 4), 12 layers (pp 8 x 12 chunks do not fit: 3).
  LoadOptions lo;
  lo.mode = GraphMode::Inference;
  lo.zoo.batch = 1;
  const Graph g = loadModel("zoo:bert_base", lo);
  const LayerStack st = detectLayerStack(g, "zoo:bert_base", 1);
  const Cluster c = loadCluster("2x8xH100-IB");
  std::string adjusted;
  const std::optional<ParallelPlan> p = carryRecipe(r, st, c, 64, {}, adjusted);
  ASSERT_TRUE(p.has_value()) << adjusted;
  EXPECT_EQ(p->tp, 4);
  EXPECT_EQ(p->pp, 4);
  EXPECT_EQ(p->dp, 1);
  EXPECT_EQ(p->virtualStages, 3);  // 4 x 3 chunks of one layer
  EXPECT_EQ(p->microbatches, 16);  // the recipe's micro-batch of 4
  EXPECT_TRUE(p->sequenceParallel && p->overlapTpComm);
  EXPECT_EQ(p->stages.front().recompute, Recompute::Selective);
  EXPECT_EQ(adjusted, "tp 8 -> 4, pp 8 -> 4, virtual stages 12 -> 3");
  // A batch that does not split over the replicas: no plan, and why.
  r.plan.tp = 1, r.plan.pp = 1;
  EXPECT_FALSE(carryRecipe(r, st, c, 17, {}, adjusted).has_value());
  EXPECT_EQ(adjusted, "global batch 17 does not split over 16 replicas");

  // The method: the closest recipe that fits, named in its note.
  const CostModel cost(g, c);
  const StageCostModel model(st, cost);
  const ParallelResult res = recipePlan(model, 64, shippedRecipes());
  ASSERT_TRUE(res.found && res.measurement.feasible) << res.note;
  EXPECT_EQ(res.method, "recipe");
  EXPECT_NE(res.note.find("the closest published plan: "), std::string::npos) << res.note;
}

TEST(PublishedRecipes, BadFilesAreOneLineErrors) {
  EXPECT_EQ(errorOf("{").rfind("not valid JSON (parse error at line 1, column 2", 0), 0u);
  EXPECT_EQ(errorOf(R"({"format": "graphplace-plan"})"), "not a recipes file (\"format\": \"graphplace-recipes\")");
  EXPECT_EQ(errorOf(R"({"format": "graphplace-recipes", "recipes": []})"), "holds no recipes");
  const std::string head = R"({"format": "graphplace-recipes", "recipes": [{"name": "a", "source": "s", "gpu": "H100", )";
  EXPECT_EQ(errorOf(head + R"("gpus": 0}]})"), "recipe 'a': \"gpus\" must be an integer in 1..1048576");
  const std::string shape = R"("gpus": 8, "layers": 2, "hidden": 64, "seq_len": 128, "global_batch": 8, "micro_batch": 1, )";
  EXPECT_EQ(errorOf(head + shape + R"("parameters": 1e6, "plan": {"dp": 8, "tp": 1, "pp": 1, "microbatches": 1, "zero": 0}}]})"),
            "recipe 'a': \"schedule\" is missing from the plan");
  EXPECT_EQ(errorOf(head + shape +
                    R"("parameters": 1e6, "plan": {"dp": 8, "tp": 1, "pp": 1, "microbatches": 1, "schedule": "1f1b", "zero": 0, )"
                    R"("recompute": "most"}}]})"),
            "recipe 'a': unknown recomputation 'most' (none, selective, full)");
}

// Parallel plans: one plan evaluation (stage costs + the pipeline step, event by event) of
// GPT-175B on 64 H100s (target <= 50 ms), and the whole exact search for GPT-13B on 16 H100s
// (target <= 60 s on 2 cores).
#include <benchmark/benchmark.h>

#include <string>

#include "optimize/parallel_corpus.h"
#include "parallel/parallel_search.h"

namespace {

// Megatron-LM's GPT-175B layout on 64 GPUs: tp 8 inside a server, 8 stages, 384 micro-batches
// of 4, sequence parallel. Arg: recomputation on every stage (0 none, 1 selective, 2 full).
void BM_EvaluatePlanGpt175bOn64Gpus(benchmark::State& state) {
  static const auto s = gp::zooParallelTask("gpt_175b", {}, "8x8xH100-IB", 1536);
  gp::ParallelPlan plan;
  plan.tp = 8, plan.pp = 8, plan.microbatches = 384, plan.sequenceParallel = true;
  plan.stages = gp::evenStages(s->stack.numLayers(), 8, static_cast<gp::Recompute>(state.range(0)));
  gp::ParallelMeasurement m;
  for (auto _ : state) {
    // A fresh cost model per plan: the stage costs are computed, not cached.
    const gp::StageCostModel model(s->stack, s->cost);
    m = gp::simulateParallel(model, 1536, plan);
    benchmark::DoNotOptimize(&m);
  }
  state.SetLabel("step " + std::to_string(m.stepTime * 1e3) + " ms" + (m.feasible ? "" : " (" + m.problem + ")"));
}
BENCHMARK(BM_EvaluatePlanGpt175bOn64Gpus)->Arg(0)->Arg(1)->Arg(2)->ArgNames({"recompute"})->Unit(benchmark::kMillisecond);

// Llama 3 405B in the Llama 3 paper's layout on 16,384 H100s (tp 8, pp 16, dp 128, 16 micro-batches
// of 1 per replica): loading the cluster is outside the loop, costing and simulating inside.
void BM_EvaluatePlanLlama405bOn16384Gpus(benchmark::State& state) {
  static const auto s = gp::zooParallelTask("llama3_405b", {1, 8192, 0, 0, 0}, "2048x8xH100-IB", 2048);
  gp::ParallelPlan plan;
  plan.dp = 128, plan.tp = 8, plan.pp = 16, plan.microbatches = 16, plan.sequenceParallel = true;
  plan.zero = 1, plan.overlapParamGather = true, plan.overlapTpComm = true;
  plan.stages = gp::evenStages(s->stack.numLayers(), 16, gp::Recompute::Full);
  gp::ParallelMeasurement m;
  for (auto _ : state) {
    const gp::StageCostModel model(s->stack, s->cost);
    m = gp::simulateParallel(model, 2048, plan);
    benchmark::DoNotOptimize(&m);
  }
  state.SetLabel("step " + std::to_string(m.stepTime * 1e3) + " ms" + (m.feasible ? "" : " (" + m.problem + ")"));
}
BENCHMARK(BM_EvaluatePlanLlama405bOn16384Gpus)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_ExactSearchGpt13bOn16Gpus(benchmark::State& state) {
  static const auto s = gp::zooParallelTask("gpt_13b", {}, "2x8xH100-IB", 512);
  gp::ParallelResult r;
  for (auto _ : state) {
    const gp::StageCostModel model(s->stack, s->cost);
    r = gp::exactSearch(model, 512);
    benchmark::DoNotOptimize(&r);
  }
  state.counters["simulated"] = static_cast<double>(r.evaluated);
  state.SetLabel(r.note);
}
BENCHMARK(BM_ExactSearchGpt13bOn16Gpus)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

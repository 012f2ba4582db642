// graphplace-cli parallelize: the documented JSON keys, a plan file that re-loads to the same
// numbers, a pipeline trace with one row per stage, and one-line errors for bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_runner.h"
#include "parallel/prediction_band.h"

namespace {

std::string tempPath(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

}  // namespace

TEST(CliParallelize, JsonHasTheDocumentedKeysAndThePlanReloadsToTheSameNumbers) {
  const std::string plan = tempPath("gp_parallel_plan.json"), trace = tempPath("gp_parallel_trace.json");
  gptest::CliRun r = gptest::runCli("parallelize zoo:bert_base --cluster 2x8xH100-IB --global-batch 64 --method exact --json --out " +
                                    plan + " --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"model", "cluster", "global_batch", "results"}) EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["global_batch"], 64);
  std::set<std::string> methods;
  for (const auto& res : j["results"]) {
    methods.insert(res["method"].get<std::string>());
    for (const char* key : {"method", "feasible", "samples_per_s", "step_time_ms", "mfu", "bubble_share", "comm_share",
                            "peak_memory_bytes", "search_seconds", "plan"})
      EXPECT_TRUE(res.contains(key)) << key;
    for (const char* key : {"dp", "tp", "pp", "cp", "virtual_stages", "microbatches", "schedule", "zero",
                            "overlap_param_gather", "stages", "recompute", "attention", "fp8", "sequence_parallel"})
      EXPECT_TRUE(res["plan"].contains(key)) << key;
    EXPECT_EQ(res["plan"]["attention"], "flash");
    EXPECT_EQ(res["plan"]["fp8"], false);
    EXPECT_EQ(res["plan"]["sequence_parallel"], res["plan"]["tp"].get<int>() > 1);
    const auto& p = res["plan"];
    EXPECT_EQ(res["peak_memory_bytes"].size(),
              p["dp"].get<size_t>() * p["cp"].get<size_t>() * p["tp"].get<size_t>() * p["pp"].get<size_t>());
    ASSERT_EQ(res["memory_per_stage"].size(), p["pp"].get<size_t>());
    const auto& m0 = res["memory_per_stage"][0];
    const int64_t parts = m0["weights"].get<int64_t>() + m0["gradients"].get<int64_t>() + m0["optimizer"].get<int64_t>() +
                          m0["activations"].get<int64_t>() + m0["nccl_buffers"].get<int64_t>() +
                          m0["cublas_workspaces"].get<int64_t>();
    EXPECT_NEAR(static_cast<double>(parts), res["peak_memory_bytes"][0].get<double>(), 6.0);
    EXPECT_EQ(m0["total"].get<int64_t>(), res["peak_memory_bytes"][0].get<int64_t>());
    EXPECT_GT(m0["cublas_workspaces"].get<int64_t>(), 0);
    // What the caching allocator reserves: the tensors and workspaces in its segments, NCCL's
    // buffers beside it.
    EXPECT_GE(m0["allocator_reserved"].get<int64_t>(), parts - m0["nccl_buffers"].get<int64_t>());
    // The step's breakdown adds up to the step.
    double sum = 0;
    for (const char* key : {"compute", "recompute", "pass_comm", "bubble", "dp_exposed", "optimizer"})
      sum += res["step_breakdown_ms"][key].get<double>();
    EXPECT_NEAR(sum, res["step_time_ms"].get<double>(), 1e-6 * res["step_time_ms"].get<double>());
    // The collectives inside the passes, by kind, add up to them.
    double kinds = 0;
    for (const char* key : {"tp", "cp", "ep", "zero3_gather"})
      kinds += res["step_breakdown_ms"]["pass_comm_by_kind"][key].get<double>();
    EXPECT_NEAR(kinds, res["step_breakdown_ms"]["pass_comm"].get<double>(), 1e-9 + 1e-6 * kinds);
    // The step's band: the simulator's error either side (prediction_band.h).
    const double step = res["step_time_ms"].get<double>();
    EXPECT_NEAR(res["step_time_band_ms"][0].get<double>(), step / (1 + gp::kStepErrorShare), 1e-9 * step);
    EXPECT_NEAR(res["step_time_band_ms"][1].get<double>(), step * (1 + gp::kStepErrorShare), 1e-9 * step);
  }
  EXPECT_EQ(methods, (std::set<std::string>{"exact"}));
  const std::string best = j["best"].get<std::string>();
  double bestStep = 0;
  for (const auto& res : j["results"])
    if (res["method"] == best) bestStep = res["step_time_ms"].get<double>();

  gptest::CliRun again = gptest::runCli("parallelize zoo:bert_base --cluster 2x8xH100-IB --plan " + plan + " --json");
  ASSERT_EQ(again.code, 0) << again.err;
  const auto k = nlohmann::json::parse(again.out);
  EXPECT_EQ(k["results"][0]["method"], "file");
  EXPECT_EQ(k["results"][0]["step_time_ms"].get<double>(), bestStep);

  std::ifstream in(trace);
  const auto t = nlohmann::json::parse(in);
  int passes = 0;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "X" && e["cat"] == "pass") ++passes;
  EXPECT_GT(passes, 0);
  std::filesystem::remove(plan);
  std::filesystem::remove(trace);
}

TEST(CliParallelize, BadInputGetsOneLine) {
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"zoo:bert_base --cluster 2x8xH100-IB", "parallelize needs --global-batch B"},
      {"zoo:bert_base --cluster 2x8xH100-IB --global-batch 64 --method fastest", "--method must be all, or one or more of"},
      {gptest::dataPath("dot/small.dot") + " --cluster 2x8xH100-IB --global-batch 64", "no repeated layer structure"},
      {"zoo:bert_base --cluster 2x8xH100-IB --global-batch 64 --budget-seconds -1", "--budget-seconds wants a positive"},
      {"zoo:bert_base --cluster 2x8xH100-IB --global-batch 64 --attention paged", "--attention must be flash, flash2 or unfused, got 'paged'"},
      {"zoo:bert_base --cluster 2x8xH100-IB --fp8 --plan p.json", "--fp8 sets how searched plans multiply; a --plan or --config file says it itself"},
      {"zoo:bert_base --cluster 2x8xH100-IB --global-batch 10 --method dp", ""},  // runs: reports why no plan
  };
  for (const Case& c : cases) {
    gptest::CliRun r = gptest::runCli("parallelize " + c.args);
    if (c.message.empty()) {
      EXPECT_EQ(r.code, 0) << c.args << ": " << r.err;
      EXPECT_NE(r.out.find("does not divide over 16 replicas"), std::string::npos) << r.out;
      continue;
    }
    EXPECT_EQ(r.code, 1) << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(CliParallelize, Fp8PlansRunTheirProductsInFp8AndRefuseGpusWithout) {
  // H100s have an FP8 rate: the plan says so, and GPT-1.3B's products are large enough for FP8
  // to outrun its casts (BERT-base's are not: its FP8 plan is slower).
  gptest::CliRun fp8 = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB --global-batch 64 --method megatron --fp8 --json");
  ASSERT_EQ(fp8.code, 0) << fp8.err;
  gptest::CliRun bf16 = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB --global-batch 64 --method megatron --json");
  ASSERT_EQ(bf16.code, 0) << bf16.err;
  const auto f = nlohmann::json::parse(fp8.out)["results"][0], b = nlohmann::json::parse(bf16.out)["results"][0];
  EXPECT_EQ(f["plan"]["fp8"], true);
  EXPECT_LT(f["step_time_ms"].get<double>(), b["step_time_ms"].get<double>());
  // A100s have none: the plan rule's one-line reason.
  gptest::CliRun a100 = gptest::runCli("parallelize zoo:bert_base --cluster 4x8xA100-IB --global-batch 64 --method megatron --fp8 --json");
  ASSERT_EQ(a100.code, 0) << a100.err;
  const auto r = nlohmann::json::parse(a100.out)["results"][0];
  EXPECT_EQ(r["feasible"], false);
  EXPECT_NE(r["problem"].get<std::string>().find("FP8 GEMMs need GPUs with an FP8 rate"), std::string::npos) << r["problem"];
}

// Methods joined by commas; the best plan beside the closest published plan: how much faster,
// which knobs differ and where the step's time moved, in text and JSON.
TEST(CliParallelize, BestPlanIsExplainedBesideTheClosestPublishedPlan) {
  const std::string cmd = "parallelize zoo:gpt_13b --cluster 2x8xH100-IB --global-batch 64 --method recipe,exact --budget-seconds 30";
  gptest::CliRun r = gptest::runCli(cmd);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\nrecipe "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the closest published plan: "), std::string::npos) << r.out;
  const size_t beside = r.out.find("beside the closest published plan (recipe): ");
  ASSERT_NE(beside, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  what changed: ", beside), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  where the time moved: ", beside), std::string::npos) << r.out;
  gptest::CliRun j = gptest::runCli(cmd + " --json");
  ASSERT_EQ(j.code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  ASSERT_TRUE(doc.contains("beside_recipe")) << j.out;
  EXPECT_GE(doc["beside_recipe"]["speedup"].get<double>(), 1.0);  // the exact search is at least as fast
  for (const char* key : {"plan", "changes", "time_moved"}) EXPECT_TRUE(doc["beside_recipe"][key].is_string()) << key;
  EXPECT_EQ(doc["results"].size(), 2u);
}

// A plan file with --method: the searched plans beside the user's own. The user's plan, data
// parallelism under ZeRO-3 with one micro-batch of 4 (68 of 76 GiB), is at out-of-memory risk; the
// best is the fastest that fits with room (the data-parallel method's own pick is one of those).
TEST(CliParallelize, PlanFileIsComparedWithTheSearchedPlans) {
  const std::string plan = tempPath("gp_parallel_own_plan.json");
  gptest::CliRun own = gptest::runCli("parallelize zoo:gpt_13b --cluster 2x8xH100-IB --global-batch 64 --method dp --out " + plan);
  ASSERT_EQ(own.code, 0) << own.err;
  {
    std::ifstream in(plan);
    nlohmann::json p = nlohmann::json::parse(in);
    EXPECT_EQ(p["plan"]["zero"], 2);  // the data-parallel method's pick fits with room
    p["plan"]["zero"] = 3, p["plan"]["microbatches"] = 1;
    std::ofstream(plan) << p.dump(2);
  }
  gptest::CliRun r = gptest::runCli("parallelize zoo:gpt_13b --cluster 2x8xH100-IB --plan " + plan + " --method exact --budget-seconds 30");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\nfile "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nexact "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("beside your plan (file): "), std::string::npos) << r.out;
  gptest::CliRun j = gptest::runCli("parallelize zoo:gpt_13b --cluster 2x8xH100-IB --plan " + plan + " --method exact --json");
  ASSERT_EQ(j.code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["best"], "exact");
  const double speedup = doc["beside_file"]["speedup"].get<double>();
  EXPECT_TRUE(doc["beside_file"]["other_at_memory_risk"].get<bool>());
  EXPECT_NE(r.out.find("  it fits with room to spare, where your plan (file) is at out-of-memory risk\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(doc["beside_file"]["plan"], plan);
  // Called a gain only beyond the simulator's own error, and the text says which.
  EXPECT_EQ(doc["beside_file"]["beyond_band"].get<bool>(), speedup > 1 + gp::kStepErrorShare);
  EXPECT_EQ(doc["beside_file"]["band_share"].get<double>(), gp::kStepErrorShare);
  EXPECT_NE(r.out.find(speedup > 1 + gp::kStepErrorShare ? "  beyond the ±21 % a simulated step may be off\n"
                                                      : "  within the ±21 % a simulated step may be off: not a gain"),
            std::string::npos)
      << r.out;
  std::filesystem::remove(plan);
}

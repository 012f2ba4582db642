// graphplace-cli dataset make | merge and costmodel train | eval | predict as a user runs them:
// a small model measured on this CPU (one repeat, a few kernels, two random plans), a model
// trained on it, the scores and the issue's eval JSON, and one-line errors for bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace {

std::string tmp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gp_cli_costmodel_" + name)).string();
}

// ResNet-26 at width 8, batch 1: a few milliseconds a run.
const std::string kModel = "zoo:resnet50 --batch 1 --layers 26 --hidden 8";

}  // namespace

TEST(CliCostModel, MakesTrainsEvaluatesAndPredicts) {
  const std::string k = tmp("k.json"), p = tmp("p.json"), km = tmp("k.pt"), pm = tmp("p.pt"), fit = tmp("fit.json");
  gptest::CliRun r = gptest::runCli("dataset make " + kModel + " --kernels " + k + " --plans " + p +
                                    " --max-kernels 6 --plan-configs 2 --repeats 1 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("6 kernels, 1 plan graphs"), std::string::npos) << r.out;
  const auto kj = nlohmann::json::parse(std::ifstream(k));
  EXPECT_EQ(kj["format"], "graphplace-costmodel-dataset");
  EXPECT_EQ(kj["graphs"].size(), 6u);
  EXPECT_EQ(kj["graphs"][0]["family"], "resnet");
  EXPECT_EQ(kj["repeats"], 1);

  r = gptest::runCli("costmodel train " + k + " --out " + km + " --epochs 3 --roofline-out " + fit + " --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["epochs"], 3);
  r = gptest::runCli("costmodel train " + p + " --out " + pm + " --epochs 2 --segment-nodes 40 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;

  r = gptest::runCli("costmodel eval " + k + " --model " + km + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto e = nlohmann::json::parse(r.out);
  EXPECT_EQ(e["task"], "kernel");
  EXPECT_EQ(e["n"], 6);
  for (const char* model : {"learned", "roofline"})
    for (const char* key : {"kendall_tau", "opa", "top1_slowdown", "top5_slowdown", "top10_slowdown", "global_kendall_tau"})
      EXPECT_TRUE(e[model].contains(key)) << model << " " << key;

  r = gptest::runCli("costmodel predict " + k + " --model " + km + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto pr = nlohmann::json::parse(r.out);
  ASSERT_EQ(pr.size(), 6u);
  EXPECT_EQ(pr[0]["predicted_seconds"].size(), pr[0]["measured_seconds"].size());

  // the issue's command on a model, with these files in place of the shipped ones
  r = gptest::runCli("costmodel eval " + kModel + " --device cpu --max-kernels 4 --plan-configs 2 --repeats 1 --quiet" +
                     " --kernel-model " + km + " --plan-model " + pm + " --roofline " + fit + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  e = nlohmann::json::parse(r.out);
  EXPECT_EQ(e["kernel"]["n"], 4);
  for (const char* key : {"kendall_tau", "opa"}) {
    EXPECT_TRUE(e["kernel"][key].contains("learned"));
    EXPECT_TRUE(e["kernel"][key].contains("roofline"));
  }
  EXPECT_EQ(e["plan"]["n"], 4);  // all canonical, all alternative, 2 random
  for (const char* key : {"kendall_tau", "top1_slowdown"})
    for (const char* model : {"learned", "roofline", "kernel_sum"}) EXPECT_TRUE(e["plan"][key][model].is_number()) << key << model;
  // the simulator on the cpu cluster against the step run here; the kernel model was measured
  // on this CPU, so it gives op times
  const auto& step = e["step"];
  EXPECT_GT(step["measured_ms"].get<double>(), 0);
  EXPECT_GT(step["simulated_ms"]["roofline"].get<double>(), 0);
  EXPECT_GT(step["simulated_ms"]["learned"].get<double>(), 0);
  EXPECT_GT(step["learned_op_times"].get<int>(), 0);
  EXPECT_NEAR(step["error"]["learned"].get<double>(),
              step["simulated_ms"]["learned"].get<double>() / step["measured_ms"].get<double>() - 1, 1e-9);

  // --costs learned:FILE: the kernel model gives every op time on this CPU's cluster
  r = gptest::runCli("evaluate " + kModel + " --mode inference --cluster cpu --costs learned:" + km + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto ev = nlohmann::json::parse(r.out);
  EXPECT_EQ(ev["cluster"], "cpu");
  EXPECT_TRUE(ev["calibration"]["file"].is_null());
  EXPECT_EQ(ev["calibration"]["learned"]["file"], km);
  const int predicted = ev["calibration"]["learned"]["predicted_op_times"].get<int>();
  EXPECT_GT(predicted, 0);
  EXPECT_EQ(ev["calibration"]["calibrated_op_times"].get<int>(), predicted);
  const double learnedStep = ev["step_time_ms"].get<double>();
  r = gptest::runCli("evaluate " + kModel + " --mode inference --cluster cpu --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(nlohmann::json::parse(r.out)["step_time_ms"].get<double>(), learnedStep);
  r = gptest::runCli("evaluate " + kModel + " --mode inference --cluster cpu --costs learned:" + km);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("calibration: learned " + km + " ("), std::string::npos) << r.out;
  // on a GPU cluster it predicts nothing, and says so
  r = gptest::runCli("baseline " + kModel + " --cluster 2xK80 --method m_topo --costs learned:" + km + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("so it predicts nothing"), std::string::npos) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["calibration"]["learned"]["predicted_op_times"], 0);
  // a plan-task model cannot give op times
  r = gptest::runCli("evaluate " + kModel + " --cluster cpu --costs learned:" + pm);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(pm + ": a plan-task model"), std::string::npos) << r.err;

  // a search measuring the 2 of 5 candidates the plan model predicts fastest, against all 5
  r = gptest::runCli("costmodel screen " + kModel + " --device cpu --candidates 5 --screen 2 --repeats 1 --plan-model " +
                     pm + " --kernel-model " + km + " --roofline " + fit + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  e = nlohmann::json::parse(r.out);
  EXPECT_EQ(e["candidates"], 5);
  for (const char* model : {"learned", "kernel_sum", "roofline", "random"}) {
    EXPECT_EQ(e[model]["evaluations"], 2);
    EXPECT_GE(e[model]["best_seconds"].get<double>(), e["best_seconds"].get<double>());
    EXPECT_GE(e[model]["slowdown"].get<double>(), 0);
    EXPECT_GE(e[model]["evaluations_to_within_1pct"].get<int>(), 1);
    EXPECT_LE(e[model]["evaluations_to_within_1pct"].get<int>(), 5);
  }
  // the shipped models load and predict
  r = gptest::runCli("costmodel eval " + k + " --model " + gptest::dataPath("../../resources/costmodels/cpu_kernel.pt") + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
  for (const std::string& f : {k, p, km, pm, fit}) std::filesystem::remove(f);
}

TEST(CliCostModel, BadInputGetsOneLine) {
  auto oneLine = [](const gptest::CliRun& r, const std::string& needle) {
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  };
  oneLine(gptest::runCli("costmodel train /nonexistent/d.json --out /tmp/x.pt"), "/nonexistent/d.json");
  oneLine(gptest::runCli("costmodel train --tpugraphs /nonexistent --out /tmp/x.pt"), "--tpugraphs needs --task tile or --task layout");
  oneLine(gptest::runCli("costmodel train --tpugraphs /nonexistent --task layout --out /tmp/x.pt"), "/nonexistent");
  oneLine(gptest::runCli("costmodel eval x.json"), "needs --model");
  oneLine(gptest::runCli("costmodel frobnicate"), "usage: costmodel train|eval|predict|screen");
  oneLine(gptest::runCli("dataset make zoo:resnet50"), "--kernels FILE and/or --plans FILE");
  const std::string bad = tmp("bad.json");
  std::ofstream(bad) << "{\"format\": \"graphplace-costmodel-dataset\", \"version\": 1, \"task\": \"kernel\", "
                        "\"node_width\": 2, \"config_width\": 1, \"opcodes\": [\"A\"], \"graphs\": [{\"name\": \"g\", "
                        "\"opcode\": [0], \"node_features\": [1], \"config_features\": [1], \"runtime\": [1e-3]}]}";
  oneLine(gptest::runCli("costmodel train " + bad + " --out /tmp/x.pt"), "1 node features, expected 1 nodes x width 2");
  oneLine(gptest::runCli("costmodel eval zoo:resnet50 --device gpu"), "--device must be cpu");
  // a missing model is reported before anything is measured
  oneLine(gptest::runCli("costmodel eval zoo:resnet50 --device cpu --kernel-model /nonexistent/k.pt"),
          "/nonexistent/k.pt: no such cost-model file");
  oneLine(gptest::runCli("evaluate zoo:resnet50 --cluster cpu --costs learned"), "--costs must be roofline or learned:FILE");
  oneLine(gptest::runCli("evaluate zoo:resnet50 --cluster cpu --costs learned:/nonexistent/k.pt"),
          "/nonexistent/k.pt: no such cost-model file");
  oneLine(gptest::runCli("evaluate zoo:resnet50 --cluster cpu --costs learned:" + bad), bad + ":");
  std::filesystem::remove(bad);
}

// TpuGraphs mode on a small layout collection in TpuGraphs' own format (written with numpy, as
// TpuGraphs writes its files): train/ and valid/, its protocol's configuration subsampling, the
// collection named from the path after "npz".
TEST(CliCostModel, TrainsAndScoresATpuGraphsCollection) {
  const std::filesystem::path root = std::filesystem::temp_directory_path() / "gp_cli_tpugraphs" / "npz" / "layout" / "xla" / "random";
  std::filesystem::remove_all(root.parent_path().parent_path().parent_path());
  std::filesystem::create_directories(root / "train");
  std::filesystem::create_directories(root / "valid");
  // Debian's python3 (scripts/setup.sh installs python3-numpy for it), not one earlier on PATH
  const std::string script = R"(/usr/bin/python3 - ")" + root.string() + R"(" <<'PY'
import sys, numpy as np
root = sys.argv[1]
rng = np.random.default_rng(0)
for split, names in (("train", ["resnet_a", "bert_b", "unet_c"]), ("valid", ["mask_d"])):
    for name in names:
        n, nc, c = 30, 6, 40
        w = rng.normal(size=nc)
        cfg = rng.integers(0, 2, size=(c, nc, 18)).astype(np.float32)
        runtime = (1e6 * (10 + cfg[:, :, 0] @ w + 0.5 * cfg[:, :, 1].sum(1))).astype(np.int64)
        runtime -= runtime.min() - 1000
        np.savez(f"{root}/{split}/{name}.npz",
                 node_feat=rng.normal(size=(n, 140)).astype(np.float32),
                 node_opcode=rng.integers(1, 120, size=n).astype(np.uint8),
                 edge_index=np.array([[i + 1, i] for i in range(n - 1)], dtype=np.int64),
                 node_config_ids=np.arange(nc, dtype=np.int64) * 4,
                 node_config_feat=cfg, config_runtime=runtime,
                 node_splits=np.array([[0, 15]], dtype=np.int64))
PY)";
  ASSERT_EQ(std::system(script.c_str()), 0);
  const std::string model = tmp("tpu.pt");
  gptest::CliRun r = gptest::runCli("costmodel train --tpugraphs " + root.string() + " --task layout --out " + model +
                                    " --epochs 3 --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["graphs"], 3);
  r = gptest::runCli("costmodel eval --tpugraphs " + root.string() + " --task layout --model " + model +
                     " --configs-per-graph 20 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto e = nlohmann::json::parse(r.out);
  EXPECT_EQ(e["collection"], "tpugraphs:layout:xla:random");
  EXPECT_EQ(e["task"], "plan");
  EXPECT_EQ(e["n"], 1);
  EXPECT_EQ(e["samples"], 20);
  EXPECT_TRUE(e["learned"].contains("kendall_tau"));
  EXPECT_FALSE(e.contains("roofline"));  // TpuGraphs' data has no analytic fields
  std::filesystem::remove_all(root.parent_path().parent_path().parent_path());
  std::filesystem::remove(model);
}

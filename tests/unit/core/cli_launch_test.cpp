// graphplace-cli parallelize --export megatron / --config FILE: the best plan written as
// Megatron-LM arguments reads back as the same plan with the same step, and bad launch
// configurations get one line naming the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_runner.h"

namespace {

std::string tempPath(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(CliLaunch, TheExportedPlanReadsBackAsTheSamePlan) {
  const std::string args = tempPath("gp_megatron_args.sh");
  std::filesystem::remove(args);
  gptest::CliRun searched = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB --global-batch 64 --method exact --json "
                                           "--export megatron --out " + args);
  ASSERT_EQ(searched.code, 0) << searched.err;
  const auto s = nlohmann::json::parse(searched.out);
  const auto& best = s["results"][0];
  const std::string text = readAll(args);
  EXPECT_TRUE(text.starts_with("#!/usr/bin/env bash\n"));
  EXPECT_NE(text.find("--tensor-model-parallel-size " + std::to_string(best["plan"]["tp"].get<int>())), std::string::npos);
  EXPECT_NE(text.find("--global-batch-size 64"), std::string::npos);
  EXPECT_NE(text.find("pretrain_gpt.py \"${GRAPHPLACE_ARGS[@]}\""), std::string::npos);

  gptest::CliRun back = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB --config " + args + " --json");
  ASSERT_EQ(back.code, 0) << back.err;
  const auto b = nlohmann::json::parse(back.out);
  EXPECT_EQ(b["global_batch"], 64);
  ASSERT_EQ(b["results"].size(), 1u);
  const auto& mine = b["results"][0];
  EXPECT_EQ(mine["method"], "file");
  EXPECT_EQ(mine["plan"], best["plan"]);
  EXPECT_DOUBLE_EQ(mine["step_time_ms"].get<double>(), best["step_time_ms"].get<double>());

  // Beside the searched plans, the configuration is the best found.
  gptest::CliRun beside = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB --config " + args + " --method exact");
  ASSERT_EQ(beside.code, 0) << beside.err;
  EXPECT_NE(beside.out.find("your plan (file) is the best found"), std::string::npos) << beside.out;
}

// Each framework's file of the best data-parallel plan reads back with its replicas and batch
// (torchtitan writes ZeRO-1 / 2 as FSDP, and its TOML gradient accumulation as one batch: said
// inexact).
TEST(CliLaunch, EveryFormatRoundTrips) {
  for (const char* format : {"torchtitan", "torchtitan-py", "deepspeed"}) {
    const std::string file = tempPath(std::string("gp_launch_").append(format).c_str());
    gptest::CliRun searched = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB --global-batch 64 --method dp --json "
                                             "--export " + std::string(format) + " --out " + file);
    ASSERT_EQ(searched.code, 0) << searched.err;
    const auto best = nlohmann::json::parse(searched.out)["results"][0];
    gptest::CliRun back = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB --config " + file + " --json");
    ASSERT_EQ(back.code, 0) << format << ": " << back.err;
    const auto mine = nlohmann::json::parse(back.out)["results"][0];
    EXPECT_EQ(mine["plan"]["dp"], best["plan"]["dp"]) << format;
    EXPECT_EQ(nlohmann::json::parse(back.out)["global_batch"], 64) << format;
    if (std::string(format) != "torchtitan") {  // the TOML's torchtitan has no gradient accumulation
      EXPECT_EQ(mine["plan"]["microbatches"], best["plan"]["microbatches"]) << format;
    }
    if (std::string(format) == "deepspeed") {
      EXPECT_EQ(mine["plan"]["zero"], best["plan"]["zero"]);
    }
  }
}

TEST(CliLaunch, BadLaunchConfigurationsGetOneLine) {
  const std::string json = tempPath("gp_not_megatron.json"), mismatch = tempPath("gp_megatron_mismatch.sh");
  std::ofstream(json) << "{\"optimizer\": {\"type\": \"AdamW\"}}\n";
  std::ofstream(mismatch) << "--num-layers 80 --micro-batch-size 1 --global-batch-size 64\n";
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--global-batch 64 --export yaml --out x.sh", "--export writes megatron, nemo, nemo1, torchtitan, torchtitan-py, deepspeed, got 'yaml'"},
      {"--global-batch 64 --export megatron", "--export needs --out FILE"},
      {"--config " + json, json + ": not a DeepSpeed configuration"},
      {"--config " + mismatch, mismatch + ": --num-layers 80 but the model has 24 layers"},
      {"--config " + mismatch + " --plan p.json", "--plan and --config exclude each other"},
      {"--config " + tempPath("gp_absent_args.sh"), "gp_absent_args.sh"},
  };
  for (const Case& c : cases) {
    gptest::CliRun r = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB " + c.args);
    EXPECT_EQ(r.code, 1) << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// The frameworks' own published example configurations (tests/data/launch/published, each with
// its source in manifest.json; scripts/launch-examples.sh sets their simulated throughput beside
// the published figures): every one reads as a plan with the world size it names.
TEST(CliLaunch, PublishedExampleConfigurationsImport) {
  const auto manifest = nlohmann::json::parse(readAll(gptest::dataPath("launch/published/manifest.json")));
  ASSERT_GE(manifest.size(), 20u);
  std::set<std::string> frameworks;
  for (const auto& e : manifest) {
    // paths in the manifest are from the project root; the tests run elsewhere
    auto rooted = [](std::string spec) {
      if (const size_t at = spec.find("tests/data/"); at != std::string::npos) spec.replace(at, 11, gptest::dataPath(""));
      return spec;
    };
    const std::string model = rooted(e["model"]), cluster = rooted(e["cluster"]);
    const std::string file = gptest::dataPath("launch/published/" + e["file"].get<std::string>());
    gptest::CliRun r = gptest::runCli("parallelize " + model + " --cluster " + cluster + " --seq-len " +
                                      std::to_string(e["seq_len"].get<int>()) + " --config " + file + " --json");
    ASSERT_EQ(r.code, 0) << file << ": " << r.err;
    const auto mine = nlohmann::json::parse(r.out)["results"][0];
    EXPECT_EQ(mine["method"], "file") << file;
    EXPECT_GT(mine["samples_per_s"].get<double>(), 0) << file;
    frameworks.insert(e["framework"].get<std::string>());
  }
  EXPECT_EQ(frameworks, (std::set<std::string>{"deepspeed", "megatron", "nemo", "torchtitan", "torchtitan-py"}));
}

// A configuration is simulated in the precision it trains in: on V100s, a Megatron-LM line
// without --fp16 runs fp32 without tensor cores; --precision may only agree with the file.
TEST(CliLaunch, TheConfigurationsOwnPrecisionIsSimulated) {
  const std::string fp16 = tempPath("gp_megatron_fp16.sh"), fp32 = tempPath("gp_megatron_fp32.sh");
  gptest::CliRun exported = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 8xV100-DGX1 --global-batch 16 --method megatron "
                                           "--export megatron --out " + fp16);
  ASSERT_EQ(exported.code, 0) << exported.err;
  std::string text = readAll(fp16);
  const size_t at = text.find("  --fp16\n");  // a V100 trains in fp16 by default: it has no bf16 rate
  ASSERT_NE(at, std::string::npos) << text;
  std::ofstream(fp32) << text.replace(at, 9, "");

  auto run = [](const std::string& file, const std::string& extra = "") {
    gptest::CliRun r = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 8xV100-DGX1 --config " + file + " --json" + extra);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out)["results"][0] : nlohmann::json();
  };
  const auto half = run(fp16), full = run(fp32);
  EXPECT_NE(half["note"].get<std::string>().find("trains in fp16 (--fp16)"), std::string::npos) << half["note"];
  EXPECT_NE(full["note"].get<std::string>().find("trains in fp32 (no --bf16 or --fp16)"), std::string::npos) << full["note"];
  EXPECT_GT(full["step_time_ms"].get<double>(), 2 * half["step_time_ms"].get<double>());
  EXPECT_EQ(run(fp16, " --precision fp16")["step_time_ms"], half["step_time_ms"]);

  gptest::CliRun clash = gptest::runCli("parallelize zoo:gpt_1_3b --cluster 8xV100-DGX1 --config " + fp16 + " --precision bf16");
  EXPECT_EQ(clash.code, 1);
  EXPECT_EQ(clash.err, "graphplace-cli: error: " + fp16 + ": the configuration trains in fp16 (--fp16), not the bf16 of --precision\n");
}

// graphplace-cli pretrain --corpus as a user runs it: a small corpus file with a held-out
// family trains, evaluates the held-out graphs zero-shot (the learning curve in --json) and
// writes a policy and a session that --resume continues; a bad corpus is a one-line error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace {

nlohmann::json lastJson(const gptest::CliRun& r) {
  const auto start = r.out.rfind("\n{");
  return nlohmann::json::parse(start == std::string::npos ? r.out : r.out.substr(start + 1));
}

std::string write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST(CliPretrain, CorpusWithAHeldOutFamily) {
  const auto dir = std::filesystem::temp_directory_path() / "gp_cli_pretrain_test";
  std::filesystem::create_directories(dir);
  const std::string corpus = write(dir / "corpus.json", R"({
    "format": "graphplace-corpus", "version": 1,
    "families": {
      "random": [{"model": "zoo:random_dag", "layers": 6, "hidden": 2, "graph_seed": [1, 2], "batch": 8}],
      "resnet": [{"model": "zoo:resnet50", "layers": 26, "hidden": 16, "batch": 8}]},
    "held_out": ["resnet"],
    "clusters": ["random:1:2", "random:2:4"],
    "clusters_per_graph": 1,
    "eval_clusters": ["4xP100-PCIe"]})");
  const std::string policy = (dir / "p.pt").string(), session = (dir / "s.pt").string();
  gptest::CliRun r = gptest::runCli("pretrain --corpus " + corpus + " --rounds 2 --eval-every 1 --samples 2 --threads 2 "
                                    "--json --checkpoint " + session + " --out " + policy);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = lastJson(r);
  EXPECT_EQ(j["rounds"], 2);
  ASSERT_EQ(j["tasks"].size(), 3u);  // two random graphs on one cluster each, resnet held out on one
  EXPECT_FALSE(j["tasks"][0]["held_out"].get<bool>());
  EXPECT_TRUE(j["tasks"][2]["held_out"].get<bool>());
  EXPECT_NE(j["tasks"][2]["task"].get<std::string>().find("resnet: zoo:resnet50"), std::string::npos);
  // never worse than the best baseline it starts from
  EXPECT_LE(j["tasks"][2]["best_step_time_ms"].get<double>(), j["tasks"][2]["start_step_time_ms"].get<double>());
  ASSERT_EQ(j["curve"].size(), 3u);  // rounds 0, 1, 2
  EXPECT_EQ(j["curve"][2]["round"], 2);
  ASSERT_TRUE(std::filesystem::exists(policy));
  // the session continues; the policy is one optimize accepts
  gptest::CliRun more = gptest::runCli("pretrain --corpus " + corpus + " --rounds 1 --eval-every 1 --samples 2 "
                                       "--threads 2 --json --resume " + session + " --out " + policy);
  ASSERT_EQ(more.code, 0) << more.err;
  EXPECT_EQ(lastJson(more)["rounds"], 3);
  EXPECT_EQ(lastJson(more)["curve"].size(), 4u);
  gptest::CliRun zero = gptest::runCli("optimize zoo:resnet50 --layers 26 --hidden 16 --batch 8 --cluster 4xP100-PCIe "
                                       "--iterations 0 --threads 2 --json --policy " + policy);
  ASSERT_EQ(zero.code, 0) << zero.err;
  EXPECT_TRUE(lastJson(zero)["feasible"].get<bool>());
  std::filesystem::remove_all(dir);
}

TEST(CliPretrain, BadCorpusIsAOneLineError) {
  const auto dir = std::filesystem::temp_directory_path() / "gp_cli_pretrain_bad";
  std::filesystem::create_directories(dir);
  const std::string out = (dir / "p.pt").string();
  const std::string corpus = write(dir / "corpus.json", R"({"format": "graphplace-corpus", "version": 1,
    "families": {"a": [{"model": "zoo:rnnlm", "layers": []}]}, "clusters": ["4xP100-PCIe"]})");
  gptest::expectCliError("pretrain --corpus " + corpus + " --out " + out,
                         corpus + ": families.a[0].layers: empty list");
  const std::string missing = write(dir / "missing.json", R"({"format": "graphplace-corpus", "version": 1,
    "families": {"a": ["no_such_model.onnx"]}, "clusters": ["4xP100-PCIe"]})");
  const gptest::CliRun r = gptest::runCli("pretrain --corpus " + missing + " --out " + out);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no_such_model.onnx"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  gptest::expectCliError("pretrain --corpus " + corpus + " --models zoo:rnnlm --out " + out,
                         "pretrain --corpus takes no --models");
  gptest::expectCliError("pretrain --method genetic --out " + out, "--method wants expert or ppo, got 'genetic'");
  std::filesystem::remove_all(dir);
}

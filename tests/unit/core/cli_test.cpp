// graphplace-cli as a user runs it: exit codes, one-line errors, --json output.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <fstream>
#include <nlohmann/json.hpp>

#include "io/json_io.h"
#include "test_graphs.h"
#include "cli_runner.h"
#include "test_paths.h"

namespace {

std::string writeTemp(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST(Cli, InfoNamesSymbolicDimsAndEstimatedOps) {
  const std::string mlp = gptest::dataPath("onnx/mlp.onnx");
  gptest::CliRun r = gptest::runCli("info " + mlp + " --json --dim batch=4");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["symbolic_dims"].size(), 1u);
  EXPECT_EQ(j["symbolic_dims"][0]["name"], "batch");
  EXPECT_EQ(j["symbolic_dims"][0]["value"], 4);
  EXPECT_EQ(j["symbolic_dims"][0]["bound"], true);
  EXPECT_TRUE(j["estimated_ops"].empty());
  EXPECT_DOUBLE_EQ(j["flops_by_type"]["Gemm"].get<double>(),
                   4 * ((2.0 * 64 * 256 + 256) + (2.0 * 256 * 256 + 256) + (2.0 * 256 * 10 + 10)));
  EXPECT_EQ(r.err, "");

  r = gptest::runCli("info " + mlp);
  EXPECT_NE(r.out.find("batch=1 (default; --dim batch=N)"), std::string::npos) << r.out;

  r = gptest::runCli("info " + mlp + " --dim batch=0");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("--dim batch: the value must be a positive integer"), std::string::npos) << r.err;
  r = gptest::runCli("info " + mlp + " --dim seq=8");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--dim seq: the model's inputs have no symbolic dimension of that name (they have: batch)"),
            std::string::npos)
      << r.err;

  // unknown shapes: it opens, says so on stderr in one line, and lists the ops
  r = gptest::runCli("info " + gptest::dataPath("malformed/missing_shape.onnx") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("graphplace-cli: warning: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cost is estimated: 'relu' (Relu), 'matmul' (MatMul)"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["estimated_ops"], (nlohmann::json::array({"relu", "matmul"})));
}

TEST(Cli, InfoJsonIsOneObjectWithTheKeys) {
  std::string path = writeTemp("gp_cli_mlp.json", gp::graphToJson(gptest::smallMlp()));
  gptest::CliRun r = gptest::runCli("info " + path + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["ops"], 4);
  EXPECT_EQ(j["edges"], 2);
  EXPECT_DOUBLE_EQ(j["flops"].get<double>(), 2.0 * 32 * 64 * 128 + 32 * 128 + 2.0 * 32 * 128 * 10);
  EXPECT_EQ(j["param_bytes"], (64 * 128 + 128 * 10) * 4);
  EXPECT_EQ(j["op_types"]["MatMul"], 2);
  EXPECT_EQ(j["mode"], "inference");
  EXPECT_EQ(j["scope_depth"], 1);
  std::filesystem::remove(path);
}

TEST(Cli, TrainingModeDerivesBackward) {
  std::string path = writeTemp("gp_cli_mlp2.json", gp::graphToJson(gptest::smallMlp()));
  gptest::CliRun r = gptest::runCli("info " + path + " --mode training --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "training");
  EXPECT_GT(j["backward_ops"].get<int>(), 0);
  EXPECT_EQ(j["update_ops"], 2);
  std::filesystem::remove(path);
}

TEST(Cli, BadInputIsOneLineNamingTheFileAndExitCode1) {
  std::string bad = writeTemp("gp_cli_bad.json", "{\"format\": \"graphplace-graph\", \"ops\": [");
  const std::pair<std::string, std::string> cases[] = {
      {"info " + bad, bad + ": not valid JSON"},
      {"info /nonexistent/model.onnx", "/nonexistent/model.onnx: no such file"},
      {"info " + bad.substr(0, bad.rfind('/')), "is a directory"},
      {"info model.xyz", "model.xyz: "},
      {"info zoo:nosuchmodel", "zoo:nosuchmodel"},
      {"info " + bad + " --mode sideways", "--mode must be"},
      {"info zoo:resnet50 --batch -3", "--batch needs a positive integer"},
      {"info x.pt --input-shape 1xAx3", "--input-shape"},
      {"info", "exactly one MODEL"},
      {"frobnicate", "unknown command"},
      {"zoo export resnet50", "--out"},
  };
  for (const auto& [args, expect] : cases) gptest::expectCliError(args, expect);
  std::filesystem::remove(bad);
}

TEST(Cli, ZooListAndExportRoundTrip) {
  gptest::CliRun list = gptest::runCli("zoo list --json");
  ASSERT_EQ(list.code, 0) << list.err;
  auto models = nlohmann::json::parse(list.out);
  ASSERT_EQ(models.size(), 21u);
  std::set<std::string> names, llms;
  for (const auto& m : models) {
    names.insert(m["name"].get<std::string>());
    if (m["llm"].get<bool>()) llms.insert(m["name"].get<std::string>());
  }
  EXPECT_EQ(names, (std::set<std::string>{"amoebanet", "bert_base", "gnmt", "inception_v3", "nmt", "random_dag",
                                          "resnet50", "rnnlm", "transformer_xl", "wavenet", "gpt_1_3b", "gpt_6_7b",
                                          "gpt_13b", "gpt_30b", "gpt_175b", "t5_base", "moe_1_3b_64e", "llama3_8b",
                                          "llama3_70b", "llama3_405b", "mixtral_8x7b"}));
  EXPECT_EQ(llms, (std::set<std::string>{"gpt_1_3b", "gpt_6_7b", "gpt_13b", "gpt_30b", "gpt_175b", "t5_base",
                                         "moe_1_3b_64e", "llama3_8b", "llama3_70b", "llama3_405b", "mixtral_8x7b"}));
  auto out = std::filesystem::temp_directory_path() / "gp_cli_resnet50.json";
  gptest::CliRun exp = gptest::runCli("zoo export resnet50 --batch 1 --out " + out.string());
  ASSERT_EQ(exp.code, 0) << exp.err;
  gptest::CliRun viaFile = gptest::runCli("info " + out.string() + " --json");
  gptest::CliRun viaZoo = gptest::runCli("info zoo:resnet50 --batch 1 --json");
  ASSERT_EQ(viaFile.code, 0) << viaFile.err;
  auto a = nlohmann::json::parse(viaFile.out), b = nlohmann::json::parse(viaZoo.out);
  for (const char* key : {"ops", "edges", "flops", "param_bytes", "op_types", "mode"}) EXPECT_EQ(a[key], b[key]) << key;
  EXPECT_EQ(a["mode"], "training");  // the exported zoo model is its training step
  std::filesystem::remove(out);
}

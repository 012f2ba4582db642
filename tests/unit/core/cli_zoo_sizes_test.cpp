// graphplace-cli with --layers / --hidden / --graph-seed and --cluster random:SEED[:DEVICES].
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "io/model_loader.h"

TEST(CliZooSizes, SizeOptionsReachTheZooAndTheModelHash) {
  gptest::CliRun small = gptest::runCli("info zoo:random_dag --layers 6 --hidden 2 --graph-seed 3 --batch 2 --json");
  gptest::CliRun large = gptest::runCli("info zoo:random_dag --layers 60 --hidden 6 --graph-seed 3 --batch 2 --json");
  ASSERT_EQ(small.code, 0) << small.err;
  ASSERT_EQ(large.code, 0) << large.err;
  EXPECT_LT(nlohmann::json::parse(small.out)["ops"], nlohmann::json::parse(large.out)["ops"]);
  gptest::CliRun bert = gptest::runCli("info zoo:bert_base --layers 2 --hidden 128 --batch 1 --seq-len 8 --json");
  ASSERT_EQ(bert.code, 0) << bert.err;
  EXPECT_EQ(nlohmann::json::parse(bert.out)["op_types"]["Softmax"], 2);

  gp::LoadOptions plain, sized;
  sized.zoo.layers = 2;
  EXPECT_NE(gp::modelSha256("zoo:rnnlm", plain), gp::modelSha256("zoo:rnnlm", sized));
  sized.zoo = {};
  sized.zoo.seed = 4;
  EXPECT_NE(gp::modelSha256("zoo:random_dag", plain), gp::modelSha256("zoo:random_dag", sized));
}

TEST(CliZooSizes, RandomClustersAndBadValues) {
  gptest::CliRun r =
      gptest::runCli("baseline zoo:random_dag --layers 6 --batch 2 --cluster random:5:4 --method expert --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("random-5-4gpu"), std::string::npos) << r.out;

  const std::pair<const char*, const char*> cases[] = {
      {"info zoo:inception_v3 --layers 3", "zoo:inception_v3: layers is not a parameter of inception_v3"},
      {"info zoo:resnet50 --layers 34", "must be one of 26/38/50/101/152"},
      {"info zoo:random_dag --graph-seed x", "--graph-seed needs a whole number"},
      {"info zoo:rnnlm --graph-seed 2", "seed is not a parameter of rnnlm"},
      {"evaluate zoo:rnnlm --cluster random:1:100", "random:1:100: the device count must be a whole number 2 .. 64"},
  };
  for (const auto& [args, expect] : cases) gptest::expectCliError(args, expect);
  gptest::CliRun usage = gptest::runCli("--help");
  EXPECT_NE((usage.out + usage.err).find("random:SEED[:DEVICES]"), std::string::npos);
  EXPECT_NE((usage.out + usage.err).find("--graph-seed N"), std::string::npos);
}

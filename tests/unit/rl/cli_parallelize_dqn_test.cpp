// graphplace-cli parallelize --method all: Megatron's rule, data parallelism, the closest
// published recipe, the exact search and the DQN in one JSON object; the DQN (from scratch, 300 episodes) within 2 % of the exact
// plan and never below Megatron's rule on BERT-base over 16 H100s.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

TEST(CliParallelizeDqn, AllMethodsInOneObject) {
  gptest::CliRun r = gptest::runCli(
      "parallelize zoo:bert_base --cluster 2x8xH100-IB --global-batch 256 --method all --episodes 300 --from-scratch --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, double> samples;
  for (const auto& res : j["results"]) {
    ASSERT_TRUE(res["feasible"].get<bool>()) << res["method"] << ": " << res["note"];
    samples[res["method"].get<std::string>()] = res["samples_per_s"].get<double>();
    EXPECT_LE(res["plans_simulated_to_best"].get<int64_t>(), res["plans_simulated"].get<int64_t>());
  }
  ASSERT_EQ(samples.size(), 5u);
  EXPECT_GE(samples["exact"], samples["recipe"]);
  EXPECT_GE(samples["dqn"], 0.98 * samples["exact"]);
  EXPECT_GE(samples["dqn"], samples["megatron"]);
}

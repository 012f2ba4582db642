// One rank of a distributed run for the DistGroup tests: reads the launcher's variables, joins
// the group and runs one scenario, printing what it holds afterwards.
//   gp_dist_rank allreduce|broadcast|exit-early|leader-exits|hang|sync|time TIMEOUT_MS [RENDEZVOUS_MS]
// (RENDEZVOUS_MS default 60000). allreduce: [rank + 1, 10 (rank + 1)] averaged; broadcast: rank
// 0's [7, 8, 9] to all; exit-early (leader-exits): after a barrier rank 1 (rank 0) leaves, the
// others all-reduce; hang: rank 1 sleeps after joining; sync: syncUpdates (dist_sync_scenario.h)
// through GradientSync, then the weights; time: the mean time of an all-reduce as big as a GDP
// policy's gradients (docs/distributed.md's scaling model). Exit code 1 with the error on stderr when a step fails.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>

#include "dist_sync_scenario.h"
#include "rl/dist_group.h"
#include "rl/gradient_sync.h"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: gp_dist_rank allreduce|broadcast|exit-early|leader-exits|hang|sync|time TIMEOUT_MS [RENDEZVOUS_MS]\n");
    return 2;
  }
  const std::string mode = argv[1];
  try {
    const gp::DistEnv env = gp::distEnvFrom([](const char* k) { return std::getenv(k); });
    gp::rl::DistGroup group(env, std::chrono::milliseconds(std::atoi(argv[2])),
                            std::chrono::milliseconds(argc == 4 ? std::atoi(argv[3]) : 60000));
    const auto opts = torch::TensorOptions().dtype(torch::kFloat64);
    std::vector<torch::Tensor> t;
    if (mode == "sync") {
      torch::nn::Linear model = gptest::syncUpdates(group.rank(), [&](torch::nn::Linear& m) {
        return std::make_shared<gp::rl::GradientSync>(&group, m->parameters(), gptest::kSyncMaxNorm);
      });
      std::printf("rank %d:%s\n", group.rank(), gptest::weightsText(model).c_str());
      return 0;
    }
    if (mode == "time") {  // the all-reduce of a GDP policy's gradients (210k floats), timed
      std::vector<torch::Tensor> g{torch::ones({210000})};
      group.allReduceSum(g);  // warm-up
      const auto t0 = std::chrono::steady_clock::now();
      constexpr int kRepeats = 50;
      for (int i = 0; i < kRepeats; ++i) group.allReduceSum(g);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / kRepeats;
      std::printf("rank %d: %.3f ms per all-reduce of 210000 floats\n", group.rank(), ms);
      return 0;
    }
    if (mode == "broadcast") {
      t.push_back(group.rank() == 0 ? torch::tensor({7.0, 8.0, 9.0}, opts) : torch::zeros({3}, opts));
      group.broadcast(t);
    } else {
      if (mode == "exit-early" || mode == "leader-exits") group.barrier();  // the group has formed on every rank
      if (group.rank() == 1 && mode == "exit-early") return 0;
      if (group.rank() == 0 && mode == "leader-exits") return 0;
      if (group.rank() == 1 && mode == "hang") std::this_thread::sleep_for(std::chrono::seconds(60));
      const double r = group.rank() + 1;
      t.push_back(torch::tensor({r, 10 * r}, opts));
      group.allReduceMean(t);
    }
    std::printf("rank %d:", group.rank());
    for (int64_t i = 0; i < t[0].numel(); ++i) std::printf(" %.17g", t[0][i].item<double>());
    std::printf("\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gp_dist_rank: error: %s\n", e.what());
    return 1;
  }
}

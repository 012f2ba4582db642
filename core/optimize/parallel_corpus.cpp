#include "optimize/parallel_corpus.h"

#include <array>
#include <string>

#include "graph/seeded_random.h"
#include "zoo/zoo.h"

namespace gp {

std::unique_ptr<ParallelTask> zooParallelTask(const std::string& zoo, ZooParams params, const std::string& cluster,
                                              int64_t globalBatch, const std::string& name) {
  if (params.batch == 0) params.batch = 1;
  Cluster c = loadCluster(cluster);
  Graph g = withPrecision(makeZooModel(zoo, params), defaultTrainingPrecision(c));
  return std::make_unique<ParallelTask>(std::move(g), std::move(c), globalBatch, name.empty() ? "zoo:" + zoo : name,
                                        static_cast<double>(params.batch));
}

std::vector<std::unique_ptr<ParallelTask>> syntheticParallelTasks(uint64_t seed, int count) {
  static constexpr std::array<int, 10> kHidden = {1024, 1536, 2048, 2560, 3072, 4096, 5120, 6144, 8192, 12288};
  static constexpr std::array<int, 8> kLayers = {12, 16, 24, 32, 40, 48, 64, 96};
  static constexpr std::array<int, 2> kSeq = {1024, 2048};
  static constexpr std::array<int, 5> kBatch = {64, 128, 256, 512, 1024};
  static const std::array<const char*, 7> kClusters = {"2x8xH100-IB", "4x8xA100-IB", "8x8xH100-IB", "3x8xH100-IB",
                                                       "2x8xA100-PCIe-100GbE", "3x4xA100-PCIe-100GbE", "8xH100-NVSwitch"};
  SeededRandom rng(seed);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng.below(n)); };
  std::vector<std::unique_ptr<ParallelTask>> tasks;
  for (int i = 0; i < count; ++i) {
    ZooParams zp;
    zp.batch = 1;
    zp.hidden = kHidden[pick(kHidden.size())];
    zp.layers = kLayers[pick(kLayers.size())];
    zp.seqLen = kSeq[pick(kSeq.size())];
    const int64_t batch = kBatch[pick(kBatch.size())];
    const std::string cluster = kClusters[pick(kClusters.size())];
    const std::string name = "gpt " + std::to_string(zp.layers) + "x" + std::to_string(zp.hidden) + " seq " +
                             std::to_string(zp.seqLen) + " on " + cluster + ", batch " + std::to_string(batch);
    tasks.push_back(zooParallelTask("gpt_1_3b", zp, cluster, batch, name));
  }
  return tasks;
}

}  // namespace gp

// Matrix products by shape (cost/gemm_tiles.h) against closed forms: tile quantization, wave
// quantization, split-K for deep thin products; the large DeepBench GEMMs' measured rates
// relative to each other; and the parallel simulator's weight products at their shapes after
// the TP split (forward and both gradients).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cost/gemm_tiles.h"
#include "gpt_layer_task.h"
#include "parallel/stage_cost.h"
#include "test_paths.h"

using namespace gp;

namespace {

// A block's reduction in steps of 64, two more for its prologue and epilogue.
double depth(double k) {
  const double steps = std::ceil(k / 64);
  return k / (64 * steps) * steps / (steps + 2);
}

}  // namespace

TEST(GemmTiles, EvenlyTiledProductsReachTheLargeRate) {
  // 512 x 256 in four 256 x 128 tiles, one wave on four SMs.
  EXPECT_DOUBLE_EQ(gemmShapeShare({512, 256, 65536}, 4), depth(65536));
  EXPECT_NEAR(depth(65536), 1024.0 / 1026, 1e-15);
  EXPECT_DOUBLE_EQ(gemmShapeShare({0, 256, 64}, 4), 1);  // a shape it cannot judge
  // The header's examples: 768 tiles of 256 x 128 in six waves of 132 (768 / 792 useful), K 8192
  // in 128 steps and 2 more; 35 rows in a 64-row tile.
  EXPECT_NEAR(gemmShapeShare({8192, 3072, 8192}, 132), 768.0 / 792 * 128 / 130, 1e-12);
  EXPECT_NEAR(gemmShapeShare({35, 8457, 2048}, 80), 0.34, 0.005);
}

TEST(GemmTiles, TileQuantization) {
  // 257 rows need a second row of tiles: 64 x 128 tiles waste least (257 of 320 rows), at their
  // share of the large tile's rate; a reduction of 448 is too shallow to split.
  EXPECT_DOUBLE_EQ(gemmShapeShare({257, 128, 448}, 0), 0.80 * 257 / 320 * depth(448));
  EXPECT_NEAR(depth(448), 7.0 / 9, 1e-15);
  // A multiple of the tile loses nothing to it.
  EXPECT_DOUBLE_EQ(gemmShapeShare({256, 128, 448}, 0), depth(448));
}

TEST(GemmTiles, WaveQuantization) {
  // Eleven 256 x 128 tiles on ten SMs take two waves (11 / 20 useful); 64 x 128 tiles make 44
  // blocks, five waves of ten (44 / 50) at 0.80 of the rate: the best choice.
  EXPECT_DOUBLE_EQ(gemmShapeShare({256, 128 * 11, 448}, 10), 0.80 * 44 / 50 * depth(448));
  // Without an SM count only the tiles count.
  EXPECT_DOUBLE_EQ(gemmShapeShare({256, 128 * 11, 448}, 0), depth(448));
}

TEST(GemmTiles, SplitKFillsTheDeviceForDeepThinProducts) {
  // One 256 x 128 output on 8 SMs with a reduction of 16,384: 128 x 128 tiles split four ways
  // make 8 blocks of 4,096 each, one wave, at 0.92 x kSplitKShare; 64 x 64 tiles unsplit would
  // fill the wave too, at 0.62.
  EXPECT_DOUBLE_EQ(gemmShapeShare({256, 128, 16384}, 8), 0.92 * kSplitKShare * depth(4096));
}

TEST(GemmTiles, LargeDeepBenchProductsRankAsMeasured) {
  // DeepBench's large GEMMs (M x N x K) on V100 (80 SMs) and P100 (56): each one's measured
  // FLOP/s relative to 4096 x 7000 x 4096 on the same GPU and type, against the share's ratio.
  std::ifstream in(gptest::dataPath("published/deepbench.json"));
  const nlohmann::json j = nlohmann::json::parse(in);
  const std::regex name(R"(deepbench-(v100|p100)-([sh]gemm)-(\d+)x(\d+)x(\d+))");
  std::map<std::string, std::pair<double, double>> base;  // gpu-type -> (FLOP/s, share) of 4096x7000x4096
  std::vector<std::tuple<std::string, double, double>> large;
  for (const auto& r : j["rows"]) {
    std::smatch m;
    const std::string n = r["name"];
    if (!std::regex_match(n, m, name)) continue;
    const double M = std::stod(m[3]), N = std::stod(m[4]), K = std::stod(m[5]);
    if (M < 4096 || N < 4096) continue;
    const double rate = 2 * M * N * K / (r["published"].get<double>() * 1e-3);
    const double share = gemmShapeShare({M, N, K}, m[1] == "v100" ? 80 : 56);
    const std::string key = std::string(m[1]) + "-" + std::string(m[2]);
    if (M == 4096 && N == 7000)
      base[key] = {rate, share};
    else
      large.emplace_back(key, rate, share);
  }
  ASSERT_EQ(base.size(), 3u);
  ASSERT_EQ(large.size(), 9u);
  for (const auto& [key, rate, share] : large) {
    const double measured = rate / base[key].first, predicted = share / base[key].second;
    EXPECT_LT(std::abs(std::log(predicted / measured)), std::log(1.15)) << key << " " << measured << " " << predicted;
  }
}

TEST(GemmTiles, WeightProductsAtTheirShapeAfterTheTpSplit) {
  const gptest::GptLayerTask t;  // sequence 256, hidden 1024, MLP 4096
  const StackPart& layer = t.st.layers[1];
  int products = 0, rowParallel = 0;
  for (const StackOp& op : layer.ops) {
    if (op.gemmCols == 0) continue;
    ++products;
    EXPECT_DOUBLE_EQ(op.gemmRows, 256);
    rowParallel += op.rowParallel;
    const double n = static_cast<double>(op.gemmCols), k = static_cast<double>(op.gemmDepth);
    EXPECT_DOUBLE_EQ(2 * 256 * n * k, op.flops);  // its FLOPs per sample are its shape's
    // tp 4: a column-parallel product splits its columns, a row-parallel one its reduction.
    const ProductShares q = productShares(op, 2, 4, false, 8);
    const double m = 512, ns = op.rowParallel ? n : n / 4, ks = op.rowParallel ? k / 4 : k;
    EXPECT_DOUBLE_EQ(q.forward, gemmShapeShare({m, ns, ks}, 8));
    EXPECT_DOUBLE_EQ(q.inputGradient, gemmShapeShare({m, ks, ns}, 8));
    EXPECT_DOUBLE_EQ(q.weightGradient, gemmShapeShare({ks, ns, m}, 8));
  }
  EXPECT_GE(products, 4);  // Q, K, V or QKV, the projection, the MLP's two
  EXPECT_EQ(rowParallel, 2);  // the projection and the MLP's second product
  // A layer's compute follows the shares: its weight products take flops / (rate x share).
  const PartTimes two = t.model.partTimes(1, 2, 1, 1, false, AttentionImpl::Flash, false, 0);
  double expected = 0;
  for (const StackOp& op : layer.ops)
    if (op.gemmCols > 0) expected += t.cost.fusedTime(op.flops * 2 / productShares(op, 2, 1, false, 0).forward, 0,
                                                      OpClass::MatMul, op.dtype, 0);
  EXPECT_NEAR(two.productsForward, expected, 1e-9 * expected);
}

TEST(GemmTiles, ClusterFilesStateTheSmCount) {
  EXPECT_EQ(loadCluster("8xH100-NVSwitch").device(0).smCount, 132);
  EXPECT_EQ(loadCluster("4xA100-NVLink").device(0).smCount, 108);
  EXPECT_EQ(loadCluster("8xV100-DGX1").device(0).smCount, 80);
  const Cluster h100 = loadCluster("2x8xH100-IB");
  EXPECT_EQ(parseClusterJson(h100.toJson(), "again").device(3).smCount, 132);
  const gptest::GptLayerTask t;
  EXPECT_EQ(t.c.device(0).smCount, 0);  // not stated: tiles only, no waves
  for (double bad : {0.0, 2.5, 5000.0}) {
    nlohmann::json j = nlohmann::json::parse(t.c.toJson());
    j["device_kinds"]["T"]["sm_count"] = bad;
    try {
      parseClusterJson(j.dump(), "c.json");
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("c.json: device_kinds['T']: field 'sm_count' must be"), std::string::npos) << e.what();
    }
  }
}

// Collectives as NCCL runs them: rings laid on the fastest links and packed side by side, and
// double binary trees between servers where latency rules; closed forms on small topologies.
#include <gtest/gtest.h>

#include <numeric>

#include "cluster/cluster.h"
#include "parallel/collectives.h"
#include "parallel/nccl_rings.h"
#include "parallel/parallel_plan.h"

using namespace gp;

namespace {

std::vector<int> iota(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Four servers of two GPUs: the pair joined by one direct 100 GB/s link (1 us), every GPU on its
// own 10 GB/s network port to one core switch (5 us a hop).
Cluster fourServersOfTwo() {
  std::string devices, links;
  for (int s = 0; s < 4; ++s) {
    const std::string a = "s" + std::to_string(s) + "/gpu0", b = "s" + std::to_string(s) + "/gpu1";
    devices += std::string(s ? ", " : "") + R"({"name": ")" + a + R"(", "kind": "G"}, {"name": ")" + b + R"(", "kind": "G"})";
    links += std::string(s ? ", " : "") + R"({"between": [")" + a + R"(", ")" + b +
             R"("], "kind": "NVLink", "bandwidth_GBps": 100, "latency_us": 1})";
    for (const std::string& g : {a, b})
      links += R"(, {"between": [")" + g + R"(", "core"], "kind": "InfiniBand", "bandwidth_GBps": 10, "latency_us": 5})";
  }
  return parseClusterJson(R"({"format": "graphplace-cluster", "version": 1, "name": "four-by-two",
    "device_kinds": {"G": {"peak_TFLOPS": {"f32": 10, "f16": 100}, "memory_bandwidth_GBps": 1000, "memory_GiB": 8, "launch_overhead_us": 5}},
    "devices": [)" + devices + R"(], "switches": [{"name": "core", "kind": "IB-switch"}], "links": [)" +
                              links + "]}",
                          "four-by-two.json");
}

}  // namespace

TEST(NcclRings, NvSwitchServerKeepsTheRankOrder) {
  const Cluster c = loadCluster("8xH100-NVSwitch");
  const std::vector<int> m = iota(8);
  const RingSet& rs = ringsOver(c, m, serverOf(c));
  ASSERT_EQ(rs.orders.size(), 1u);
  EXPECT_EQ(rs.orders[0], m);
  EXPECT_DOUBLE_EQ(rs.shares[0], 1.0);
}

TEST(NcclRings, Dgx1CubeMeshCarriesFourNvlinkRings) {
  const Cluster c = loadCluster("8xV100-DGX1");
  const std::vector<int> m = iota(8);
  const RingSet& rs = ringsOver(c, m, serverOf(c));
  // The doubled links form a Hamiltonian cycle (0-4-7-6-5-1-2-3), the single links another
  // (0-1-3-7-5-4-6-2): each in both directions, all six NVLinks of every GPU busy.
  ASSERT_EQ(rs.orders.size(), 4u);
  const double GB = 1e9;
  EXPECT_NEAR(rs.bandwidths[0], 50 * GB, 1e-3 * GB);
  EXPECT_NEAR(rs.bandwidths[1], 50 * GB, 1e-3 * GB);
  EXPECT_NEAR(rs.bandwidths[2], 25 * GB, 1e-3 * GB);
  EXPECT_NEAR(rs.bandwidths[3], 25 * GB, 1e-3 * GB);
  for (const std::vector<int>& o : rs.orders)
    for (size_t i = 0; i < o.size(); ++i) {
      const Route r = c.route(o[i], o[(i + 1) % o.size()]);
      ASSERT_EQ(r.size(), 1u);  // a direct NVLink, never PCIe or QPI
      EXPECT_NE(c.channel(r[0]).kind.find("NVLink"), std::string::npos);
    }
  EXPECT_NEAR(rs.shares[0] + rs.shares[1] + rs.shares[2] + rs.shares[3], 1.0, 1e-12);

  // tp 8's all-reduce: 2 (n - 1) / n S over 150 GB/s in all, where the rank-order ring crossed
  // PCIe and QPI from gpu3 to gpu4 and from gpu7 to gpu0.
  const double S = 1 << 28;
  const std::vector<std::vector<int>> group{m};
  const CollectiveCost ar = collectiveCost(c, Collective::AllReduce, group, S, serverOf(c));
  EXPECT_NEAR(ar.time, 1.75 * S / (150 * GB) + 14 * c.routeLatency(0, 4), 1e-9);
  ChannelLoad rankOrder(c);
  for (int i = 0; i < 8; ++i) rankOrder.send(i, (i + 1) % 8, 1.75 * S);
  const double rankOrderTime = rankOrder.busyTime() + 14 * rankOrder.maxLatency();
  EXPECT_LT(ar.time * 9, rankOrderTime);  // 15.75 GB/s against 150: 9.5x
}

TEST(NcclCollectives, SmallAllReduceAcrossServersRunsAsTrees) {
  const Cluster c = fourServersOfTwo();
  const std::vector<int> servers = serverOf(c);
  const std::vector<std::vector<int>> group{iota(8)};  // server order
  const double intraBw = 100e9, netBw = 10e9, intraLat = 1e-6, netLat = 10e-6;
  auto intra = [&](double S) { return S / 2 / intraBw + intraLat; };  // reduce-scatter or all-gather of 2
  // Small: double binary trees over the four servers' shards (S / 2 each): every GPU sends
  // 1.5 shards over its port at 0.9 of the port's bandwidth, in 2 x 2 steps.
  const double small = 64 << 10;
  const CollectiveCost t = collectiveCost(c, Collective::AllReduce, group, small, servers);
  EXPECT_TRUE(t.hierarchical);
  EXPECT_TRUE(t.tree);
  EXPECT_NEAR(t.time, 2 * intra(small) + 1.5 * (small / 2) / netBw / 0.9 + 4 * netLat, 1e-12);
  // Large: rings between the servers, 2 (4 - 1) / 4 shards in 6 steps.
  const double large = 1 << 30;
  const CollectiveCost r = collectiveCost(c, Collective::AllReduce, group, large, servers);
  EXPECT_TRUE(r.hierarchical);
  EXPECT_FALSE(r.tree);
  EXPECT_NEAR(r.time, 2 * intra(large) + 1.5 * (large / 2) / netBw + 6 * netLat, 1e-9);
  // Where they cross: 1.5 S' / B (1 / 0.9 - 1) = 2 hops' latency.
  const double crossShard = 2 * netLat / (1.5 / netBw * (1 / 0.9 - 1));
  EXPECT_TRUE(collectiveCost(c, Collective::AllReduce, group, 2 * crossShard * 0.9, servers).tree);
  EXPECT_FALSE(collectiveCost(c, Collective::AllReduce, group, 2 * crossShard * 1.1, servers).tree);
  // Reduce-scatter and all-gather have no tree.
  EXPECT_FALSE(collectiveCost(c, Collective::AllGather, group, small, servers).tree);
}

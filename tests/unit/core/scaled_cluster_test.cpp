// "<N>x<server>" clusters: N copies of a multi-server preset's server, joined as the preset joins
// its servers.
#include <gtest/gtest.h>

#include <algorithm>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cluster/scaled_cluster.h"
#include "parallel/collectives.h"
#include "parallel/parallel_plan.h"

using namespace gp;

TEST(ScaledCluster, NServersOfAPresetAreJoinedAsThePresetJoinsTwo) {
  const Cluster two = loadCluster("2x8xH100-IB");
  const Cluster many = loadCluster("16x8xH100-IB");
  EXPECT_EQ(many.name(), "16x8xH100-IB");
  ASSERT_EQ(many.numDevices(), 128);
  const int first = many.findDevice("node0/gpu0"), last = many.findDevice("node15/gpu7");
  ASSERT_GE(first, 0);
  ASSERT_GE(last, 0);
  EXPECT_EQ(many.device(last).kind, two.device(0).kind);
  // Inside a server and between servers: the preset's routes, figure for figure.
  const int a = two.findDevice("node0/gpu0"), b = two.findDevice("node0/gpu5"), c = two.findDevice("node1/gpu7");
  const int inside = many.findDevice("node9/gpu5"), nine = many.findDevice("node9/gpu0");
  EXPECT_EQ(many.routeBandwidth(nine, inside), two.routeBandwidth(a, b));
  EXPECT_EQ(many.routeLatency(nine, inside), two.routeLatency(a, b));
  EXPECT_EQ(many.routeBandwidth(first, last), two.routeBandwidth(a, c));
  EXPECT_EQ(many.routeLatency(first, last), two.routeLatency(a, c));
  // The existing preset files stay as they are; an 8-server preset of another kind scales too.
  EXPECT_EQ(loadCluster("8x8xH100-IB").numDevices(), 64);
  EXPECT_EQ(loadCluster("6x8xA100-IB").numDevices(), 48);
}

TEST(ScaledCluster, OutOfRangeOrUnknownIsOneLine) {
  try {
    loadCluster("5000x8xH100-IB");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "5000x8xH100-IB: a cluster of 5000 servers of 8 devices is outside 1..4096 servers (at most 32768 devices)");
  }
  EXPECT_THROW(loadCluster("0x8xH100-IB"), Error);
  EXPECT_FALSE(scaledClusterJson("4x8xTPU"));        // no such server
  EXPECT_FALSE(scaledClusterJson("8xH100-NVSwitch")); // a one-server preset is not scaled
  EXPECT_FALSE(scaledClusterJson("x8xH100-IB"));
  try {
    loadCluster("4x8xTPU");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown cluster preset"), std::string::npos) << e.what();
  }
}

// The template's routes moved to each server are the routes a search over every pair finds:
// channel for channel, latency and bandwidth, for every pair of three servers of each kind.
TEST(ScaledCluster, TemplateRoutesAreThePairByPairRoutes) {
  for (const char* spec : {"5x8xH100-IB", "3x8xA100-IB", "5x4xA100-PCIe-100GbE", "3x8xA100-PCIe-100GbE", "5x8xH100-IB:pod=2:os=4",
                           "3x4xA100-PCIe-100GbE:pod=1"}) {
    const Cluster scaled = *scaledCluster(spec);
    const Cluster full = parseClusterJson(*scaledClusterJson(spec), spec);
    ASSERT_EQ(scaled.numDevices(), full.numDevices()) << spec;
    ASSERT_EQ(scaled.numChannels(), full.numChannels()) << spec;
    for (int a = 0; a < full.numDevices(); ++a)
      for (int b = 0; b < full.numDevices(); ++b) {
        ASSERT_TRUE(std::ranges::equal(scaled.route(a, b), full.route(a, b)))
            << spec << ": " << full.device(a).name << " -> " << full.device(b).name;
        ASSERT_EQ(scaled.routeLatency(a, b), full.routeLatency(a, b)) << spec;
        ASSERT_EQ(scaled.routeBandwidth(a, b), full.routeBandwidth(a, b)) << spec;
      }
  }
}

TEST(ScaledCluster, SixteenThousandGpusLoadWithoutEveryPairsRoutes) {
  const Cluster c = loadCluster("2048x8xH100-IB");
  ASSERT_EQ(c.numDevices(), 16384);
  const int a = c.findDevice("node0/gpu3"), b = c.findDevice("node2047/gpu5");
  ASSERT_GE(b, 0);
  const Route r = c.route(a, b);
  ASSERT_EQ(r.size(), 4u);  // gpu -> its NIC -> the IB switch -> the other NIC -> gpu
  EXPECT_EQ(c.vertexName(c.channel(r[0]).from), "node0/gpu3");
  EXPECT_EQ(c.vertexName(c.channel(r[3]).to), "node2047/gpu5");
  for (size_t i = 0; i + 1 < r.size(); ++i) EXPECT_EQ(c.channel(r[i]).to, c.channel(r[i + 1]).from);
  const Cluster two = loadCluster("2x8xH100-IB");
  EXPECT_EQ(c.routeBandwidth(a, b), two.routeBandwidth(two.findDevice("node0/gpu3"), two.findDevice("node1/gpu5")));
  EXPECT_TRUE(c.route(b, b).empty());
}

// ":pod=S:os=O": pods of S servers under one leaf layer, joined through a spine whose link from
// each pod carries the pod's NIC bandwidth / O. Traffic between pods crosses it: an all-to-all
// over every GPU slows with the oversubscription; a ring in server order crosses each pod's link
// with one flow per rail, which fits while O <= S.
TEST(ScaledCluster, PodsJoinedThroughAnOversubscribedSpine) {
  const Cluster flat = loadCluster("8x8xH100-IB");
  const Cluster pods = loadCluster("8x8xH100-IB:pod=2:os=4");
  ASSERT_EQ(pods.numDevices(), 64);
  EXPECT_NE(pods.description().find("in pods of 2 under one leaf layer, the pods joined through spines at 4:1 oversubscription"),
            std::string::npos);
  const int a = pods.findDevice("node0/gpu3"), same = pods.findDevice("node1/gpu3"), other = pods.findDevice("node5/gpu3");
  // Inside a pod: the flat fabric's route. Between pods: two more hops, pod 0 up, pod 2 down.
  EXPECT_EQ(pods.route(a, same).size(), flat.route(a, same).size());
  const Route r = pods.route(a, other);
  ASSERT_EQ(r.size(), flat.route(a, other).size() + 2);
  std::vector<std::string> hops;
  for (int ch : r) hops.push_back(pods.vertexName(pods.channel(ch).to));
  EXPECT_NE(std::find(hops.begin(), hops.end(), "ib-switch-spine"), hops.end());
  EXPECT_NE(std::find(hops.begin(), hops.end(), "pod2/ib-switch"), hops.end());
  for (size_t i = 0; i + 1 < r.size(); ++i) EXPECT_EQ(pods.channel(r[i]).to, pods.channel(r[i + 1]).from);
  // The spine link of a pod: 2 servers x 8 NICs x 50 GB/s / 4.
  for (int ch : r) {
    if (pods.vertexName(pods.channel(ch).to) == "ib-switch-spine") {
      EXPECT_DOUBLE_EQ(pods.channel(ch).bandwidth, 200e9);
    }
  }
  EXPECT_GT(pods.routeLatency(a, other), flat.routeLatency(a, other));

  std::vector<int> all(64);
  for (int d = 0; d < 64; ++d) all[static_cast<size_t>(d)] = d;
  const std::vector<std::vector<int>> one{all};
  const double bytes = 1e9;
  auto cost = [&](const Cluster& c, Collective k) { return collectiveCost(c, k, one, bytes, serverOf(c)).time; };
  const Cluster four = loadCluster("8x8xH100-IB:pod=4:os=4");  // two pods, each spine link 400 GB/s
  EXPECT_GT(cost(four, Collective::AllToAll), 1.5 * cost(flat, Collective::AllToAll));
  EXPECT_LT(cost(four, Collective::AllReduce), 1.05 * cost(flat, Collective::AllReduce));
  EXPECT_GT(cost(pods, Collective::AllReduce), 1.3 * cost(flat, Collective::AllReduce));  // O = 4 > S = 2

  for (const char* bad : {"8x8xH100-IB:pod=0", "8x8xH100-IB:pod=2:os=0.5", "8x8xH100-IB:pod=2.5", "8x8xH100-IB:pod=2:speed=9"}) {
    try {
      loadCluster(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with(bad)) << e.what();
    }
  }
}

// "<N>x<server>" clusters: N copies of a multi-server preset's server, joined as the preset joins
// its servers.
#include <gtest/gtest.h>

#include "base/error.h"
#include "cluster/cluster.h"
#include "cluster/scaled_cluster.h"

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
    loadCluster("300x8xH100-IB");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "300x8xH100-IB: a cluster of 300 servers of 8 devices is outside 1..256 servers (at most 2048 devices: "
                 "routes are kept for every pair)");
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

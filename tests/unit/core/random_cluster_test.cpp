// Random clusters: real cluster files for every seed (2..16 devices, every pair routed),
// the same cluster for the same seed, the presets' device figures and DGX-1 topology, all four
// topologies and mixed kinds across seeds, explicit device counts, and one-line errors for bad
// specs.
#include "cluster/random_cluster.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "base/error.h"

using namespace gp;

namespace {

std::string errorOf(const std::string& spec) {
  try {
    loadCluster(spec);
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return e.what();
  }
  return "";
}

void expectEveryPairRouted(const Cluster& c) {
  for (int a = 0; a < c.numDevices(); ++a)
    for (int b = 0; b < c.numDevices(); ++b) {
      if (a == b) continue;
      EXPECT_FALSE(c.route(a, b).empty()) << c.device(a).name << " -> " << c.device(b).name;
      EXPECT_GT(c.routeBandwidth(a, b), 0);
      EXPECT_GT(c.routeLatency(a, b), 0);
    }
}

}  // namespace

TEST(RandomCluster, EverySeedIsARealClusterOfTwoToSixteenDevices) {
  std::set<std::string> switchKinds, linkKinds, deviceKinds;
  std::set<int> sizes;
  int mixed = 0;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    SCOPED_TRACE(seed);
    const Cluster c = randomCluster(seed);
    ASSERT_GE(c.numDevices(), 2);
    ASSERT_LE(c.numDevices(), 16);
    sizes.insert(c.numDevices());
    EXPECT_EQ(c.name(), "random-" + std::to_string(seed) + "-" + std::to_string(c.numDevices()) + "gpu");
    EXPECT_EQ(c.description().rfind("Random cluster (seed " + std::to_string(seed) + "): ", 0), 0u);
    EXPECT_FALSE(c.sources().empty());
    expectEveryPairRouted(c);
    // deterministic, and a round trip through the file format
    EXPECT_EQ(randomCluster(seed).toJson(), c.toJson());
    EXPECT_EQ(parseClusterJson(c.toJson(), "round trip").toJson(), c.toJson());
    std::set<std::string> kinds;
    for (int d = 0; d < c.numDevices(); ++d) kinds.insert(c.device(d).kind);
    deviceKinds.insert(kinds.begin(), kinds.end());
    mixed += kinds.size() > 1;
    for (int v = c.numDevices(); v < c.numVertices(); ++v) switchKinds.insert(c.vertexKind(v));
    for (int ch = 0; ch < c.numChannels(); ++ch) linkKinds.insert(c.channel(ch).kind);
  }
  EXPECT_GE(sizes.size(), 10u);
  EXPECT_GT(mixed, 0);
  EXPECT_EQ(deviceKinds, (std::set<std::string>{"P100-PCIe-16GB", "V100-SXM2-16GB", "V100-SXM2-32GB", "A100-SXM4-40GB",
                                                "A100-SXM4-80GB", "H100-SXM5-80GB"}));
  for (const char* k : {"PCIe-switch", "NVSwitch", "NIC", "InfiniBand-switch", "host-bridge"})
    EXPECT_TRUE(switchKinds.count(k)) << k;
  EXPECT_TRUE(linkKinds.count("NVLink2") || linkKinds.count("NVLink3x4"));  // an NVLink mesh
}

TEST(RandomCluster, DeviceKindsHaveThePresetsFigures) {
  std::map<std::string, DeviceSpec> preset;
  for (const char* name : {"4xP100-PCIe", "8xV100-DGX1", "4xA100-NVLink", "8xH100-NVSwitch"}) {
    const Cluster c = loadCluster(name);
    preset.emplace(c.device(0).kind, c.device(0));
  }
  int compared = 0;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    const Cluster c = randomCluster(seed);
    for (int d = 0; d < c.numDevices(); ++d) {
      auto it = preset.find(c.device(d).kind);
      if (it == preset.end()) continue;
      ++compared;
      EXPECT_EQ(c.device(d).peak, it->second.peak) << c.device(d).kind;
      EXPECT_DOUBLE_EQ(c.device(d).memBandwidth, it->second.memBandwidth);
      EXPECT_EQ(c.device(d).memPhysical, it->second.memPhysical);
      if (c.framework().name == loadCluster(c.device(d).kind == "P100-PCIe-16GB" ? "4xP100-PCIe" : "8xV100-DGX1")
                                    .framework()
                                    .name) {
        EXPECT_EQ(c.device(d).memCapacity, it->second.memCapacity);  // the same framework
      }
      EXPECT_DOUBLE_EQ(c.device(d).launchOverhead, it->second.launchOverhead);
    }
  }
  EXPECT_GT(compared, 100);
}

TEST(RandomCluster, AVoltaMeshIsTheDgx1) {
  const Cluster dgx1 = loadCluster("8xV100-DGX1");
  const Cluster c = loadCluster("random:11:8");
  ASSERT_NE(c.description().find("8x V100-SXM2-16GB on an NVLink2 hybrid cube-mesh"), std::string::npos)
      << c.description();
  ASSERT_EQ(c.numVertices(), dgx1.numVertices());
  ASSERT_EQ(c.numChannels(), dgx1.numChannels());
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      EXPECT_EQ(c.route(a, b).size(), dgx1.route(a, b).size()) << a << " -> " << b;
      EXPECT_DOUBLE_EQ(c.routeLatency(a, b), dgx1.routeLatency(a, b)) << a << " -> " << b;
      EXPECT_DOUBLE_EQ(c.routeBandwidth(a, b), dgx1.routeBandwidth(a, b)) << a << " -> " << b;
    }
}

TEST(RandomCluster, SpecsGiveTheSeedsClusterWithAnyDeviceCount) {
  const Cluster drawn = loadCluster("random:7");
  EXPECT_EQ(drawn.toJson(), randomCluster(7).toJson());
  // the device count is drawn first either way: random:S:N is random:S when N is its draw
  EXPECT_EQ(loadCluster("random:7:" + std::to_string(drawn.numDevices())).toJson(), drawn.toJson());
  for (int n : {2, 3, 17, 32, 64}) {
    SCOPED_TRACE(n);
    const Cluster c = loadCluster("random:11:" + std::to_string(n));
    EXPECT_EQ(c.numDevices(), n);
    expectEveryPairRouted(c);
    if (n > 16) {
      EXPECT_EQ(c.device(0).name, "node0/gpu0");  // more than one node
    }
  }
  EXPECT_EQ(loadCluster("random:18446744073709551615").name().rfind("random-18446744073709551615-", 0), 0u);
}

TEST(RandomCluster, BadSpecsFailWithOneLine) {
  const std::string seedProblem = "the seed must be a whole number 0 .. 18446744073709551615";
  for (const char* spec :
       {"random:", "random:abc", "random:-1", "random:+3", "random:1x", "random:18446744073709551616"})
    EXPECT_NE(errorOf(spec).find(seedProblem), std::string::npos) << spec;
  for (const char* spec : {"random:1:1", "random:1:65", "random:1:x", "random:1:", "random:1:2:3"})
    EXPECT_NE(errorOf(spec).find("the device count must be a whole number 2 .. 64"), std::string::npos) << spec;
  EXPECT_EQ(errorOf("random:1:0"), "random:1:0: the device count must be a whole number 2 .. 64, got '0'");
  try {
    randomCluster(1, 65);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.problem(), "the device count must be between 2 and 64 (got 65)");
  }
}

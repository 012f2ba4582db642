// Clusters: presets load with sane numbers, routes follow the documented topologies, JSON
// round-trips, and malformed files fail with one line naming the field.
#include "cluster/cluster.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "base/error.h"
#include "error_text.h"

using namespace gp;

namespace {

std::vector<std::string> routeKinds(const Cluster& c, int a, int b) {
  std::vector<std::string> k;
  for (int ch : c.route(a, b)) k.push_back(c.channel(ch).kind);
  return k;
}

// A tiny valid cluster; tests mutate it to make it malformed.
std::string tinyJson(const std::string& linksOverride = "", const std::string& extraDevice = "") {
  return R"({"format": "graphplace-cluster", "version": 1, "name": "tiny",
    "device_kinds": {"G": {"peak_TFLOPS": {"f32": 10, "f16": 100}, "memory_bandwidth_GBps": 1000,
                           "memory_GiB": 8, "launch_overhead_us": 5}},
    "devices": [{"name": "gpu0", "kind": "G"}, {"name": "gpu1", "kind": "G"})" +
         extraDevice + R"(],
    "switches": [{"name": "sw", "kind": "PCIe-switch"}],
    "links": )" +
         (linksOverride.empty()
              ? R"([{"between": ["gpu0", "sw"], "kind": "PCIe3x16", "bandwidth_GBps": 16, "latency_us": 1},
               {"between": ["gpu1", "sw"], "kind": "PCIe3x16", "bandwidth_GBps": 8, "latency_us": 2}])"
              : linksOverride) +
         "}";
}

std::string errorOf(const std::string& text) {
  return gptest::errorOf([&] { parseClusterJson(text, "c.json"); });
}

}  // namespace

TEST(Cluster, PresetNamesAreTheEleven) {
  EXPECT_EQ(clusterPresetNames(),
            (std::vector<std::string>{"2x8xA100-PCIe-100GbE", "2x8xH100-IB", "2xK80", "3x4xA100-PCIe-100GbE",
                                      "3x8xH100-IB", "4x8xA100-IB", "4xA100-NVLink", "4xP100-PCIe", "8x8xH100-IB",
                                      "8xH100-NVSwitch", "8xV100-DGX1"}));
}

TEST(Cluster, EveryPresetLoadsWithSaneNumbers) {
  for (const std::string& name : clusterPresetNames()) {
    SCOPED_TRACE(name);
    Cluster c = loadCluster(name);
    EXPECT_EQ(c.name(), name);
    EXPECT_FALSE(c.sources().empty());
    ASSERT_GE(c.numDevices(), 2);
    for (int d = 0; d < c.numDevices(); ++d) {
      const DeviceSpec& s = c.device(d);
      EXPECT_EQ(c.findDevice(s.name), d);
      EXPECT_EQ(c.vertexName(s.node), s.name);
      EXPECT_GT(s.peakFlops(DType::F32), 1e12);
      EXPECT_LT(s.peakFlops(DType::F32), 1e14);
      EXPECT_GE(s.peakFlops(DType::F16), s.peakFlops(DType::F32));
      EXPECT_LE(s.peakFlops(DType::F64), s.peakFlops(DType::F32));
      EXPECT_GT(s.memBandwidth, 1e11);
      EXPECT_LT(s.memBandwidth, 1e13);
      EXPECT_GE(s.memCapacity, int64_t{8} << 30);
      EXPECT_LE(s.memCapacity, int64_t{80} << 30);
      EXPECT_GE(s.launchOverhead, 2e-6);
      EXPECT_LE(s.launchOverhead, 6e-6);
      for (int e = 0; e < c.numDevices(); ++e) {
        if (d == e) {
          EXPECT_TRUE(c.route(d, e).empty());
          continue;
        }
        ASSERT_FALSE(c.route(d, e).empty());
        // The route is a connected walk from d to e whose bottleneck and latency are reported.
        int at = s.node;
        double lat = 0, bw = 1e300;
        for (int ch : c.route(d, e)) {
          EXPECT_EQ(c.channel(ch).from, at);
          at = c.channel(ch).to;
          lat += c.channel(ch).latency;
          bw = std::min(bw, c.channel(ch).bandwidth);
        }
        EXPECT_EQ(at, c.device(e).node);
        EXPECT_DOUBLE_EQ(c.routeLatency(d, e), lat);
        EXPECT_DOUBLE_EQ(c.routeBandwidth(d, e), bw);
        EXPECT_GE(bw, 10e9);
      }
    }
  }
}

TEST(Cluster, SpecSheetFigures) {
  Cluster p = loadCluster("4xP100-PCIe");
  EXPECT_EQ(p.device(0).kind, "P100-PCIe-16GB");
  EXPECT_DOUBLE_EQ(p.device(0).peakFlops(DType::F32), 9.3e12);
  EXPECT_DOUBLE_EQ(p.device(0).peakFlops(DType::F16), 18.7e12);
  EXPECT_DOUBLE_EQ(p.device(0).peakFlops(DType::BF16), 9.3e12);  // no bf16 path: f32 rate
  EXPECT_DOUBLE_EQ(p.device(0).memBandwidth, 732e9);
  EXPECT_EQ(p.device(0).memPhysical, int64_t{16} << 30);
  EXPECT_EQ(p.framework().name, "tf1-graph");  // the papers' framework on the papers' machines
  EXPECT_LT(p.device(0).memCapacity, p.device(0).memPhysical);
  Cluster h = loadCluster("8xH100-NVSwitch");
  EXPECT_DOUBLE_EQ(h.device(3).peakFlops(DType::BF16), 989.4e12);  // dense, not sparse
  EXPECT_DOUBLE_EQ(h.device(3).peakFlops(DType::F8), 1978.9e12);
  EXPECT_DOUBLE_EQ(h.device(3).peakFlops(DType::I8), 1978.9e12);
  EXPECT_EQ(h.device(3).memPhysical, int64_t{80} << 30);
  EXPECT_DOUBLE_EQ(h.device(3).peak[static_cast<size_t>(PeakType::TF32)], 494.7e12);
  EXPECT_EQ(h.framework().name, "pytorch-eager");
  Cluster k = loadCluster("2xK80");
  EXPECT_EQ(k.numDevices(), 2);
  EXPECT_DOUBLE_EQ(k.device(0).memBandwidth, 240e9);  // one GK210: half a K80 board
}

TEST(Cluster, P100TreeRoutesThroughSwitchesAndHostBridge) {
  Cluster c = loadCluster("4xP100-PCIe");
  EXPECT_EQ(c.route(0, 1).size(), 2u);  // gpu0 -> plx0 -> gpu1
  EXPECT_EQ(c.route(0, 2).size(), 4u);  // gpu0 -> plx0 -> cpu0 -> plx1 -> gpu2
  EXPECT_EQ(c.channel(c.route(0, 2)[0]).name, "gpu0->plx0");
  EXPECT_EQ(c.channel(c.route(0, 2)[1]).name, "plx0->cpu0");
  EXPECT_EQ(c.channel(c.route(0, 2)[2]).name, "cpu0->plx1");
  EXPECT_DOUBLE_EQ(c.routeBandwidth(0, 2), 15.75e9);
  EXPECT_DOUBLE_EQ(c.routeLatency(0, 2), 6e-6);
  // Both directions of a physical link are separate channels.
  EXPECT_NE(c.route(0, 2)[1], c.route(2, 0)[2]);
}

TEST(Cluster, Dgx1CubeMesh) {
  Cluster c = loadCluster("8xV100-DGX1");
  ASSERT_EQ(c.numDevices(), 8);
  EXPECT_EQ(routeKinds(c, 0, 1), (std::vector<std::string>{"NVLink2"}));
  EXPECT_DOUBLE_EQ(c.routeBandwidth(0, 1), 25e9);
  EXPECT_EQ(routeKinds(c, 0, 3), (std::vector<std::string>{"NVLink2x2"}));
  EXPECT_DOUBLE_EQ(c.routeBandwidth(0, 3), 50e9);
  EXPECT_EQ(routeKinds(c, 0, 4), (std::vector<std::string>{"NVLink2x2"}));
  // Every GPU has six NVLinks: four NVLink neighbours, two of them double.
  for (int g = 0; g < 8; ++g) {
    int links = 0;
    for (int o = 0; o < 8; ++o)
      if (o != g && c.route(g, o).size() == 1) links += c.routeBandwidth(g, o) > 30e9 ? 2 : 1;
    EXPECT_EQ(links, 6) << "gpu" << g;
  }
  // gpu0 and gpu7 share no NVLink: PCIe up through both CPUs (QPI), no GPU forwarding.
  EXPECT_EQ(routeKinds(c, 0, 7), (std::vector<std::string>{"PCIe3x16", "PCIe3x16", "QPI", "PCIe3x16", "PCIe3x16"}));
  EXPECT_DOUBLE_EQ(c.routeBandwidth(0, 7), 15.75e9);
}

TEST(Cluster, NvSwitchAndInfiniBand) {
  Cluster h = loadCluster("8xH100-NVSwitch");
  EXPECT_EQ(routeKinds(h, 2, 5), (std::vector<std::string>{"NVLink4", "NVLink4"}));
  EXPECT_DOUBLE_EQ(h.routeBandwidth(2, 5), 450e9);

  Cluster ib = loadCluster("2x8xH100-IB");
  ASSERT_EQ(ib.numDevices(), 16);
  int a = ib.findDevice("node0/gpu3"), b = ib.findDevice("node1/gpu5"), a2 = ib.findDevice("node0/gpu6");
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  EXPECT_EQ(routeKinds(ib, a, a2), (std::vector<std::string>{"NVLink4", "NVLink4"}));  // inside a node
  EXPECT_EQ(routeKinds(ib, a, b),
            (std::vector<std::string>{"PCIe5x16", "InfiniBand-NDR", "InfiniBand-NDR", "PCIe5x16"}));
  EXPECT_EQ(ib.vertexName(ib.channel(ib.route(a, b)[0]).to), "node0/nic3");
  EXPECT_EQ(ib.vertexName(ib.channel(ib.route(a, b)[2]).to), "node1/nic5");
  EXPECT_DOUBLE_EQ(ib.routeBandwidth(a, b), 50e9);  // 400 Gb/s NDR
  EXPECT_EQ(ib.findDevice("gpu3"), -1);
}

TEST(Cluster, MultiNodePresets) {
  // Server-node device names (node<i>/gpu<j>) for the planners that find servers by name
  const std::pair<const char*, int> sizes[] = {{"4x8xA100-IB", 32},
                                               {"3x8xH100-IB", 24},
                                               {"8x8xH100-IB", 64},
                                               {"2x8xA100-PCIe-100GbE", 16},
                                               {"3x4xA100-PCIe-100GbE", 12}};
  for (const auto& [name, devices] : sizes) {
    SCOPED_TRACE(name);
    const Cluster c = loadCluster(name);
    ASSERT_EQ(c.numDevices(), devices);
    const int perNode = name[2] == '4' ? 4 : 8;
    for (int d = 0; d < devices; ++d)
      EXPECT_EQ(c.device(d).name, "node" + std::to_string(d / perNode) + "/gpu" + std::to_string(d % perNode));
  }
  // DGX A100: NVSwitch inside a node, one HDR NIC per GPU between nodes
  const Cluster a = loadCluster("4x8xA100-IB");
  EXPECT_EQ(a.device(0).kind, "A100-SXM4-80GB");
  EXPECT_DOUBLE_EQ(a.device(0).peakFlops(DType::BF16), 312e12);
  EXPECT_DOUBLE_EQ(a.device(0).peakFlops(DType::F32), 19.5e12);
  EXPECT_DOUBLE_EQ(a.device(0).peak[static_cast<size_t>(PeakType::TF32)], 156e12);
  EXPECT_DOUBLE_EQ(a.device(0).memBandwidth, 2039e9);
  EXPECT_EQ(routeKinds(a, a.findDevice("node2/gpu1"), a.findDevice("node2/gpu6")),
            (std::vector<std::string>{"NVLink3", "NVLink3"}));
  EXPECT_DOUBLE_EQ(a.routeBandwidth(a.findDevice("node2/gpu1"), a.findDevice("node2/gpu6")), 300e9);
  EXPECT_EQ(routeKinds(a, a.findDevice("node0/gpu3"), a.findDevice("node3/gpu5")),
            (std::vector<std::string>{"PCIe4x16", "InfiniBand-HDR", "InfiniBand-HDR", "PCIe4x16"}));
  EXPECT_DOUBLE_EQ(a.routeBandwidth(a.findDevice("node0/gpu3"), a.findDevice("node3/gpu5")), 25e9);
  const Cluster h = loadCluster("8x8xH100-IB");
  EXPECT_DOUBLE_EQ(h.routeBandwidth(h.findDevice("node0/gpu0"), h.findDevice("node7/gpu7")), 50e9);
  // PCIe servers: two switches under two sockets, the NIC on socket 0, Ethernet between servers
  const Cluster p = loadCluster("2x8xA100-PCIe-100GbE");
  EXPECT_DOUBLE_EQ(p.device(0).memBandwidth, 1935e9);
  EXPECT_EQ(routeKinds(p, p.findDevice("node0/gpu0"), p.findDevice("node0/gpu3")),
            (std::vector<std::string>{"PCIe4x16", "PCIe4x16"}));
  EXPECT_EQ(routeKinds(p, p.findDevice("node0/gpu0"), p.findDevice("node0/gpu4")),
            (std::vector<std::string>{"PCIe4x16", "PCIe4x16", "UPI", "PCIe4x16", "PCIe4x16"}));
  EXPECT_EQ(routeKinds(p, p.findDevice("node0/gpu5"), p.findDevice("node1/gpu6")),
            (std::vector<std::string>{"PCIe4x16", "PCIe4x16", "UPI", "PCIe4x16", "Ethernet-100G", "Ethernet-100G",
                                      "PCIe4x16", "UPI", "PCIe4x16", "PCIe4x16"}));
  EXPECT_DOUBLE_EQ(p.routeBandwidth(p.findDevice("node0/gpu5"), p.findDevice("node1/gpu6")), 12.5e9);
  const Cluster q = loadCluster("3x4xA100-PCIe-100GbE");
  EXPECT_EQ(routeKinds(q, q.findDevice("node0/gpu0"), q.findDevice("node2/gpu3")),
            (std::vector<std::string>{"PCIe4x16", "PCIe4x16", "PCIe4x16", "Ethernet-100G", "Ethernet-100G", "PCIe4x16",
                                      "PCIe4x16", "PCIe4x16"}));
  for (const Cluster* c : {&p, &q})
    for (int ch = 0; ch < c->numChannels(); ++ch) EXPECT_EQ(c->channel(ch).kind.find("NVLink"), std::string::npos);
}

TEST(Cluster, JsonRoundTrip) {
  for (const std::string& name : clusterPresetNames()) {
    SCOPED_TRACE(name);
    Cluster a = loadCluster(name);
    Cluster b = parseClusterJson(a.toJson(), "roundtrip");
    EXPECT_EQ(a.name(), b.name());
    EXPECT_EQ(a.description(), b.description());
    EXPECT_EQ(a.sources(), b.sources());
    ASSERT_EQ(a.numDevices(), b.numDevices());
    ASSERT_EQ(a.numVertices(), b.numVertices());
    ASSERT_EQ(a.numChannels(), b.numChannels());
    for (int d = 0; d < a.numDevices(); ++d) {
      EXPECT_EQ(a.device(d).name, b.device(d).name);
      EXPECT_EQ(a.device(d).kind, b.device(d).kind);
      for (int p = 0; p < kNumPeakTypes; ++p) EXPECT_DOUBLE_EQ(a.device(d).peak[p], b.device(d).peak[p]);
      EXPECT_DOUBLE_EQ(a.device(d).memBandwidth, b.device(d).memBandwidth);
      EXPECT_EQ(a.device(d).memCapacity, b.device(d).memCapacity);
      EXPECT_DOUBLE_EQ(a.device(d).launchOverhead, b.device(d).launchOverhead);
      for (int e = 0; e < a.numDevices(); ++e) EXPECT_TRUE(std::ranges::equal(a.route(d, e), b.route(d, e)));
    }
    for (int v = 0; v < a.numVertices(); ++v) {
      EXPECT_EQ(a.vertexName(v), b.vertexName(v));
      EXPECT_EQ(a.vertexKind(v), b.vertexKind(v));
    }
    for (int ch = 0; ch < a.numChannels(); ++ch) {
      EXPECT_EQ(a.channel(ch).name, b.channel(ch).name);
      EXPECT_EQ(a.channel(ch).kind, b.channel(ch).kind);
      EXPECT_DOUBLE_EQ(a.channel(ch).bandwidth, b.channel(ch).bandwidth);
      EXPECT_DOUBLE_EQ(a.channel(ch).latency, b.channel(ch).latency);
    }
    EXPECT_EQ(b.toJson(), parseClusterJson(b.toJson(), "again").toJson());
  }
}

TEST(Cluster, LoadsAFilePathAndNamesUnknownPresets) {
  std::string path = ::testing::TempDir() + "/tiny_cluster.json";
  std::ofstream(path) << tinyJson();
  Cluster c = loadCluster(path);
  EXPECT_EQ(c.name(), "tiny");
  EXPECT_DOUBLE_EQ(c.routeBandwidth(0, 1), 8e9);
  EXPECT_DOUBLE_EQ(c.routeLatency(1, 0), 3e-6);
  EXPECT_DOUBLE_EQ(c.device(1).peakFlops(DType::F64), 10e12);  // unlisted: f32 rate
  EXPECT_DOUBLE_EQ(c.device(1).peakFlops(DType::F8), 100e12);  // unlisted: f16 rate
  std::remove(path.c_str());
  try {
    loadCluster("9xFOO");
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("unknown cluster preset"), std::string::npos) << m;
    EXPECT_NE(m.find("8xV100-DGX1"), std::string::npos) << m;
  }
  EXPECT_THROW(loadCluster("/nonexistent/cluster.json"), Error);
}

TEST(Cluster, MalformedJsonFailsWithOneLine) {
  struct Case {
    std::string text, expected;
  };
  const std::string link = R"({"between": ["gpu0", "sw"], "kind": "PCIe", "bandwidth_GBps": 16, "latency_us": 1})";
  const std::vector<Case> cases = {
      {"{", "not valid JSON"},
      {"[]", "top level must be an object"},
      {tinyJson("[" + link +
                R"(, {"between": ["gpu1", "nowhere"], "kind": "x", "bandwidth_GBps": 1, "latency_us": 1}])"),
       "links[1]: unknown vertex 'nowhere'"},
      {tinyJson("[" + link + R"(, {"between": ["gpu1", "sw"], "kind": "x", "bandwidth_GBps": 0, "latency_us": 1}])"),
       "links[1] (gpu1 - sw): field 'bandwidth_GBps' must be positive, got 0"},
      {tinyJson("[" + link + R"(, {"between": ["gpu1", "sw"], "kind": "x", "bandwidth_GBps": -3, "latency_us": 1}])"),
       "must be positive, got -3"},
      {tinyJson("[" + link + "]"), "devices 'gpu0' and 'gpu1' are not connected"},
      {tinyJson("", R"(, {"name": "gpu0", "kind": "G"})"), "devices[2] ('gpu0'): duplicate name 'gpu0'"},
      {tinyJson("", R"(, {"name": "sw", "kind": "G"})"), "duplicate name 'sw'"},
      {tinyJson("", R"(, {"name": "gpu9", "kind": "Z"})"), "devices[2] ('gpu9'): unknown kind 'Z'"},
      {tinyJson("[" + link + "," + link + "]"), "links[1] (gpu0 - sw): duplicate link"},
      {tinyJson(R"([{"between": ["gpu0", "gpu0"], "kind": "x", "bandwidth_GBps": 1, "latency_us": 1}])"),
       "must join two different vertices"},
      {tinyJson(R"([{"between": ["gpu0", "sw"], "kind": "x", "bandwith_GBps": 1, "latency_us": 1}])"),
       "links[0]: unknown field 'bandwith_GBps'"},
      {tinyJson(R"([{"between": ["gpu0", "sw"], "kind": "x", "bandwidth_GBps": "fast", "latency_us": 1}])"),
       "field 'bandwidth_GBps' must be a number"},
      {R"({"name": "x", "device_kinds": {}, "devices": [], "links": []})", "device_kinds: no device kinds"},
      {R"({"format": "other", "name": "x"})", "field 'format' must be \"graphplace-cluster\""},
      // memory past 1 PiB would overflow its byte count
      {[] {
         std::string t = tinyJson();
         t.replace(t.find("\"memory_GiB\": 8"), 15, "\"memory_GiB\": 1e300");
         return t;
       }(),
       "device_kinds['G']: field 'memory_GiB' must be at most 1048576 (1 PiB), got 1e+300"},
      {tinyJson().substr(0, tinyJson().size() - 1) + R"(, "framework": {"reserved_memory_GiB": 3e18}})",
       "framework: field 'reserved_memory_GiB' must be at most 1048576 (1 PiB)"},
  };
  for (const Case& c : cases) {
    std::string m = errorOf(c.text);
    EXPECT_NE(m.find(c.expected), std::string::npos) << "expected '" << c.expected << "' in: " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(m.rfind("c.json: ", 0), 0u) << m;
  }
}

namespace {

// tinyJson() with `efficiency` (a JSON value) in kind G.
std::string withEfficiency(const std::string& efficiency) {
  std::string t = tinyJson();
  const std::string anchor = R"("launch_overhead_us": 5})";
  t.replace(t.find(anchor), anchor.size(), R"("launch_overhead_us": 5, "efficiency": )" + efficiency + "}");
  return t;
}

}  // namespace

TEST(Cluster, KindEfficienciesParseAndRoundTrip) {
  Cluster c = parseClusterJson(withEfficiency(R"({"MatMul": 0.82, "MatMul.f16": 0.66, "Conv.bf16": 0.5, "Other": 1})"),
                               "c.json");
  const DeviceSpec& d = c.device(1);  // every device of the kind gets them
  EXPECT_DOUBLE_EQ(d.efficiency(OpClass::MatMul, DType::F32), 0.82);
  EXPECT_DOUBLE_EQ(d.efficiency(OpClass::MatMul, DType::F16), 0.66);      // its own type first
  EXPECT_DOUBLE_EQ(d.efficiency(OpClass::MatMul, DType::BF16), 0.82);     // else the class
  EXPECT_DOUBLE_EQ(d.efficiency(OpClass::MatMul, DType::F64), 0.82);
  EXPECT_DOUBLE_EQ(d.efficiency(OpClass::Conv, DType::BF16), 0.5);
  EXPECT_EQ(d.efficiency(OpClass::Conv, DType::F32), 0.0);  // not listed: the cost model's default
  EXPECT_EQ(d.efficiency(OpClass::Elementwise, DType::F32), 0.0);
  EXPECT_DOUBLE_EQ(d.efficiency(OpClass::Other, DType::I8), 1.0);  // 1 is allowed
  EXPECT_TRUE(d.listsEfficiency());

  const std::string json = c.toJson();
  EXPECT_NE(json.find(R"("MatMul.f16": 0.66)"), std::string::npos) << json;
  Cluster b = parseClusterJson(json, "roundtrip");
  for (int d2 = 0; d2 < c.numDevices(); ++d2) {
    EXPECT_EQ(b.device(d2).classEfficiency, c.device(d2).classEfficiency);
    EXPECT_EQ(b.device(d2).typedEfficiency, c.device(d2).typedEfficiency);
  }
  EXPECT_EQ(b.toJson(), json);

  // a cluster without them writes none
  Cluster plain = parseClusterJson(tinyJson(), "c.json");
  EXPECT_FALSE(plain.device(0).listsEfficiency());
  EXPECT_EQ(plain.toJson().find("efficiency"), std::string::npos);
  EXPECT_EQ(loadCluster("4xP100-PCIe").toJson().find("efficiency"), std::string::npos);
}

TEST(Cluster, BadKindEfficiencyFailsWithOneLine) {
  const std::string where = "c.json: device_kinds['G'].efficiency: ";
  const std::pair<std::string, std::string> cases[] = {
      {R"({"Matmul": 0.8})", where + "unknown op class 'Matmul' (MatMul Conv Elementwise"},
      {R"({"MatMul.f17": 0.8})", where + "unknown type 'f17' in 'MatMul.f17' (f64 f32 f16 bf16 f8 int8 tf32)"},
      {R"({"MatMul.": 0.8})", where + "unknown type '' in 'MatMul.'"},
      {R"({"MatMul": "0.8"})", where + "field 'MatMul' must be a number"},
      {R"({"Conv": true})", where + "field 'Conv' must be a number"},
      {R"({"MatMul": 1.5})", where + "field 'MatMul' must be in [0.01, 1], got 1.5"},
      {R"({"MatMul.f16": 0})", where + "field 'MatMul.f16' must be in [0.01, 1], got 0"},
      {R"({"Conv": -0.2})", where + "field 'Conv' must be in [0.01, 1], got -0.2"},
      {R"({"Conv": 1e-300})", where + "field 'Conv' must be in [0.01, 1], got 1e-300"},
      {"0.7", "c.json: device_kinds['G']: field 'efficiency' must be an object"},
  };
  for (const auto& [eff, expected] : cases) {
    const std::string m = errorOf(withEfficiency(eff));
    EXPECT_EQ(m.rfind(expected, 0), 0u) << "expected '" << expected << "' at the start of: " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

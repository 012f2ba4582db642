#include "cluster/random_cluster.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "base/error.h"
#include "graph/seeded_random.h"

namespace gp {
namespace {

using nlohmann::ordered_json;

enum Gen { Pascal, Volta, Ampere, Hopper };

struct Kind {
  const char* name;
  Gen gen;
  double f64, f32, f16, bf16, f8, int8, tf32;  // dense peak TFLOPS; 0: not listed (f32 rate)
  double memBandwidthGBps;
  int memGiB;
  double launchUs;
};

// The presets' device kinds (resources/clusters/*.json), plus the 32 GB V100 and the 80 GB
// A100, which differ from their smaller siblings only in memory (and the A100's bandwidth).
constexpr std::array<Kind, 6> kKinds{{
    {"P100-PCIe-16GB", Pascal, 4.7, 9.3, 18.7, 0, 0, 0, 0, 732, 16, 5},
    {"V100-SXM2-16GB", Volta, 7.8, 15.7, 125, 0, 0, 62.8, 0, 900, 16, 4},
    {"V100-SXM2-32GB", Volta, 7.8, 15.7, 125, 0, 0, 62.8, 0, 900, 32, 4},
    {"A100-SXM4-40GB", Ampere, 9.7, 19.5, 312, 312, 0, 624, 156, 1555, 40, 3.5},
    {"A100-SXM4-80GB", Ampere, 9.7, 19.5, 312, 312, 0, 624, 156, 2039, 80, 3.5},
    {"H100-SXM5-80GB", Hopper, 34, 67, 989.4, 989.4, 1978.9, 1978.9, 494.7, 3350, 80, 3},
}};

struct LinkSpec {
  const char* kind;
  double gbps;  // per direction
  double us;
};

LinkSpec pcie(Gen g) {
  if (g == Hopper) return {"PCIe5x16", 63.0, 1.0};
  if (g == Ampere) return {"PCIe4x16", 31.5, 1.5};
  return {"PCIe3x16", 15.75, 1.5};
}
// One GPU's links to the NVSwitch as one channel: DGX-2 6 x NVLink2, DGX A100 12 x NVLink3,
// DGX H100 18 x NVLink4 (25 GB/s per direction per link).
LinkSpec nvswitch(Gen g) {
  if (g == Hopper) return {"NVLink4", 450.0, 1.0};
  if (g == Ampere) return {"NVLink3x12", 300.0, 1.0};
  return {"NVLink2x6", 150.0, 1.0};
}
// A GPU's NIC port: EDR / HDR / NDR InfiniBand, 100 / 200 / 400 Gb/s.
LinkSpec infiniband(Gen g) {
  if (g == Hopper) return {"InfiniBand-NDR", 50.0, 1.0};
  if (g == Ampere) return {"InfiniBand-HDR", 25.0, 1.0};
  return {"InfiniBand-EDR", 12.5, 1.0};
}
constexpr LinkSpec kQpi{"QPI", 38.4, 5.0};
constexpr LinkSpec kNvlink2{"NVLink2", 25.0, 1.8}, kNvlink2x2{"NVLink2x2", 50.0, 1.8};
constexpr LinkSpec kNvlink3x4{"NVLink3x4", 100.0, 1.5};

// DGX-1 hybrid cube-mesh (8xV100-DGX1): GPU pairs and their NVLink2 link count.
struct MeshLink {
  int a, b, links;
};
constexpr MeshLink kCubeMesh[] = {{0, 1, 1}, {0, 2, 1}, {0, 3, 2}, {0, 4, 2}, {1, 2, 2}, {1, 3, 1},
                                  {1, 5, 2}, {2, 3, 2}, {2, 6, 1}, {3, 7, 1}, {4, 5, 1}, {4, 6, 1},
                                  {4, 7, 2}, {5, 6, 2}, {5, 7, 1}, {6, 7, 2}};

enum class Fabric { PcieTree, NvlinkMesh, NvSwitch };

// Whether a node of `m` GPUs of `kind` can have this fabric: NVLink meshes of up to 8 V100s
// (DGX-1) or 4 A100s (HGX A100 4-GPU), NVSwitch nodes of up to 16 V100s (DGX-2) or 8 A100s /
// H100s (DGX A100 / H100), PCIe trees of up to 16 GPUs of any kind.
bool fits(Fabric f, int kind, int m) {
  const Gen g = kKinds[static_cast<size_t>(kind)].gen;
  if (f == Fabric::PcieTree) return m <= 16;
  if (f == Fabric::NvlinkMesh) return (g == Volta && m <= 8) || (g == Ampere && m <= 4);
  return (g == Volta && m <= 16) || (g >= Ampere && m <= 8);
}

// The fabrics a node of m GPUs of `kind` can have; PCIe trees only for single-node clusters.
std::vector<Fabric> fabricsFor(int kind, int m, bool singleNode) {
  std::vector<Fabric> f;
  for (Fabric x : {Fabric::PcieTree, Fabric::NvlinkMesh, Fabric::NvSwitch})
    if ((singleNode || x != Fabric::PcieTree) && fits(x, kind, m)) f.push_back(x);
  return f;
}

// The node counts a multi-node cluster of n GPUs of `kind` can have: 2..4 (more above 32
// GPUs) nodes of at least 2 GPUs, none larger than the kind's biggest NVLink / NVSwitch node.
std::pair<int, int> nodeRange(int kind, int n) {
  const int largest = kKinds[static_cast<size_t>(kind)].gen == Volta ? 16 : 8;
  const int lo = std::max(2, (n + largest - 1) / largest);
  const int hi = std::min(n / 2, std::max({lo, 4, (n + 7) / 8}));
  if (kKinds[static_cast<size_t>(kind)].gen == Pascal || lo > hi) return {0, -1};
  return {lo, hi};
}

class Writer {
 public:
  explicit Writer(SeededRandom& rng) : rng_(rng) {}

  // Adds m devices named PREFIX + "gpuJ" of `kind` (a PCIe tree: sometimes a second kind in
  // its upper half) and the fabric joining them; appends what it made to `text`.
  void node(const std::string& prefix, int m, Fabric f, int kind, std::string& text) {
    std::vector<int> kinds(static_cast<size_t>(m), kind);
    if (f == Fabric::PcieTree && rng_.chance(0.3)) {
      int other = static_cast<int>(rng_.below(kKinds.size() - 1));
      if (other >= kind) ++other;
      std::fill(kinds.begin() + m / 2, kinds.end(), other);
    }
    for (int j = 0; j < m; ++j) device(prefix + gpu(j), kinds[static_cast<size_t>(j)]);
    const Gen g = kKinds[static_cast<size_t>(kind)].gen;
    const bool mixed = kinds.back() != kind;
    text += std::to_string(mixed ? m / 2 : m) + "x " + kKinds[static_cast<size_t>(kind)].name;
    if (mixed) text += " + " + std::to_string(m - m / 2) + "x " + kKinds[static_cast<size_t>(kinds.back())].name;
    if (f == Fabric::PcieTree) {
      const int perSwitch = m <= 2 || rng_.chance(0.5) ? 2 : 4;
      text += " in a PCIe tree (" + std::to_string(perSwitch) + " GPUs per switch)";
      pcieTree(prefix, kinds, perSwitch);
    } else if (f == Fabric::NvlinkMesh && g == Volta) {
      text += " on an NVLink2 hybrid cube-mesh (DGX-1) over a PCIe tree";
      for (const MeshLink& l : kCubeMesh)
        if (l.b < m) link(prefix + gpu(l.a), prefix + gpu(l.b), l.links == 2 ? kNvlink2x2 : kNvlink2);
      pcieTree(prefix, kinds, 2);
    } else if (f == Fabric::NvlinkMesh) {
      text += " fully connected by NVLink3 (HGX A100 4-GPU), PCIe4 to the host";
      for (int a = 0; a < m; ++a)
        for (int b = a + 1; b < m; ++b) link(prefix + gpu(a), prefix + gpu(b), kNvlink3x4);
      pcieTree(prefix, kinds, 0);
    } else {
      text += " on an NVSwitch";
      vertex(prefix + "nvswitch", "NVSwitch");
      for (int j = 0; j < m; ++j) link(prefix + gpu(j), prefix + "nvswitch", nvswitch(g));
    }
  }

  // Every GPU of node `prefix` to its own NIC, the NIC to the InfiniBand switch.
  void nics(const std::string& prefix, int m, Gen g) {
    for (int j = 0; j < m; ++j) {
      const std::string nic = prefix + "nic" + std::to_string(j);
      vertex(nic, "NIC");
      link(prefix + gpu(j), nic, pcie(g));
      link(nic, "ib-switch", infiniband(g));
    }
  }

  void vertex(const std::string& name, const char* kind) { switches_.push_back({{"name", name}, {"kind", kind}}); }

  std::string json(const std::string& name, const std::string& description) const {
    ordered_json j;
    j["format"] = "graphplace-cluster";
    j["version"] = 1;
    j["name"] = name;
    j["description"] = description;
    j["sources"] = {
        "Device kinds, link bandwidths and latencies as in resources/clusters/*.json (datasheets cited there)",
        "NVIDIA V100 datasheet: the 32 GB SXM2 part, 900 GB/s like the 16 GB one; NVIDIA A100 80GB datasheet: "
        "2,039 GB/s (SXM4)",
        "NVSwitch channels: 6 NVLink2 (DGX-2), 12 NVLink3 (DGX A100), 18 NVLink4 (DGX H100) links of 25 GB/s per "
        "direction",
        "InfiniBand EDR / HDR / NDR: 100 / 200 / 400 Gb/s per port (ConnectX-5 / -6 / -7)"};
    ordered_json kinds = ordered_json::object();
    for (int k : usedKinds_) {
      const Kind& d = kKinds[static_cast<size_t>(k)];
      ordered_json peaks{{"f64", d.f64}, {"f32", d.f32}, {"f16", d.f16}};
      if (d.bf16 > 0) peaks["bf16"] = d.bf16;
      if (d.f8 > 0) peaks["f8"] = d.f8;
      if (d.int8 > 0) peaks["int8"] = d.int8;
      if (d.tf32 > 0) peaks["tf32"] = d.tf32;
      kinds[d.name] = {{"peak_TFLOPS", peaks},
                       {"memory_bandwidth_GBps", d.memBandwidthGBps},
                       {"memory_GiB", d.memGiB},
                       {"launch_overhead_us", d.launchUs}};
    }
    // the framework of the presets of the same generation: TensorFlow 1.x for Pascal, PyTorch
    // from Volta on (and for a mix)
    bool pascal = true;
    for (int k : usedKinds_) pascal &= kKinds[static_cast<size_t>(k)].gen == Pascal;
    j["framework"] = pascal ? "tf1-graph" : "pytorch-eager";
    j["device_kinds"] = kinds;
    j["devices"] = devices_;
    j["switches"] = switches_;
    j["links"] = links_;
    return j.dump(1);
  }

 private:
  static std::string gpu(int j) { return "gpu" + std::to_string(j); }

  void device(const std::string& name, int kind) {
    devices_.push_back({{"name", name}, {"kind", kKinds[static_cast<size_t>(kind)].name}});
    usedKinds_.insert(kind);
  }

  void link(const std::string& a, const std::string& b, const LinkSpec& l) {
    links_.push_back({{"between", {a, b}}, {"kind", l.kind}, {"bandwidth_GBps", l.gbps}, {"latency_us", l.us}});
  }

  // GPUs in groups of `perSwitch` under PCIe switches (perSwitch 0: all on the host bridge
  // directly); more than two switches split over two CPUs joined by QPI. A GPU's link runs at
  // its own PCIe generation, the switch uplinks at the newest.
  void pcieTree(const std::string& prefix, const std::vector<int>& kinds, int perSwitch) {
    const int m = static_cast<int>(kinds.size());
    Gen newest = Pascal;
    for (int k : kinds) newest = std::max(newest, kKinds[static_cast<size_t>(k)].gen);
    const int group = perSwitch > 0 ? perSwitch : m;
    const int switches = (m + group - 1) / group;
    const int cpus = switches > 2 ? 2 : 1;
    for (int c = 0; c < cpus; ++c) vertex(prefix + "cpu" + std::to_string(c), cpus == 1 ? "host-bridge" : "CPU");
    if (cpus == 2) link(prefix + "cpu0", prefix + "cpu1", kQpi);
    for (int s = 0; s < switches; ++s) {
      std::string parent = prefix + "cpu" + std::to_string(s * cpus / switches);
      if (perSwitch > 0) {
        const std::string sw = prefix + "plx" + std::to_string(s);
        vertex(sw, "PCIe-switch");
        link(sw, parent, pcie(newest));
        parent = sw;
      }
      for (int j = s * group; j < std::min(m, (s + 1) * group); ++j)
        link(prefix + gpu(j), parent, pcie(kKinds[static_cast<size_t>(kinds[static_cast<size_t>(j)])].gen));
    }
  }

  SeededRandom& rng_;
  ordered_json devices_ = ordered_json::array(), switches_ = ordered_json::array(), links_ = ordered_json::array();
  std::set<int> usedKinds_;
};

}  // namespace

std::string randomClusterJson(uint64_t seed, int devices) {
  SeededRandom rng(seed);
  const int drawn = rng.between(2, 16);  // drawn even when given, so random:S:N matches random:S
  if (devices != 0 && (devices < 2 || devices > kMaxRandomClusterDevices))
    throw Error("random:" + std::to_string(seed), "the device count must be between 2 and " +
                                                      std::to_string(kMaxRandomClusterDevices) + " (got " +
                                                      std::to_string(devices) + ")");
  const int n = devices != 0 ? devices : drawn;
  const std::string name = "random-" + std::to_string(seed) + "-" + std::to_string(n) + "gpu";
  std::string text = "Random cluster (seed " + std::to_string(seed) + "): ";
  Writer w(rng);
  // the kind, then a topology it allows: one node of one fabric, or several nodes
  std::vector<int> kinds;
  for (int k = 0; k < static_cast<int>(kKinds.size()); ++k)
    if (!fabricsFor(k, n, true).empty() || nodeRange(k, n).first > 0) kinds.push_back(k);
  int kind = rng.pick(kinds);
  const auto [lo, hi] = nodeRange(kind, n);
  const std::vector<Fabric> single = fabricsFor(kind, n, true);
  if (rng.below(single.size() + (lo > 0 ? 1 : 0)) < single.size()) {
    w.node("", n, rng.pick(single), kind, text);
  } else {
    const int nodes = rng.between(lo, hi);
    text += std::to_string(n) + " GPUs on " + std::to_string(nodes) +
            " nodes, each GPU with its own NIC on one InfiniBand switch; ";
    w.vertex("ib-switch", "InfiniBand-switch");
    Fabric f = Fabric::NvSwitch;
    for (int i = 0; i < nodes; ++i) {
      const int m = n / nodes + (i < n % nodes ? 1 : 0);
      if (i > 0 && (rng.chance(0.3) || !fits(f, kind, m))) {  // another kind: a mixed cluster
        std::vector<int> others;
        for (int k = 0; k < static_cast<int>(kKinds.size()); ++k)
          if (!fabricsFor(k, m, false).empty()) others.push_back(k);
        kind = rng.pick(others);
      }
      if (i == 0 || !fits(f, kind, m)) f = rng.pick(fabricsFor(kind, m, false));
      const std::string prefix = "node" + std::to_string(i) + "/";
      text += (i ? "; " : "") + prefix.substr(0, prefix.size() - 1) + ": ";
      w.node(prefix, m, f, kind, text);
      w.nics(prefix, m, kKinds[static_cast<size_t>(kind)].gen);
    }
  }
  return w.json(name, text + ".");
}

Cluster randomCluster(uint64_t seed, int devices) {
  const std::string source =
      "random:" + std::to_string(seed) + (devices != 0 ? ":" + std::to_string(devices) : std::string());
  return parseClusterJson(randomClusterJson(seed, devices), source);
}

Cluster randomClusterFromSpec(const std::string& spec) {
  const std::string rest = spec.substr(7);  // after "random:"
  const size_t colon = rest.find(':');
  const std::string seedText = rest.substr(0, colon);
  uint64_t seed = 0;
  if (!parseSeed(seedText, seed))
    throw Error(spec, "the seed must be a whole number 0 .. 18446744073709551615, got '" + seedText +
                          "' (random:SEED or random:SEED:DEVICES)");
  if (colon == std::string::npos) return randomCluster(seed);
  const std::string countText = rest.substr(colon + 1);
  uint64_t count = 0;
  if (!parseSeed(countText, count) || count < 2 || count > kMaxRandomClusterDevices)
    throw Error(spec, "the device count must be a whole number 2 .. " + std::to_string(kMaxRandomClusterDevices) +
                          ", got '" + countText + "'");
  return randomCluster(seed, static_cast<int>(count));
}

}  // namespace gp

// Cluster: the devices a graph is placed on and the topology that connects them.
//
// The topology is a graph of vertices: every device is one vertex, and so is every piece of
// interconnect that is not a device (host bridge / CPU, PCIe switch, NVSwitch, NIC, network
// switch). Each physical link is full duplex and becomes two directed Channels. Routes
// between every pair of devices are computed once at load: shortest by total latency, then
// by hop count, ties broken by lowest vertex / channel index; a route never passes through a
// third device (GPUs do not forward traffic). The simulator occupies every channel of a
// route for routeLatency + bytes / routeBandwidth (circuit model). A cluster of N identical
// servers (cluster/scaled_cluster.h) keeps its routes as its two-server template's instead
// (ServerRoutes, cluster/route.h): the same routes, without n^2 storage.
//
//   Cluster c = loadCluster("8xV100-DGX1");       // preset, or a path to a .json file
//   Route r = c.route(0, 7);                      // channel ids gpu0 -> ... -> gpu7
//
// File format: docs/formats.md, "Cluster JSON". Presets: resources/clusters/*.json.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/route.h"
#include "graph/op_class.h"
#include "graph/dtype.h"

namespace gp {

// Arithmetic rates a device lists peaks for. DTypes map onto them with peakTypeOf().
// TF32 is the tensor-core rate for f32 matrix products when a model runs with TF32 math
// (graph/precision.h); no DType maps onto it.
enum class PeakType : uint8_t { F64, F32, F16, BF16, F8, I8, TF32, Count };
constexpr int kNumPeakTypes = static_cast<int>(PeakType::Count);
std::string_view peakTypeName(PeakType t);  // "f64", "f32", "f16", "bf16", "f8", "int8", "tf32"
// F16 -> F16, BF16 -> BF16, F64 and Complex64 -> F64, F8 -> F8, I8 and U8 -> I8, all else
// (F32, wider integers, Bool, Unknown) -> F32.
PeakType peakTypeOf(DType t);

// The software that runs the kernels: its cost per op on the host (dispatch, bookkeeping; it
// delays every kernel it issues) and the device memory it keeps for itself (CUDA context,
// library workspaces) and loses to allocator fragmentation. Presets: frameworkPreset().
struct FrameworkSpec {
  std::string name;             // "tf1-graph", "pytorch-eager", "xla", "cuda", or a file's own name
  double opOverhead = 0;        // seconds added to every kernel
  int64_t reservedMemory = 0;   // bytes per device not available to the model
  double fragmentation = 0;     // usable = (capacity - reserved) / (1 + fragmentation)
  bool fusesElementwise = false;  // a compiler fuses elementwise chains into their producers (xla)
};
// "tf1-graph", "pytorch-eager", "xla", "cuda" (kernels called back to back from C++, as
// microbenchmarks do). Throws gp::Error naming `source` for an unknown name.
FrameworkSpec frameworkPreset(std::string_view name, const std::string& source = "framework");
std::vector<std::string> frameworkPresetNames();

struct DeviceSpec {
  std::string name;                          // "gpu0"
  std::string kind;                          // "V100-SXM2-16GB" (calibration tables key on it)
  std::array<double, kNumPeakTypes> peak{};  // FLOP/s per PeakType (dense, no sparsity)
  double memBandwidth = 0;                   // bytes/s
  int64_t memCapacity = 0;                   // bytes the model may use (memory_GiB less the framework's share)
  int64_t memPhysical = 0;                   // bytes on the device (memory_GiB)
  double bandwidthEfficiency = 0;            // fraction of memBandwidth streaming kernels reach; 0 = default
  double launchOverhead = 0;                 // seconds per kernel
  int smCount = 0;                           // streaming multiprocessors (device_kinds.K.sm_count); 0 = not stated
  int node = 0;                              // index of its vertex in the topology
  // FlashAttention-2's rate as a share of the fastest fused attention kernel's on this kind
  // (device_kinds.K.flash2_attention_share): 1 where FlashAttention-2 is that kernel.
  double flash2Share = 1;
  // Fraction of the peak that compute-bound kernels of a class reach on this kind, as listed in
  // device_kinds.K.efficiency: per class ("MatMul") and per class and arithmetic type
  // ("MatMul.f16"); 0 = not listed (the cost model then uses CostParams' default).
  std::array<double, kNumOpClasses> classEfficiency{};
  std::array<std::array<double, kNumPeakTypes>, kNumOpClasses> typedEfficiency{};

  double peakFlops(DType t) const { return peak[static_cast<int>(peakTypeOf(t))]; }
  // The listed efficiency of class c for dtype t: "Class.type" if listed, else "Class", else 0.
  double efficiency(OpClass c, DType t) const { return efficiency(c, peakTypeOf(t)); }
  double efficiency(OpClass c, PeakType t) const {
    const auto ci = static_cast<size_t>(c);
    const double typed = typedEfficiency[ci][static_cast<size_t>(t)];
    return typed > 0 ? typed : classEfficiency[ci];
  }
  bool listsEfficiency() const;  // any class listed
};

struct Channel {         // one direction of a physical link
  int from = 0, to = 0;  // topology vertices
  double bandwidth = 0;  // bytes/s
  double latency = 0;    // s
  std::string kind;      // "PCIe3x16", "NVLink2", "NVSwitch", "InfiniBand-NDR", ...
  std::string name;      // "gpu0->gpu1"
};

class Cluster {
 public:
  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::vector<std::string>& sources() const { return sources_; }
  const FrameworkSpec& framework() const { return framework_; }
  // Sets the framework and each device's usable memory from it.
  void setFramework(FrameworkSpec f);

  int numDevices() const { return static_cast<int>(devices_.size()); }
  const DeviceSpec& device(int d) const { return devices_[d]; }
  int findDevice(std::string_view name) const;  // -1 if absent

  // Topology vertices: devices first (vertex d is device d), then the other vertices.
  int numVertices() const { return static_cast<int>(vertexName_.size()); }
  const std::string& vertexName(int v) const { return vertexName_[v]; }
  const std::string& vertexKind(int v) const { return vertexKind_[v]; }  // device kind or switch kind

  // Channels 2i and 2i+1 are the two directions of link i (as listed in the file).
  int numChannels() const { return static_cast<int>(channels_.size()); }
  const Channel& channel(int c) const { return channels_[c]; }

  // Directed channels a transfer from device a to device b crosses, in order; empty if a == b.
  Route route(int a, int b) const {
    if (serverRoutes_) return serverRoutes_->route(a, b);
    size_t i = pairIndex(a, b);
    return {routeData_.data() + routeOff_[i], nullptr, static_cast<size_t>(routeOff_[i + 1] - routeOff_[i])};
  }
  double routeLatency(int a, int b) const {  // sum of latencies
    return serverRoutes_ ? serverRoutes_->latency[serverRoutes_->pair(a, b)] : routeLatency_[pairIndex(a, b)];
  }
  double routeBandwidth(int a, int b) const {  // bottleneck; 0 if a == b
    return serverRoutes_ ? serverRoutes_->bandwidth[serverRoutes_->pair(a, b)] : routeBandwidth_[pairIndex(a, b)];
  }

  // Servers per pod of a scaled cluster with pods (":pod=S", cluster/scaled_cluster.h); 0 when
  // one switch layer joins every server or the cluster is not scaled.
  int serversPerPod() const { return serverRoutes_ ? serverRoutes_->serversPerPod : 0; }

  // The cluster as JSON in the documented format; parseClusterJson(toJson()) gives it back.
  std::string toJson() const;

 private:
  friend class ClusterParser;
  friend Cluster parseClusterJson(const std::string& text, const std::string& source,
                                  std::shared_ptr<const ServerRoutes> routes);
  size_t pairIndex(int a, int b) const { return static_cast<size_t>(a) * devices_.size() + static_cast<size_t>(b); }
  void computeRoutes(const std::string& source);

  std::string name_, description_;
  std::vector<std::string> sources_;
  FrameworkSpec framework_;
  std::vector<DeviceSpec> devices_;
  std::vector<std::string> vertexName_, vertexKind_;
  std::vector<Channel> channels_;
  // All-pairs routes (n * n), CSR over routeData_; or a scaled cluster's template routes.
  std::vector<int32_t> routeOff_;
  std::vector<int32_t> routeData_;
  std::vector<double> routeLatency_, routeBandwidth_;
  std::shared_ptr<const ServerRoutes> serverRoutes_;
};

// A preset name ("4xP100-PCIe"), "random:SEED[:DEVICES]" (cluster/random_cluster.h) or a path
// to a .json file. Throws gp::Error (one line naming the file and field) on bad input, or
// listing the presets when the name is unknown.
Cluster loadCluster(const std::string& presetOrPath);
// Parses cluster JSON; `source` names it in errors.
Cluster parseClusterJson(const std::string& text, const std::string& source);
// The same with the given routes in place of computing every pair's (scaled_cluster.h builds
// them for the file it writes).
Cluster parseClusterJson(const std::string& text, const std::string& source, std::shared_ptr<const ServerRoutes> routes);
// Names of the presets found in the cluster resource folder, sorted.
std::vector<std::string> clusterPresetNames();
// The folder presets are read from: $GP_RESOURCE_DIR/clusters, else <exe>/../share/graphplace/clusters,
// else the first resources/clusters in a folder above the executable; empty if none exists.
std::string clusterResourceDir();

}  // namespace gp

// Random clusters: many different but realistic machines, for training and testing placement
// policies beyond the presets.
//
//   Cluster c = randomCluster(7);            // 2..16 devices, drawn from the seed
//   Cluster d = loadCluster("random:7:32");  // the same draws with 32 devices
//
// From the seed: the device count (unless given), a device kind (P100 16GB, V100 16/32GB,
// A100 40/80GB, H100 80GB) and a topology it allows — a PCIe tree (PCIe switches under one or
// two host CPUs; sometimes a second kind), an NVLink mesh (DGX-1 hybrid cube-mesh of V100s, or
// up to four fully connected A100s, over PCIe), an NVSwitch node, or 2-4 such NVLink /
// NVSwitch nodes (sometimes of different kinds) whose GPUs each reach an InfiniBand switch
// through their own NIC — with the datasheet figures and link bandwidths / latencies of
// resources/clusters/*.json. The cluster is
// written in the Cluster JSON format (docs/formats.md) and parsed by parseClusterJson, so it
// is checked like any file. The same seed and device count give the same cluster everywhere
// (graph/seeded_random.h).
#pragma once
#include <cstdint>
#include <string>

#include "cluster/cluster.h"

namespace gp {

inline constexpr int kMaxRandomClusterDevices = 64;

// devices 0: drawn 2..16; else 2..kMaxRandomClusterDevices. Named "random-SEED-Ngpu"; its
// description says what was drawn. Throws gp::Error for a device count out of range.
Cluster randomCluster(uint64_t seed, int devices = 0);
std::string randomClusterJson(uint64_t seed, int devices = 0);

// "random:SEED" or "random:SEED:DEVICES" (what loadCluster accepts). Throws gp::Error(spec, ...)
// for a seed that is not a whole number 0..2^64-1 or a bad device count.
Cluster randomClusterFromSpec(const std::string& spec);
inline bool isRandomClusterSpec(const std::string& spec) {
  return spec.rfind("random:", 0) == 0;
}

}  // namespace gp

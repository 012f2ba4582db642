// Clusters of N identical servers from a multi-server preset: "<N>x<server>" such as
// "128x8xH100-IB" is the preset "<k>x<server>" with the fewest servers (2x8xH100-IB), its
// server node0 copied N times (devices, switches and the links among them renamed node<i>/),
// each copy joined to the preset's shared switches (the InfiniBand switch) as node0 is. Link
// figures, device kinds and the framework are the preset's. "<N>x<FILE.json>" does the same
// from a cluster file whose servers are node0/, node1/, ... At most kMaxScaledDevices devices:
// routes are kept for every pair of devices.
#pragma once
#include <optional>
#include <string>

#include "cluster/cluster.h"

namespace gp {

inline constexpr int kMaxScaledDevices = 2048;

// The cluster JSON text for `spec`, or nullopt when `spec` is not "<N>x<server>" with a
// multi-server preset for <server> nor "<N>x<FILE.json>" with an existing file. Throws
// gp::Error(spec, ...) for N out of range.
std::optional<std::string> scaledClusterJson(const std::string& spec);

}  // namespace gp

// Clusters of N identical servers from a multi-server preset: "<N>x<server>" such as
// "128x8xH100-IB" is the preset "<k>x<server>" with the fewest servers (2x8xH100-IB), its
// server node0 copied N times (devices, switches and the links among them renamed node<i>/),
// each copy joined to the preset's shared switches (the InfiniBand switch) as node0 is. Link
// figures, device kinds and the framework are the preset's. "<N>x<FILE.json>" does the same
// from a cluster file whose servers are node0/, node1/, ...
//
// Routes are not computed pair by pair (n^2 of them: 268 million at 16,384 GPUs) but taken from
// the template's: a route inside server k is the template's inside node0, a route from server i
// to server j the template's from node0 to node1, each channel moved to server i's or j's copy
// (ServerRoutes, cluster/route.h). They are the routes a pair-by-pair search would find: a route
// never passes a third server (GPUs do not forward, and a server's switches reach the others only
// through the shared ones).
#pragma once
#include <optional>
#include <string>

#include "cluster/cluster.h"

namespace gp {

inline constexpr int kMaxScaledDevices = 32768;

// The cluster JSON text for `spec`, or nullopt when `spec` is not "<N>x<server>" with a
// multi-server preset for <server> nor "<N>x<FILE.json>" with an existing file. Throws
// gp::Error(spec, ...) for N out of range.
std::optional<std::string> scaledClusterJson(const std::string& spec);

// The cluster itself, with its routes from the template (nullopt and errors as above).
std::optional<Cluster> scaledCluster(const std::string& spec);

}  // namespace gp

// The rings a collective runs on, laid as NCCL lays them: over the fastest links among the
// group's GPUs rather than in rank order, and as many rings at once as the links carry.
//
// NCCL searches its rings over the topology (NVLink first, then PCIe, then the network) and
// runs several channels side by side, each a ring of its own, so that every link of a GPU
// carries traffic. For a group whose GPUs reach their peers through one port each (an NVSwitch,
// a PCIe switch, a network adapter) the rank order already loads every port once and nothing
// else can do better; on a mesh of direct links (a DGX-1's NVLink hybrid cube-mesh, a 4-GPU
// NVLink board) the rank order may cross slow links (gpu3 -> gpu4 over PCIe and QPI on a DGX-1)
// while rings on NVLink, in both directions, use all six links of each GPU.
//
// ringsOver packs rings greedily: the Hamiltonian cycle over the group with the largest
// bottleneck (each channel's remaining bandwidth over the times the cycle crosses it), its
// bandwidth taken from the channels, again while a further ring gets at least half the first
// one's (NCCL keeps to the fastest link type it found rather than adding PCIe rings beside
// NVLink ones), at most kMaxRings rings. The rank order is kept when no cycle beats it. A ring's
// share of the bytes is its bandwidth over the sum, so the rings finish together.
#pragma once
#include <span>
#include <vector>

#include "cluster/cluster.h"

namespace gp {

inline constexpr int kMaxRings = 8;  // rings packed per group

struct RingSet {
  std::vector<std::vector<int>> orders;  // each a cycle over the group's devices
  std::vector<double> shares;            // bytes share of each, summing to 1
  std::vector<double> bandwidths;        // bytes/s each ring was given (its bottleneck); 0: the rank order, not packed
};

// Rings over `members` (devices, rank order; `serverOf[d]`: server of device d). Groups of two
// or of more than 16 devices, groups over several servers (their collectives run
// hierarchically, collectives.h) and groups whose every device sends and receives through one
// channel get the rank order alone. Results are cached per thread by cluster and member list;
// the reference holds until the next call.
const RingSet& ringsOver(const Cluster& c, std::span<const int> members, std::span<const int> serverOf);
// Whether ringsOver may lay other rings than the rank order (a group of 3 to 16 devices on one
// server whose devices do not all sit behind one port); where not, a caller sends along the
// rank order without asking.
bool mayPackRings(const Cluster& c, std::span<const int> members, std::span<const int> serverOf);

}  // namespace gp

// What a training process holds on each GPU besides the model's tensors, per rank of a parallel
// plan: NCCL's buffers for the communicators its rank uses, and cuBLAS's workspaces. (The CUDA
// context is the framework's reserved memory, FrameworkSpec::reservedMemory, already taken off
// the device's capacity; the caching allocator's fragmentation likewise.)
//
// NCCL (NVIDIA/nccl src/init.cc defaults) gives each connection a buffer per protocol: Simple
// 4 MiB, LL 8 lines x 512 threads x 8 steps x 16 B = 512 KiB, LL128 120 x 640 x 8 x 8 B =
// 4,915,200 B: 9.19 MiB. Since 2.22 it connects lazily, so only the communicators a rank uses
// hold buffers. A ring collective (all-reduce, reduce-scatter, all-gather) keeps two
// connections per channel whatever the group's size; it runs kRingChannelsNvlink channels
// inside an NVLink / NVSwitch server, kRingChannelsNetwork across servers and
// kRingChannelsPcie over PCIe. Check: two A100s on NVLink all-reducing 4 MB held 544 MB of
// NCCL memory, larger groups 688 MB (NVIDIA/nccl#964); the formula gives 588 MiB.
// Point-to-point traffic (pipeline sends, context parallelism's ring of keys and values, the
// all-to-alls of expert parallelism) connects to each peer on its own channels: 32 per NVLink
// peer, 2 per network peer (NCCL_NCHANNELS_PER_NET_PEER), each 12 MiB (the 10,485,760 B +
// 2,097,152 B buffers NVIDIA/nccl#1685 shows per channel and peer). Check: an all-to-all over
// 8 H100s in one server raised NCCL's memory by 3.05 GiB there; the formula gives 2.63 GiB.
//
// cuBLAS: PyTorch gives each (handle, stream) a workspace through the caching allocator,
// CUBLAS_WORKSPACE_CONFIG ":4096:2:16:8" = 8,519,680 B, 32 MiB on Hopper
// (aten/src/ATen/cuda/CublasHandlePool.cpp); one stream, two when TP communication overlaps
// the products.
#pragma once
#include <span>
#include <vector>

#include "cluster/cluster.h"
#include "parallel/parallel_plan.h"

namespace gp {

inline constexpr double kNcclConnectionBytes = 4.0 * 1024 * 1024 + 512.0 * 1024 + 4915200.0;
inline constexpr double kNcclPeerChannelBytes = 10485760.0 + 2097152.0;
inline constexpr int kRingChannelsNvlink = 32;
inline constexpr int kRingChannelsNetwork = 16;
inline constexpr int kRingChannelsPcie = 2;
inline constexpr int kPeerChannelsNvlink = 32;
inline constexpr int kPeerChannelsNetwork = 2;

struct RuntimeMemory {
  double nccl = 0;        // bytes: the communicators' buffers
  double workspaces = 0;  // bytes: cuBLAS workspaces
  double total() const { return nccl + workspaces; }
};

// Bytes of one ring communicator of `channels` channels.
double ncclRingBytes(int channels);
// Bytes of point-to-point connections to `peers` peers of `channelsPerPeer` channels each.
double ncclPeerBytes(int peers, int channelsPerPeer);
// The channels a ring over `group` (devices) runs: every member in one server (`serverOf`)
// on NVLink-class links (>= 100 GB/s between its first two members), on PCIe, or across servers.
int ncclRingChannels(const Cluster& c, std::span<const int> group, std::span<const int> serverOf);
// The channels to one peer of `device`.
int ncclPeerChannels(const Cluster& c, int device, int peer, std::span<const int> serverOf);
// 32 MiB on Hopper (H100, H200, H800, GH200), 8,519,680 B on other GPUs.
double cublasWorkspaceBytes(const DeviceSpec& d);

// The runtime memory of each pipeline stage of `plan` (rankDevice: rank -> device), the most any
// rank of the stage holds: a ring communicator for its TP group and for its gradient group
// (dp x cp), each when larger than one rank; point-to-point peers for its pipeline neighbours,
// its context-parallel ring neighbours and, under expert parallelism, every other rank of its dp
// group; the workspaces of its streams. O(ranks).
std::vector<RuntimeMemory> stageRuntimeMemory(const Cluster& c, const ParallelPlan& plan, std::span<const int> rankDevice,
                                              std::span<const int> serverOf);

}  // namespace gp

#include "parallel/runtime_memory.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

#include "parallel/stage_cost.h"

namespace gp {
namespace {

constexpr double kNvlinkClassBandwidth = 100e9;  // bytes/s: NVLink 2 and later, NVSwitch

bool sameServer(std::span<const int> group, std::span<const int> serverOf) {
  return std::all_of(group.begin(), group.end(), [&](int d) { return serverOf[static_cast<size_t>(d)] == serverOf[static_cast<size_t>(group[0])]; });
}

// Ring communicators of `groups` (all the same size, > 1): the bytes each member holds.
void addRings(const Cluster& c, const std::vector<std::vector<int>>& groups, std::span<const int> serverOf,
              std::vector<double>& perDevice) {
  for (const std::vector<int>& g : groups) {
    if (g.size() < 2) continue;
    const double bytes = ncclRingBytes(ncclRingChannels(c, g, serverOf));
    for (int d : g) perDevice[static_cast<size_t>(d)] += bytes;
  }
}

}  // namespace

double ncclRingBytes(int channels) { return channels * 2 * kNcclConnectionBytes; }

double ncclPeerBytes(int peers, int channelsPerPeer) { return static_cast<double>(peers) * channelsPerPeer * kNcclPeerChannelBytes; }

int ncclRingChannels(const Cluster& c, std::span<const int> group, std::span<const int> serverOf) {
  if (group.size() < 2) return 0;
  if (!sameServer(group, serverOf)) return kRingChannelsNetwork;
  return c.routeBandwidth(group[0], group[1]) >= kNvlinkClassBandwidth ? kRingChannelsNvlink : kRingChannelsPcie;
}

int ncclPeerChannels(const Cluster& c, int device, int peer, std::span<const int> serverOf) {
  if (device == peer) return 0;
  if (serverOf[static_cast<size_t>(device)] != serverOf[static_cast<size_t>(peer)]) return kPeerChannelsNetwork;
  return c.routeBandwidth(device, peer) >= kNvlinkClassBandwidth ? kPeerChannelsNvlink : kPeerChannelsNetwork;
}

double cublasWorkspaceBytes(const DeviceSpec& d) {
  for (std::string_view hopper : {"H100", "H200", "H800", "GH200", "H20"})
    if (d.kind.find(hopper) != std::string::npos) return 32.0 * 1024 * 1024;
  return 8519680.0;
}

std::vector<RuntimeMemory> stageRuntimeMemory(const Cluster& c, const ParallelPlan& plan, std::span<const int> rankDevice,
                                              std::span<const int> serverOf) {
  const int perStage = plan.ranksPerStage();
  const auto ranks = std::vector<int>(rankDevice.begin(), rankDevice.end());
  std::vector<RuntimeMemory> out(static_cast<size_t>(plan.pp));
  const int streams = plan.overlapTpComm ? 2 : 1;
  std::vector<double> nccl(static_cast<size_t>(c.numDevices()));  // device -> bytes, the stage's
  for (int s = 0; s < plan.pp; ++s) {
    for (int i = 0; i < perStage; ++i) nccl[static_cast<size_t>(rankDevice[static_cast<size_t>(s * perStage + i)])] = 0;
    addRings(c, tpGroups(plan, ranks, s), serverOf, nccl);
    // The data-parallel groups; under HSDP a communicator per sharding group and per replica set.
    addRings(c, shardGroups(plan, ranks, s), serverOf, nccl);
    addRings(c, replicaGroups(plan, ranks, s), serverOf, nccl);
    auto peers = [&](int device, std::span<const int> with) {
      for (int q : with) nccl[static_cast<size_t>(device)] += ncclPeerBytes(1, ncclPeerChannels(c, device, q, serverOf));
    };
    // Context parallelism: each rank passes keys and values to the next of its ring, receives
    // from the previous.
    if (plan.cp > 1)
      for (const std::vector<int>& g : cpGroups(plan, ranks, s))
        for (size_t i = 0; i < g.size(); ++i) {
          const int next = g[(i + 1) % g.size()], prev = g[(i + g.size() - 1) % g.size()];
          peers(g[i], next == prev ? std::vector<int>{next} : std::vector<int>{prev, next});
        }
    // Expert parallelism: all-to-alls over the dp group; per member, its peers in its own
    // server and beyond it (counted per server, O(group)).
    if (plan.expertParallel && plan.dp > 1)
      for (const std::vector<int>& g : dpGroups(plan, ranks, s)) {
        std::unordered_map<int, int> onServer;
        for (int d : g) ++onServer[serverOf[static_cast<size_t>(d)]];
        for (int d : g) {
          const int local = onServer[serverOf[static_cast<size_t>(d)]] - 1, remote = static_cast<int>(g.size()) - 1 - local;
          // A local peer: NVLink-class when the server's links are (its first other member).
          int localPeer = -1;
          for (int q : g)
            if (q != d && serverOf[static_cast<size_t>(q)] == serverOf[static_cast<size_t>(d)]) {
              localPeer = q;
              break;
            }
          if (localPeer >= 0) nccl[static_cast<size_t>(d)] += ncclPeerBytes(local, ncclPeerChannels(c, d, localPeer, serverOf));
          nccl[static_cast<size_t>(d)] += ncclPeerBytes(remote, kPeerChannelsNetwork);
        }
      }
    // Pipeline neighbours: the same position in the previous and the next stage.
    RuntimeMemory& most = out[static_cast<size_t>(s)];
    for (int i = 0; i < perStage; ++i) {
      const int r = s * perStage + i;
      const int d = rankDevice[static_cast<size_t>(r)];
      double bytes = nccl[static_cast<size_t>(d)];
      for (int t : {s - 1, s + 1})
        if (t >= 0 && t < plan.pp) bytes += ncclPeerBytes(1, ncclPeerChannels(c, d, rankDevice[static_cast<size_t>(t * perStage + i)], serverOf));
      // Interleaved chunks send around the ring: the last stage to the first and back.
      if (plan.virtualStages > 1 && plan.pp > 2 && (s == 0 || s == plan.pp - 1))
        bytes += ncclPeerBytes(1, ncclPeerChannels(c, d, rankDevice[static_cast<size_t>((s == 0 ? plan.pp - 1 : 0) * perStage + i)], serverOf));
      most.nccl = std::max(most.nccl, bytes);
      most.workspaces = std::max(most.workspaces, streams * cublasWorkspaceBytes(c.device(d)));
    }
  }
  return out;
}

}  // namespace gp

// Collectives over the cluster's links and routes, as NCCL runs them on rings.
//
// Every transfer follows the cluster's route between its two devices (cluster/cluster.h) and
// loads each directed channel of it. Concurrent transfers add up on the channels they share;
// a phase of a collective takes max over channels (bytes / bandwidth) + its steps x the
// slowest route's latency. For n ranks and S bytes per rank:
//   all-reduce      ring: every edge carries 2(n-1)/n S in 2(n-1) steps
//   reduce-scatter, all-gather: (n-1)/n S in n-1 steps
//   all-to-all      every rank sends S/n to every other rank directly, one step
// A ring is laid over the fastest links of its group and several run side by side where the
// links allow (parallel/nccl_rings.h: a DGX-1's NVLink mesh carries four rings, an NVSwitch
// server one). A group spread over several servers with g > 1 members on each (the same g
// everywhere) may instead run hierarchically: reduce-scatter inside each server, the
// collective on S/g across servers (g rings at once, one per local rank), all-gather inside
// each server; an all-reduce over three servers or more may run its part between servers as
// NCCL's double binary trees (every tree edge S/2 each way, 2 log2(servers) steps in place of
// the ring's 2 (servers - 1), at 0.9 of the ring's bandwidth). The fastest is taken, as NCCL
// chooses its algorithm by size and topology.
//
// Groups passed together run at the same time (the TP groups of every replica of a stage, the
// DP groups of every shard): their loads share the channels.
#pragma once
#include <span>
#include <vector>

#include "cluster/cluster.h"

namespace gp {

enum class Collective : uint8_t { AllReduce, ReduceScatter, AllGather, AllToAll };

// Bytes per directed channel for a set of concurrent transfers.
// Bytes per channel of concurrent sends. Its per-channel table comes from a per-thread pool and
// goes back zeroed (only the channels used are touched): a 16,384-GPU cluster has ~100k channels,
// and the searches cost thousands of collectives.
class ChannelLoad {
 public:
  explicit ChannelLoad(const Cluster& c);
  ~ChannelLoad();
  ChannelLoad(const ChannelLoad&) = delete;
  ChannelLoad& operator=(const ChannelLoad&) = delete;
  void send(int from, int to, double bytes);  // along the route; nothing when from == to
  // max over channels of bytes / bandwidth (0 when nothing was sent)
  double busyTime() const;
  double maxLatency() const { return latency_; }  // slowest route used
  const std::vector<int>& channels() const { return used_; }
  void clear();

 private:
  const Cluster* c_;
  std::vector<double> bytes_;
  std::vector<int> used_;
  double latency_ = 0;
};

// Appends to `into` the channels of `from` it does not hold yet (each channel once).
void addChannels(std::vector<int>& into, const std::vector<int>& from, int numChannels);

struct CollectiveCost {
  double time = 0;            // seconds
  bool hierarchical = false;  // the hierarchical algorithm was the faster
  bool tree = false;          // ... with double binary trees between the servers (all-reduce)
  std::vector<int> channels;  // directed channels it occupies
};

// `groups`: concurrent groups of devices (rank order = ring order), all the same size.
// `bytes`: S, the full tensor each rank holds (all-reduce), or contributes / ends with
// (reduce-scatter: input; all-gather: output; all-to-all: what each rank sends in total).
// `serverOf[d]`: server of device d (parallel_plan.h serverOf). Groups of one device cost 0.
CollectiveCost collectiveCost(const Cluster& c, Collective kind, std::span<const std::vector<int>> groups, double bytes,
                              std::span<const int> serverOf);

// Concurrent point-to-point sends (from[i] -> to[i], `bytes` each).
CollectiveCost pointToPointCost(const Cluster& c, std::span<const int> from, std::span<const int> to, double bytes);

}  // namespace gp

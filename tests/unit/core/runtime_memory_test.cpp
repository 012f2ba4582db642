// The runtime's memory on each rank of a parallel plan against closed forms: NCCL's buffers per
// ring communicator and per point-to-point peer (and the published measurements they were
// checked on), the channels a ring runs by where its members sit, cuBLAS's workspaces, and a
// simulated stage's peak as tensors + runtime.
#include <gtest/gtest.h>

#include "parallel/memory_verdict.h"
#include "parallel/parallel_search.h"
#include "parallel/runtime_memory.h"
#include "test_clusters.h"
#include "test_graphs.h"
#include "uniform_stack.h"

using namespace gp;

namespace {
constexpr double kMiB = 1024.0 * 1024;
}

TEST(RuntimeMemory, NcclBuffersMatchTheirDefaultsAndThePublishedTotals) {
  // Simple 4 MiB + LL 512 KiB + LL128 4,915,200 B per connection.
  EXPECT_DOUBLE_EQ(kNcclConnectionBytes, 4 * kMiB + 0.5 * kMiB + 4915200.0);
  // A ring on 32 NVLink channels: 2 connections each, 588 MiB — inside the 544–688 MB that two
  // and more A100s on NVLink held (NVIDIA/nccl#964).
  const double ring = ncclRingBytes(kRingChannelsNvlink);
  EXPECT_NEAR(ring / kMiB, 588.0, 0.1);
  EXPECT_GE(ring, 544e6);
  EXPECT_LE(ring, 688e6);
  // An all-to-all over 8 H100s of one server: 7 peers x 32 channels x 12 MiB = 2.63 GiB, within
  // 15 % of the 3.05 GiB it added there (NVIDIA/nccl#1685).
  const double a2a = ncclPeerBytes(7, kPeerChannelsNvlink);
  EXPECT_NEAR(a2a / (1024 * kMiB), 2.625, 1e-9);
  EXPECT_NEAR(a2a / (3.28e9), 1.0, 0.15);
}

TEST(RuntimeMemory, RingChannelsFollowWhereTheMembersSit) {
  const Cluster nvswitch = loadCluster("8xH100-NVSwitch");
  const std::vector<int> one = serverOf(nvswitch);
  const std::vector<int> all{0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(ncclRingChannels(nvswitch, all, one), kRingChannelsNvlink);
  EXPECT_EQ(ncclRingChannels(nvswitch, std::vector<int>{3}, one), 0);  // no ring of one
  const Cluster two = loadCluster("2x8xH100-IB");
  const std::vector<int> servers = serverOf(two), order = serverOrder(two);
  EXPECT_EQ(ncclRingChannels(two, std::vector<int>{order[0], order[8]}, servers), kRingChannelsNetwork);
  EXPECT_EQ(ncclPeerChannels(two, order[0], order[8], servers), kPeerChannelsNetwork);
  EXPECT_EQ(ncclPeerChannels(two, order[0], order[1], servers), kPeerChannelsNvlink);
  const Cluster pcie = loadCluster("4xP100-PCIe");
  EXPECT_EQ(ncclRingChannels(pcie, std::vector<int>{0, 1, 2, 3}, serverOf(pcie)), kRingChannelsPcie);
}

TEST(RuntimeMemory, CublasWorkspacesByGpu) {
  EXPECT_DOUBLE_EQ(cublasWorkspaceBytes(loadCluster("8xH100-NVSwitch").device(0)), 32 * kMiB);
  EXPECT_DOUBLE_EQ(cublasWorkspaceBytes(loadCluster("4xA100-NVLink").device(0)), 8519680.0);
}

TEST(RuntimeMemory, EachRankHoldsTheCommunicatorsItUses) {
  const Cluster c = loadCluster("2x8xH100-IB");
  const std::vector<int> servers = serverOf(c), order = serverOrder(c);
  const double ws = 32 * kMiB, nvRing = ncclRingBytes(kRingChannelsNvlink), netRing = ncclRingBytes(kRingChannelsNetwork);
  // dp 4 x tp 4 over both servers: a TP ring inside a server, a DP ring across them.
  ParallelPlan dpTp;
  dpTp.dp = 4, dpTp.tp = 4;
  std::vector<RuntimeMemory> m = stageRuntimeMemory(c, dpTp, order, servers);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_DOUBLE_EQ(m[0].nccl, nvRing + netRing);
  EXPECT_DOUBLE_EQ(m[0].workspaces, ws);
  dpTp.overlapTpComm = true;  // a second stream for the overlapped products
  EXPECT_DOUBLE_EQ(stageRuntimeMemory(c, dpTp, order, servers)[0].workspaces, 2 * ws);
  // pp 2 of tp 8: each server a stage; each rank one network peer in the other stage.
  ParallelPlan pipe;
  pipe.tp = 8, pipe.pp = 2;
  m = stageRuntimeMemory(c, pipe, order, servers);
  ASSERT_EQ(m.size(), 2u);
  for (const RuntimeMemory& s : m) EXPECT_DOUBLE_EQ(s.nccl, nvRing + ncclPeerBytes(1, kPeerChannelsNetwork));
  // Nothing to talk to: one rank holds no NCCL memory.
  EXPECT_DOUBLE_EQ(stageRuntimeMemory(c, ParallelPlan{}, order, servers)[0].nccl, 0.0);
  // Expert parallelism over dp 16: every rank an all-to-all peer of 7 NVLink and 8 network
  // ranks, beside its DP ring across the servers.
  ParallelPlan experts;
  experts.dp = 16, experts.expertParallel = true;
  EXPECT_DOUBLE_EQ(stageRuntimeMemory(c, experts, order, servers)[0].nccl,
                   netRing + ncclPeerBytes(7, kPeerChannelsNvlink) + ncclPeerBytes(8, kPeerChannelsNetwork));
  // Context parallelism 4 inside a server: two ring neighbours (one when cp is 2).
  ParallelPlan context;
  context.cp = 4, context.dp = 4;
  EXPECT_DOUBLE_EQ(stageRuntimeMemory(c, context, order, servers)[0].nccl,
                   netRing + ncclPeerBytes(2, kPeerChannelsNvlink));
}

TEST(RuntimeMemory, AStagesPeakIsItsTensorsAndItsRuntime) {
  const LayerStack st = gptest::uniformStack(8);
  gptest::ToyModel t(4);
  const StageCostModel model(st, t.cost);
  ParallelPlan plan;
  plan.dp = 2, plan.pp = 2, plan.microbatches = 4;
  plan.stages = evenStages(st.numLayers(), 2);
  const ParallelMeasurement r = simulateParallel(model, 8, plan);
  ASSERT_EQ(r.memory.size(), 2u);
  for (size_t rank = 0; rank < r.peakMemory.size(); ++rank) {
    const StageMemory& s = r.memory[rank / 2];
    EXPECT_GT(s.runtime.total(), 0.0);
    EXPECT_EQ(r.peakMemory[rank], s.total());
    EXPECT_NEAR(static_cast<double>(s.total()), static_cast<double>(s.tensors()) + s.runtime.total(), 2.0);
  }
}

TEST(MemoryVerdict, FitsRiskOrOverByTheHeadroomAgainstTheBand) {
  constexpr int64_t GiB = 1LL << 30;
  ParallelMeasurement m;
  m.capacity = {80 * GiB, 80 * GiB};
  auto verdict = [&](int64_t a, int64_t b) {
    m.peakMemory = {a, b};
    return memoryVerdict(m, 0.10);
  };
  MemoryVerdict v = verdict(60 * GiB, 50 * GiB);  // the fuller rank: 20 GiB headroom > 6 GiB band
  EXPECT_EQ(v.fit, MemoryFit::Fits);
  EXPECT_EQ(v.rank, 0);
  EXPECT_EQ(v.headroom, 20 * GiB);
  EXPECT_EQ(v.text, "fits with 20.0 GiB to spare (±6.0 GiB)");
  v = verdict(50 * GiB, 75 * GiB);  // 5 GiB to spare, inside the 7.5 GiB band
  EXPECT_EQ(v.fit, MemoryFit::Risk);
  EXPECT_EQ(v.rank, 1);
  EXPECT_EQ(v.text, "out-of-memory risk: 5.0 GiB to spare of its 80.0 GiB, within the ±7.5 GiB the peak may be off");
  v = verdict(84 * GiB, 10 * GiB);  // 4 GiB over, inside the 8.4 GiB band
  EXPECT_EQ(v.fit, MemoryFit::Risk);
  EXPECT_EQ(v.headroom, -4 * GiB);
  v = verdict(100 * GiB, 10 * GiB);  // 20 GiB over, beyond the 10 GiB band
  EXPECT_EQ(v.fit, MemoryFit::Over);
  EXPECT_EQ(v.text, "does not fit: 20.0 GiB over its 80.0 GiB (±10.0 GiB)");
  m.capacity = {0, 0};  // no limit known
  EXPECT_EQ(verdict(1, 1).rank, -1);
}

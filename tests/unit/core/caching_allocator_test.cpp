// The caching allocator's reserved peak against closed forms: PyTorch's 512-byte blocks and its
// 2 MiB / 20 MiB / 2 MiB-rounded segments, a stage's buffers as segments of their own, its
// transient peak in blocks, the framework's fragmentation on top; the simulated stages carry it,
// and the fidelity report compares it where a source prints the reserved peak.
#include <gtest/gtest.h>

#include "cluster/cluster.h"
#include "gpt_layer_task.h"
#include "parallel/caching_allocator.h"
#include "parallel/pipeline_sim.h"
#include "parallel/runtime_memory.h"

using namespace gp;

TEST(CachingAllocator, BlocksAndSegmentsAsPyTorchRoundsThem) {
  constexpr double MiB = 1 << 20;
  EXPECT_EQ(allocatorBlockBytes(0), 0);
  EXPECT_EQ(allocatorBlockBytes(1), 512);
  EXPECT_EQ(allocatorBlockBytes(512), 512);
  EXPECT_EQ(allocatorBlockBytes(513), 1024);
  // Up to 1 MiB: a 2 MiB segment of small blocks.
  EXPECT_EQ(allocatorSegmentBytes(100), 2 * MiB);
  EXPECT_EQ(allocatorSegmentBytes(MiB), 2 * MiB);
  // Above 1 MiB and below 10 MiB: a 20 MiB segment (a cuBLAS workspace of 8,519,680 B among them).
  EXPECT_EQ(allocatorSegmentBytes(MiB + 1), 20 * MiB);
  EXPECT_EQ(allocatorSegmentBytes(8519680), 20 * MiB);
  // 10 MiB and more: its size rounded up to 2 MiB.
  EXPECT_EQ(allocatorSegmentBytes(10 * MiB), 10 * MiB);
  EXPECT_EQ(allocatorSegmentBytes(10 * MiB + 1), 12 * MiB);
  EXPECT_EQ(allocatorSegmentBytes(1e9), 477 * 2 * MiB);  // 1e9 B is 476.8 x 2 MiB
}

TEST(CachingAllocator, AStagesReservedPeak) {
  constexpr double MiB = 1 << 20;
  StageMemory s;
  s.statics.weights = 100 * MiB + 1, s.statics.gradients = 3 * MiB, s.statics.optimizer = 0;
  s.activations = 1000 * 512 + 1;
  s.runtime.workspaces = 2 * 8519680.0, s.runtime.nccl = 500 * MiB;  // NCCL's buffers are beside it
  FrameworkSpec f;
  f.fragmentation = 0.05;
  const double expected = (102 * MiB + 20 * MiB + 1001 * 512 + 2 * 20 * MiB) * 1.05;
  EXPECT_DOUBLE_EQ(reservedPeakBytes(s, f, 8519680), expected);
  // The optimizer's copy at the step counts where it is the larger transient.
  s.statics.step = 64 * MiB;
  EXPECT_DOUBLE_EQ(reservedPeakBytes(s, f, 8519680), (102 * MiB + 20 * MiB + 64 * MiB + 2 * 20 * MiB) * 1.05);
}

TEST(CachingAllocator, SimulatedStagesCarryIt) {
  const gptest::GptLayerTask t;
  ParallelPlan p;
  p.dp = 2, p.pp = 2, p.microbatches = 4;
  p.stages = evenStages(t.st.numLayers(), 2);
  const ParallelMeasurement m = simulateParallel(t.model, 8, p);
  ASSERT_EQ(m.memory.size(), 2u);
  for (const StageMemory& s : m.memory) {
    EXPECT_DOUBLE_EQ(s.reserved, reservedPeakBytes(s, t.c.framework(), cublasWorkspaceBytes(t.c.device(0))));
    EXPECT_GE(s.reserved, static_cast<double>(s.tensors()));
  }
}

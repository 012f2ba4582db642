// The simulator and the GPU program builder form the same kernels (sim/kernels.h): on fused
// zoo plans every launch of buildGpuProgram is one simulated kernel (its ops start and end
// together on its device), every op is in exactly one launch, and the launch's work, derived
// here again from the graph, gives the simulated duration under the cost model.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/op_class.h"
#include "fusion/fuser.h"
#include "graph/training.h"
#include "placement/placer.h"
#include "profile/gpu_program.h"
#include "sim/simulator.h"
#include "zoo/zoo.h"

using namespace gp;

namespace {

struct Work {
  double flops = 0, kernelFlops = 0;
  int64_t read = 0, written = 0;
  OpId lead = kNone;
};

// A launch's work from the graph alone: summed FLOPs, boundary inputs once, outputs read
// outside it (or by nothing), the non-metadata op with the most FLOPs as its lead.
Work workOf(const CostModel& cost, const std::vector<OpId>& ops) {
  const Graph& g = cost.graph();
  const std::set<OpId> in(ops.begin(), ops.end());
  std::set<TensorId> inputs;
  Work w;
  for (OpId op : ops) {
    w.flops += g.flops(op);
    w.kernelFlops += cost.kernelFlops(op);
    if (!isMetadataOp(g.opType(op)) && (w.lead == kNone || g.flops(op) > g.flops(w.lead))) w.lead = op;
    for (TensorId t : g.inputs(op))
      if (g.producer(t) == kNone || !in.count(g.producer(t))) inputs.insert(t);
    for (TensorId t : g.outputs(op)) {
      const auto cons = g.consumers(t);
      if (cons.empty() || std::any_of(cons.begin(), cons.end(), [&](OpId c) { return !in.count(c); }))
        w.written += g.tensorBytes(t);
    }
  }
  for (TensorId t : inputs) w.read += g.tensorBytes(t);
  return w;
}

void expectAgreement(const std::string& model) {
  SCOPED_TRACE(model);
  const Graph g = deriveTrainingGraph(makeZooModel(model, {.batch = 2, .seqLen = 8}));
  const Cluster c = loadCluster("4xP100-PCIe");
  const CostModel cost(g, c);
  Simulator sim(cost);
  Plan plan = runPlacement("m_topo", cost, sim).plan;
  plan.fusionGroup = defaultFusion(g, plan.device);
  ASSERT_TRUE(fusionProblem(g, plan).empty());
  const Measurement m = sim.run(plan);
  ASSERT_TRUE(m.feasible) << m.problem;
  const GpuProgram p = buildGpuProgram(cost, plan, m);

  std::map<OpId, const TimelineEvent*> eventOf;
  for (const TimelineEvent& e : m.timeline)
    if (e.kind == TimelineEvent::Kind::Op) eventOf[e.id] = &e;
  ASSERT_EQ(static_cast<int32_t>(eventOf.size()), g.numOps());
  int fused = 0;
  std::set<OpId> launched;
  for (const GpuLaunch& l : p.launches) {
    ASSERT_FALSE(l.ops.empty());
    const TimelineEvent& first = *eventOf.at(l.ops[0]);
    for (OpId op : l.ops) {
      EXPECT_TRUE(launched.insert(op).second) << g.opName(op) << " in two launches";
      const TimelineEvent& e = *eventOf.at(op);
      EXPECT_EQ(e.resource, l.device);
      EXPECT_EQ(e.start, first.start) << g.opName(op) << " runs apart from its kernel";
      EXPECT_EQ(e.end, first.end) << g.opName(op) << " runs apart from its kernel";
    }
    const double duration = first.end - first.start;
    const double slack = 1e-9 * first.end;  // end - start rounds at the step's time scale
    if (l.ops.size() == 1) {
      EXPECT_EQ(l.kernel, kernelForOp(cost, l.ops[0]));
      EXPECT_NEAR(duration, cost.opTime(l.ops[0], l.device), slack);
      continue;
    }
    ++fused;
    const Work w = workOf(cost, l.ops);
    ASSERT_NE(w.lead, kNone);
    EXPECT_DOUBLE_EQ(l.kernel.flops, w.flops);
    EXPECT_EQ(l.kernel.bytesRead, w.read);
    EXPECT_EQ(l.kernel.bytesWritten, w.written);
    EXPECT_EQ(l.kernel.kind, kernelForOp(cost, w.lead).kind);
    EXPECT_NEAR(duration, cost.fusedKernelTime(w.kernelFlops, w.read + w.written, w.lead, l.device), slack);
  }
  EXPECT_EQ(static_cast<int32_t>(launched.size()), g.numOps());
  EXPECT_GT(fused, 10);  // the plan fuses: the comparison covers fused kernels
}

}  // namespace

TEST(KernelAgreement, SimulatorAndGpuProgramFormTheSameKernelsOnFusedZooPlans) {
  for (const char* model : {"nmt", "resnet50", "bert_base"}) expectAgreement(model);
}

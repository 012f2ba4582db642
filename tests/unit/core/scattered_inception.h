// Inception v3's training graph on 4xP100-PCIe with its ops dealt to the devices in runs of 50
// (a poor plan with many moves that help), its simulated step and critical path: the zoo graph
// the suggestion, polishing and ranking tests share.
#pragma once
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "graph/training.h"
#include "sim/critical_path.h"
#include "sim/plan.h"
#include "sim/simulator.h"
#include "zoo/zoo.h"

namespace gptest {

struct ScatteredInception {
  gp::Cluster cluster = gp::loadCluster("4xP100-PCIe");
  gp::Graph graph = gp::deriveTrainingGraph(gp::makeZooModel("inception_v3"));
  gp::CostModel cost{graph, cluster};
  gp::Plan plan = scattered(graph.numOps(), cluster.numDevices());
  gp::Measurement measured = gp::Simulator(cost).run(plan);  // with the timeline
  gp::StepAnalysis analysis = gp::analyzeStep(cost, plan, measured);

  static gp::Plan scattered(int32_t ops, int32_t devices) {
    gp::Plan p = gp::Plan::singleDevice(ops);
    for (gp::OpId op = 0; op < ops; ++op) p.device[op] = static_cast<int32_t>((op / 50) % devices);
    return p;
  }
};

}  // namespace gptest

// Everything one parallel-plan question needs, owned together: the forward graph, the cluster,
// the layer stack, the cost model over them and the stage cost model, plus the global batch.
// The members refer to each other, so a task is neither copied nor moved (hold it by pointer).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "cost/cost_model.h"
#include "parallel/stage_cost.h"

namespace gp {

struct ParallelTask {
  // `calibration` (may be null): measured op times the cost model takes over the roofline's.
  ParallelTask(Graph graph, Cluster cl, int64_t batch, const std::string& source, double samplesInGraph = 1,
               const CalibrationTable* calibration = nullptr)
      : g(std::move(graph)),
        c(std::move(cl)),
        stack(detectLayerStack(g, source, samplesInGraph)),
        cost(g, c, {}, calibration),
        model(stack, cost),
        globalBatch(batch),
        name(source) {}
  ParallelTask(const ParallelTask&) = delete;
  ParallelTask& operator=(const ParallelTask&) = delete;

  Graph g;
  Cluster c;
  LayerStack stack;
  CostModel cost;
  StageCostModel model;
  int64_t globalBatch;
  std::string name;  // "zoo:gpt_13b on 2x8xH100-IB, batch 512"
};

}  // namespace gp

// Chrome Trace Event JSON of a simulated parallel step (opens in Perfetto): one process row per
// pipeline stage, with a thread for its forward / backward passes ("F3", "B3": micro-batch 3),
// one for what it sends to the next stage and gets back, and one for its gradient
// synchronisation, optimizer step and ZeRO gathers. Idle gaps on the passes thread are the
// bubbles.
#pragma once
#include <string>

#include "parallel/pipeline_sim.h"

namespace gp {

std::string parallelTraceJson(const ParallelMeasurement& m, const ParallelPlan& plan, const Cluster& c,
                              const std::string& model);

}  // namespace gp

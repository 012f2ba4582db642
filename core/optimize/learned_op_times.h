// `--costs learned:FILE`: a learned kernel-cost model (costmodel train on kernel-task data)
// supplies the op times a calibration table lacks. For every device kind of the cluster that is
// the kind the model's data was measured on, each op signature of the graph the table has no
// time for is predicted (at the kind's thread count for a CPU kind, canonical layout, one tile)
// and added to the table, where CostModel finds it like a measured one. Kinds the model was not
// measured on get nothing: a model of one device says nothing about another.
//
//   CalibrationTable t = measured;  // or empty
//   const LearnedOpTimes l = addLearnedOpTimes("cpu_kernel.pt", info, g, cluster, t);
//   CostModel cost(g, cluster, {}, &t);  // l.opTimes (op, kind) pairs now come from the model
#pragma once
#include <cstdint>
#include <string>

#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "graph/graph.h"
#include "optimize/cost_plugin.h"

namespace gp {

struct LearnedOpTimes {
  int64_t signatures = 0;  // table entries added
  int64_t opTimes = 0;     // (op, device kind) pairs they give a time
};

// Throws gp::Error(modelPath, one line) unless the model was trained on the kernel task.
void requireKernelModel(const std::string& modelPath, const LearnedModelInfo& info);

// Throws gp::Error(modelPath, ...) when the model was trained on the plan task.
LearnedOpTimes addLearnedOpTimes(const std::string& modelPath, const LearnedModelInfo& info, const Graph& g,
                                 const Cluster& c, CalibrationTable& table);

// Whether any device of c is of the model's kind.
bool clusterHasKind(const Cluster& c, const std::string& kind);

}  // namespace gp

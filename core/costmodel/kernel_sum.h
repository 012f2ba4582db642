// The compositional plan predictor: a plan's runtime as the sum of the times a kernel model
// predicts for its calls — each op's kernel in the layout and tiles the plan gives it, and each
// layout conversion as a transposed copy. A plan model learns whole plans from few examples; a
// kernel model sees every kernel under every configuration, and a plan is its kernels back to
// back.
//
//   const CallQueries q = callQueries(g, pc.runs, pc.callOps, kind);
//   const std::vector<double> perPlan = sumPerRun(q, predictCostsWith("cpu_kernel.pt", q.data));
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "costmodel/cost_dataset.h"
#include "costmodel/kernel_run.h"
#include "graph/graph.h"

namespace gp {

// The distinct (op type, kernel, layout, tiles, threads) calls of `runs` as single-kernel
// graphs of the kernel task (runtimes 1 s, placeholders); callOps[r][i] is the op of call i of
// run r, kNone for a conversion (op type "Transpose"). graphOfCall[r][i]: the graph that stands
// for it.
struct CallQueries {
  CostDataset data;
  std::vector<std::vector<int32_t>> graphOfCall;
};
CallQueries callQueries(const Graph& g, const std::vector<KernelRun>& runs,
                        const std::vector<std::vector<OpId>>& callOps, const std::string& deviceKind);

// Per run: the sum of its calls' predictions (predicted[graph][0], as predictCostsWith returns
// them). Throws gp::Error when the shape disagrees with `q`.
std::vector<double> sumPerRun(const CallQueries& q, const std::vector<std::vector<double>>& predicted);

}  // namespace gp

// The simulator held against this machine's CPU: one step of a model on the `cpu` cluster
// (costmodel/cpu_cluster.h), every op on its one device in the canonical configuration (the
// most threads, canonical layouts, one tile), simulated with the fitted roofline alone and with
// the op times a learned kernel model predicts (--costs learned:FILE), and the same step timed
// for real: the model's kernels run back to back by the CPU measurement source (median of
// `repeats` runs after a warm-up).
//
//   const CpuStepCheck s = checkCpuStep(g, *source, fit, fitPath, "cpu_kernel.pt", 3);
//   // s.simulatedLearned / s.measured - 1: the simulator's error with learned op times
#pragma once
#include <string>

#include "costmodel/analytic_baseline.h"
#include "costmodel/kernel_run.h"
#include "graph/graph.h"

namespace gp {

struct CpuStepCheck {
  double measured = 0;           // seconds
  double simulatedRoofline = 0;  // the cpu cluster's fitted roofline alone
  double simulatedLearned = 0;   // with the learned model's op times; 0 when it predicted nothing
  int64_t learnedOpTimes = 0;    // ops whose time the learned model gave
  std::string learnedKind;       // the device kind the learned model was measured on
};

CpuStepCheck checkCpuStep(const Graph& g, MeasurementSource& source, const AnalyticCostModel& fit,
                          const std::string& fitPath, const std::string& kernelModelPath, int repeats);

}  // namespace gp

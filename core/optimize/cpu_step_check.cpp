#include "optimize/cpu_step_check.h"

#include <algorithm>

#include "base/error.h"
#include "cost/cost_model.h"
#include "costmodel/cpu_cluster.h"
#include "costmodel/dataset_maker.h"
#include "optimize/learned_op_times.h"
#include "sim/plan.h"
#include "sim/simulator.h"

namespace gp {
namespace {

double simulatedStep(const Graph& g, const Cluster& c, const CalibrationTable* table) {
  const CostModel cost(g, c, {}, table);
  Simulator sim(cost);
  return sim.run(Plan::singleDevice(g.numOps()), /*recordTimeline=*/false).stepTime;
}

}  // namespace

CpuStepCheck checkCpuStep(const Graph& g, MeasurementSource& source, const AnalyticCostModel& fit,
                          const std::string& fitPath, const std::string& kernelModelPath, int repeats) {
  const Cluster c = cpuCluster(&fit, fitPath);
  CpuStepCheck out;
  out.simulatedRoofline = simulatedStep(g, c, nullptr);
  const LearnedModelInfo info = learnedModelInfo(kernelModelPath);
  out.learnedKind = info.deviceKind;
  CalibrationTable table;
  out.learnedOpTimes = addLearnedOpTimes(kernelModelPath, info, g, c, table).opTimes;
  if (out.learnedOpTimes > 0) out.simulatedLearned = simulatedStep(g, c, &table);

  const CostModel cost(g, c);
  const PlanLayout layout = planLayoutOf(cost);
  const auto threads = source.threadChoices();
  const int32_t most = threads.empty() ? 1 : *std::max_element(threads.begin(), threads.end());
  const std::vector<KernelConfig> canonical(layout.configurable.size(), KernelConfig{most, 0, 1});
  const KernelRun run = planRun(cost, layout, canonical, most);
  if (run.calls.empty()) throw Error("costmodel", "the model runs no kernel on a CPU (every op is metadata)");
  out.measured = source.time({run}, repeats).at(0).seconds;
  return out;
}

}  // namespace gp

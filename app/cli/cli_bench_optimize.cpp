#include "cli/cli_bench_optimize.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli_calibration.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_optimize_options.h"
#include "cost/cost_model.h"
#include "io/model_loader.h"
#include "optimize/optimize.h"
#include "placement/placer.h"
#include "session/placement_start.h"

namespace gp::cli {
namespace {

using nlohmann::ordered_json;

double gainPercent(double base, double optimized) { return base > 0 ? 100 * (base - optimized) / base : 0; }

}  // namespace

int runBenchOptimize(const Args& a, const std::vector<std::string>& models, const Cluster& cluster, std::ostream& out) {
  const OptimizeOptions base = optimizeOptionsFrom(a);
  const bool json = a.has("--json");
  const LoadOptions lo = loadOptionsFrom(a);
  const CalibrationOption calibration = calibrationFrom(a);
  warnIfNoKindMatches(calibration, cluster, std::cerr);
  long long calibrated = 0, allOpTimes = 0;
  char line[512];
  if (!json) {
    std::snprintf(line, sizeof line, "%-20s %6s %9s %9s %21s %10s %6s %8s %8s %6s %7s\n",
                  ("cluster " + cluster.name()).c_str(), "ops", "bound ms", "expert", "best baseline", "optimized",
                  "xbound", "vs best", "vs exp.", "iters", "s");
    out << line << std::flush;
  }
  InterruptScope interrupt;
  ordered_json rows = ordered_json::array();
  double sumBest = 0, sumExpert = 0;
  int nBest = 0, nExpert = 0;
  for (const std::string& spec : models) {
    Graph g = loadModel(spec, lo);
    CostModel cost(g, cluster, {}, calibration.table());
    calibrated += cost.numCalibrated();
    allOpTimes += opTimes(cost);
    const std::vector<PlacementResult> bs = runBaselines(cost);
    const int best = bestBaseline(bs);
    const PlacementResult* expert = nullptr;
    for (const auto& b : bs)
      if (b.method == "expert" && b.measurement.feasible) expert = &b;
    OptimizeOptions o = base;
    startFromBaselines(bs, o);  // as optimize starts
    OptimizeResult r = optimizePlan(cost, o, {}, interrupt.flag());
    const Measurement& m = r.measurement;
    const double bestMs = best >= 0 ? bs[best].measurement.stepTime * 1e3 : 0;
    const double expertMs = expert ? expert->measurement.stepTime * 1e3 : 0;
    const double optMs = m.stepTime * 1e3;
    const double vsBest = m.feasible && best >= 0 ? gainPercent(bestMs, optMs) : 0;
    const double vsExpert = m.feasible && expert ? gainPercent(expertMs, optMs) : 0;
    if (m.feasible && best >= 0) sumBest += vsBest, ++nBest;
    if (m.feasible && expert) sumExpert += vsExpert, ++nExpert;
    ordered_json row{{"model", spec},
                     {"ops", g.numOps()},
                     {"lower_bound_ms", m.lowerBound * 1e3},
                     {"expert_ms", expert ? ordered_json(expertMs) : ordered_json(nullptr)},
                     {"best_baseline", best >= 0 ? ordered_json{{"method", bs[best].method}, {"step_time_ms", bestMs}}
                                                 : ordered_json(nullptr)},
                     {"step_time_ms", optMs},
                     {"feasible", m.feasible},
                     {"gain_vs_best_percent", vsBest},
                     {"gain_vs_expert_percent", expert ? ordered_json(vsExpert) : ordered_json(nullptr)},
                     {"iterations", r.iterations},
                     {"seconds", r.seconds},
                     {"stop_reason", toString(r.stopReason)}};
    if (!r.note.empty()) row["note"] = r.note;
    if (calibration.used()) {
      row["calibrated_op_times"] = cost.numCalibrated();
      row["op_times"] = opTimes(cost);
    }
    if (json) {
      rows.push_back(std::move(row));
    } else {
      char bestText[64];
      std::snprintf(bestText, sizeof bestText, "%s %.1f", best >= 0 ? bs[best].method.c_str() : "-", bestMs);
      std::snprintf(line, sizeof line, "%-20s %6d %9.2f %9.1f %21s %10.1f %6.2f %7.1f%% %7.1f%% %6d %7.1f%s\n",
                    spec.c_str(), g.numOps(), m.lowerBound * 1e3, expertMs, bestText, optMs, m.ratio(), vsBest,
                    vsExpert, r.iterations, r.seconds, m.feasible ? "" : " INFEASIBLE");
      out << line << std::flush;
    }
    if (r.cancelled) break;
  }
  const double meanBest = nBest ? sumBest / nBest : 0, meanExpert = nExpert ? sumExpert / nExpert : 0;
  if (json) {
    out << dump(ordered_json{{"cluster", cluster.name()},
                             {"policy", toString(base.policy)},
                             {"calibration", calibrationFileJson(calibration)},
                             {"models", rows},
                             {"mean_gain_vs_best_percent", meanBest},
                             {"mean_gain_vs_expert_percent", meanExpert}})
        << "\n";
    return 0;
  }
  std::snprintf(line, sizeof line,
                "mean gain: %.1f%% vs the best baseline (%d models), %.1f%% vs expert (%d models); gain = step time "
                "saved, positive = optimized is faster\n",
                meanBest, nBest, meanExpert, nExpert);
  out << line;
  if (calibration.used()) out << "calibration: " << calibrationText(calibration, calibrated, allOpTimes) << "\n";
  return 0;
}

}  // namespace gp::cli

// graphplace-cli optimize: the RL optimizer (GDP policy + PPO against the simulator), compared
// with every baseline and the lower bound.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_baseline.h"
#include "cli/cli_calibration.h"
#include "cli/cli_commands.h"
#include "cli/cli_events.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_optimize_options.h"
#include "cli/cli_plan_file.h"
#include "fusion/fuser.h"
#include "io/chrome_trace.h"
#include "io/placement_file.h"
#include "optimize/optimize.h"
#include "session/placement_start.h"
#include "sim/lower_bound.h"

namespace gp::cli {
namespace {

using nlohmann::ordered_json;

}  // namespace

int runOptimize(const std::vector<std::string>& argv, std::ostream& stdOut) {
  Args a = parseArgs(argv, "optimize");
  if (a.positional.size() != 1) throw std::invalid_argument("optimize needs exactly one MODEL");
  const std::string& spec = a.positional[0];
  const bool json = a.has("--json");
  OptimizeOptions o = optimizeOptionsFrom(a);
  // with several ranks, rank 0 prints the run and writes its files
  const bool lead = distributedFrom(a, o.distributed, o.distTimeoutSeconds);
  std::ostringstream quiet;
  std::ostream& out = lead ? stdOut : quiet;
  const auto model = costedModelFrom(a, spec);
  const Graph& g = model->graph;
  const Cluster& c = model->cluster;
  const CostModel& cost = *model->cost;
  const CalibrationOption& calibration = model->calibration;
  const ModelIdentity identity{spec, modelSha256(spec, model->load), g.numOps()};
  const std::vector<PlacementResult> baselines = runBaselines(cost);
  const int bestIndex = bestBaseline(baselines);
  // --start baseline (the default): refine the best baseline's plan (never worse than it);
  // a method name: that baseline's plan; a placement file: its plan (devices, priorities, groups)
  const std::string start = a.text("--start");
  if (start == "baseline") {
    startFromBaselines(baselines, o);
  } else if (start != "none") {
    auto method = std::find_if(baselines.begin(), baselines.end(), [&](const PlacementResult& b) { return b.method == start; });
    if (method != baselines.end()) o.startPlan = method->plan;
    else if (start.find('.') != std::string::npos || start.find('/') != std::string::npos)
      o.startPlan = planFromFile(start, g, identity, c);
    else throw std::invalid_argument("--start wants none, baseline, a baseline method or a placement file, got '" + start + "'");
  }
  if (o.startPlan && o.fuse == FuseMode::Plan) {
    if (std::string why = fusionProblem(g, *o.startPlan); !why.empty()) throw std::invalid_argument(start + ": " + why);
  }

  char line[256];
  if (!json) {
    std::snprintf(line, sizeof line, "%s on %s: %d ops, policy %s, tasks %s, seed %llu\n", spec.c_str(),
                  c.name().c_str(), g.numOps(), toString(o.policy).c_str(), toString(o.tasks).c_str(),
                  static_cast<unsigned long long>(o.seed));
    out << line;
    if (calibration.used()) out << "calibration: " << calibrationText(calibration, cost) << "\n";
    out << "  iter  mean reward  best reward   best step ms  entropy  elapsed s\n" << std::flush;
  }
  std::unique_ptr<RunLogWriter> log = eventLogFrom(a, lead);
  if (log) {
    nlohmann::ordered_json run{{"format", "graphplace-events"}, {"version", 1}, {"command", "optimize"},
                               {"ranks", o.distributed ? o.distributed->worldSize : 1}, {"seed", o.seed},
                               {"model", spec}, {"cluster", c.name()}, {"ops", g.numOps()},
                               {"devices", c.numDevices()}, {"lower_bound_ms", lowerBound(cost) * 1e3}};
    if (bestIndex >= 0) {
      run["best_baseline"] = baselines[bestIndex].method;
      run["best_baseline_ms"] = baselines[bestIndex].measurement.stepTime * 1e3;
    }
    log->event("run", std::move(run));
  }
  const int every = o.iterations > 0 && o.iterations < INT_MAX ? std::max(1, o.iterations / 20) : 5;
  InterruptScope interrupt;
  std::vector<double> elapsed;  // per iteration, seconds since the start
  double zeroShotMs = 0;        // the best plan after the zero-shot report
  OptimizeResult r = loggingErrors(log.get(), [&] { return optimizePlan(
      cost, o,
      [&](const IterationReport& it) {
        if (log) logIteration(*log, it);
        if (it.zeroShot) {  // the policy's own plan, before the first iteration
          zeroShotMs = it.bestStepTime * 1e3;
          if (!json) {
            std::snprintf(line, sizeof line, "zero-shot%38.3f %8s %10.1f\n", it.bestStepTime * 1e3, "", it.elapsed);
            out << line << std::flush;
          }
          return;
        }
        elapsed.push_back(it.elapsed);
        if (json) return;
        if (it.polish) {  // a round of polishing the best plan
          std::snprintf(line, sizeof line, "polish%40.3f %8s %10.1f\n", it.bestStepTime * 1e3, "", it.elapsed);
          out << line << std::flush;
          return;
        }
        if (it.iteration != 1 && it.iteration % every != 0 && it.iteration != o.iterations) return;
        std::snprintf(line, sizeof line, "%6d %12.4f %12.4f %14.3f %8.3f %10.1f\n", it.iteration, it.meanReward,
                      it.bestReward, it.bestStepTime * 1e3, it.entropy, it.elapsed);
        out << line << std::flush;
      },
      interrupt.flag()); });
  const Measurement& m = r.measurement;
  if (log)
    log->event("end", {{"seconds", r.seconds}, {"stopped", r.cancelled}, {"iterations", r.iterations},
                       {"best_step_ms", m.feasible ? m.stepTime * 1e3 : std::numeric_limits<double>::infinity()},
                       {"stop_reason", toString(r.stopReason)}});

  if (!lead) return 0;
  if (auto trace = a.value("--trace")) writeChromeTrace(g, c, m, *trace);
  if (auto outPath = a.value("--out")) writePlacement(g, identity, c, r.best, m, *outPath);

  if (json) {
    ordered_json j{{"model", spec},
                   {"cluster", c.name()},
                   {"ops", g.numOps()},
                   {"policy", toString(o.policy)},
                   {"tasks", toString(o.tasks)},
                   {"fuse", o.tasks.fusion ? "optimized" : toString(o.fuse)},
                   {"seed", o.seed},
                   {"ranks", o.distributed ? o.distributed->worldSize : 1},
                   {"calibration", calibrationJson(calibration, cost)},
                   {"step_time_ms", m.stepTime * 1e3},
                   {"lower_bound_ms", m.lowerBound * 1e3},
                   {"ratio", m.ratio()},
                   {"feasible", m.feasible},
                   {"iterations", r.iterations},
                   {"polish_moves", r.polishMoves},
                   {"polish_ranking", r.polishRanking},
                   {"seconds", r.seconds},
                   {"cancelled", r.cancelled},
                   {"stop_reason", toString(r.stopReason)}};
    if (!m.problem.empty()) j["problem"] = m.problem;
    if (!r.note.empty()) j["note"] = r.note;
    if (r.firstIteration > 1) j["first_iteration"] = r.firstIteration;
    j["best_baseline"] = bestIndex < 0 ? ordered_json(nullptr)
                                          : ordered_json{{"method", baselines[bestIndex].method},
                                                         {"step_time_ms", baselines[bestIndex].measurement.stepTime * 1e3}};
    auto& bs = j["baselines"] = ordered_json::array();
    for (const auto& b : baselines) bs.push_back(resultJson(b));
    auto& h = j["history"] = ordered_json::array();
    for (double s : r.bestStepTimeHistory) h.push_back(s * 1e3);
    j["history_seconds"] = elapsed;
    j["zero_shot_step_time_ms"] = zeroShotMs;
    out << dump(j) << "\n";
    return 0;
  }
  if (!r.note.empty()) out << "note: " << r.note << "\n";
  std::snprintf(line, sizeof line, "optimized      %12.3f ms  x%5.2f  %s(%d iterations, %d polish moves, %.1f s, %s)\n",
                m.stepTime * 1e3, m.ratio(), m.feasible ? "" : "INFEASIBLE ", r.iterations, r.polishMoves, r.seconds,
                toString(r.stopReason).c_str());
  out << line;
  if (!m.problem.empty()) out << "problem        " << m.problem << "\n";
  for (size_t i = 0; i < baselines.size(); ++i) {
    const Measurement& bm = baselines[i].measurement;
    std::snprintf(line, sizeof line, "%c %-12s %12.3f ms  x%5.2f  ", static_cast<int>(i) == bestIndex ? '*' : ' ',
                  baselines[i].method.c_str(), bm.stepTime * 1e3, bm.ratio());
    out << line;
    if (!bm.feasible) {
      out << "INFEASIBLE\n";
      continue;
    }
    const double gain = m.feasible && bm.stepTime > 0 ? 100 * (bm.stepTime - m.stepTime) / bm.stepTime : 0;
    std::snprintf(line, sizeof line, "optimized is %.1f%% %s\n", std::abs(gain), gain >= 0 ? "faster" : "slower");
    out << line;
  }
  std::snprintf(line, sizeof line, "  lower bound  %12.3f ms\n", m.lowerBound * 1e3);
  out << line;
  return 0;
}

}  // namespace gp::cli

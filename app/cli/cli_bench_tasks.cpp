#include "cli/cli_bench_tasks.h"

#include <climits>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli_calibration.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_optimize_options.h"
#include "cost/cost_model.h"
#include "fusion/fuser.h"
#include "io/model_loader.h"
#include "optimize/optimize.h"
#include "placement/placer.h"
#include "session/placement_start.h"
#include "sim/simulator.h"

namespace gp::cli {
namespace {

using nlohmann::ordered_json;

constexpr const char* kRows[] = {"single", "single+fuse", "expert", "p", "p|s", "p+s", "s+f expert", "p|s|f", "p+s+f"};
constexpr int kNumRows = 9;

double gainPercent(double base, double v) { return base > 0 && v > 0 ? 100 * (base - v) / base : 0; }

struct Stage {
  const CostModel& cost;
  const OptimizeOptions& base;
  const std::atomic<bool>* cancel;
  bool cancelled = false;
  std::vector<std::string> notes;

  std::vector<Plan> candidates;  // every feasible baseline's devices: more starts for placement

  // One optimizer run of `tasks` from `start` (its devices, priorities and groups as given).
  Plan run(const Plan& start, OptimizeTasks tasks, double& stepMs) {
    OptimizeOptions o = base;
    o.tasks = tasks;
    if (tasks.placement) o.startCandidates = candidates;
    o.fuse = tasks.fusion ? FuseMode::None : (tasks.placement ? FuseMode::Default : FuseMode::Plan);
    o.startPlan = start;
    const int count = tasks.placement + tasks.schedule + tasks.fusion;
    o.budgetSeconds = base.budgetSeconds * count;
    if (o.iterations < INT_MAX) o.iterations = base.iterations * count;
    OptimizeResult r = optimizePlan(cost, o, {}, cancel);
    cancelled = cancelled || r.cancelled;
    if (!r.note.empty()) notes.push_back(r.note);
    stepMs = r.measurement.feasible ? r.measurement.stepTime * 1e3 : 0;
    return r.best;
  }
};

}  // namespace

int runBenchTasks(const Args& a, const std::vector<std::string>& models, const Cluster& cluster, std::ostream& out) {
  OptimizeOptions base = optimizeOptionsFrom(a);
  if (a.has("--tasks") || a.has("--fuse") || a.has("--resume") || a.has("--checkpoint"))
    throw std::invalid_argument("bench --tasks-table chooses the tasks of each row itself (no --tasks, --fuse, "
                                "--resume or --checkpoint)");
  if (base.budgetSeconds <= 0 && !a.has("--iterations")) base.budgetSeconds = 20;
  const bool json = a.has("--json");
  const LoadOptions lo = loadOptionsFrom(a);
  const CalibrationOption calibration = calibrationFrom(a);
  warnIfNoKindMatches(calibration, cluster, std::cerr);
  long long calibrated = 0, allOpTimes = 0;
  char line[512];
  if (!json) {
    std::snprintf(line, sizeof line, "%-18s %6s %8s", ("cluster " + cluster.name()).c_str(), "ops", "bound");
    out << line;
    for (const char* r : kRows) {
      std::snprintf(line, sizeof line, " %10s", r);
      out << line;
    }
    out << "  joint/sep  vs single  vs expert   (step ms; gains = step time saved)\n" << std::flush;
  }
  InterruptScope interrupt;
  ordered_json rows = ordered_json::array();
  double sumSep = 0, sumSingle = 0, sumExpert = 0;
  int n = 0, nSingle = 0, nExpert = 0, jointBest = 0, done = 0;
  for (const std::string& spec : models) {
    Graph g = loadModel(spec, lo);
    CostModel cost(g, cluster, {}, calibration.table());
    calibrated += cost.numCalibrated();
    allOpTimes += opTimes(cost);
    Simulator sim(cost);
    const std::vector<PlacementResult> bs = runBaselines(cost);
    const int best = bestBaseline(bs);
    // baselines as they come: devices + their priorities (the placers' list-schedule order; on
    // GNMT plain FIFO runs out of memory where that order fits), no groups
    Plan expert = Plan::singleDevice(g.numOps());
    for (const auto& b : bs)
      if (b.method == "expert") expert = Plan{b.plan.device, b.plan.priority, {}};
    Plan start = best >= 0 ? Plan{bs[best].plan.device, bs[best].plan.priority, {}} : Plan::singleDevice(g.numOps());
    auto measure = [&](Plan p, bool fuse) {
      if (fuse) p.fusionGroup = defaultFusion(g, p.device);
      const Measurement m = sim.run(p);
      return m.feasible ? m.stepTime * 1e3 : 0.0;
    };
    double ms[kNumRows] = {};
    ms[0] = measure(Plan::singleDevice(g.numOps()), false);
    ms[1] = measure(Plan::singleDevice(g.numOps()), true);
    ms[2] = measure(expert, true);
    Stage stage{cost, base, interrupt.flag()};
    for (const auto& b : bs)
      if (b.measurement.feasible) stage.candidates.push_back(Plan{b.plan.device, b.plan.priority, {}});
    const Plan p = stage.run(start, {true, false, false}, ms[3]);
    const Plan ps = stage.run(p, {false, true, false}, ms[4]);
    stage.run(start, {true, true, false}, ms[5]);
    Plan expertFused = expert;
    stage.run(expertFused, {false, true, true}, ms[6]);
    Plan psPlain = ps;
    psPlain.fusionGroup.clear();  // fusion is now the task: it starts from none
    stage.run(psPlain, {false, false, true}, ms[7]);
    stage.run(start, {true, true, true}, ms[8]);
    const double sep = gainPercent(ms[7], ms[8]), vsSingle = gainPercent(ms[0], ms[8]),
                 vsExpert = gainPercent(ms[2], ms[8]);
    bool best8 = ms[8] > 0;
    for (int i = 0; i < 8; ++i) best8 = best8 && (ms[i] <= 0 || ms[8] <= ms[i] * (1 + 1e-9));
    jointBest += best8;
    ++done;
    if (ms[7] > 0 && ms[8] > 0) sumSep += sep, ++n;  // a plan that does not fit is no gain
    if (ms[0] > 0 && ms[8] > 0) sumSingle += vsSingle, ++nSingle;  // means over the rows that fit
    if (ms[2] > 0 && ms[8] > 0) sumExpert += vsExpert, ++nExpert;
    const Measurement boundOf = sim.run(start);
    if (json) {
      ordered_json row{{"model", spec}, {"ops", g.numOps()}, {"lower_bound_ms", boundOf.lowerBound * 1e3}};
      ordered_json steps = ordered_json::object();
      for (int i = 0; i < kNumRows; ++i) steps[kRows[i]] = ms[i] > 0 ? ordered_json(ms[i]) : ordered_json(nullptr);
      row["step_time_ms"] = steps;
      row["joint_vs_separate_percent"] = sep;
      row["joint_vs_single_percent"] = ms[0] > 0 ? ordered_json(vsSingle) : ordered_json(nullptr);
      row["joint_vs_expert_percent"] = ms[2] > 0 ? ordered_json(vsExpert) : ordered_json(nullptr);
      row["joint_is_best"] = best8;
      if (!stage.notes.empty()) row["note"] = stage.notes.front();
      if (calibration.used()) {
        row["calibrated_op_times"] = cost.numCalibrated();
        row["op_times"] = opTimes(cost);
      }
      rows.push_back(std::move(row));
    } else {
      std::snprintf(line, sizeof line, "%-18s %6d %8.2f", spec.c_str(), g.numOps(), boundOf.lowerBound * 1e3);
      out << line;
      for (double v : ms) {
        if (v > 0) std::snprintf(line, sizeof line, " %10.2f", v);
        else std::snprintf(line, sizeof line, " %10s", "INFEASIBLE");
        out << line;
      }
      auto percent = [](bool fits, double v) {
        char text[32];
        if (fits) std::snprintf(text, sizeof text, "%9.1f%%", v);
        else std::snprintf(text, sizeof text, "%10s", "-");
        return std::string(text);
      };
      out << " " << percent(true, sep) << " " << percent(ms[0] > 0, vsSingle) << " " << percent(ms[2] > 0, vsExpert)
          << (best8 ? "" : "  (not best)") << "\n"
          << std::flush;
    }
    if (stage.cancelled) break;
  }
  const double k = n > 0 ? n : 1, kSingle = nSingle > 0 ? nSingle : 1, kExpert = nExpert > 0 ? nExpert : 1;
  if (json) {
    out << dump(ordered_json{{"cluster", cluster.name()},
                             {"policy", toString(base.policy)},
                             {"budget_seconds_per_task", base.budgetSeconds},
                             {"calibration", calibrationFileJson(calibration)},
                             {"models", rows},
                             {"mean_joint_vs_separate_percent", sumSep / k},
                             {"mean_joint_vs_single_percent", sumSingle / kSingle},
                             {"mean_joint_vs_expert_percent", sumExpert / kExpert},
                             {"joint_best_count", jointBest},
                             {"models_count", done}})
        << "\n";
    return 0;
  }
  std::snprintf(line, sizeof line,
                "mean: p+s+f is %.1f%% faster than p|s|f (%d models), %.1f%% than single (%d that fit on one "
                "device), %.1f%% than expert (%d); the best row for %d of %d models\n",
                sumSep / k, n, sumSingle / kSingle, nSingle, sumExpert / kExpert, nExpert, jointBest, done);
  out << line;
  if (calibration.used()) out << "calibration: " << calibrationText(calibration, calibrated, allOpTimes) << "\n";
  return 0;
}

}  // namespace gp::cli

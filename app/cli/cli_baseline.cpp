// graphplace-cli baseline and bench: the non-learning placers against the lower bound.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_baseline.h"
#include "cli/cli_calibration.h"
#include "cli/cli_bench_optimize.h"
#include "cli/cli_bench_tasks.h"
#include "cli/cli_json.h"
#include "cli/cli_optimize_options.h"
#include "cli/cli_commands.h"
#include "cli/cli_model_options.h"
#include "cli/cli_option_tables.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "io/placement_file.h"
#include "placement/placer.h"
#include "session/placement_start.h"
#include "sim/simulator.h"

namespace gp::cli {

using nlohmann::ordered_json;

namespace {

std::vector<std::string> methodsFrom(const std::string& m) {
  if (m == "all") return placementMethods();
  return {m};
}

}  // namespace

ordered_json resultJson(const PlacementResult& r) {
  ordered_json j{{"method", r.method},
                 {"step_time_ms", r.measurement.stepTime * 1e3},
                 {"ratio", r.measurement.ratio()},
                 {"feasible", r.measurement.feasible},
                 {"seconds", r.seconds},
                 {"comm_bytes", r.measurement.commBytes}};
  if (!r.measurement.problem.empty()) j["problem"] = r.measurement.problem;
  if (!r.note.empty()) j["note"] = r.note;
  return j;
}

int runBaseline(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "baseline");
  if (a.positional.size() != 1) throw std::invalid_argument("baseline needs exactly one MODEL");
  const std::string& spec = a.positional[0];
  const auto model = costedModelFrom(a, spec);
  const Graph& g = model->graph;
  const Cluster& c = model->cluster;
  const CostModel& cost = *model->cost;
  std::vector<PlacementResult> rs = runBaselines(cost, methodsFrom(a.text("--method")));
  const int best = bestBaseline(rs);
  if (auto outPath = a.value("--out")) {
    if (best < 0) throw std::invalid_argument("no method found a feasible placement; nothing written to " + *outPath);
    writePlacement(g, ModelIdentity{spec, modelSha256(spec, model->load), g.numOps()}, c, rs[best].plan, rs[best].measurement,
                   *outPath);
  }
  const double bound = rs.empty() ? 0 : rs[0].measurement.lowerBound;
  if (a.has("--json")) {
    ordered_json j{{"model", spec}, {"cluster", c.name()}, {"lower_bound_ms", bound * 1e3}};
    j["calibration"] = calibrationJson(model->calibration, cost);
    auto& results = j["results"] = ordered_json::array();
    for (const auto& r : rs) results.push_back(resultJson(r));
    j["best"] = best >= 0 ? ordered_json(rs[best].method) : ordered_json(nullptr);
    out << dump(j) << "\n";
    return 0;
  }
  char line[256];
  std::snprintf(line, sizeof line, "%s on %s: %d ops, lower bound %.3f ms\n", spec.c_str(), c.name().c_str(),
                g.numOps(), bound * 1e3);
  out << line;
  if (model->calibration.used()) out << "calibration: " << calibrationText(model->calibration, cost) << "\n";
  for (size_t i = 0; i < rs.size(); ++i) {
    const auto& r = rs[i];
    std::snprintf(line, sizeof line, "%c %-12s %12.3f ms  x%5.2f  %-10s placer %.3f s\n",
                  static_cast<int>(i) == best ? '*' : ' ', r.method.c_str(), r.measurement.stepTime * 1e3,
                  r.measurement.ratio(), r.measurement.feasible ? "" : "INFEASIBLE", r.seconds);
    out << line;
  }
  return 0;
}

int runBench(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "bench");
  if (!a.positional.empty()) throw std::invalid_argument("bench takes no positional arguments (use --models)");
  Cluster c = clusterFrom(a, "4xP100-PCIe");
  std::vector<std::string> models;
  if (auto list = a.value("--models")) models = splitList(*list);
  else  // the papers' workloads (not the generated random_dag, not the LLMs: no single-graph placement fits them)
    for (const auto& z : zooModels())
      if (!z.synthetic && !z.llm) models.push_back("zoo:" + z.name);
  if (a.has("--optimize") && a.has("--tasks-table")) throw std::invalid_argument("bench takes --optimize or --tasks-table, not both");
  // bench --optimize and --tasks-table read --calibration from `a` themselves
  if (a.has("--optimize")) return runBenchOptimize(a, models, c, out);
  if (a.has("--tasks-table")) return runBenchTasks(a, models, c, out);
  for (const OptionSpec& o : optimizeOptionSpecs())
    if (o.name != "--no-update" && a.has(o.name))
      throw std::invalid_argument(o.name + " is an option of bench --optimize or --tasks-table");
  if (a.has("--no-update")) throw std::invalid_argument("--no-update is an option of bench --optimize");
  const LoadOptions lo = loadOptionsFrom(a);
  const CalibrationOption calibration = calibrationFrom(a);
  warnIfNoKindMatches(calibration, c, std::cerr);
  const auto methods = placementMethods();
  ordered_json all = ordered_json::array();
  char line[512];
  long long calibrated = 0, allOpTimes = 0;
  if (!a.has("--json")) {
    std::snprintf(line, sizeof line, "%-22s %9s", ("cluster " + c.name()).c_str(), "bound ms");
    out << line;
    for (const auto& m : methods) {
      std::snprintf(line, sizeof line, " %14s ", m.c_str());
      out << line;
    }
    out << "\n";
  }
  for (const auto& spec : models) {
    Graph g = loadModel(spec, lo);
    CostModel cost(g, c, {}, calibration.table());
    calibrated += cost.numCalibrated();
    allOpTimes += opTimes(cost);
    std::vector<PlacementResult> rs = runBaselines(cost, methods);
    const int best = bestBaseline(rs);
    const double bound = rs.empty() ? 0 : rs[0].measurement.lowerBound;
    if (a.has("--json")) {
      ordered_json j{{"model", spec}, {"ops", g.numOps()}, {"lower_bound_ms", bound * 1e3}};
      if (calibration.used()) {
        j["calibrated_op_times"] = cost.numCalibrated();
        j["op_times"] = opTimes(cost);
      }
      auto& results = j["results"] = ordered_json::array();
      for (const auto& r : rs) results.push_back(resultJson(r));
      j["best"] = best >= 0 ? ordered_json(rs[best].method) : ordered_json(nullptr);
      all.push_back(std::move(j));
      continue;
    }
    std::snprintf(line, sizeof line, "%-22s %9.2f", spec.c_str(), bound * 1e3);
    out << line;
    for (size_t i = 0; i < rs.size(); ++i) {
      const auto& m = rs[i].measurement;
      if (!m.feasible) {
        std::snprintf(line, sizeof line, " %14s ", "OOM");
      } else {
        // the best feasible value is marked right after its ratio: "85.6 x1.51*"
        std::snprintf(line, sizeof line, " %9.1f x%4.2f%c", m.stepTime * 1e3, m.ratio(),
                      static_cast<int>(i) == best ? '*' : ' ');
      }
      out << line;
    }
    out << "\n" << std::flush;
  }
  if (a.has("--json")) {
    out << dump(ordered_json{{"cluster", c.name()}, {"calibration", calibrationFileJson(calibration)}, {"models", all}})
        << "\n";
    return 0;
  }
  out << "step time in ms and its ratio to the lower bound; * best feasible; OOM: over a device's memory\n";
  if (calibration.used()) out << "calibration: " << calibrationText(calibration, calibrated, allOpTimes) << "\n";
  return 0;
}

}  // namespace gp::cli

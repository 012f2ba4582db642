// graphplace-cli evaluate: simulate one step of a model on a cluster.
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_calibration.h"
#include "cli/cli_fuse_option.h"
#include "cli/cli_commands.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_plan_file.h"
#include "cli/cli_torch_program.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "io/chrome_trace.h"
#include "io/placement_file.h"
#include "sim/simulator.h"

namespace gp::cli {

int runEvaluate(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "evaluate");
  ModelPlan mp = loadModelPlan(a, "evaluate");
  const int repeat = static_cast<int>(a.integer("--repeat"));
  CalibrationOption calibration = calibrationFrom(a);
  const std::string& spec = mp.spec;
  const Graph& g = mp.graph;
  const ModelIdentity& identity = mp.identity;
  const Plan& plan = mp.plan;
  const std::string& planName = mp.planName;
  const std::optional<Cluster>& cluster = mp.cluster;
  const Cluster& c = *cluster;
  warnIfNoKindMatches(calibration, c, std::cerr);
  CostModel cost(g, c, {}, calibration.tableFor(g, c));
  Simulator sim(cost);
  Measurement m;
  double total = 0;
  for (int i = 0; i < repeat; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    sim.run(plan, m, /*recordTimeline=*/i == repeat - 1 && (a.has("--trace") || a.has("--out") || a.has("--torch-program")));
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (auto trace = a.value("--trace")) writeChromeTrace(g, c, m, *trace);
  if (auto outPath = a.value("--out")) writePlacement(g, identity, c, plan, m, *outPath);
  const double simMs = total / repeat * 1e3;
  std::ostringstream programSummary;
  if (auto program = a.value("--torch-program")) writeTorchProgram(spec, g, c, plan, m, *program, programSummary, std::cerr);

  if (a.has("--json")) {
    nlohmann::ordered_json j;
    j["model"] = spec;
    j["cluster"] = c.name();
    j.update(nlohmann::ordered_json::parse(measurementToJson(c, m)));
    j["sim_ms"] = simMs;
    j["repeat"] = repeat;
    j["calibration"] = calibrationJson(calibration, cost);
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  char line[256];
  std::snprintf(line, sizeof line, "step time    %.3f ms  (lower bound %.3f ms, ratio %.2f)%s\n", m.stepTime * 1e3,
                m.lowerBound * 1e3, m.ratio(), m.feasible ? "" : "  INFEASIBLE");
  out << "model        " << spec << " on " << c.name() << " (" << planName << ")\n"
      << line;
  if (!m.problem.empty()) out << "problem      " << m.problem << "\n";
  if (calibration.used()) out << "calibration: " << calibrationText(calibration, cost) << "\n";
  out << "sent         " << m.commBytes << " bytes between devices\n";
  std::snprintf(line, sizeof line, "simulation   %.2f ms per step (mean of %d)\n", simMs, repeat);
  out << line;
  for (int d = 0; d < c.numDevices(); ++d) {
    std::snprintf(line, sizeof line, "  %-8s busy %10.3f ms  util %5.1f%%  peak %8.2f GB of %6.2f GB\n",
                  c.device(d).name.c_str(), m.devices[d].busy * 1e3, 100 * m.devices[d].utilization,
                  static_cast<double>(m.devices[d].peakMemory) / 1e9, static_cast<double>(m.devices[d].capacity) / 1e9);
    out << line;
  }
  out << programSummary.str();
  return 0;
}

}  // namespace gp::cli

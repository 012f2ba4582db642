#include "cli/cli_measure.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_calibration.h"
#include "cli/cli_fuse_option.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_optimize_options.h"
#include "cli/cli_plan_file.h"
#include "cli/cli_profile.h"
#include "cost/cost_model.h"
#include "base/error.h"
#include "io/chrome_trace.h"
#include "io/model_loader.h"
#include "placement/placer.h"
#include "profile/gpu_measure.h"
#include "sim/simulator.h"

namespace gp::cli {
namespace {

using nlohmann::ordered_json;

struct Options {
  GpuMeasureOptions gpu;
  FuseMode fuse = FuseMode::Plan;
};

Options measureOptionsFrom(const Args& a) {
  Options o;
  o.gpu.steps = static_cast<int>(a.integer("--steps"));
  o.gpu.warmupSteps = static_cast<int>(a.integer("--warmup"));
  if (a.has("--gpus")) {
    o.gpu.ordinals = parseGpuNumbers(a.value("--gpus").value_or(""), "--gpus");
    if (o.gpu.ordinals.empty()) throw std::invalid_argument("--gpus wants GPU numbers like 0,1");
  }
  o.gpu.timer = parseProfileTimer(a.text("--timer"));
  o.fuse = checkFuseOption(a.text("--fuse"));
  return o;
}

double ms(double s) { return s * 1e3; }

}  // namespace

int runMeasure(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "measure");
  if (a.positional.size() != 1) throw std::invalid_argument("measure needs exactly one MODEL");
  if (a.has("--placement") && a.has("--method"))
    throw std::invalid_argument("measure takes --placement FILE or --method NAME, not both");
  if (a.has("--ignore-hash") && !a.has("--placement")) throw std::invalid_argument("--ignore-hash goes with --placement");
  if (auto trace = a.value("--trace"); trace && trace->empty()) throw std::invalid_argument("--trace needs a file name");
  const Options o = measureOptionsFrom(a);
  const CalibrationOption calibration = calibrationFrom(a);
  const Cluster c = clusterFrom(a, nullptr);
  // Before anything slow (loading the model, a placer): can this machine run on GPUs at all?
  if (std::string why = gpuMeasureUnavailable(1); !why.empty()) throw Error("measure", why);
  const std::string& spec = a.positional[0];
  const LoadOptions lo = loadOptionsFrom(a);
  const Graph g = loadModel(spec, lo);

  warnIfNoKindMatches(calibration, c, std::cerr);
  const CostModel cost(g, c, {}, calibration.table());
  Plan plan = Plan::singleDevice(g.numOps());
  std::string planName = "single device";
  if (auto path = a.value("--placement")) {
    plan = planFromFile(*path, g, ModelIdentity{spec, modelSha256(spec, lo), g.numOps()}, c, a.has("--ignore-hash"));
    planName = *path;
  } else if (auto method = a.value("--method")) {
    Simulator sim(cost);
    plan = runPlacement(*method, cost, sim).plan;
    planName = *method;
  }
  planName += applyFuseOption(g, plan, o.fuse, planName);

  const bool json = a.has("--json");
  std::ostream& progress = json ? std::cerr : out;
  InterruptScope interrupt;
  const GpuMeasureResult r = measureOnGpus(
      cost, plan, o.gpu, [&](const std::string& line) { progress << line << "\n" << std::flush; }, interrupt.flag());
  if (interrupt.flag()->load()) throw Error("measure", "cancelled");

  const Measurement &sim = r.simulated, &real = r.measured;
  std::vector<double> steps = r.stepTimes;
  std::sort(steps.begin(), steps.end());
  std::string traceNote;
  if (auto trace = a.value("--trace")) {
    if (real.timeline.empty())
      traceNote = "no measured timeline with timer " + r.timer + ": " + *trace + " not written";
    else
      writeChromeTrace(g, c, real, *trace);
  }
  const std::vector<int32_t>& used = r.devicesUsed;

  if (json) {
    if (!traceNote.empty()) std::cerr << "graphplace-cli: warning: " << traceNote << "\n";
    ordered_json j{{"model", spec},
                   {"cluster", c.name()},
                   {"plan", planName},
                   {"simulated_ms", ms(sim.stepTime)},
                   {"measured_ms", ms(real.stepTime)},
                   {"difference_percent", 100 * r.difference()},
                   {"gpu_span_ms", real.timeline.empty() ? ordered_json(nullptr) : ordered_json(ms(r.gpuSpan))},
                   {"step_min_ms", steps.empty() ? 0 : ms(steps.front())},
                   {"step_median_ms", ms(real.stepTime)},
                   {"step_max_ms", steps.empty() ? 0 : ms(steps.back())},
                   {"steps_ms", ordered_json::array()},
                   {"timer", r.timer},
                   {"note", r.note},
                   {"launches", r.launches},
                   {"copies", r.copies},
                   {"calibration", calibrationJson(calibration, cost)}};
    for (double s : r.stepTimes) j["steps_ms"].push_back(ms(s));
    auto& devs = j["devices"] = ordered_json::array();
    for (int32_t d : used) {
      ordered_json dj{{"name", c.device(d).name},
                      {"gpu", d < static_cast<int32_t>(r.gpus.size()) ? r.gpus[d].name : ""},
                      {"simulated_busy_ms", ms(sim.devices[d].busy)},
                      {"measured_busy_ms", real.timeline.empty() ? ordered_json(nullptr) : ordered_json(ms(real.devices[d].busy))},
                      {"measured_utilization", real.timeline.empty() ? ordered_json(nullptr) : ordered_json(real.devices[d].utilization)}};
      if (d < static_cast<int32_t>(r.gpus.size())) dj["ordinal"] = r.gpus[d].ordinal;
      devs.push_back(std::move(dj));
    }
    j["trace"] = a.has("--trace") && traceNote.empty() ? ordered_json(*a.value("--trace")) : ordered_json(nullptr);
    out << dump(j) << "\n";
    return 0;
  }
  char line[256];
  out << "model        " << spec << " on " << c.name() << " (" << planName << ")\n";
  if (calibration.used()) out << "calibration: " << calibrationText(calibration, cost) << "\n";
  std::snprintf(line, sizeof line, "simulated    %.3f ms\nmeasured     %.3f ms  (%+.1f %% vs simulated)\n",
                ms(sim.stepTime), ms(real.stepTime), 100 * r.difference());
  out << line;
  std::snprintf(line, sizeof line, "steps        %zu measured: min %.3f  median %.3f  max %.3f ms\n", steps.size(),
                steps.empty() ? 0 : ms(steps.front()), ms(real.stepTime), steps.empty() ? 0 : ms(steps.back()));
  out << line;
  if (!real.timeline.empty()) {
    std::snprintf(line, sizeof line, "GPU span     %.3f ms  (median step, first kernel start to last end)\n",
                  ms(r.gpuSpan));
    out << line;
  }
  out << "timer        " << r.timer << (r.note.empty() ? "" : " (" + r.note + ")") << "\n";
  out << "per step     " << r.launches << " kernels, " << r.copies << " peer copies\n";
  for (int32_t d : used) {
    const std::string gpu = d < static_cast<int32_t>(r.gpus.size())
                                ? "GPU " + std::to_string(r.gpus[d].ordinal) + " " + r.gpus[d].name
                                : std::string("GPU ?");
    if (real.timeline.empty())  // CUDA events: step times only
      std::snprintf(line, sizeof line, "  %-8s %-24s busy          - (no timeline)  (simulated %.3f ms, %.1f%%)\n",
                    c.device(d).name.c_str(), gpu.c_str(), ms(sim.devices[d].busy), 100 * sim.devices[d].utilization);
    else
      std::snprintf(line, sizeof line, "  %-8s %-24s busy %10.3f ms  util %5.1f%%  (simulated %.3f ms, %.1f%%)\n",
                    c.device(d).name.c_str(), gpu.c_str(), ms(real.devices[d].busy), 100 * real.devices[d].utilization,
                    ms(sim.devices[d].busy), 100 * sim.devices[d].utilization);
    out << line;
  }
  if (!traceNote.empty()) out << "trace        " << traceNote << "\n";
  else if (auto trace = a.value("--trace")) out << "wrote " << *trace << " (measured timeline, Chrome/Perfetto trace)\n";
  return 0;
}

}  // namespace gp::cli

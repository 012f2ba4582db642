#include "cli/cli_parallelize.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "base/error.h"
#include "base/file_text.h"
#include "cli/cli_args.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_optimize_options.h"
#include "cost/cost_model.h"
#include "graph/precision.h"
#include "graph/seeded_random.h"
#include "optimize/parallel_corpus.h"
#include "launch/launch_formats.h"
#include "parallel/memory_verdict.h"
#include "parallel/parallel_search.h"
#include "parallel/parallel_trace.h"
#include "parallel/breakdown_json.h"
#include "parallel/plan_knobs.h"
#include "parallel/prediction_band.h"
#include "profile/profile_output.h"
#include "session/launch_files.h"
#include "session/parallel_methods.h"
#include "session/parallel_task_load.h"

namespace gp::cli {
namespace {

using nlohmann::ordered_json;

// The best plan beside another result (the closest published plan, method "recipe"; the user's
// plan file, "file"), when both were found and fit: how much faster, which knobs differ and
// where the step's time moved.
struct Comparison {
  const ParallelResult* other = nullptr;
  double speedup = 0;
  bool otherAtRisk = false;  // the other plan is at out-of-memory risk, the best fits
  std::string changes, moved;
};

bool fitsWithRoom(const ParallelResult& r) { return gp::fitsWithRoom(r.measurement); }

std::optional<Comparison> compareWith(const std::vector<ParallelResult>& results, int best, int64_t batch,
                                      const std::string& method) {
  if (best < 0) return std::nullopt;
  const ParallelResult& b = results[static_cast<size_t>(best)];
  for (const ParallelResult& r : results) {
    if (r.method != method || !r.found || !r.measurement.feasible) continue;
    Comparison out;
    out.other = &r;
    out.speedup = r.measurement.stepTime / b.measurement.stepTime;
    out.otherAtRisk = !fitsWithRoom(r) && fitsWithRoom(b);
    out.changes = planChanges(r.plan, b.plan, batch);
    out.moved = breakdownChanges(r.measurement.breakdown, r.measurement.stepTime, b.measurement.breakdown, b.measurement.stepTime);
    return out;
  }
  return std::nullopt;
}

double gib(int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024 * 1024); }

int64_t maxOf(const std::vector<int64_t>& v) {
  int64_t m = 0;
  for (int64_t x : v) m = std::max(m, x);
  return m;
}

std::string planText(const ParallelPlan& p, int64_t batch) {
  std::string s = "dp " + std::to_string(p.dp) + (p.cp > 1 ? " cp " + std::to_string(p.cp) : std::string()) + " tp " +
                  std::to_string(p.tp) + " pp " + std::to_string(p.pp) +
                  (p.virtualStages > 1 ? " x " + std::to_string(p.virtualStages) + " virtual" : std::string()) + ", " +
                  std::to_string(p.microbatches) + " x " + std::to_string(p.microbatchSize(batch)) + " samples, " +
                  std::string(pipeScheduleName(p.schedule)) + ", ZeRO-" + std::to_string(p.zero) +
                  (p.shardSize() < p.gradientGroup() ? " in groups of " + std::to_string(p.shardSize()) : std::string()) +
                  ", layers";
  auto mark = [](Recompute r) { return r == Recompute::Full ? "r" : r == Recompute::Selective ? "s" : ""; };
  if (const int each = uniformChunkLayers(p))
    s += " in " + std::to_string(p.stages.size()) + " chunks of " + std::to_string(each) + mark(p.stages[0].recompute);
  else
    for (const PipeStage& st : p.stages) s += " " + std::to_string(st.first) + "-" + std::to_string(st.last - 1) + mark(st.recompute);
  for (std::string_view note : planKnobNotes(p)) s += ", " + std::string(note);
  return s;
}

ordered_json planJson(const ParallelPlan& p) {
  ordered_json stages = ordered_json::array(), recompute = ordered_json::array();
  for (const PipeStage& st : p.stages) {
    stages.push_back({st.first, st.last});
    recompute.push_back(std::string(recomputeName(st.recompute)));
  }
  ordered_json j = planKnobsJson(p);
  j["stages"] = stages;
  j["recompute"] = recompute;
  return j;
}

ordered_json resultJson(const ParallelResult& r) {
  const ParallelMeasurement& m = r.measurement;
  ordered_json peaks = ordered_json::array();
  for (int64_t b : m.peakMemory) peaks.push_back(b);
  ordered_json j{{"method", r.method},
                 {"feasible", r.found && m.feasible},
                 {"samples_per_s", m.samplesPerSecond},
                 {"step_time_ms", m.stepTime * 1e3},
                 {"step_time_band_ms", {stepBand(m.stepTime).low * 1e3, stepBand(m.stepTime).high * 1e3}},
                 {"mfu", m.mfu},
                 {"bubble_share", m.bubbleShare},
                 {"comm_share", m.commShare},
                 {"peak_memory_bytes", peaks},
                 {"search_seconds", r.searchSeconds},
                 {"plans_simulated", r.evaluated},
                 {"plans_simulated_to_best", r.evaluatedToBest},
                 {"complete", r.complete},
                 {"note", r.note},
                 {"problem", m.problem}};
  j["plan"] = r.found ? planJson(r.plan) : ordered_json(nullptr);
  ordered_json memory = ordered_json::array();
  for (const StageMemory& s : m.memory)
    memory.push_back({{"weights", std::llround(s.statics.weights)},
                      {"gradients", std::llround(s.statics.gradients)},
                      {"optimizer", std::llround(s.statics.optimizer)},
                      {"activations", s.activations},
                      {"nccl_buffers", std::llround(s.runtime.nccl)},
                      {"cublas_workspaces", std::llround(s.runtime.workspaces)},
                      {"total", s.total()},
                      {"allocator_reserved", std::llround(s.reserved)},
                      {"host_optimizer", std::llround(s.statics.host)},
                      {"host_activations", std::llround(s.hostActivations)},
                      {"optimizer_step_copy", std::llround(s.statics.step)}});
  j["memory_per_stage"] = memory;
  const MemoryVerdict v = memoryVerdict(m);
  j["memory_verdict"] = {{"fit", memoryFitName(v.fit)},
                         {"rank", v.rank},
                         {"headroom_bytes", v.headroom},
                         {"band_bytes", v.band},
                         {"text", v.text}};
  j["step_breakdown_ms"] = stepBreakdownJson(m.breakdown);
  return j;
}

// "step 13,644.9 ms on stage 7: 78.1 % compute, 0.0 % recomputation, ..."
void printBreakdown(std::ostream& out, const ParallelMeasurement& m) {
  const StepBreakdown& b = m.breakdown;
  if (!(m.stepTime > 0)) return;
  auto pct = [&](double t) { return 100 * std::max(0.0, t) / m.stepTime; };  // no "-0.0 %" from rounding
  char line[320];
  std::snprintf(line, sizeof line,
                "  step %.1f ms on stage %d: %.1f %% compute, %.1f %% recomputation, %.1f %% collectives inside the passes, "
                "%.1f %% bubble and transfers, %.1f %% exposed gradient sync, %.1f %% optimizer\n",
                m.stepTime * 1e3, b.stage, pct(b.compute), pct(b.recompute), pct(b.passComm), pct(b.bubble), pct(b.dpExposed),
                pct(b.optimizer));
  out << line;
  // The collectives by kind, where there are any.
  std::string kinds;
  for (auto [name, t] : {std::pair{"tensor parallel", b.tpComm}, std::pair{"context parallel (ring attention)", b.cpComm},
                         std::pair{"expert all-to-alls", b.epComm}, std::pair{"ZeRO-3 gathers", b.zeroGather}}) {
    if (!(t > 0)) continue;
    std::snprintf(line, sizeof line, "%s%.1f %% %s", kinds.empty() ? "" : ", ", pct(t), name);
    kinds += line;
  }
  if (!kinds.empty()) out << "  collectives inside the passes: " << kinds << "\n";
}

// "stage 0: 2.1 weights + 2.1 gradients + 1.6 optimizer + 30.2 activations + 0.9 NCCL and
// cuBLAS = 36.9 GiB" per stage (its fullest device).
void printMemory(std::ostream& out, const ParallelMeasurement& m) {
  char line[256];
  for (size_t s = 0; s < m.memory.size(); ++s) {
    const StageMemory& c = m.memory[s];
    std::snprintf(line, sizeof line,
                  "  stage %zu: %.1f weights + %.1f gradients + %.1f optimizer + %.1f activations + %.1f NCCL and cuBLAS = %.1f GiB\n",
                  s, gib(static_cast<int64_t>(c.statics.weights)), gib(static_cast<int64_t>(c.statics.gradients)),
                  gib(static_cast<int64_t>(c.statics.optimizer)), gib(c.activations), gib(static_cast<int64_t>(c.runtime.total())),
                  gib(c.total()));
    out << line;
    if (c.statics.step > static_cast<double>(c.activations)) {
      std::snprintf(line, sizeof line, "           (the optimizer step's %.1f GiB fp32 gradient copy, more than the activations, counted instead)\n",
                    gib(static_cast<int64_t>(c.statics.step)));
      out << line;
    }
    if (c.statics.host > 0) {
      std::snprintf(line, sizeof line, "           + %.1f GiB of optimizer state in host memory (offloaded)\n",
                    gib(static_cast<int64_t>(c.statics.host)));
      out << line;
    }
    if (c.hostActivations > 0) {
      std::snprintf(line, sizeof line, "           + %.1f GiB of recomputation checkpoints in host memory (offloaded)\n",
                    gib(static_cast<int64_t>(c.hostActivations)));
      out << line;
    }
  }
}

// --framework, --optimizer-offload, --optimizer-states, --grad-accumulation: the knobs of the same
// names (plan_knobs.h), for the plans a search tries; a plan or launch file states its own.
void readTrainingSetup(const Args& a, TrainingSetup& t) {
  const bool own = a.has("--plan") || a.has("--config");
  ParallelPlan p;
  p.training = t;
  for (const char* flag : {"--framework", "--optimizer-states", "--grad-accumulation", "--optimizer-offload"}) {
    if (!a.has(flag)) continue;
    if (own) throw std::invalid_argument(std::string(flag) + " sets what searched plans train with; a --plan or --config file says it itself");
    std::string key = std::string(flag).substr(2);
    std::replace(key.begin(), key.end(), '-', '_');
    const PlanKnob& k = *std::find_if(planKnobs().begin(), planKnobs().end(), [&](const PlanKnob& x) { return x.key == key; });
    if (k.kind == KnobKind::Flag) {
      k.set(p, 1);
      continue;
    }
    const std::string v = *a.value(flag);
    const auto at = std::find(k.choices.begin(), k.choices.end(), v);
    if (at == k.choices.end()) {
      std::string names;
      for (std::string_view c : k.choices) names += (names.empty() ? "" : ", ") + std::string(c);
      throw std::invalid_argument(std::string(flag) + " must be one of " + names + ", got '" + v + "'");
    }
    k.set(p, static_cast<int>(at - k.choices.begin()));
  }
  t = p.training;
}

}  // namespace

int runParallelize(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "parallelize");
  if (a.has("--policy") && a.has("--from-scratch")) throw std::invalid_argument("--policy and --from-scratch exclude each other");
  if (a.positional.size() != 1) throw std::invalid_argument("parallelize needs exactly one MODEL");
  if (!a.has("--plan") && !a.has("--config") && !a.has("--global-batch")) throw std::invalid_argument("parallelize needs --global-batch B");
  if (a.has("--plan") && a.has("--config")) throw std::invalid_argument("--plan and --config exclude each other: one plan of yours at a time");
  if (auto e = a.value("--export")) {
    checkLaunchExportFormat(*e);
    if (!a.has("--out")) throw std::invalid_argument("--export needs --out FILE");
  }
  for (const char* f : {"--out", "--trace", "--plan", "--config"})
    if (auto v = a.value(f); v && v->empty()) throw std::invalid_argument(std::string(f) + " needs a file name");
  const std::vector<ParallelMethod> methods = parallelMethodsFrom(a.text("--method"));
  ParallelMethodOptions run;
  ParallelSearchOptions& search = run.search;
  search.budgetSeconds = a.number("--budget-seconds");
  if (auto v = a.value("--attention")) {
    if (*v != "flash" && *v != "unfused" && *v != "flash2")
      throw std::invalid_argument("--attention must be flash, flash2 or unfused, got '" + *v + "'");
    if (a.has("--plan") || a.has("--config"))
      throw std::invalid_argument("--attention sets how searched plans run attention; a --plan or --config file says it itself");
    search.fixed.attention = parseAttentionImpl(*v, "--attention");
  }
  if (a.has("--fp8") && (a.has("--plan") || a.has("--config")))
    throw std::invalid_argument("--fp8 sets how searched plans multiply; a --plan or --config file says it itself");
  search.fixed.fp8 = a.has("--fp8");
  readTrainingSetup(a, search.fixed.training);
  // Plans searched for a launch file are costed as its framework runs them.
  if (auto e = a.value("--export"); e && !a.has("--plan") && !a.has("--config")) {
    const TrainingFramework runs = launchFormatFramework(*e);
    if (!a.has("--framework")) search.fixed.training.framework = runs;
    else if (search.fixed.training.framework != runs)
      throw std::invalid_argument("--framework " + std::string(trainingFrameworkName(search.fixed.training.framework)) +
                                  " and --export " + *e + " disagree: " + std::string(trainingFrameworkName(runs)) +
                                  " runs that file");
  }
  DqnOptions& dqn = run.dqn;
  dqn.budgetSeconds = search.budgetSeconds;
  dqn.policy = a.value("--policy").value_or("");
  dqn.fromScratch = a.has("--from-scratch");
  dqn.maxEpisodes = static_cast<int>(a.integer("--episodes"));
  dqn.patience = static_cast<int>(a.integer("--patience"));
  dqn.seed = a.seed("--seed");
  const Cluster c = clusterFrom(a, nullptr);
  const std::string& spec = a.positional[0];
  ParallelLoad load;
  load.model = loadOptionsFrom(a);
  if (a.has("--precision")) load.precision = load.model.precision;
  load.launchConfig = a.value("--config").value_or("");
  std::string configPrecision;
  const auto task = loadParallelTask(spec, c, load, &configPrecision);
  const LayerStack& st = task->stack;
  const StageCostModel& model = task->model;

  int64_t batch = a.has("--global-batch") ? a.intValue("--global-batch", 1) : 0;
  std::vector<ParallelResult> results;
  InterruptScope interrupt;
  search.cancel = interrupt.flag();
  // The user's own plan (a plan file or a framework's launch configuration), simulated; with
  // --method too, the searched plans run beside it with its attention and FP8.
  std::optional<std::string> userPath = a.value("--plan") ? a.value("--plan") : a.value("--config");
  if (userPath) {
    const std::string& path = *userPath;
    ParallelResult r;
    r.method = "file";
    r.note = path;
    int64_t fileBatch = 0;
    if (a.has("--plan")) {
      const ParallelPlanFile f = parseParallelPlanJson(readFileText(path, "parallel plan"), path, c);
      r.plan = f.plan, fileBatch = f.globalBatch;
    } else {
      const LaunchImport in = readLaunchConfigFile(path, *task);
      r.plan = in.plan, fileBatch = in.globalBatch;
      if (!configPrecision.empty()) r.note += "; trains in " + configPrecision;
      for (const std::string& n : in.approximated) r.note += "; read approximately: " + n;
    }
    if (batch > 0 && batch != fileBatch)
      throw Error(path, std::string(a.has("--plan") ? "the plan" : "the configuration") + " is for global batch " +
                            std::to_string(fileBatch) + ", not " + std::to_string(batch));
    batch = fileBatch;
    if (std::string why = parallelPlanProblem(st, c, batch, r.plan); !why.empty()) throw Error(path, why);
    r.measurement = simulateParallel(model, batch, r.plan, {a.has("--trace"), false});
    r.found = true;
    r.evaluated = 1;
    search.fixed = FixedKnobs::of(r.plan);
    results.push_back(std::move(r));
  }
  if (!userPath || a.has("--method")) {
    for (ParallelMethod m : methods) results.push_back(runParallelMethod(m, model, batch, run));
  }
  // The best: the fastest plan that fits with room beyond the peak's error, else the fastest at
  // out-of-memory risk.
  int best = -1;
  for (size_t i = 0; i < results.size(); ++i) {
    const ParallelResult& r = results[i];
    if (!r.found || !r.measurement.feasible) continue;
    if (best >= 0 && !ranksBefore(r.measurement, results[static_cast<size_t>(best)].measurement)) continue;
    best = static_cast<int>(i);
  }
  if (best >= 0) {
    ParallelResult& b = results[static_cast<size_t>(best)];
    if (b.measurement.events.empty() && a.has("--trace")) b.measurement = simulateParallel(model, batch, b.plan, {true, false});
    if (auto format = a.value("--export")) {
      const LaunchContext ctx = launchContextFor(*task, spec, batch, b.measurement);
      for (const std::string& n : writeLaunchExport(*format, *a.value("--out"), b.plan, ctx))
        std::cerr << "graphplace-cli: " << *a.value("--out") << ": not exactly expressible in " << *format << ": " << n << "\n";
    } else if (auto path = a.value("--out")) {
      writeTextFileAtomically(*path, parallelPlanJson({spec, c.name(), batch, b.plan}, c));
    }
    if (auto path = a.value("--trace")) writeTextFileAtomically(*path, parallelTraceJson(b.measurement, b.plan, c, spec));
  } else if (a.has("--out") || a.has("--trace")) {
    throw Error(spec, "no method found a plan that fits the devices' memory; nothing written");
  }

  if (a.has("--json")) {
    ordered_json j{{"model", spec}, {"cluster", c.name()}, {"global_batch", batch},
                   {"layers", st.numLayers()}, {"hidden", st.hidden}, {"heads", st.heads}, {"parameters", st.totalParams()},
                   {"results", ordered_json::array()}};
    for (const ParallelResult& r : results) j["results"].push_back(resultJson(r));
    j["best"] = best >= 0 ? ordered_json(results[static_cast<size_t>(best)].method) : ordered_json(nullptr);
    for (const char* method : {"recipe", "file"})
      if (auto cmp = compareWith(results, best, batch, method))
        j[std::string("beside_") + method] = {{"plan", cmp->other->note}, {"speedup", cmp->speedup},
                                              {"beyond_band", fasterBeyondBand(cmp->speedup)}, {"band_share", kStepErrorShare},
                                              {"other_at_memory_risk", cmp->otherAtRisk},
                                              {"changes", cmp->changes}, {"time_moved", cmp->moved}};
    out << dump(j) << "\n";
    return 0;
  }
  char line[512];
  std::snprintf(line, sizeof line, "model        %s: %d layers, hidden %lld, %d heads, %.2f G parameters, %s\n", spec.c_str(),
                st.numLayers(), static_cast<long long>(st.hidden), st.heads, static_cast<double>(st.totalParams()) / 1e9,
                dtypeSize(st.activationType) == 2 ? "mixed precision" : "fp32");
  out << line;
  std::snprintf(line, sizeof line, "cluster      %s: %d devices, %d per server\nglobal batch %lld\n\n", c.name().c_str(),
                c.numDevices(), devicesPerServer(c), static_cast<long long>(batch));
  out << line;
  out << "method    fits  samples/s  step ms     MFU   bubble  comm   peak GiB  search s  plan\n";
  for (const ParallelResult& r : results) {
    const ParallelMeasurement& m = r.measurement;
    const bool fits = r.found && m.feasible;
    std::snprintf(line, sizeof line, "%-9s %-5s %9.1f  %9.1f  %5.1f%%  %5.1f%%  %5.1f%%  %8.1f  %8.2f  ", r.method.c_str(),
                  fits ? "yes" : "no", m.samplesPerSecond, m.stepTime * 1e3, 100 * m.mfu, 100 * m.bubbleShare, 100 * m.commShare,
                  gib(maxOf(m.peakMemory)), r.searchSeconds);
    out << line << (r.found ? planText(r.plan, batch) : "-") << "\n";
    if (!fits || !r.note.empty()) out << "          " << (fits ? r.note : (m.problem.empty() ? r.note : m.problem)) << "\n";
  }
  if (best >= 0) {
    const Band band = stepBand(results[static_cast<size_t>(best)].measurement.stepTime);
    std::snprintf(line, sizeof line, " (a step of %.1f to %.1f ms within the ±%.0f %% the simulator may be off)", band.low * 1e3,
                  band.high * 1e3, 100 * kStepErrorShare);
    out << "\nbest: " << results[static_cast<size_t>(best)].method << line << "; where the step goes:\n";
    printBreakdown(out, results[static_cast<size_t>(best)].measurement);
    out << "memory per device:\n";
    printMemory(out, results[static_cast<size_t>(best)].measurement);
    out << "  " << memoryVerdict(results[static_cast<size_t>(best)].measurement).text << "\n";
    for (const char* method : {"recipe", "file"}) {
      const auto cmp = compareWith(results, best, batch, method);
      if (!cmp) continue;
      const char* what = std::string(method) == "file" ? "your plan (file)" : "the closest published plan (recipe)";
      if (cmp->other == &results[static_cast<size_t>(best)]) {
        if (results.size() > 1) out << "\n" << what << " is the best found\n";
        continue;
      }
      std::snprintf(line, sizeof line, "\nbeside %s: %.2fx %s, %.1f against %.1f ms per step\n", what,
                    cmp->speedup >= 1 ? cmp->speedup : 1 / cmp->speedup, cmp->speedup >= 1 ? "faster" : "slower",
                    results[static_cast<size_t>(best)].measurement.stepTime * 1e3, cmp->other->measurement.stepTime * 1e3);
      out << line;
      if (cmp->otherAtRisk) out << "  it fits with room to spare, where " << what << " is at out-of-memory risk\n";
      // A gain the simulator's own error could make is no gain to stake a launch on.
      std::snprintf(line, sizeof line, "  %s the ±%.0f %% a simulated step may be off%s\n",
                    fasterBeyondBand(cmp->speedup) ? "beyond" : "within", 100 * kStepErrorShare,
                    fasterBeyondBand(cmp->speedup) ? "" : ": not a gain to count on; measure both");
      out << line << "  what changed: " << cmp->changes << "\n  where the time moved: " << cmp->moved << "\n";
    }
  }
  return 0;
}

int runPretrainParallel(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "pretrain-parallel");
  if (!a.positional.empty()) throw std::invalid_argument("pretrain-parallel takes no MODEL (it trains on synthetic GPT stacks)");
  DqnPretrainOptions o;
  o.out = a.value("--out").value_or("");
  if (o.out.empty()) throw std::invalid_argument("pretrain-parallel needs --out FILE");
  o.budgetSeconds = a.number("--budget-seconds");
  o.maxEpisodes = static_cast<int>(a.integer("--episodes"));
  o.seed = a.seed("--seed");
  const int count = static_cast<int>(a.integer("--tasks"));  // declared 1 .. 1024
  const auto tasks = syntheticParallelTasks(o.seed, count);
  InterruptScope interrupt;
  int lastReport = 0;
  const DqnPretrainResult r = pretrainParallelDqn(
      tasks, o,
      [&](const DqnEpisodeReport& e) {
        if (a.has("--json") || e.episode - lastReport < 500) return;
        lastReport = e.episode;
        char line[160];
        std::snprintf(line, sizeof line, "episode %6d  %6.1f s  epsilon %.2f  loss %.5f\n", e.episode, e.seconds, e.epsilon, e.loss);
        out << line << std::flush;
      },
      interrupt.flag());
  if (a.has("--json")) {
    out << dump(ordered_json{{"out", r.out}, {"episodes", r.episodes}, {"tasks", count}, {"mean_reward_last_10_percent", r.meanReward}})
        << "\n";
    return 0;
  }
  char line[256];
  std::snprintf(line, sizeof line, "wrote %s: %d episodes over %d synthetic GPT stacks, mean MFU of the last 10 %% %.3f\n",
                r.out.c_str(), r.episodes, count, r.meanReward);
  out << line;
  return 0;
}

}  // namespace gp::cli

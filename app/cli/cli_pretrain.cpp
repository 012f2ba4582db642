// graphplace-cli pretrain: one GDP policy trained over many graphs and clusters (rl/pretrain.h),
// for zero-shot use and fine-tuning with optimize --policy FILE.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_commands.h"
#include "cli/cli_events.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_optimize_options.h"
#include "optimize/corpus_spec.h"
#include "session/placement_start.h"
#include "zoo/zoo.h"

namespace gp::cli {

namespace {

// Every graph on every one of its clusters, each starting from its best baseline (as optimize
// does); held-out tasks are evaluated zero-shot, never trained on.
struct TaskList {
  std::vector<std::unique_ptr<Graph>> graphs;
  std::vector<std::unique_ptr<Cluster>> clusters;
  std::vector<std::unique_ptr<CostModel>> costs;
  std::vector<PretrainTask> tasks;

  void add(const std::string& label, const std::string& model, const LoadOptions& lo,
           const std::vector<const Cluster*>& on, bool heldOut, bool baselineStart, bool json, std::ostream& out) {
    graphs.push_back(std::make_unique<Graph>(loadModel(model, lo)));
    for (const Cluster* c : on) {
      costs.push_back(std::make_unique<CostModel>(*graphs.back(), *c));
      PretrainTask t{label + " on " + c->name(), costs.back().get(), std::nullopt, heldOut};
      if (baselineStart) {
        const std::vector<PlacementResult> bs = runBaselines(*costs.back());
        if (int best = bestBaseline(bs); best >= 0) t.startPlan = bs[best].plan;
      }
      if (!json)
        out << (heldOut ? "held out " : "task ") << tasks.size() + 1 << ": " << t.name << " ("
            << graphs.back()->numOps() << " ops)\n"
            << std::flush;
      tasks.push_back(std::move(t));
    }
  }
};

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

std::vector<const Cluster*> clustersOf(TaskList& list, const std::vector<std::string>& specs) {
  std::vector<const Cluster*> out;
  for (const std::string& s : specs) {
    list.clusters.push_back(std::make_unique<Cluster>(loadCluster(s)));
    out.push_back(list.clusters.back().get());
  }
  return out;
}

}  // namespace

int runPretrain(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "pretrain");
  if (!a.positional.empty()) throw std::invalid_argument("pretrain takes no positional arguments (use --models)");
  PretrainOptions o;
  o.out = a.value("--out").value_or("");
  if (o.out.empty()) throw std::invalid_argument("pretrain needs --out POLICY.pt");
  o.from = a.value("--from").value_or("");
  o.checkpoint = a.value("--checkpoint").value_or("");
  o.resume = a.value("--resume").value_or("");
  if (!o.from.empty() && !o.resume.empty()) throw std::invalid_argument("pretrain takes --from or --resume, not both");
  o.budgetSeconds = a.number("--budget-seconds");
  o.rounds = a.intValue("--rounds", a.has("--budget-seconds") ? 1'000'000 : o.rounds);
  o.seed = a.seed("--seed");
  o.samplesPerIteration = static_cast<int>(a.integer("--samples"));
  o.threads = a.intValue("--threads", 0);
  o.method = *parsePretrainMethod(a.text("--method"));  // a declared choice
  o.fitEpochs = static_cast<int>(a.integer("--fit-epochs"));
  o.evalEvery = static_cast<int>(a.integer("--eval-every"));
  o.keepPrior = a.has("--keep-prior");
  o.relativeDevices = a.has("--relative-devices");
  o.balancedFit = a.text("--fit-loss") == "balanced";
  if (auto tasks = a.value("--tasks")) o.tasks = parseTasks(*tasks);  // default: all three heads
  o.fuse = *parseFuse(a.text("--fuse"));  // declared: none or default
  const std::string start = a.text("--start");
  // with several ranks, rank 0 prints the run (every rank's reports) and writes its files
  const bool lead = distributedFrom(a, o.distributed, o.distTimeoutSeconds);
  const bool json = a.has("--json");
  const bool baselineStart = start == "baseline";
  std::ostringstream quiet;
  std::ostream& head = lead ? out : quiet;

  TaskList list;
  if (auto corpusFile = a.value("--corpus")) {
    for (const char* flag : {"--models", "--exclude", "--clusters", "--eval"})
      if (a.has(flag)) throw std::invalid_argument(std::string("pretrain --corpus takes no ") + flag);
    const CorpusSpec spec = loadCorpusSpec(*corpusFile);
    const std::vector<const Cluster*> on = clustersOf(list, spec.clusters), eval = clustersOf(list, spec.evalClusters);
    for (size_t i = 0; i < spec.train.size(); ++i) {
      std::vector<const Cluster*> some;
      for (size_t c : spec.clustersOf(i)) some.push_back(on[c]);
      const CorpusGraph& g = spec.train[i];
      list.add(g.family + ": " + g.label, g.model, g.load, some, false, baselineStart, json, head);
    }
    for (const CorpusGraph& g : spec.heldOut) list.add(g.family + ": " + g.label, g.model, g.load, eval, true, baselineStart, json, head);
  } else {
    std::vector<std::string> models;
    if (auto m = a.value("--models")) models = splitList(*m);
    else
      for (const auto& z : zooModels())
        if (!z.synthetic && !z.llm) models.push_back("zoo:" + z.name);
    const std::vector<std::string> evalModels = splitList(a.value("--eval").value_or(""));
    for (const std::string& x : splitList(a.value("--exclude").value_or("")))
      std::erase_if(models, [&](const std::string& m) { return m == x || m == "zoo:" + x; });
    for (const std::string& x : evalModels)
      std::erase_if(models, [&](const std::string& m) { return m == x || m == "zoo:" + x; });
    const std::vector<std::string> clusters = splitList(a.value("--clusters").value_or("4xP100-PCIe,8xV100-DGX1"));
    if (models.empty()) throw std::invalid_argument("pretrain: no models left to train on");
    if (clusters.empty()) throw std::invalid_argument("pretrain: no clusters");
    const LoadOptions lo = loadOptionsFrom(a);
    const std::vector<const Cluster*> on = clustersOf(list, clusters);
    for (const std::string& m : models) list.add(m, m, lo, on, false, baselineStart, json, head);
    for (const std::string& m : evalModels) list.add(m, m, lo, on, true, baselineStart, json, head);
  }
  const std::vector<PretrainTask>& tasks = list.tasks;

  std::unique_ptr<RunLogWriter> log = eventLogFrom(a, lead);
  if (log) {
    nlohmann::ordered_json ts = nlohmann::ordered_json::array();
    for (const PretrainTask& t : tasks) ts.push_back({{"name", t.name}, {"held_out", t.heldOut}});
    log->event("run", {{"format", "graphplace-events"}, {"version", 1}, {"command", "pretrain"},
                       {"ranks", o.distributed ? o.distributed->worldSize : 1}, {"seed", o.seed}, {"tasks", std::move(ts)}});
  }
  InterruptScope interrupt;
  char line[512];
  // Training-set fit: each training task's last start and own-plan step times.
  std::vector<double> lastStart(tasks.size(), 0), lastOwn(tasks.size(), 0);
  if (!json) head << " round  task                                      start ms    best ms     own ms    loss  elapsed s\n";
  PretrainResult r = loggingErrors(log.get(), [&] {
    return pretrainPolicy(
        tasks, o,
        [&](const PretrainReport& rep) {
          if (log) logPretrainReport(*log, rep);
          if (!rep.evaluation && !rep.rankHealth && rep.task >= 0 && static_cast<size_t>(rep.task) < tasks.size())
            lastStart[static_cast<size_t>(rep.task)] = rep.startStepTime, lastOwn[static_cast<size_t>(rep.task)] = rep.ownStepTime;
          if (json) return;
          if (rep.rankHealth) {  // a distributed round: each rank's work and wait, in seconds
            out << "        ranks: worked";
            for (double b : rep.rankBusy) out << " " << seconds(b);
            out << " s, waited";
            for (double w : rep.rankWaiting) out << " " << seconds(w);
            out << " s\n" << std::flush;
            return;
          }
          std::snprintf(line, sizeof line, "%6d%s %-40.40s %10.2f %10.2f %10.2f %7.3f %10.1f\n", rep.round,
                        rep.evaluation ? "*" : " ", tasks[rep.task].name.c_str(), rep.startStepTime * 1e3,
                        rep.bestStepTime * 1e3, rep.ownStepTime * 1e3, rep.loss, rep.elapsed);
          out << line << std::flush;
        },
        interrupt.flag());
  });
  if (log)
    log->event("end", {{"seconds", r.seconds}, {"stopped", r.cancelled}, {"rounds", r.rounds}, {"samples", r.samples}});
  int trained = 0, beats = 0;
  std::vector<double> ratios;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].heldOut || lastStart[i] <= 0) continue;
    ++trained;
    beats += lastOwn[i] < lastStart[i];
    ratios.push_back(std::isfinite(lastOwn[i]) ? lastOwn[i] / lastStart[i] : 10.0);
  }
  std::sort(ratios.begin(), ratios.end());
  const double medianOwn = ratios.empty() ? 0 : ratios[ratios.size() / 2];
  if (!lead) return 0;
  if (json) {
    nlohmann::ordered_json j{{"out", o.out},         {"rounds", r.rounds},         {"seconds", r.seconds},
                             {"cancelled", r.cancelled}, {"samples", r.samples}, {"ranks", r.worldSize}};
    j["training_fit"] = {{"tasks", trained}, {"own_beats_start", beats}, {"median_own_over_start", medianOwn}};
    auto& ts = j["tasks"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < tasks.size(); ++i)
      ts.push_back({{"task", tasks[i].name},
                    {"start_step_time_ms", r.startStepTime[i] * 1e3},
                    {"best_step_time_ms", r.bestStepTime[i] * 1e3},
                    {"held_out", tasks[i].heldOut}});
    auto& curve = j["curve"] = nlohmann::ordered_json::array();
    for (const PretrainCurvePoint& p : r.curve)
      curve.push_back({{"round", p.round},
                       {"seconds", p.seconds},
                       {"zero_shot_gain", p.zeroShotGain},
                       {"greedy_gain", p.greedyGain}});
    out << dump(j) << "\n";
    return 0;
  }
  for (const PretrainCurvePoint& p : r.curve) {
    std::snprintf(line, sizeof line, "held-out zero-shot after round %d (%.0f s): %.1f %% faster than the start, greedy plan alone %.1f %%\n",
                  p.round, p.seconds, 100 * p.zeroShotGain, 100 * p.greedyGain);
    out << line;
  }
  if (trained > 0) {
    std::snprintf(line, sizeof line,
                  "training fit (each task's last round): the policy's own plan beats the start on %d of %d tasks "
                  "(median own / start %.3f)\n",
                  beats, trained, medianOwn);
    out << line;
  }
  std::snprintf(line, sizeof line, "wrote %s: %d rounds over %zu tasks in %.1f s (%.1f samples/s%s)%s\n", o.out.c_str(),
                r.rounds, tasks.size(), r.seconds, r.seconds > 0 ? static_cast<double>(r.samples) / r.seconds : 0.0,
                r.worldSize > 1 ? (", " + std::to_string(r.worldSize) + " ranks").c_str() : "",
                r.cancelled ? " (stopped)" : "");
  out << line;
  return 0;
}

}  // namespace gp::cli

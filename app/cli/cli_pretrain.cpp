// graphplace-cli pretrain: one GDP policy trained over many graphs and clusters (rl/pretrain.h),
// for zero-shot use and fine-tuning with optimize --policy FILE.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_baseline.h"
#include "cli/cli_commands.h"
#include "cli/cli_model_options.h"
#include "cli/cli_optimize_options.h"
#include "zoo/zoo.h"

namespace gp::cli {

int runPretrain(const std::vector<std::string>& argv, std::ostream& out) {
  auto opts = modelOptions();
  opts.insert({"--models", "--exclude", "--clusters", "--rounds", "--budget-seconds", "--seed", "--samples",
               "--threads", "--from", "--out", "--start", "--tasks", "--fuse"});
  Args a = parseArgs(argv, opts, {"--json"});
  if (!a.positional.empty()) throw std::invalid_argument("pretrain takes no positional arguments (use --models)");
  PretrainOptions o;
  o.out = a.value("--out").value_or("");
  if (o.out.empty()) throw std::invalid_argument("pretrain needs --out POLICY.pt");
  o.from = a.value("--from").value_or("");
  o.budgetSeconds = nonNegative(a, "--budget-seconds", 0);
  o.rounds = a.intValue("--rounds", a.has("--budget-seconds") ? 1'000'000 : o.rounds);
  o.seed = static_cast<uint64_t>(nonNegative(a, "--seed", 1));
  o.samplesPerIteration = a.intValue("--samples", o.samplesPerIteration);
  o.threads = a.intValue("--threads", 0);
  if (auto tasks = a.value("--tasks")) o.tasks = parseTasks(*tasks);  // default: all three heads
  o.fuse = a.value("--fuse").value_or("none");
  if (o.fuse != "none" && o.fuse != "default")
    throw std::invalid_argument("pretrain --fuse wants none or default, got '" + o.fuse + "'");
  const std::string start = a.value("--start").value_or("baseline");
  if (start != "baseline" && start != "none")
    throw std::invalid_argument("--start wants none or baseline, got '" + start + "'");

  std::vector<std::string> models;
  if (auto list = a.value("--models")) models = splitList(*list);
  else
    for (const auto& z : zooModels()) models.push_back("zoo:" + z.name);
  for (const std::string& x : splitList(a.value("--exclude").value_or(""))) {
    std::erase_if(models, [&](const std::string& m) { return m == x || m == "zoo:" + x; });
  }
  const std::vector<std::string> clusters = splitList(a.value("--clusters").value_or("4xP100-PCIe,8xV100-DGX1"));
  if (models.empty()) throw std::invalid_argument("pretrain: no models left to train on");
  if (clusters.empty()) throw std::invalid_argument("pretrain: no clusters");

  // every graph on every cluster, each starting from its best baseline (as optimize does)
  const LoadOptions lo = loadOptionsFrom(a);
  std::vector<std::unique_ptr<Graph>> graphs;
  std::vector<std::unique_ptr<Cluster>> cls;
  std::vector<std::unique_ptr<CostModel>> costs;
  std::vector<PretrainTask> tasks;
  for (const std::string& c : clusters) cls.push_back(std::make_unique<Cluster>(loadCluster(c)));
  const bool json = a.has("--json");
  for (const std::string& m : models) {
    graphs.push_back(std::make_unique<Graph>(loadModel(m, lo)));
    for (const auto& c : cls) {
      costs.push_back(std::make_unique<CostModel>(*graphs.back(), *c));
      PretrainTask t{m + " on " + c->name(), costs.back().get(), std::nullopt};
      if (start == "baseline") {
        const std::vector<PlacementResult> bs = runAll(*costs.back(), placementMethods());
        if (int best = bestOf(bs); best >= 0) t.startPlan = bs[best].plan;
      }
      if (!json) out << "task " << tasks.size() + 1 << ": " << t.name << " (" << graphs.back()->numOps() << " ops)\n"
                     << std::flush;
      tasks.push_back(std::move(t));
    }
  }

  InterruptScope interrupt;
  char line[512];
  if (!json) out << " round  task                                  mean reward   start ms    best ms  elapsed s\n";
  PretrainResult r = pretrainPolicy(
      tasks, o,
      [&](const PretrainReport& rep) {
        if (json) return;
        std::snprintf(line, sizeof line, "%6d  %-36s %12.4f %10.2f %10.2f %10.1f\n", rep.round,
                      tasks[rep.task].name.c_str(), rep.meanReward, rep.startStepTime * 1e3, rep.bestStepTime * 1e3,
                      rep.elapsed);
        out << line << std::flush;
      },
      interrupt.flag());
  if (json) {
    nlohmann::ordered_json j{{"out", o.out}, {"rounds", r.rounds}, {"seconds", r.seconds}, {"cancelled", r.cancelled}};
    auto& ts = j["tasks"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < tasks.size(); ++i)
      ts.push_back({{"task", tasks[i].name},
                    {"start_step_time_ms", r.startStepTime[i] * 1e3},
                    {"best_step_time_ms", r.bestStepTime[i] * 1e3}});
    out << dump(j) << "\n";
    return 0;
  }
  std::snprintf(line, sizeof line, "wrote %s: %d rounds over %zu tasks in %.1f s%s\n", o.out.c_str(), r.rounds,
                tasks.size(), r.seconds, r.cancelled ? " (stopped)" : "");
  out << line;
  return 0;
}

}  // namespace gp::cli

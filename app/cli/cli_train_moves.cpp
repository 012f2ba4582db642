// graphplace-cli train-moves: the move ranker (sim/move_ranker.h) trained on the polishing of a
// corpus's training graphs, then judged on its held-out families against the same polishing
// without learning: every candidate simulated, or as many as the ranker keeps chosen by the time
// of the path kernel they came from.
#include "cli/cli_train_moves.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <cstdio>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "cli/cli_args.h"
#include "cli/cli_json.h"
#include "cli/cli_optimize_options.h"
#include "fusion/fuser.h"
#include "optimize/corpus_spec.h"
#include "session/placement_start.h"
#include "sim/polish.h"

namespace gp::cli {

namespace {

struct Task {
  std::string label;  // "zoo:rnnlm layers=2 on 4xP100-PCIe"
  const CorpusGraph* graph = nullptr;
  std::string cluster;
};

// One polishing of a held-out task: step after each round and the seconds it had taken.
struct Trajectory {
  std::vector<double> seconds, steps;
  double final() const { return steps.back(); }
  double reach(double target) const {  // seconds to a step of at most `target`, or -1
    for (size_t i = 0; i < steps.size(); ++i)
      if (steps[i] <= target * (1 + 1e-9)) return seconds[i];
    return -1;
  }
  double at(double s) const {  // the step it had after `s` seconds
    double step = steps.front();
    for (size_t i = 0; i < steps.size() && seconds[i] <= s; ++i) step = steps[i];
    return step;
  }
};

struct Started {
  std::unique_ptr<Graph> graph;
  std::unique_ptr<Cluster> cluster;
  std::unique_ptr<CostModel> cost;
  Plan start;
};

// The task's graph and cluster, and its best baseline's plan (where optimize starts).
Started startOf(const Task& t) {
  Started s;
  s.graph = std::make_unique<Graph>(loadModel(t.graph->model, t.graph->load));
  s.cluster = std::make_unique<Cluster>(loadCluster(t.cluster));
  s.cost = std::make_unique<CostModel>(*s.graph, *s.cluster);
  const std::vector<PlacementResult> bs = runBaselines(*s.cost);
  const int best = bestBaseline(bs);
  s.start = best >= 0 ? bs[best].plan : Plan::singleDevice(s.graph->numOps());
  return s;
}

Trajectory polishTimed(const Started& s, PolishOptions o) {
  Trajectory t;
  Simulator sim(*s.cost);
  t.seconds.push_back(0);
  t.steps.push_back(sim.run(s.start, false).stepTime);
  const auto t0 = std::chrono::steady_clock::now();
  polishPlan(*s.cost, s.start, o, {}, [&](const Plan&, double step) {
    t.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    t.steps.push_back(step);
  });
  return t;
}

// Records each sample into `into`, its round numbered `task` x 1000 + the round (unique per task).
std::function<void(const MoveSample&)> recordInto(std::vector<MoveSample>& into, size_t task) {
  return [&into, task](const MoveSample& m) {
    MoveSample numbered = m;
    numbered.round = static_cast<int>(task) * 1000 + m.round;
    into.push_back(numbered);
  };
}

nlohmann::ordered_json qualityJson(const RankingQuality& q) {
  return {{"rounds", q.rounds}, {"recall", q.recall}, {"captured", q.captured}};
}

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

}  // namespace

int runTrainMoves(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "train-moves");
  if (!a.positional.empty()) throw std::invalid_argument("train-moves takes no positional arguments (use --corpus)");
  const std::string corpusPath = a.value("--corpus").value_or("");
  const std::string outPath = a.value("--out").value_or("");
  if (corpusPath.empty() || outPath.empty()) throw std::invalid_argument("train-moves needs --corpus CORPUS.json and --out RANKER.json");
  const int rounds = static_cast<int>(a.integer("--rounds"));
  const int keep = static_cast<int>(a.integer("--keep"));
  const int evalMoves = static_cast<int>(a.integer("--eval-moves"));
  const int threads = static_cast<int>(a.integer("--threads"));
  const double lambda = a.number("--lambda");
  const bool json = a.has("--json");
  const CorpusSpec spec = loadCorpusSpec(corpusPath);

  std::vector<Task> train, heldOut;
  for (size_t g = 0; g < spec.train.size(); ++g)
    for (size_t c : spec.clustersOf(g))
      train.push_back({spec.train[g].label + " on " + spec.clusters[c], &spec.train[g], spec.clusters[c]});
  for (const CorpusGraph& g : spec.heldOut)
    for (const std::string& c : spec.evalClusters) heldOut.push_back({g.label + " on " + c, &g, c});

  // 1. training data: every training task polished from its best baseline, one move a round,
  // every candidate simulated and recorded; tasks shared among `threads` workers
  std::vector<std::vector<MoveSample>> perTask(train.size());
  std::vector<std::string> failures(train.size());
  std::atomic<size_t> next{0};
  std::mutex printing;
  const auto t0 = std::chrono::steady_clock::now();
  auto work = [&] {
    for (size_t i = next++; i < train.size(); i = next++) {
      try {
        const Started s = startOf(train[i]);
        PolishOptions o;
        o.stack = false;
        o.maxMoves = rounds;
        o.allowFusion = fusionAllowed(*s.graph);
        o.record = recordInto(perTask[i], i);
        polishPlan(*s.cost, s.start, o);
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
      if (!json) {
        std::lock_guard<std::mutex> lock(printing);
        out << "task " << i + 1 << "/" << train.size() << ": " << train[i].label << ": "
            << (failures[i].empty() ? std::to_string(perTask[i].size()) + " candidates" : "skipped (" + failures[i] + ")")
            << "\n"
            << std::flush;
      }
    }
  };
  std::vector<std::thread> workers;
  for (int w = 0; w < std::max(1, threads); ++w) workers.emplace_back(work);
  for (std::thread& w : workers) w.join();
  std::vector<MoveSample> samples;
  for (const auto& s : perTask) samples.insert(samples.end(), s.begin(), s.end());
  if (samples.empty()) throw std::invalid_argument(corpusPath + ": no training task gave a candidate to learn from");
  const double collectSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // 2. the fit, and how it ranks its own training rounds against the path kernel's time
  const MoveRanker ranker = MoveRanker::fit(samples, lambda);
  const auto learned = [&](const MoveSample& s) { return ranker.score(s.group, s.x); };
  const auto byTime = [](const MoveSample& s) {
    return s.group == MoveGroup::Priority ? s.x[2] : s.x[1];  // heuristicMoveScore on the features
  };
  nlohmann::ordered_json trained{{"corpus", corpusPath},      {"training_tasks", train.size()},
                                 {"samples", samples.size()}, {"rounds_per_task", rounds},
                                 {"keep", keep},              {"lambda", lambda},
                                 {"collect_seconds", collectSeconds}};
  trained["training_ranking"] = {{"learned", qualityJson(rankingQuality(samples, keep, learned))},
                                 {"path_time", qualityJson(rankingQuality(samples, keep, byTime))}};

  // 3. held-out families, one task at a time (timed): polishing with every candidate (recorded:
  // how the ranker ranks rounds it never saw), with the `keep` candidates of the longest path
  // kernels, and with the `keep` the ranker ranks first
  std::vector<MoveSample> heldSamples;
  auto& rows = trained["held_out"] = nlohmann::ordered_json::array();
  double sumAll = 0, sumTime = 0, sumLearned = 0, secAll = 0, secTime = 0, secLearned = 0;
  int evaluated = 0;
  for (size_t i = 0; i < heldOut.size() && evalMoves > 0; ++i) {
    Started s;
    try {
      s = startOf(heldOut[i]);
    } catch (const std::exception& e) {
      if (!json) out << "held out " << heldOut[i].label << ": skipped (" << e.what() << ")\n";
      continue;
    }
    PolishOptions all;
    all.stack = false;
    all.maxMoves = evalMoves;
    all.allowFusion = fusionAllowed(*s.graph);
    all.record = recordInto(heldSamples, i);
    const Trajectory full = polishTimed(s, all);
    PolishOptions few = all;
    few.record = {};
    few.keep = keep;
    const Trajectory timeOrder = polishTimed(s, few);
    few.ranker = &ranker;
    const Trajectory ranked = polishTimed(s, few);
    const double start = full.steps.front();
    const auto gain = [&](const Trajectory& t) { return 100 * (start - t.final()) / start; };
    rows.push_back({{"task", heldOut[i].label},
                    {"start_ms", start * 1e3},
                    {"all", {{"step_ms", full.final() * 1e3}, {"seconds", full.seconds.back()},
                             {"step_ms_at_learned_seconds", full.at(ranked.seconds.back()) * 1e3}}},
                    {"path_time", {{"step_ms", timeOrder.final() * 1e3}, {"seconds", timeOrder.seconds.back()},
                                   {"seconds_to_all", timeOrder.reach(full.final())}}},
                    {"learned", {{"step_ms", ranked.final() * 1e3}, {"seconds", ranked.seconds.back()},
                                 {"seconds_to_all", ranked.reach(full.final())}}}});
    sumAll += gain(full), sumTime += gain(timeOrder), sumLearned += gain(ranked);
    secAll += full.seconds.back(), secTime += timeOrder.seconds.back(), secLearned += ranked.seconds.back();
    ++evaluated;
    if (!json)
      out << "held out " << heldOut[i].label << ": start " << fmt("%.1f ms", start * 1e3) << "; all "
          << fmt("%+.1f %%", -gain(full)) << fmt(" in %.1f s", full.seconds.back()) << "; path time "
          << fmt("%+.1f %%", -gain(timeOrder)) << fmt(" in %.1f s", timeOrder.seconds.back()) << "; learned "
          << fmt("%+.1f %%", -gain(ranked)) << fmt(" in %.1f s", ranked.seconds.back()) << "\n"
          << std::flush;
  }
  trained["held_out_ranking"] = {{"learned", qualityJson(rankingQuality(heldSamples, keep, learned))},
                                 {"path_time", qualityJson(rankingQuality(heldSamples, keep, byTime))}};
  if (evaluated > 0)
    trained["held_out_mean"] = {{"tasks", evaluated},
                                {"moves", evalMoves},
                                {"all", {{"gain_percent", sumAll / evaluated}, {"seconds", secAll / evaluated}}},
                                {"path_time", {{"gain_percent", sumTime / evaluated}, {"seconds", secTime / evaluated}}},
                                {"learned", {{"gain_percent", sumLearned / evaluated}, {"seconds", secLearned / evaluated}}}};
  ranker.save(outPath, trained);
  if (json) {
    out << dump(trained) << "\n";
    return 0;
  }
  const auto line = [&](const char* what, const nlohmann::ordered_json& q) {
    out << what << ": the best move among the " << keep << " ranked first in "
        << fmt("%.0f %%", 100 * q["learned"]["recall"].get<double>()) << " of " << q["learned"]["rounds"].get<int>()
        << " rounds (path time: " << fmt("%.0f %%", 100 * q["path_time"]["recall"].get<double>())
        << "); share of the best gain kept " << fmt("%.2f", q["learned"]["captured"].get<double>())
        << " (path time: " << fmt("%.2f", q["path_time"]["captured"].get<double>()) << ")\n";
  };
  out << samples.size() << " candidates from " << train.size() << " training tasks in " << fmt("%.0f s", collectSeconds)
      << "\n";
  line("training", trained["training_ranking"]);
  line("held out", trained["held_out_ranking"]);
  if (evaluated > 0)
    out << "held out, " << evalMoves << " moves from the best baseline (mean of " << evaluated << "): all "
        << fmt("%+.1f %%", -sumAll / evaluated) << fmt(" in %.1f s", secAll / evaluated) << ", path time "
        << fmt("%+.1f %%", -sumTime / evaluated) << fmt(" in %.1f s", secTime / evaluated) << ", learned "
        << fmt("%+.1f %%", -sumLearned / evaluated) << fmt(" in %.1f s", secLearned / evaluated) << "\n";
  out << "wrote " << outPath << "\n";
  return 0;
}

}  // namespace gp::cli

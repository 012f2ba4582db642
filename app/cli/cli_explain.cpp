// graphplace-cli explain: why a plan's step takes as long as it does — the critical path and its
// breakdown, the ops with the least and most slack, and the moves that would shorten it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_calibration.h"
#include "cli/cli_commands.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_plan_file.h"
#include "fusion/fuser.h"
#include "io/placement_file.h"
#include "io/plan_report.h"
#include "sim/critical_path.h"
#include "sim/polish.h"
#include "sim/simulator.h"
#include "sim/suggestions.h"

namespace gp::cli {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// the op, or the tensor with its route
std::string longName(const Graph& g, const Cluster& c, const PathStep& s) {
  return s.kind == PathStep::Kind::Kernel ? stepName(g, s) : stepName(g, s) + " " + stepPlace(c, s);
}

// "gpu0 12.0 ms, gpu1 3.1 ms" over the non-zero entries of `ms` named by `name`
template <typename Name>
std::string perResource(const std::vector<double>& seconds, Name name) {
  std::string s;
  for (size_t i = 0; i < seconds.size(); ++i)
    if (seconds[i] > 0) s += (s.empty() ? "" : ", ") + name(static_cast<int>(i)) + " " + fmt("%.3f ms", seconds[i] * 1e3);
  return s.empty() ? "none" : s;
}

template <typename Name>
nlohmann::ordered_json perResourceJson(const std::vector<double>& seconds, Name name) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (size_t i = 0; i < seconds.size(); ++i)
    if (seconds[i] > 0) j[name(static_cast<int>(i))] = seconds[i] * 1e3;
  return j;
}

}  // namespace

int runExplain(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "explain");
  ModelPlan mp = loadModelPlan(a, "explain");
  const int top = static_cast<int>(a.integer("--top"));
  if (top < 0 || top > 10000) throw std::invalid_argument("--top must be 0..10000");
  CalibrationOption calibration = calibrationFrom(a);
  const Graph& g = mp.graph;
  const Cluster& c = *mp.cluster;
  warnIfNoKindMatches(calibration, c, std::cerr);
  CostModel cost(g, c, {}, calibration.tableFor(g, c));
  Simulator sim(cost);
  Measurement m = sim.run(mp.plan);
  if (!m.feasible && m.timeline.empty())
    throw std::invalid_argument(mp.planName + ": the plan does not run: " + m.problem);
  // --follow N: the top suggestion applied again and again (at most N times), then explained
  const int follow = static_cast<int>(a.integer("--follow"));
  if (follow < 0 || follow > 1000) throw std::invalid_argument("--follow must be 0..1000");
  const double startTime = m.stepTime;
  std::vector<Suggestion> followed;
  const auto followStart = std::chrono::steady_clock::now();
  if (follow > 0) {
    PolishOptions po;
    po.maxMoves = follow;
    po.stack = false;  // the top suggestion of each round, as the user would follow them
    po.allowFusion = fusionAllowed(g);
    PolishResult polished = polishPlan(cost, mp.plan, po);
    mp.plan = std::move(polished.plan);
    followed = std::move(polished.applied);
    m = sim.run(mp.plan);
  }
  const double followSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - followStart).count();
  if (auto outPath = a.value("--out")) writePlacement(g, mp.identity, c, mp.plan, m, *outPath);
  const StepAnalysis an = analyzeStep(cost, mp.plan, m);
  const auto t0 = std::chrono::steady_clock::now();
  int tried = 0;
  SuggestOptions so;
  so.allowFusion = fusionAllowed(g);
  const std::vector<Suggestion> suggestions = suggestMoves(cost, mp.plan, an, top, so, &tried);
  const double suggestSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // each suggestion simulated again from scratch, with its timeline: the step time it reports
  std::vector<double> resimulated;
  for (const Suggestion& s : suggestions) resimulated.push_back(Simulator(cost).run(applyMove(mp.plan, s.move)).stepTime);

  // ops by slack: the zero-slack count, then the smallest positive and the largest
  std::vector<OpId> bySlack(static_cast<size_t>(g.numOps()));
  std::iota(bySlack.begin(), bySlack.end(), 0);
  std::stable_sort(bySlack.begin(), bySlack.end(), [&](OpId x, OpId y) { return an.opSlack[x] < an.opSlack[y]; });
  const double zeroTol = 1e-9 * std::max(m.stepTime, 1e-12);
  const auto critical = std::count_if(an.opSlack.begin(), an.opSlack.end(), [&](double s) { return s <= zeroTol; });
  std::vector<OpId> least, most;
  for (OpId op : bySlack)
    if (an.opSlack[op] > zeroTol && static_cast<int>(least.size()) < top) least.push_back(op);
  for (auto it = bySlack.rbegin(); it != bySlack.rend() && static_cast<int>(most.size()) < top; ++it)
    if (an.opSlack[*it] > zeroTol) most.push_back(*it);
  if (auto report = a.value("--report"))
    writePlanReport({mp.spec, mp.planName, g, c, mp.plan, m, an, suggestions, top > 0 ? top : 10}, *report);
  auto deviceName = [&](int d) { return c.device(d).name; };
  auto channelName = [&](int ch) { return c.channel(ch).name; };

  if (a.has("--json")) {
    nlohmann::ordered_json j;
    j["model"] = mp.spec;
    j["cluster"] = c.name();
    j["plan"] = mp.planName;
    j["step_time_ms"] = m.stepTime * 1e3;
    j["lower_bound_ms"] = m.lowerBound * 1e3;
    j["feasible"] = m.feasible;
    if (!m.problem.empty()) j["problem"] = m.problem;
    j["breakdown"] = {{"compute_ms", perResourceJson(an.computeByDevice, deviceName)},
                      {"memory_bound_ms", perResourceJson(an.memoryBoundByDevice, deviceName)},
                      {"transfer_ms", perResourceJson(an.transferByChannel, channelName)},
                      {"queued_ms", perResourceJson(an.queuedByDevice, deviceName)},
                      {"link_busy_ms", perResourceJson(an.linkBusyByChannel, channelName)}};
    auto& path = j["critical_path"] = nlohmann::ordered_json::array();
    for (const PathStep& s : an.path) {
      nlohmann::ordered_json step{{"kind", s.kind == PathStep::Kind::Kernel ? "kernel" : "transfer"},
                                  {"name", stepName(g, s)},
                                  {"where", stepPlace(c, s)},
                                  {"start_ms", s.start * 1e3},
                                  {"end_ms", s.end * 1e3},
                                  {"via", viaName(s.via)}};
      if (s.waited() > 0) step["waited_ms"] = s.waited() * 1e3;
      if (s.kind == PathStep::Kind::Kernel) step["memory_bound"] = s.memoryBound;
      if (s.kind == PathStep::Kind::Transfer) {
        step["bytes"] = s.bytes;
        step["channel"] = channelName(s.channel);
        if (s.waitedOn >= 0) step["waited_on"] = channelName(s.waitedOn);
      }
      path.push_back(std::move(step));
    }
    j["ops_without_slack"] = critical;
    auto slackList = [&](const std::vector<OpId>& ops) {
      auto list = nlohmann::ordered_json::array();
      for (OpId op : ops) list.push_back({{"op", g.opName(op)}, {"device", deviceName(mp.plan.device[op])}, {"slack_ms", an.opSlack[op] * 1e3}});
      return list;
    };
    j["least_slack"] = slackList(least);
    j["most_slack"] = slackList(most);
    auto& sj = j["suggestions"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < suggestions.size(); ++i) {
      const Suggestion& s = suggestions[i];
      nlohmann::ordered_json e{{"kind", moveKindName(s.move.kind)}, {"what", s.move.what}, {"ops", s.move.ops.size()}};
      if (s.move.kind == PlanMove::Kind::Op || s.move.kind == PlanMove::Kind::Scope) e["device"] = deviceName(s.move.device);
      if (!s.move.groups.empty()) e["kernels"] = s.move.groups.size();
      e["step_time_ms"] = s.stepTime * 1e3;
      e["resimulated_ms"] = resimulated[i] * 1e3;
      e["gain"] = 1 - s.stepTime / m.stepTime;
      sj.push_back(std::move(e));
    }
    if (follow > 0) {
      auto& fj = j["followed"] = nlohmann::ordered_json::array();
      for (const Suggestion& s : followed) fj.push_back({{"what", s.move.what}, {"kind", moveKindName(s.move.kind)}, {"step_time_ms", s.stepTime * 1e3}});
      j["start_step_time_ms"] = startTime * 1e3;
      j["follow_seconds"] = followSeconds;
    }
    j["plans_simulated"] = tried;
    j["suggest_seconds"] = suggestSeconds;
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }

  out << "model        " << mp.spec << " on " << c.name() << " (" << mp.planName << ")\n";
  if (follow > 0) {
    out << "followed     " << followed.size() << " suggestions in " << fmt("%.1f s", followSeconds) << ": "
        << fmt("%.3f ms", startTime * 1e3) << " -> " << fmt("%.3f ms", m.stepTime * 1e3)
        << fmt(" (%+.1f %%)", -100 * (1 - m.stepTime / startTime)) << "\n";
    for (size_t i = 0; i < followed.size(); ++i) {
      std::string move = followed[i].move.what;
      if (followed[i].move.kind == PlanMove::Kind::Op || followed[i].move.kind == PlanMove::Kind::Scope)
        move += " -> " + deviceName(followed[i].move.device);
      out << fmt("  %2.0f  ", static_cast<double>(i + 1)) << fmt("%10.3f ms  ", followed[i].stepTime * 1e3) << move << "\n";
    }
  }
  out << "step time    " << fmt("%.3f ms", m.stepTime * 1e3) << "  (lower bound " << fmt("%.3f ms", m.lowerBound * 1e3)
      << ")" << (m.feasible ? "" : "  INFEASIBLE: " + m.problem) << "\n";
  const double step = std::max(m.stepTime, 1e-12);
  out << "critical path: " << an.path.size() << " steps\n";
  out << "  compute    " << fmt("%10.3f ms", an.computeTime() * 1e3) << fmt(" (%5.1f %%): ", 100 * an.computeTime() / step)
      << perResource(an.computeByDevice, deviceName) << "\n";
  if (std::accumulate(an.memoryBoundByDevice.begin(), an.memoryBoundByDevice.end(), 0.0) > 0)
    out << "    of which memory-bound: " << perResource(an.memoryBoundByDevice, deviceName) << "\n";
  out << "  transfers  " << fmt("%10.3f ms", an.transferTime() * 1e3) << fmt(" (%5.1f %%): ", 100 * an.transferTime() / step)
      << perResource(an.transferByChannel, channelName) << "\n";
  out << "  waits      queued behind other kernels: " << perResource(an.queuedByDevice, deviceName)
      << "; behind other transfers: " << perResource(an.linkBusyByChannel, channelName) << "\n";

  // the path in runs: consecutive steps on one device or one route, entered by data
  out << "path (runs of consecutive steps in one place, first to last):\n";
  out << "    start ms      end ms  where                 steps  first .. last\n";
  for (const PathRun& r : pathRuns(an)) {
    const PathStep& first = an.path[r.first];
    const PathStep& last = an.path[r.last];
    char line[160];
    std::snprintf(line, sizeof line, "  %10.3f  %10.3f  %-20s %6zu  ", first.start * 1e3, last.end * 1e3,
                  stepPlace(c, first).c_str(), r.last - r.first + 1);
    out << line << longName(g, c, first) << (r.last > r.first ? " .. " + longName(g, c, last) : "")
        << (r.waited ? "  [waited]" : "") << "\n";
  }
  out << "slack: " << critical << " of " << g.numOps() << " ops have none (the path and the work it waits on)\n";
  auto printSlack = [&](const char* title, const std::vector<OpId>& ops) {
    if (ops.empty()) return;
    out << title << "\n";
    for (OpId op : ops)
      out << "  " << fmt("%10.3f ms  ", an.opSlack[op] * 1e3) << deviceName(mp.plan.device[op]) << "  " << g.opName(op) << "\n";
  };
  printSlack("least slack (nearly critical):", least);
  printSlack("most slack:", most);
  out << "suggested moves (" << suggestions.size() << " of " << tried << " plans simulated from the path, "
      << fmt("%.2f s", suggestSeconds) << "):\n";
  for (size_t i = 0; i < suggestions.size(); ++i) {
    const Suggestion& s = suggestions[i];
    std::string move = s.move.what;
    if (s.move.kind == PlanMove::Kind::Op || s.move.kind == PlanMove::Kind::Scope) move += " -> " + deviceName(s.move.device);
    char line[96];
    std::snprintf(line, sizeof line, "  %2zu  %10.3f ms  %+6.1f %%  (re-simulated %.3f ms)  ", i + 1, s.stepTime * 1e3,
                  -100 * (1 - s.stepTime / m.stepTime), resimulated[i] * 1e3);
    out << line << move << "\n";
  }
  if (suggestions.empty()) out << "  none of the moves tried shortens the step\n";
  return 0;
}

}  // namespace gp::cli

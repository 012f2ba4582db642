// graphplace-cli fidelity: simulated vs published for every row of the corpus.
#include "cli/cli_fidelity.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_calibration.h"
#include "cli/cli_json.h"
#include "fidelity/fidelity.h"
#include "parallel/breakdown_json.h"
#include "parallel/plan_knobs.h"

namespace gp::cli {
namespace {

using nlohmann::ordered_json;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

ordered_json summaryJson(const SplitSummary& s) {
  return {{"rows", s.rows},
          {"median_ratio", s.medianRatio},
          {"median_factor", s.medianFactor},
          {"worst_factor", s.worstFactor},
          {"worst_row", s.worstRow},
          {"beyond_3x", s.beyond3x},
          {"unmatched_oom", s.unmatchedOom}};
}

std::string summaryText(const char* split, const SplitSummary& s) {
  return std::string(split) + " rows: " + std::to_string(s.rows) + ", median ratio " + fmt("%.2f", s.medianRatio) +
         ", median miss x" + fmt("%.2f", s.medianFactor) + ", worst x" + fmt("%.2f", s.worstFactor) +
         (s.worstRow.empty() ? "" : " (" + s.worstRow + ")") + ", beyond 3x: " + std::to_string(s.beyond3x) +
         ", out-of-memory disagreements: " + std::to_string(s.unmatchedOom);
}

ordered_json frameworksJson(const FidelityReport& r) {
  ordered_json out = ordered_json::array();
  for (const FrameworkSummary& f : r.frameworks)
    out.push_back({{"framework", std::string(trainingFrameworkName(f.framework))},
                   {"set", summaryJson(f.set)},
                   {"check", summaryJson(f.check)},
                   {"check_within_10_percent", f.checkWithin10},
                   {"check_beyond_30_percent", f.checkBeyond30},
                   {"memory_rows", f.memoryRows},
                   {"memory_median_ratio", f.memoryMedianRatio},
                   {"memory_beyond_25_percent", f.memoryBeyond25}});
  return out;
}

// "framework megatron: check 12 rows, median ratio 1.03, 7 within 10 %, 1 beyond 30 % (set 3 rows,
// median 0.98); peak memory 20 rows, median ratio 1.02, 2 beyond 25 %"
std::string frameworkText(const FrameworkSummary& f) {
  std::string line = "framework " + std::string(trainingFrameworkName(f.framework)) + ": check " + std::to_string(f.check.rows) +
                     " rows";
  if (f.check.rows > 0)
    line += ", median ratio " + fmt("%.2f", f.check.medianRatio) + ", " + std::to_string(f.checkWithin10) + " within 10 %, " +
            std::to_string(f.checkBeyond30) + " beyond 30 %";
  if (f.set.rows > 0) line += " (set " + std::to_string(f.set.rows) + " rows, median " + fmt("%.2f", f.set.medianRatio) + ")";
  if (f.memoryRows > 0)
    line += "; peak memory " + std::to_string(f.memoryRows) + " rows, median ratio " + fmt("%.2f", f.memoryMedianRatio) + ", " +
            std::to_string(f.memoryBeyond25) + " beyond 25 %";
  return line;
}

std::string value(const PublishedRow& r, const std::optional<double>& v) {
  return v ? fmt("%.4g", *v) : &v == &r.published && r.ranWithoutFigure ? "fits" : "OOM";
}

ordered_json sweepSummaryJson(const SweepSummary& s) {
  return {{"sweeps", s.sweeps},
          {"ranked", s.ranked},
          {"median_tau", s.medianTau},
          {"with_regret", s.withRegret},
          {"mean_top1_regret", s.meanRegret},
          {"picks_out_of_memory", s.picksOutOfMemory},
          {"published_oom", s.ranOutOfMemory},
          {"published_oom_called", s.outOfMemoryCalled},
          {"ran_called_over", s.ranCalledOver}};
}

std::string sweepSummaryText(const char* split, const SweepSummary& s) {
  return std::string(split) + " sweeps: " + std::to_string(s.sweeps) + ", median tau " + fmt("%.2f", s.medianTau) +
         " (" + std::to_string(s.ranked) + " ranked), mean top-1 regret " + fmt("%.1f", 100 * s.meanRegret) + " % (" +
         std::to_string(s.withRegret) + "), picks that ran out of memory: " + std::to_string(s.picksOutOfMemory) +
         ", published OOMs called OOM or risk: " + std::to_string(s.outOfMemoryCalled) + " of " +
         std::to_string(s.ranOutOfMemory) + ", layouts that ran called over memory: " + std::to_string(s.ranCalledOver);
}

std::string tableText(const TableOrder& t) {
  std::string line = "table " + t.table + ": " + (t.agrees ? "order agrees" : "order differs: " + t.disagreement);
  if (t.tau) line += "; tau " + fmt("%.2f", *t.tau);
  if (!t.pick.empty()) {
    line += "; pick '" + t.pick + "'";
    if (t.pickRanOutOfMemory) line += " (it ran out of memory)";
    else if (t.regret) line += " (regret " + fmt("%.1f", 100 * *t.regret) + " %)";
  }
  if (t.ranOutOfMemory > 0)
    line += "; OOMs called " + std::to_string(t.outOfMemoryCalled) + " of " + std::to_string(t.ranOutOfMemory);
  if (t.ranCalledOver > 0) line += "; " + std::to_string(t.ranCalledOver) + " that ran called over memory";
  return line;
}

ordered_json searchJson(const SearchedPlan& s) {
  ordered_json j{{"found", s.found}, {"complete", s.complete}, {"search_s", s.searchSeconds}};
  if (s.found) {
    j["plan"] = planKnobsJson(s.plan);
    j["step_s"] = s.stepTime;
    j["speedup"] = s.speedup;
    j["changes"] = s.changes;
  }
  return j;
}

// Each parallel run's plan against the exact search's best on the same GPUs and batch.
void printSearches(std::ostream& out, const FidelityReport& r) {
  bool header = false;
  for (const FidelityRow& f : r.rows) {
    if (!f.searched) continue;
    if (!header) out << "\nthe exact search on each run's GPUs and batch (speedup = the run's step / the best plan's):\n";
    header = true;
    const SearchedPlan& s = *f.searched;
    out << "  " << f.row.name << ": ";
    if (!s.found) {
      out << "no plan found" << (s.complete ? "" : " within the budget") << "\n";
      continue;
    }
    out << fmt("%.3f s", f.stepTime) << " -> " << fmt("%.3f s", s.stepTime) << ", x" << fmt("%.2f", s.speedup)
        << (s.complete ? "" : " (budget spent)") << ": " << s.changes << "\n";
  }
}

}  // namespace

int runFidelityCommand(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "fidelity");
  if (!a.positional.empty()) throw std::invalid_argument("fidelity takes no MODEL (it simulates the corpus)");
  std::string corpus = a.value("--corpus").value_or(publishedCorpusDir());
  if (corpus.empty()) throw std::invalid_argument("no published corpus found; give --corpus DIR|FILE");
  const CalibrationOption calibration = calibrationFrom(a);
  std::optional<Cluster> profiled;
  if (auto c = a.value("--cluster")) profiled = loadCluster(*c);
  FidelityOptions o;
  o.profiled = profiled ? &*profiled : nullptr;
  o.calibration = calibration.table();
  o.searchSeconds = a.number("--search-seconds", o.searchSeconds);
  const FidelityReport r = runFidelity(loadPublishedCorpus(corpus), o);

  if (a.has("--json")) {
    ordered_json rows = ordered_json::array();
    for (const FidelityRow& f : r.rows) {
      ordered_json j{{"name", f.row.name}, {"source", f.row.source}, {"split", splitName(f.row.split)}, {"unit", f.row.unit}};
      j["published"] = f.row.published ? ordered_json(*f.row.published) : ordered_json(value(f.row, f.row.published));
      j["simulated"] = f.simulated ? ordered_json(*f.simulated) : ordered_json("OOM");
      if (f.counted) j["ratio"] = f.ratio;
      if (f.row.unitKind == UnitKind::Throughput) j["items_per_step"] = f.row.itemsPerStep;
      j["hardware"] = f.row.hardware;
      j["cluster"] = f.clusterUsed;
      j["framework"] = f.row.framework;
      j["precision"] = std::string(precisionName(f.row.precision));
      if (!f.row.table.empty()) j["table"] = f.row.table, j["placement"] = f.row.placement;
      if (f.row.orderOnly) j["compare"] = "order";
      if (!f.simulatedProblem.empty()) j["problem"] = f.simulatedProblem;
      if (f.row.parallel) {
        j["simulated_peak_memory_GiB"] = f.simulatedPeakGiB;
        if (f.row.parallel->peakMemoryGiB) j["published_peak_memory_GiB"] = *f.row.parallel->peakMemoryGiB;
        if (f.row.parallel->peakMemoryGiB)
          j["published_peak_memory"] = std::string(f.row.parallel->peakMemoryReserved ? "reserved" : "allocated") +
                                       (f.row.parallel->peakMemoryLastRank ? " last rank" : "");
        if (f.memoryRatio > 0) j["memory_ratio"] = f.memoryRatio;
        j["memory_verdict"] = memoryFitName(f.verdict.fit);
        j["memory_verdict_text"] = f.verdict.text;
        if (f.stepTime > 0) j["step_s"] = f.stepTime, j["step_breakdown_ms"] = stepBreakdownJson(f.breakdown);
      }
      if (f.searched) j["search"] = searchJson(*f.searched);
      rows.push_back(std::move(j));
    }
    ordered_json tables = ordered_json::array();
    for (const TableOrder& t : r.tables) {
      ordered_json j{{"table", t.table}, {"sweep", t.sweep}, {"split", splitName(t.split)},
                     {"published_order", t.rows}, {"agrees", t.agrees}};
      if (!t.agrees) j["disagreement"] = t.disagreement;
      if (t.tau) j["tau"] = *t.tau;
      if (!t.pick.empty()) j["pick"] = t.pick, j["pick_ran_out_of_memory"] = t.pickRanOutOfMemory;
      if (t.regret) j["top1_regret"] = *t.regret;
      j["published_oom"] = t.ranOutOfMemory;
      j["published_oom_called"] = t.outOfMemoryCalled;
      j["ran_called_over"] = t.ranCalledOver;
      tables.push_back(std::move(j));
    }
    int agreeing = 0;
    for (const TableOrder& t : r.tables) agreeing += t.agrees ? 1 : 0;
    ordered_json summary{{"set", summaryJson(r.set)},
                         {"check", summaryJson(r.check)},
                         {"parallel_set", summaryJson(r.parallelSet)},
                         {"parallel_check", summaryJson(r.parallelCheck)},
                         {"memory_rows", r.memoryRows},
                         {"memory_worst_factor", r.memoryWorstFactor},
                         {"memory_worst_row", r.memoryWorstRow},
                         {"memory_median_ratio", r.memoryMedianRatio},
                         {"memory_beyond_25_percent", r.memoryBeyond25},
                         {"frameworks", frameworksJson(r)},
                         {"tables", tables},
                         {"tables_agreeing", agreeing},
                         {"sweeps_set", sweepSummaryJson(r.sweepsSet)},
                         {"sweeps_check", sweepSummaryJson(r.sweepsCheck)},
                         {"rows_on_profiled", r.rowsOnProfiled}};
    ordered_json doc{{"corpus", corpus}, {"rows", rows}, {"summary", summary}};
    out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  out << "corpus: " << corpus << " (" << r.rows.size() << " rows)\n";
  if (profiled)
    out << "profiled cluster: " << profiled->name() << " (" << r.rowsOnProfiled
        << " rows on its device kinds run on it)\n";
  if (calibration.used()) out << "calibration: " << calibration.path() << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-44s %-5s %-12s %11s %11s %7s\n", "row", "split", "unit", "published", "simulated",
                "ratio");
  out << line;
  for (const FidelityRow& f : r.rows) {
    std::string memory;
    if (f.row.parallel) {
      memory = "  peak " + fmt("%.1f", f.simulatedPeakGiB) + " GiB";
      if (f.row.parallel->peakMemoryGiB) memory += " (published " + fmt("%.1f", *f.row.parallel->peakMemoryGiB) + ")";
      if (!f.simulatedProblem.empty()) memory += ": " + f.simulatedProblem;
      else if (f.verdict.fit != MemoryFit::Fits) memory += ": " + f.verdict.text;
    }
    std::snprintf(line, sizeof line, "%-44s %-5s %-12s %11s %11s %7s%s", f.row.name.c_str(), splitName(f.row.split),
                  f.row.unit.c_str(), value(f.row, f.row.published).c_str(), value(f.row, f.simulated).c_str(),
                  f.counted ? fmt("%.2f", f.ratio).c_str() : "-", f.row.orderOnly ? "  (order only)" : "");
    out << line << memory << "\n";
  }
  if (r.set.rows + r.check.rows > 0 || r.parallelSet.rows + r.parallelCheck.rows == 0)
    out << summaryText("set", r.set) << "\n" << summaryText("check", r.check) << "\n";
  if (r.parallelSet.rows + r.parallelCheck.rows > 0)
    out << summaryText("parallel set", r.parallelSet) << "\n" << summaryText("parallel check", r.parallelCheck) << "\n";
  if (r.memoryRows > 0)
    out << "peak memory: " << r.memoryRows << " rows, median ratio " << fmt("%.2f", r.memoryMedianRatio) << ", "
        << r.memoryBeyond25 << " beyond 25 %, worst miss x" << fmt("%.2f", r.memoryWorstFactor) << " (" << r.memoryWorstRow
        << ")\n";
  for (const FrameworkSummary& f : r.frameworks) out << frameworkText(f) << "\n";
  for (const TableOrder& t : r.tables) out << tableText(t) << "\n";
  if (r.sweepsSet.sweeps > 0) out << sweepSummaryText("set", r.sweepsSet) << "\n";
  if (r.sweepsCheck.sweeps > 0) out << sweepSummaryText("check", r.sweepsCheck) << "\n";
  printSearches(out, r);
  return 0;
}

}  // namespace gp::cli

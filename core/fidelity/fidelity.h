// Fidelity: every row of the published corpus simulated and set against its published figure.
//
//   FidelityReport r = runFidelity(loadPublishedCorpus(dir), {});
//   r.rows[i].ratio;            // simulated / published, in the row's unit
//   r.check.medianRatio;        // over the rows never used to choose the defaults
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "fidelity/published_corpus.h"
#include "parallel/memory_verdict.h"
#include "parallel/pipeline_sim.h"

namespace gp {

struct FidelityOptions {
  // A profiled cluster file: rows whose cluster's first device is of one of its device kinds,
  // and which has no more devices than it, run on it (with the row's framework) instead of
  // their preset; nullptr = presets only.
  const Cluster* profiled = nullptr;
  const CalibrationTable* calibration = nullptr;  // measured op times, by device kind
  // > 0: each parallel run whose plan fits also gets the exact search's best plan on the same
  // GPUs and global batch, with the run's attention and FP8, within this many seconds.
  double searchSeconds = 0;
};

// The exact search's best plan for a parallel run, beside the plan the run used.
struct SearchedPlan {
  bool found = false;
  bool complete = true;       // the search covered its space within its budget
  ParallelPlan plan;
  double stepTime = 0;        // s
  double speedup = 0;         // the run's plan's simulated step / the best plan's
  std::string changes;        // planChanges(run's plan, best plan)
  double searchSeconds = 0;
};

struct FidelityRow {
  PublishedRow row;
  std::optional<double> simulated;  // in row.unit; empty when the plan does not fit in memory
  std::string simulatedProblem;     // why it does not fit
  std::string clusterUsed;          // the cluster's name
  double simulatedPeakGiB = 0;      // parallel runs: the largest memory of a GPU (the last rank's
                                    // where the published peak is the last rank's), allocated, or
                                    // reserved (caching_allocator.h) where the published peak is
  double memoryRatio = 0;           // simulated / published peak memory, when published
  MemoryVerdict verdict;            // parallel runs: fits, out-of-memory risk or over
  ParallelPlan plan;                // parallel runs: the plan simulated (the run's, chunks even)
  double stepTime = 0;              // parallel runs: its simulated step, s (also when over memory)
  StepBreakdown breakdown;          // parallel runs: where that step goes
  std::optional<SearchedPlan> searched;  // FidelityOptions::searchSeconds > 0
  double ratio = 0;                 // simulated / published when both are numbers, else 0
  bool counted = false;             // in the value summary (both numbers, compared by value)
};

struct SplitSummary {
  int rows = 0;              // rows compared by value
  double medianRatio = 0;    // median of simulated / published
  double medianFactor = 0;   // exp(median |ln ratio|): the typical miss either way
  double worstFactor = 0;    // the largest miss either way
  std::string worstRow;
  int beyond3x = 0;
  int unmatchedOom = 0;      // rows where one side ran out of memory and the other did not
};

// A table of placements, or a sweep: layouts of one model on one GPU set, each run (parallel
// rows; ranked by seconds per token, so that layouts of different global batches compare).
struct TableOrder {
  std::string table;
  bool sweep = false;             // its rows are parallel runs
  RowSplit split = RowSplit::Check;
  std::vector<std::string> rows;  // row names, published order (fastest first, OOM last)
  bool agrees = false;            // every pair the source separates by > 5 % (or OOM) is simulated in
                                  // the same order, at least 1 % apart
  std::string disagreement;       // the first pair ordered differently, with both sides' times
  // Kendall's tau-b between published and simulated times over the rows with a figure (>= 2).
  std::optional<double> tau;
  // The layout the simulator would pick: the fastest simulated of those it does not call over
  // memory; its regret = its published time / the published best - 1 (when it has a figure).
  std::string pick;
  std::optional<double> regret;
  bool pickRanOutOfMemory = false;
  int ranOutOfMemory = 0;         // rows the source reports out of memory ...
  int outOfMemoryCalled = 0;      // ... of which the simulator calls over or at risk
  int ranCalledOver = 0;          // rows that ran, which the simulator calls over memory
};

// The sweeps of one split, summarised.
struct SweepSummary {
  int sweeps = 0;
  int ranked = 0;                 // sweeps with a tau
  double medianTau = 0;
  int withRegret = 0;
  double meanRegret = 0;          // over the sweeps whose pick has a figure
  int picksOutOfMemory = 0;       // sweeps whose pick ran out of memory
  int ranOutOfMemory = 0, outOfMemoryCalled = 0, ranCalledOver = 0;
};

// The parallel runs of one training framework (their plans' `framework`), each split apart: how
// close the steps are and how close the peak memory is.
struct FrameworkSummary {
  TrainingFramework framework = TrainingFramework::Generic;
  SplitSummary set, check;        // steps, the rows compared by value
  int checkWithin10 = 0;          // check rows within +-10 % ...
  int checkBeyond30 = 0;          // ... and beyond +-30 %
  int memoryRows = 0;             // rows with a published peak, either split
  double memoryMedianRatio = 0;   // median simulated / published peak
  int memoryBeyond25 = 0;         // peaks missed by more than 25 % either way
};
struct FidelityReport {
  std::vector<FidelityRow> rows;
  SplitSummary set, check;                  // kernels and models on one machine
  SplitSummary parallelSet, parallelCheck;  // parallel training runs
  int memoryRows = 0;                       // parallel runs with a published peak memory
  double memoryWorstFactor = 0;             // the largest memory miss either way
  std::string memoryWorstRow;
  double memoryMedianRatio = 0;             // median simulated / published peak
  int memoryBeyond25 = 0;                   // peaks missed by more than 25 % either way
  std::vector<FrameworkSummary> frameworks; // the frameworks with parallel runs, in enum order
  std::vector<TableOrder> tables;
  SweepSummary sweepsSet, sweepsCheck;
  int rowsOnProfiled = 0;  // rows simulated on FidelityOptions::profiled
};

FidelityReport runFidelity(const std::vector<PublishedRow>& rows, const FidelityOptions& options = {});

// The same summary over any rows (used for the "set" and "check" splits).
SplitSummary summarize(const std::vector<const FidelityRow*>& rows);
SweepSummary summarizeSweeps(const std::vector<const TableOrder*>& sweeps);

// Kendall's tau-b of two equally long series (ties count neither way); empty below two pairs
// that differ on both sides.
std::optional<double> kendallTau(const std::vector<double>& a, const std::vector<double>& b);

// Whether device kind names a and b name the same GPU ("V100-SXM2-16GB" and
// "Tesla-V100-SXM2-16GB"): one contains the other, case-insensitively.
bool sameDeviceKind(const std::string& a, const std::string& b);

}  // namespace gp

// The plan report: one self-contained HTML page explaining a plan's simulated step — something
// to attach to a review. No scripts, no external files: the pictures are inline SVG.
//
// Sections: the summary (step time, lower bound, feasibility, bytes sent), the breakdown of the
// critical path (compute per device with its memory-bound part, transfers per channel, waits),
// the per-device plot (utilization and peak memory against capacity), the timeline (a row per
// device and per channel that carried data, the critical path outlined; bars narrower than a
// pixel are merged), the critical path as runs of steps in one place, the ops with the least
// and most slack, and the suggested moves.
//
//   writePlanReport({"zoo:nmt", "best.json", g, c, plan, m, analysis, suggestions}, "report.html");
#pragma once
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/critical_path.h"
#include "sim/measurement.h"
#include "sim/plan.h"
#include "sim/suggestions.h"

namespace gp {

struct PlanReportInput {
  std::string model;     // as the user named it
  std::string planName;  // where the plan came from
  const Graph& graph;
  const Cluster& cluster;
  const Plan& plan;
  const Measurement& measurement;  // with its timeline
  const StepAnalysis& analysis;    // of `measurement`
  const std::vector<Suggestion>& suggestions;
  int slackRows = 10;              // ops listed with the least and with the most slack
};

std::string planReportHtml(const PlanReportInput& in);
// Throws gp::Error naming `path` when it cannot be written.
void writePlanReport(const PlanReportInput& in, const std::string& path);

// The path's runs: consecutive steps of one kind in one place (a device, or a source -> destination
// pair), as the CLI and the report list them.
struct PathRun {
  size_t first = 0, last = 0;  // indices into StepAnalysis::path, inclusive
  bool waited = false;         // a step of the run was queued on its device or behind a busy link
};
std::vector<PathRun> pathRuns(const StepAnalysis& a);

}  // namespace gp

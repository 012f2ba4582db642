#include "parallel/pipeline_rows.h"

#include <algorithm>

namespace gp {

PipelineLane laneOf(PipelineEvent::Kind kind) {
  switch (kind) {
    case PipelineEvent::Kind::Forward:
    case PipelineEvent::Kind::Backward: return PipelineLane::Passes;
    case PipelineEvent::Kind::Send: return PipelineLane::Sends;
    case PipelineEvent::Kind::GradSync:
    case PipelineEvent::Kind::Update:
    case PipelineEvent::Kind::ParamGather: return PipelineLane::Sync;
  }
  return PipelineLane::Sync;
}

double PipelineRows::idleShare() const {
  if (stages <= 0 || passesEnd <= 0) return 0;
  double idleTime = 0;
  for (const auto& gaps : idle)
    for (const auto& [a, b] : gaps) idleTime += b - a;
  return idleTime / (stages * passesEnd);
}

PipelineRows pipelineRows(const std::vector<PipelineEvent>& events, int stages) {
  PipelineRows rows;
  rows.stages = std::max(0, stages);
  std::vector<std::vector<std::pair<double, double>>> busy(static_cast<size_t>(rows.stages));
  for (size_t i = 0; i < events.size(); ++i) {
    const PipelineEvent& e = events[i];
    if (e.stage < 0 || e.stage >= rows.stages) continue;
    const PipelineLane lane = laneOf(e.kind);
    rows.bars.push_back({e.stage, lane, static_cast<int>(i)});
    rows.end = std::max(rows.end, e.end);
    if (lane == PipelineLane::Passes) {
      rows.passesEnd = std::max(rows.passesEnd, e.end);
      busy[static_cast<size_t>(e.stage)].emplace_back(e.start, e.end);
    }
  }
  rows.idle.resize(static_cast<size_t>(rows.stages));
  for (int s = 0; s < rows.stages; ++s) {
    auto& b = busy[static_cast<size_t>(s)];
    std::sort(b.begin(), b.end());
    double t = 0;
    for (const auto& [start, end] : b) {
      if (start > t) rows.idle[static_cast<size_t>(s)].emplace_back(t, start);
      t = std::max(t, end);
    }
    if (rows.passesEnd > t) rows.idle[static_cast<size_t>(s)].emplace_back(t, rows.passesEnd);
  }
  return rows;
}

}  // namespace gp

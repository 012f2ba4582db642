// The rows of a simulated pipeline step as the timeline view draws them (Qt-free): per stage a
// row of its forward / backward passes, a row of what it sends (activations on, gradients back)
// and a row of its gradient synchronisation, optimizer step and ZeRO weight gathers, as the
// Chrome trace has them (parallel/parallel_trace.h). The idle gaps of each passes row up to the
// end of the last pass are the pipeline's bubbles: their share of stages x that time is the
// measurement's bubble share (parallel/pipeline_sim.h).
#pragma once
#include <utility>
#include <vector>

#include "parallel/pipeline_sim.h"

namespace gp {

enum class PipelineLane { Passes, Sends, Sync };
inline constexpr int kPipelineLanes = 3;

struct PipelineBar {
  int stage = 0;
  PipelineLane lane = PipelineLane::Passes;
  int event = 0;  // index into the events
};

struct PipelineRows {
  int stages = 0;
  double end = 0;        // s: the last event's end
  double passesEnd = 0;  // s: the last pass's end
  std::vector<PipelineBar> bars;
  std::vector<std::vector<std::pair<double, double>>> idle;  // per stage: its bubbles [start, end)
  double idleShare() const;                                  // idle time / (stages x passesEnd)
};

PipelineLane laneOf(PipelineEvent::Kind kind);
PipelineRows pipelineRows(const std::vector<PipelineEvent>& events, int stages);

}  // namespace gp

#include "parallel/parallel_trace.h"

#include <nlohmann/json.hpp>

namespace gp {

std::string parallelTraceJson(const ParallelMeasurement& m, const ParallelPlan& plan, const Cluster& c,
                              const std::string& model) {
  using nlohmann::ordered_json;
  ordered_json events = ordered_json::array();
  const char* threads[] = {"passes", "sends", "gradient sync"};
  for (int s = 0; s < plan.pp; ++s) {
    const int first = s * plan.dp * plan.tp;
    std::string name = "stage " + std::to_string(s) + ": layers " + std::to_string(plan.stages[static_cast<size_t>(s)].first) +
                       "-" + std::to_string(plan.stages[static_cast<size_t>(s)].last - 1);
    if (first < static_cast<int>(m.rankDevice.size()))
      name += " (" + c.device(m.rankDevice[static_cast<size_t>(first)]).name + ", " + std::to_string(plan.dp * plan.tp) + " devices)";
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", s}, {"tid", 0}, {"args", {{"name", name}}}});
    events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", s}, {"tid", 0}, {"args", {{"sort_index", s}}}});
    for (int t = 0; t < 3; ++t)
      events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", s}, {"tid", t}, {"args", {{"name", threads[t]}}}});
  }
  for (const PipelineEvent& e : m.events) {
    std::string name;
    int tid = 0;
    switch (e.kind) {
      case PipelineEvent::Kind::Forward: name = "F" + std::to_string(e.microbatch); break;
      case PipelineEvent::Kind::Backward: name = "B" + std::to_string(e.microbatch); break;
      case PipelineEvent::Kind::Send:
        name = (e.backward ? "grad " : "act ") + std::to_string(e.microbatch) + (e.backward ? " to stage " + std::to_string(e.stage - 1) : " to stage " + std::to_string(e.stage + 1));
        tid = 1;
        break;
      case PipelineEvent::Kind::GradSync: name = "sync bucket " + std::to_string(e.bucket), tid = 2; break;
      case PipelineEvent::Kind::Update: name = "optimizer step", tid = 2; break;
      case PipelineEvent::Kind::ParamGather: name = "ZeRO weight all-gather", tid = 2; break;
    }
    events.push_back({{"name", name},
                      {"cat", e.kind == PipelineEvent::Kind::Forward || e.kind == PipelineEvent::Kind::Backward ? "pass" : "comm"},
                      {"ph", "X"},
                      {"ts", e.start * 1e6},
                      {"dur", (e.end - e.start) * 1e6},
                      {"pid", e.stage},
                      {"tid", tid}});
  }
  ordered_json doc;
  doc["traceEvents"] = std::move(events);
  doc["displayTimeUnit"] = "ms";
  doc["otherData"] = {{"generator", "graphplace"},   {"model", model},          {"cluster", c.name()},
                      {"step_time_ms", m.stepTime * 1e3}, {"bubble_share", m.bubbleShare}, {"dp", plan.dp},
                      {"tp", plan.tp},                 {"pp", plan.pp},            {"microbatches", plan.microbatches}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gp

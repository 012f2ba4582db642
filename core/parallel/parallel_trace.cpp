#include "parallel/parallel_trace.h"

#include <nlohmann/json.hpp>

namespace gp {

std::string parallelTraceJson(const ParallelMeasurement& m, const ParallelPlan& plan, const Cluster& c,
                              const std::string& model) {
  using nlohmann::ordered_json;
  ordered_json events = ordered_json::array();
  const char* threads[] = {"passes", "sends", "gradient sync"};
  for (int s = 0; s < plan.pp; ++s) {
    const int first = s * plan.ranksPerStage();
    std::string name = "stage " + std::to_string(s) + ": layers ";
    for (int k = s; k < plan.chunks() && k < static_cast<int>(plan.stages.size()); k += plan.pp)
      name += (k == s ? "" : ", ") + std::to_string(plan.stages[static_cast<size_t>(k)].first) + "-" +
              std::to_string(plan.stages[static_cast<size_t>(k)].last - 1);
    if (first < static_cast<int>(m.rankDevice.size()))
      name += " (" + c.device(m.rankDevice[static_cast<size_t>(first)]).name + ", " + std::to_string(plan.ranksPerStage()) + " devices)";
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", s}, {"tid", 0}, {"args", {{"name", name}}}});
    events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", s}, {"tid", 0}, {"args", {{"sort_index", s}}}});
    for (int t = 0; t < 3; ++t)
      events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", s}, {"tid", t}, {"args", {{"name", threads[t]}}}});
  }
  const bool interleaved = plan.virtualStages > 1;
  for (const PipelineEvent& e : m.events) {
    std::string name;
    int tid = 0;
    const std::string chunk = interleaved && e.chunk >= 0 ? " chunk " + std::to_string(e.chunk) : std::string();
    switch (e.kind) {
      case PipelineEvent::Kind::Forward: name = "F" + std::to_string(e.microbatch) + chunk; break;
      case PipelineEvent::Kind::Backward: name = "B" + std::to_string(e.microbatch) + chunk; break;
      case PipelineEvent::Kind::Send:
        name = (e.backward ? "grad " : "act ") + std::to_string(e.microbatch) + " to stage " +
               std::to_string(((e.backward ? e.chunk - 1 : e.chunk + 1) % plan.pp + plan.pp) % plan.pp);
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
                      {"tp", plan.tp},                 {"cp", plan.cp},            {"pp", plan.pp},            {"virtual_stages", plan.virtualStages},
                      {"microbatches", plan.microbatches}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gp

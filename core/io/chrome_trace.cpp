#include "io/chrome_trace.h"

#include <nlohmann/json.hpp>
#include <set>

#include "base/error.h"
#include "base/file_text.h"

namespace gp {
namespace {

using nlohmann::ordered_json;

ordered_json meta(const char* what, int pid, const std::string& name) {
  return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", {{"name", name}}}};
}

}  // namespace

std::string timelineToChromeTrace(const Graph& g, const Cluster& c, const Measurement& m) {
  // pids: devices 0..D-1, then channels D + channel index
  const int nd = c.numDevices();
  ordered_json events = ordered_json::array();
  for (int d = 0; d < nd; ++d) {
    events.push_back(meta("process_name", d, c.device(d).name + " (" + c.device(d).kind + ")"));
    events.push_back(meta("process_sort_index", d, std::to_string(d)));
    events.back()["args"] = {{"sort_index", d}};
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", d}, {"tid", 0}, {"args", {{"name", "compute"}}}});
  }
  std::set<int> channels;
  for (const auto& e : m.timeline)
    if (e.kind == TimelineEvent::Kind::Transfer && e.resource >= 0) channels.insert(e.resource);
  for (int ch : channels) {
    const int pid = nd + ch;
    events.push_back(meta("process_name", pid, "link " + c.channel(ch).name + " (" + c.channel(ch).kind + ")"));
    events.push_back(meta("process_sort_index", pid, ""));
    events.back()["args"] = {{"sort_index", pid}};
  }
  for (const auto& e : m.timeline) {
    ordered_json x;
    x["ph"] = "X";
    x["ts"] = e.start * 1e6;
    x["dur"] = (e.end - e.start) * 1e6;
    x["tid"] = 0;
    if (e.kind == TimelineEvent::Kind::Op) {
      x["name"] = g.opName(e.id);
      x["cat"] = "op";
      x["pid"] = e.resource;
      x["args"] = {{"type", g.opType(e.id)}, {"flops", g.flops(e.id)}, {"bytes", g.bytesRead(e.id) + g.bytesWritten(e.id)}};
      if (e.dst >= 0) x["args"]["fusion_group"] = e.dst;
    } else {
      x["name"] = g.tensorName(e.id);
      x["cat"] = "transfer";
      x["pid"] = e.resource >= 0 ? nd + e.resource : 0;
      x["args"] = {{"bytes", e.bytes}, {"to", c.device(e.dst).name}};
    }
    events.push_back(std::move(x));
  }
  ordered_json doc;
  doc["traceEvents"] = std::move(events);
  doc["displayTimeUnit"] = "ms";
  doc["otherData"] = {{"generator", "graphplace"}, {"graph", g.name()}, {"cluster", c.name()},
                      {"step_time_ms", m.stepTime * 1e3}, {"lower_bound_ms", m.lowerBound * 1e3}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void writeChromeTrace(const Graph& g, const Cluster& c, const Measurement& m, const std::string& path) {
  writeTextFileAtomically(path, timelineToChromeTrace(g, c, m) + "\n");
}

}  // namespace gp

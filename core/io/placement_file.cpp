#include "io/placement_file.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/json_text.h"
#include "base/file_text.h"

namespace gp {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
constexpr const char* kFormat = "graphplace-placement";
constexpr int kVersion = 1;

std::string dumpJson(const ordered_json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string measurementToJson(const Cluster& c, const Measurement& m) {
  ordered_json metrics;
  metrics["step_time_ms"] = m.stepTime * 1e3;
  metrics["lower_bound_ms"] = m.lowerBound * 1e3;
  metrics["ratio"] = m.ratio();
  metrics["feasible"] = m.feasible;
  if (!m.problem.empty()) metrics["problem"] = m.problem;
  metrics["comm_bytes"] = m.commBytes;
  auto& devs = metrics["devices"] = ordered_json::array();
  for (int d = 0; d < c.numDevices() && d < static_cast<int>(m.devices.size()); ++d)
    devs.push_back({{"name", c.device(d).name},
                    {"busy_ms", m.devices[d].busy * 1e3},
                    {"utilization", m.devices[d].utilization},
                    {"peak_memory_bytes", m.devices[d].peakMemory},
                    {"memory_capacity_bytes", m.devices[d].capacity}});
  auto& links = metrics["links"] = ordered_json::array();
  for (int ch = 0; ch < c.numChannels() && ch < static_cast<int>(m.channelBytes.size()); ++ch)
    if (m.channelBytes[ch] > 0) links.push_back({{"name", c.channel(ch).name}, {"bytes", m.channelBytes[ch]}});
  return dumpJson(metrics);
}

std::string placementToJson(const Graph& g, const ModelIdentity& model, const Cluster& c, const Plan& plan,
                            const Measurement& m) {
  ordered_json head;
  head["format"] = kFormat;
  head["version"] = kVersion;
  head["model"] = {{"path", model.path}, {"sha256", model.sha256}, {"ops", g.numOps()}, {"name", g.name()}};
  head["cluster"] = ordered_json::parse(c.toJson());
  head["metrics"] = ordered_json::parse(measurementToJson(c, m));

  // simulated start/end per op from the timeline
  std::vector<double> start(static_cast<size_t>(g.numOps()), -1), end(static_cast<size_t>(g.numOps()), -1);
  for (const auto& e : m.timeline)
    if (e.kind == TimelineEvent::Kind::Op) {
      start[e.id] = e.start;
      end[e.id] = e.end;
    }
  std::string out = dumpJson(head);
  out.pop_back();  // '}'
  out += ",\n\"ops\": [";
  for (OpId op = 0; op < g.numOps(); ++op) {
    ordered_json o;
    o["name"] = g.opName(op);
    o["type"] = g.opType(op);
    o["device"] = c.device(plan.device[op]).name;
    if (!plan.priority.empty()) o["priority"] = plan.priority[op];
    if (!plan.fusionGroup.empty() && plan.fusionGroup[op] >= 0) o["fusion_group"] = plan.fusionGroup[op];
    if (g.costEstimated(op)) o["cost_estimated"] = true;
    if (start[op] >= 0) {
      o["start_ms"] = start[op] * 1e3;
      o["end_ms"] = end[op] * 1e3;
    }
    out += (op == 0 ? "\n" : ",\n") + dumpJson(o);
  }
  out += "]}";
  return out;
}

void writePlacement(const Graph& g, const ModelIdentity& model, const Cluster& c, const Plan& plan,
                    const Measurement& m, const std::string& path) {
  writeTextFileAtomically(path, placementToJson(g, model, c, plan, m) + "\n");
}

LoadedPlacement parsePlacement(const std::string& text, const std::string& source, const Graph& g,
                               const ModelIdentity& current, bool allowHashMismatch) {
  auto fail = [&](const std::string& problem) -> void { throw Error(source, problem); };
  const json doc = parseJsonText(text, source);
  try {
    if (jsonString(doc, "format") != kFormat)
      fail(std::string("not a graphplace placement file (\"format\" must be \"") + kFormat + "\")");
    if (doc.contains("version") && !jsonInteger(doc, "version", kVersion, kVersion)) fail("unsupported version");
    LoadedPlacement lp;
    const json& model = doc.at("model");
    lp.model.path = model.value("path", "");
    lp.model.sha256 = model.value("sha256", "");
    const auto opCount = jsonInteger(model, "ops", 0, std::numeric_limits<int32_t>::max());
    if (!opCount) fail("\"model\" needs \"ops\": the number of ops the file places");
    lp.model.ops = static_cast<int32_t>(*opCount);
    if (lp.model.ops != g.numOps())
      fail("the file places " + std::to_string(lp.model.ops) + " ops, the model has " + std::to_string(g.numOps()) +
           " (is it for another model or mode?)");
    if (!current.sha256.empty() && lp.model.sha256 != current.sha256) {
      std::string msg = lp.model.sha256.empty()
                            ? "the placement file records no model SHA-256"
                            : "the model's SHA-256 differs from the one the placement was made for (" + lp.model.path + ")";
      if (!allowHashMismatch) fail(msg + "; pass --ignore-hash to load it anyway");
      lp.warnings.push_back(msg);
    }
    lp.cluster = parseClusterJson(doc.at("cluster").dump(), source + " (embedded cluster)");
    const json& ops = doc.at("ops");
    if (!ops.is_array() || static_cast<int32_t>(ops.size()) != g.numOps())
      fail("'ops' must list every op of the model once");
    lp.plan.device.assign(static_cast<size_t>(g.numOps()), -1);
    bool anyPriority = false, anyFusion = false;
    for (const json& o : ops) {
      anyPriority |= o.contains("priority");
      anyFusion |= o.contains("fusion_group");
    }
    if (anyPriority) lp.plan.priority.assign(static_cast<size_t>(g.numOps()), 0);
    if (anyFusion) lp.plan.fusionGroup.assign(static_cast<size_t>(g.numOps()), -1);
    for (size_t i = 0; i < ops.size(); ++i) {
      const json& o = ops[i];
      const std::string name = o.at("name").get<std::string>();
      const OpId op = g.findOp(name);
      if (op == kNone) fail("op #" + std::to_string(i) + " '" + name + "' is not in the model");
      if (lp.plan.device[op] != -1) fail("op '" + name + "' is placed twice");
      const std::string dev = o.at("device").get<std::string>();
      const int d = lp.cluster.findDevice(dev);
      if (d < 0) fail("op '" + name + "' is placed on '" + dev + "', which the cluster does not have");
      lp.plan.device[op] = d;
      if (o.contains("priority")) {
        const auto prio = jsonInteger(o["priority"], std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
        if (!prio) fail("op '" + name + "' has priority " + o["priority"].dump() + ", not an integer in the 32-bit range");
        lp.plan.priority[op] = static_cast<int32_t>(*prio);
      }
      if (o.contains("fusion_group")) {
        const auto grp = jsonInteger(o["fusion_group"], -1, g.numOps() - 1);
        if (!grp) fail("op '" + name + "' has fusion group " + o["fusion_group"].dump() + " out of range");
        lp.plan.fusionGroup[op] = static_cast<int32_t>(*grp);
      }
    }
    return lp;
  } catch (const json::exception& e) {
    throw Error(source, std::string("malformed placement file: ") + e.what());
  }
}

LoadedPlacement readPlacement(const std::string& path, const Graph& g, const ModelIdentity& current,
                              bool allowHashMismatch) {
  return parsePlacement(readFileText(path, "a placement file"), path, g, current, allowHashMismatch);
}

}  // namespace gp

#include "costmodel/cost_dataset.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>

#include "base/error.h"
#include "base/file_text.h"
#include "base/json_text.h"

namespace gp {

namespace {

using nlohmann::json;
constexpr const char* kFormat = "graphplace-costmodel-dataset";
constexpr int kVersion = 1;
// Far beyond any real collection (TpuGraphs' largest graph has ~44k nodes, 100k+ configs in
// total per graph in the tile task), and small enough that a hostile header cannot make a
// reader allocate without bound before the arrays themselves are read.
constexpr int64_t kMaxWidth = 4096;

std::string graphWhere(const CostGraph& g, size_t i) { return "graph " + std::to_string(i) + " (" + g.name + ")"; }

// One element of an array field: an integer within T's range, a number, a string, or a list of
// those; false when `v` is none of what T takes (nlohmann's get<T> would throw, or convert an
// out-of-range float with undefined behaviour).
template <typename T>
bool element(const json& v, T& out) {
  if constexpr (std::is_integral_v<T>) {
    const auto x = jsonInteger(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    if (x) out = static_cast<T>(*x);
    return x.has_value();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (v.is_number()) out = static_cast<T>(v.get<double>());
    return v.is_number();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (v.is_string()) out = v.get<std::string>();
    return v.is_string();
  } else {
    if (!v.is_array()) return false;
    out.assign(v.size(), {});
    for (size_t i = 0; i < v.size(); ++i)
      if (!element(v[i], out[i])) return false;
    return true;
  }
}

template <typename T>
std::vector<T> arrayOf(const json& j, const char* key, const std::string& where, const std::string& source) {
  if (!j.contains(key)) return {};
  const json& a = j.at(key);
  if (!a.is_array()) throw Error(source, where + ": \"" + key + "\" is not an array");
  std::vector<T> out;
  if (!element(a, out)) throw Error(source, where + ": \"" + key + "\" holds a value of the wrong type or range");
  return out;
}

}  // namespace

const char* costTaskName(CostTask t) { return t == CostTask::Kernel ? "kernel" : "plan"; }

void CostDataset::validate(const std::string& source) const {
  if (nodeWidth <= 0 || nodeWidth > kMaxWidth) throw Error(source, "node feature width out of range (1.." + std::to_string(kMaxWidth) + ")");
  if (configWidth <= 0 || configWidth > kMaxWidth)
    throw Error(source, "config feature width out of range (1.." + std::to_string(kMaxWidth) + ")");
  for (size_t i = 0; i < graphs.size(); ++i) {
    const CostGraph& g = graphs[i];
    const std::string where = graphWhere(g, i);
    const int64_t n = g.numNodes();
    if (n == 0) throw Error(source, where + ": no nodes");
    if (static_cast<int64_t>(g.nodeFeatures.size()) != n * nodeWidth)
      throw Error(source, where + ": " + std::to_string(g.nodeFeatures.size()) + " node features, expected " +
                              std::to_string(n) + " nodes x width " + std::to_string(nodeWidth));
    for (int32_t op : g.opcode)
      if (op < 0 || op >= static_cast<int32_t>(opcodes.size()))
        throw Error(source, where + ": opcode " + std::to_string(op) + " outside the vocabulary of " +
                                std::to_string(opcodes.size()));
    for (const auto& e : g.edges)
      if (e[0] < 0 || e[0] >= n || e[1] < 0 || e[1] >= n)
        throw Error(source, where + ": edge (" + std::to_string(e[0]) + ", " + std::to_string(e[1]) +
                                ") outside the " + std::to_string(n) + " nodes");
    if (task == CostTask::Kernel && !g.configNodes.empty())
      throw Error(source, where + ": a kernel-task graph has configurable nodes");
    if (task == CostTask::Plan && g.configNodes.empty()) throw Error(source, where + ": a plan-task graph has no configurable nodes");
    for (int32_t v : g.configNodes)
      if (v < 0 || v >= n) throw Error(source, where + ": configurable node " + std::to_string(v) + " outside the graph");
    const int64_t c = g.numConfigs();
    if (c == 0) throw Error(source, where + ": no configurations");
    if (static_cast<int64_t>(g.configFeatures.size()) != c * g.configRows() * configWidth)
      throw Error(source, where + ": " + std::to_string(g.configFeatures.size()) + " config features, expected " +
                              std::to_string(c) + " configs x " + std::to_string(g.configRows()) + " rows x width " +
                              std::to_string(configWidth));
    for (double r : g.runtime)
      if (!std::isfinite(r) || r <= 0) throw Error(source, where + ": a runtime is not finite and positive");
    for (float f : g.nodeFeatures)
      if (!std::isfinite(f)) throw Error(source, where + ": a node feature is not finite");
    for (float f : g.configFeatures)
      if (!std::isfinite(f)) throw Error(source, where + ": a config feature is not finite");
    auto sizeIs = [&](size_t size, int64_t want, const char* what) {
      if (size != 0 && static_cast<int64_t>(size) != want)
        throw Error(source, where + ": " + std::to_string(size) + " " + what + ", expected " + std::to_string(want));
    };
    sizeIs(g.spread.size(), c, "spreads");
    sizeIs(g.threads.size(), c, "thread counts");
    sizeIs(g.conversionBytes.size(), c, "conversion byte counts");
    sizeIs(g.nodeFlops.size(), n, "node FLOPs");
    sizeIs(g.nodeBytes.size(), n, "node bytes");
    sizeIs(g.nodeClass.size(), n, "node classes");
    sizeIs(g.nodeSignature.size(), n, "node signatures");
  }
}

std::string CostDataset::toJson() const {
  json gs = json::array();
  for (const CostGraph& g : graphs) {
    json edges = json::array();
    for (const auto& e : g.edges) edges.push_back({e[0], e[1]});
    json j = {{"name", g.name},           {"family", g.family},       {"opcode", g.opcode},
              {"node_features", g.nodeFeatures}, {"edges", edges},    {"config_features", g.configFeatures},
              {"runtime", g.runtime}};
    if (!g.configNodes.empty()) j["config_nodes"] = g.configNodes;
    if (!g.spread.empty()) j["spread"] = g.spread;
    if (!g.nodeFlops.empty()) j["node_flops"] = g.nodeFlops;
    if (!g.nodeBytes.empty()) j["node_bytes"] = g.nodeBytes;
    if (!g.nodeClass.empty()) j["node_class"] = g.nodeClass;
    if (!g.nodeSignature.empty()) j["node_signature"] = g.nodeSignature;
    if (!g.threads.empty()) j["threads"] = g.threads;
    if (!g.conversionBytes.empty()) j["conversion_bytes"] = g.conversionBytes;
    gs.push_back(std::move(j));
  }
  json root = {{"format", kFormat},        {"version", kVersion},        {"task", costTaskName(task)},
               {"collection", collection}, {"device_kind", deviceKind},  {"node_width", nodeWidth},
               {"config_width", configWidth}, {"opcodes", opcodes},     {"repeats", repeats},
               {"noise", noise},           {"graphs", gs}};
  return root.dump() + "\n";
}

CostDataset CostDataset::parse(const std::string& text, const std::string& source) {
  const json root = parseJsonText(text, source);
  if (jsonString(root, "format") != kFormat)
    throw Error(source, std::string("not a cost-model dataset (\"format\": \"") + kFormat + "\" missing)");
  if (!jsonInteger(root, "version", kVersion, kVersion))
    throw Error(source, "unsupported dataset version (this build reads version " + std::to_string(kVersion) + ")");
  CostDataset d;
  try {
    const std::string task = root.at("task").get<std::string>();
    if (task != "kernel" && task != "plan") throw Error(source, "task \"" + task + "\" is neither \"kernel\" nor \"plan\"");
    d.task = task == "kernel" ? CostTask::Kernel : CostTask::Plan;
    d.collection = root.value("collection", "");
    d.deviceKind = root.value("device_kind", "");
    auto int32 = [&](const char* key, std::optional<int32_t> absent) {
      if (absent && !root.contains(key)) return *absent;
      const auto v = jsonInteger(root, key, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      if (!v) throw Error(source, std::string("\"") + key + "\" must be a 32-bit integer");
      return static_cast<int32_t>(*v);
    };
    d.nodeWidth = int32("node_width", std::nullopt);
    d.configWidth = int32("config_width", std::nullopt);
    d.opcodes = root.at("opcodes").get<std::vector<std::string>>();
    d.repeats = int32("repeats", 0);
    d.noise = root.value("noise", "");
  } catch (const json::exception& e) {
    throw Error(source, std::string("bad dataset header (") + e.what() + ")");
  }
  const json& gs = root.contains("graphs") ? root["graphs"] : json();
  if (!gs.is_array()) throw Error(source, "\"graphs\" is missing or not an array");
  d.graphs.reserve(gs.size());
  for (size_t i = 0; i < gs.size(); ++i) {
    const json& j = gs[i];
    const std::string where = "graph " + std::to_string(i);
    if (!j.is_object()) throw Error(source, where + " is not an object");
    CostGraph g;
    auto text = [&](const char* key) {
      if (!j.contains(key)) return std::string();
      if (!j[key].is_string()) throw Error(source, where + ": \"" + key + "\" is not a string");
      return j[key].get<std::string>();
    };
    g.name = text("name");
    g.family = text("family");
    g.opcode = arrayOf<int32_t>(j, "opcode", where, source);
    g.nodeFeatures = arrayOf<float>(j, "node_features", where, source);
    for (const auto& e : arrayOf<std::vector<int32_t>>(j, "edges", where, source)) {
      if (e.size() != 2) throw Error(source, where + ": an edge is not a [producer, consumer] pair");
      g.edges.push_back({e[0], e[1]});
    }
    g.configNodes = arrayOf<int32_t>(j, "config_nodes", where, source);
    g.configFeatures = arrayOf<float>(j, "config_features", where, source);
    g.runtime = arrayOf<double>(j, "runtime", where, source);
    g.spread = arrayOf<double>(j, "spread", where, source);
    g.nodeFlops = arrayOf<double>(j, "node_flops", where, source);
    g.nodeBytes = arrayOf<double>(j, "node_bytes", where, source);
    g.nodeClass = arrayOf<int8_t>(j, "node_class", where, source);
    g.nodeSignature = arrayOf<std::string>(j, "node_signature", where, source);
    g.threads = arrayOf<int32_t>(j, "threads", where, source);
    g.conversionBytes = arrayOf<double>(j, "conversion_bytes", where, source);
    d.graphs.push_back(std::move(g));
  }
  d.validate(source);
  return d;
}

CostDataset CostDataset::load(const std::string& path) { return parse(readFileText(path, "a cost-model dataset"), path); }

void CostDataset::save(const std::string& path) const {
  validate(path);
  writeTextFileAtomically(path, toJson());
}

CostDataset mergeDatasets(const std::vector<CostDataset>& parts, const std::vector<std::string>& sources) {
  if (parts.empty()) throw Error("dataset", "nothing to merge");
  CostDataset out = parts[0];
  out.graphs.clear();
  out.opcodes.clear();
  std::map<std::string, int32_t> vocab;
  for (size_t i = 0; i < parts.size(); ++i) {
    const CostDataset& d = parts[i];
    const std::string& source = i < sources.size() ? sources[i] : std::string("dataset ") + std::to_string(i);
    if (d.task != out.task) throw Error(source, std::string("a ") + costTaskName(d.task) + "-task dataset cannot join " +
                                                    costTaskName(out.task) + "-task data");
    if (d.nodeWidth != out.nodeWidth || d.configWidth != out.configWidth)
      throw Error(source, "feature widths " + std::to_string(d.nodeWidth) + "/" + std::to_string(d.configWidth) +
                              " differ from the first dataset's " + std::to_string(out.nodeWidth) + "/" +
                              std::to_string(out.configWidth));
    if (i > 0 && d.deviceKind != parts[0].deviceKind && out.deviceKind.find(d.deviceKind) == std::string::npos)
      out.deviceKind += " + " + d.deviceKind;
    std::vector<int32_t> remap;
    for (const std::string& o : d.opcodes) {
      auto [it, added] = vocab.try_emplace(o, static_cast<int32_t>(out.opcodes.size()));
      if (added) out.opcodes.push_back(o);
      remap.push_back(it->second);
    }
    for (CostGraph g : d.graphs) {
      for (int32_t& o : g.opcode) o = remap[static_cast<size_t>(o)];
      out.graphs.push_back(std::move(g));
    }
  }
  return out;
}

void splitByFamily(const CostDataset& all, const std::vector<std::string>& heldOut, CostDataset& train,
                   CostDataset& test) {
  for (CostDataset* d : {&train, &test}) {
    d->task = all.task;
    d->collection = all.collection;
    d->deviceKind = all.deviceKind;
    d->nodeWidth = all.nodeWidth;
    d->configWidth = all.configWidth;
    d->opcodes = all.opcodes;
    d->repeats = all.repeats;
    d->noise = all.noise;
    d->graphs.clear();
  }
  for (const CostGraph& g : all.graphs) {
    const bool out = std::find(heldOut.begin(), heldOut.end(), g.family) != heldOut.end();
    (out ? test : train).graphs.push_back(g);
  }
}

}  // namespace gp

// Annotated ONNX export (see onnx_export.h for the format and why it looks this way).
#include "onnxio/onnx_export.h"
#include "onnxio/onnx_names.h"

#include <onnx/onnx_pb.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "base/error.h"
#include "base/json_text.h"

namespace gp {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kLinePrefix = "graphplace: ";
constexpr const char* kFormatVersion = "1";
constexpr uint64_t kProtobufLimit = std::numeric_limits<int32_t>::max();  // 2 GiB - 1
// Metadata entries this exporter owns: replaced on every export, never duplicated.
constexpr std::string_view kOwnedKeys[] = {"graphplace.format_version", "graphplace.cluster",
                                           "graphplace.placement",      "graphplace.step_time_ms",
                                           "graphplace.lower_bound_ms", "graphplace.feasible"};
const std::string kNotOnnx = "not an ONNX model; annotated ONNX export needs an .onnx input";

std::string dumpJson(const ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string number(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("0");
}

// The file's bytes, with the importer's checks (missing, directory, over protobuf's limit).
std::string readOnnxBytes(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.rfind("zoo:", 0) == 0) throw Error(path, kNotOnnx);
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) throw Error(path, "file not found");
  if (fs::is_directory(status)) throw Error(path, "is a directory, " + kNotOnnx);
  const uint64_t size = fs::file_size(path, ec);
  if (ec) throw Error(path, "cannot read file: " + ec.message());
  if (size == 0) throw Error(path, "file is empty (0 bytes), " + kNotOnnx);
  if (size > kProtobufLimit) throw Error(path, "ONNX file is over protobuf's 2 GB limit");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, "cannot open file for reading");
  std::string bytes(size, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (in.gcount() != static_cast<std::streamsize>(size)) throw Error(path, "cannot read file (short read)");
  return bytes;
}

onnx::ModelProto parseModel(const std::string& bytes, const std::string& source) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes) || !model.has_graph() || model.graph().node_size() == 0)
    throw Error(source, kNotOnnx);
  return model;
}

// Per node: the op of g it is, or kNone.
std::vector<OpId> nodeOps(const onnx::GraphProto& graph, const Graph& g) {
  const std::vector<std::string> names = onnxNodeNames(graph);
  std::vector<OpId> ops(names.size(), kNone);
  for (size_t i = 0; i < names.size(); ++i) {
    const OpId op = g.findOp(names[i]);
    if (op != kNone && g.opType(op) == graph.node(static_cast<int>(i)).op_type()) ops[i] = op;
  }
  return ops;
}

// The doc_string without a placement line from an earlier export.
std::string withoutPlacementLine(const std::string& doc) {
  if (doc.find(kLinePrefix) == std::string::npos) return doc;
  std::string kept;
  size_t pos = 0;
  while (pos <= doc.size()) {
    size_t end = doc.find('\n', pos);
    if (end == std::string::npos) end = doc.size();
    std::string_view line(doc.data() + pos, end - pos);
    if (line.substr(0, kLinePrefix.size()) != kLinePrefix) {
      if (!kept.empty()) kept += '\n';
      kept += line;
    }
    pos = end + 1;
  }
  return kept;
}

// The JSON of the node's placement line, or "" when it has none.
std::string_view placementLine(const std::string& doc) {
  size_t pos = 0;
  std::string_view found;
  while (pos <= doc.size()) {
    size_t end = doc.find('\n', pos);
    if (end == std::string::npos) end = doc.size();
    std::string_view line(doc.data() + pos, end - pos);
    if (line.substr(0, kLinePrefix.size()) == kLinePrefix) found = line.substr(kLinePrefix.size());
    pos = end + 1;
  }
  return found;
}

void checkPlan(const Graph& g, const Plan& plan, const Cluster& c) {
  const auto n = static_cast<size_t>(g.numOps());
  if (plan.device.size() != n) throw std::invalid_argument("annotatedOnnx: plan.device does not cover the graph");
  if (!plan.priority.empty() && plan.priority.size() != n)
    throw std::invalid_argument("annotatedOnnx: plan.priority does not cover the graph");
  if (!plan.fusionGroup.empty() && plan.fusionGroup.size() != n)
    throw std::invalid_argument("annotatedOnnx: plan.fusionGroup does not cover the graph");
  for (int32_t d : plan.device)
    if (d < 0 || d >= c.numDevices()) throw std::invalid_argument("annotatedOnnx: plan device out of range");
}

void setMetadata(onnx::ModelProto& model, const std::vector<std::pair<std::string, std::string>>& entries) {
  auto* props = model.mutable_metadata_props();
  for (int i = props->size() - 1; i >= 0; --i)
    for (std::string_view key : kOwnedKeys)
      if (props->Get(i).key() == key) {
        props->DeleteSubrange(i, 1);
        break;
      }
  for (const auto& [key, value] : entries) {
    auto* e = model.add_metadata_props();
    e->set_key(key);
    e->set_value(value);
  }
}

}  // namespace

std::string annotatedOnnx(const std::string& onnxPath, const Graph& g, const Plan& plan, const Cluster& c,
                          const Measurement* m, OnnxExportStats* stats) {
  checkPlan(g, plan, c);
  onnx::ModelProto model = parseModel(readOnnxBytes(onnxPath), onnxPath);
  onnx::GraphProto& graph = *model.mutable_graph();
  const std::vector<OpId> ops = nodeOps(graph, g);

  const bool hasPriority = !plan.priority.empty();
  const bool hasFusion = !plan.fusionGroup.empty();
  ordered_json devices = ordered_json::array();
  for (int d = 0; d < c.numDevices(); ++d) devices.push_back(c.device(d).name);
  ordered_json nodeDevice = ordered_json::array(), nodePriority = ordered_json::array(),
               nodeFusion = ordered_json::array();
  std::vector<char> opSeen(static_cast<size_t>(g.numOps()), 0);
  int32_t annotated = 0;
  for (int i = 0; i < graph.node_size(); ++i) {
    onnx::NodeProto& node = *graph.mutable_node(i);
    std::string doc = withoutPlacementLine(node.doc_string());
    const OpId op = ops[static_cast<size_t>(i)];
    if (op == kNone) {
      nodeDevice.push_back(-1);
      if (hasPriority) nodePriority.push_back(nullptr);
      if (hasFusion) nodeFusion.push_back(-1);
      if (doc != node.doc_string()) node.set_doc_string(doc);
      continue;
    }
    opSeen[static_cast<size_t>(op)] = 1;
    const int32_t d = plan.device[static_cast<size_t>(op)];
    ordered_json line;
    line["device"] = c.device(d).name;
    line["device_index"] = d;
    if (g.costEstimated(op)) line["cost_estimated"] = true;
    nodeDevice.push_back(d);
    if (hasPriority) {
      line["priority"] = plan.priority[static_cast<size_t>(op)];
      nodePriority.push_back(plan.priority[static_cast<size_t>(op)]);
    }
    if (hasFusion) {
      const int32_t group = plan.fusionGroup[static_cast<size_t>(op)];
      if (group >= 0) line["fusion_group"] = group;
      nodeFusion.push_back(group);
    }
    if (!doc.empty()) doc += '\n';
    doc += kLinePrefix;
    doc += dumpJson(line);
    node.set_doc_string(doc);
    ++annotated;
  }
  if (annotated == 0)
    throw Error(onnxPath, "none of its " + std::to_string(graph.node_size()) +
                              " nodes is an op of the model being placed: export from the .onnx file the "
                              "model was opened from");

  ordered_json placement;
  placement["devices"] = std::move(devices);
  placement["device"] = std::move(nodeDevice);
  if (hasPriority) placement["priority"] = std::move(nodePriority);
  if (hasFusion) placement["fusion_group"] = std::move(nodeFusion);
  std::vector<std::pair<std::string, std::string>> meta = {{"graphplace.format_version", kFormatVersion},
                                                           {"graphplace.cluster", c.name()},
                                                           {"graphplace.placement", dumpJson(placement)}};
  if (m) {
    meta.emplace_back("graphplace.step_time_ms", number(m->stepTime * 1e3));
    meta.emplace_back("graphplace.lower_bound_ms", number(m->lowerBound * 1e3));
    meta.emplace_back("graphplace.feasible", m->feasible ? "true" : "false");
  }
  setMetadata(model, meta);

  if (model.ByteSizeLong() > kProtobufLimit)
    throw Error(onnxPath, "the annotated model would be over protobuf's 2 GB limit");
  std::string out;
  if (!model.SerializeToString(&out)) throw Error(onnxPath, "cannot serialize the annotated model");

  if (stats) {
    stats->nodes = graph.node_size();
    stats->annotated = annotated;
    stats->opsWithoutNode = 0;
    for (char seen : opSeen) stats->opsWithoutNode += seen ? 0 : 1;
    std::set<std::string> files;
    auto collect = [&](const onnx::TensorProto& t) {
      if (t.data_location() != onnx::TensorProto::EXTERNAL) return;
      for (const auto& kv : t.external_data())
        if (kv.key() == "location") files.insert(kv.value());
    };
    for (const auto& t : graph.initializer()) collect(t);
    for (const auto& s : graph.sparse_initializer()) {
      collect(s.values());
      collect(s.indices());
    }
    stats->externalDataFiles.assign(files.begin(), files.end());
  }
  return out;
}

OnnxPlacement readOnnxPlacement(const std::string& bytes, const Graph& g, const std::string& source) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes) || !model.has_graph()) throw Error(source, "not an ONNX model");
  OnnxPlacement p;
  for (const auto& e : model.metadata_props()) {
    if (e.key().rfind("graphplace.", 0) != 0) continue;
    p.metadata.emplace_back(e.key(), e.value());
    if (e.key() == "graphplace.format_version") p.formatVersion = e.value();
    if (e.key() == "graphplace.cluster") p.cluster = e.value();
  }
  const auto n = static_cast<size_t>(g.numOps());
  p.device.assign(n, std::string());
  p.deviceIndex.assign(n, -1);
  std::vector<int32_t> priority(n, 0), fusion(n, -1);
  bool anyPriority = false, anyFusion = false;
  const std::vector<OpId> ops = nodeOps(model.graph(), g);
  for (int i = 0; i < model.graph().node_size(); ++i) {
    const OpId op = ops[static_cast<size_t>(i)];
    const std::string_view text = placementLine(model.graph().node(i).doc_string());
    if (op == kNone || text.empty()) continue;
    nlohmann::json line;
    try {
      line = parseJsonText(std::string(text), source);
    } catch (const Error&) {
    }
    if (!line.is_object() || !line.contains("device") || !line["device"].is_string())
      throw Error(source, "node '" + g.opName(op) + "': bad graphplace line in its doc_string");
    const auto k = static_cast<size_t>(op);
    p.device[k] = line["device"].get<std::string>();
    // an integer field of the line, when present; outside 32 bits the line is bad
    auto int32 = [&](const char* key) -> std::optional<int32_t> {
      if (!line.contains(key) || !line[key].is_number_integer()) return std::nullopt;
      const auto v = jsonInteger(line, key, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      if (!v) throw Error(source, "node '" + g.opName(op) + "': " + key + " outside the 32-bit range in its doc_string");
      return static_cast<int32_t>(*v);
    };
    if (const auto v = int32("device_index")) p.deviceIndex[k] = *v;
    if (const auto v = int32("priority")) {
      priority[k] = *v;
      anyPriority = true;
    }
    if (const auto v = int32("fusion_group")) {
      fusion[k] = *v;
      anyFusion = true;
    }
    ++p.annotatedNodes;
  }
  if (anyPriority) p.priority = std::move(priority);
  if (anyFusion) p.fusionGroup = std::move(fusion);
  return p;
}

std::vector<std::string> onnxPlacementDevices(const std::string& bytes, const Graph& g) {
  return readOnnxPlacement(bytes, g).device;
}

}  // namespace gp

#include "io/json_io.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "base/error.h"
#include "base/input_limits.h"
#include "graph/graph_builder.h"
#include "graph/precision.h"
#include "base/file_text.h"
#include "base/json_text.h"

namespace gp {
namespace {

using nlohmann::json;
constexpr const char* kFormat = "graphplace-graph";
constexpr int kVersion = 1;

// Field access that turns every type problem into one clear line.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}
  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw Error(source_, where.empty() ? problem : where + ": " + problem);
  }
  const json* field(const json& obj, const char* key, const std::string& where) const {
    if (!obj.is_object()) fail(where, "must be a JSON object");
    auto it = obj.find(key);
    return it == obj.end() || it->is_null() ? nullptr : &*it;
  }
  std::string str(const json& obj, const char* key, const std::string& where, bool required) const {
    const json* v = field(obj, key, where);
    if (!v) {
      if (required) fail(where, std::string("missing field '") + key + "'");
      return {};
    }
    if (!v->is_string()) fail(where, std::string("field '") + key + "' must be a string");
    return v->get<std::string>();
  }
  double num(const json& obj, const char* key, const std::string& where, double fallback) const {
    const json* v = field(obj, key, where);
    if (!v) return fallback;
    if (!v->is_number()) fail(where, std::string("field '") + key + "' must be a number");
    return v->get<double>();
  }
  int64_t integer(const json& obj, const char* key, const std::string& where, int64_t fallback) const {
    const json* v = field(obj, key, where);
    if (!v) return fallback;
    if (!v->is_number_integer() || v->get<int64_t>() < 0)
      fail(where, std::string("field '") + key + "' must be a non-negative integer");
    return v->get<int64_t>();
  }
  const json& array(const json& obj, const char* key, const std::string& where, bool required) const {
    static const json empty = json::array();
    const json* v = field(obj, key, where);
    if (!v) {
      if (required) fail(where, std::string("missing field '") + key + "'");
      return empty;
    }
    if (!v->is_array()) fail(where, std::string("field '") + key + "' must be an array");
    return *v;
  }

 private:
  std::string source_;
};

std::string opWhere(size_t i, const std::string& name) {
  return "op #" + std::to_string(i) + (name.empty() ? "" : " ('" + name + "')");
}

TensorDesc readTensor(const Reader& r, const json& t, const std::string& where) {
  TensorDesc d;
  d.name = r.str(t, "name", where, true);
  std::string dt = r.str(t, "dtype", where, false);
  if (!dt.empty()) {
    auto parsed = parseDType(dt);
    if (!parsed) r.fail(where, "unknown dtype '" + dt + "'");
    d.dtype = *parsed;
  }
  const json* shape = r.field(t, "shape", where);
  d.shapeKnown = shape != nullptr;
  if (shape) {
    if (!shape->is_array()) r.fail(where, "field 'shape' must be an array of integers or null");
    for (const json& dim : *shape) {
      if (!dim.is_number_integer() || dim.get<int64_t>() < 0)
        r.fail(where, "field 'shape' must hold non-negative integers");
      d.shape.push_back(dim.get<int64_t>());
    }
  }
  d.bytes = r.integer(t, "bytes", where, -1);
  return d;
}

}  // namespace

Graph parseGraphJson(const std::string& text, const std::string& sourceName) {
  json doc = parseJsonText(text, sourceName);
  Reader r(sourceName);
  if (!doc.is_object()) r.fail("", "not a graphplace graph (the top level must be an object)");
  const std::string format = r.str(doc, "format", "", false);
  if (format != kFormat) r.fail("", "not a graphplace graph (\"format\" must be \"" + std::string(kFormat) + "\")");
  const int64_t version = r.integer(doc, "version", "", kVersion);
  if (version != kVersion) r.fail("", "unsupported version " + std::to_string(version));

  GraphBuilder b(sourceName);
  std::unordered_map<std::string, TensorDesc> activations;
  const json& tensors = r.array(doc, "tensors", "", false);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const std::string where = "tensor #" + std::to_string(i);
    TensorDesc d = readTensor(r, tensors[i], where);
    const std::string kind = r.str(tensors[i], "kind", where, false);
    if (b.hasTensor(d.name)) r.fail(where, "duplicate tensor name '" + d.name + "'");
    if (kind == "input") {
      b.addGraphInput(std::move(d));
    } else if (kind == "param") {
      b.addParameter(std::move(d));
    } else if (kind.empty() || kind == "activation") {
      b.tensorRef(d.name);  // keeps the tensor's id in file order
      std::string key = d.name;
      activations.emplace(std::move(key), std::move(d));
    } else {
      r.fail(where, "unknown tensor kind '" + kind + "' (input, param, activation)");
    }
  }
  const json& ops = r.array(doc, "ops", "", true);
  checkModelOps(sourceName, static_cast<int64_t>(ops.size()), "ops");
  std::unordered_map<std::string, OpId> opIds;
  for (size_t i = 0; i < ops.size(); ++i) {
    const json& o = ops[i];
    std::string where = opWhere(i, o.is_object() && o.contains("name") && o["name"].is_string()
                                       ? o["name"].get<std::string>() : "");
    OpDesc d;
    d.name = r.str(o, "name", where, true);
    d.type = r.str(o, "type", where, true);
    for (const json& in : r.array(o, "inputs", where, false)) {
      if (!in.is_string()) r.fail(where, "'inputs' must hold tensor names");
      d.inputs.push_back(b.tensorRef(in.get<std::string>()));
    }
    for (const json& out : r.array(o, "outputs", where, false)) {
      if (!out.is_string()) r.fail(where, "'outputs' must hold tensor names");
      auto it = activations.find(out.get<std::string>());
      if (it != activations.end()) {
        d.outputs.push_back(std::move(it->second));
        activations.erase(it);
      } else {
        d.outputs.push_back(TensorDesc{out.get<std::string>(), {}, DType::Unknown, false, -1});
      }
    }
    d.flops = r.num(o, "flops", where, 0);
    if (!(d.flops >= 0)) r.fail(where, "field 'flops' must be non-negative");
    d.bytesRead = r.integer(o, "bytes_read", where, -1);
    d.bytesWritten = r.integer(o, "bytes_written", where, -1);
    d.paramBytes = r.integer(o, "param_bytes", where, -1);
    d.colocGroup = r.str(o, "coloc", where, false);
    d.device = r.str(o, "device", where, false);
    const std::string role = r.str(o, "role", where, false);
    if (role == "backward") d.role = OpRole::Backward;
    else if (role == "update") d.role = OpRole::Update;
    else if (!role.empty() && role != "forward") r.fail(where, "unknown role '" + role + "'");
    const std::string fwd = r.str(o, "forward_of", where, false);
    if (!fwd.empty()) {
      auto it = opIds.find(fwd);
      if (it == opIds.end()) r.fail(where, "'forward_of' names no earlier op: '" + fwd + "'");
      d.forwardOf = it->second;
    }
    if (const json* est = r.field(o, "cost_estimated", where)) {
      if (!est->is_boolean()) r.fail(where, "field 'cost_estimated' must be true or false");
      d.costEstimated = est->get<bool>();
    }
    std::string name = d.name;
    opIds.emplace(std::move(name), b.addOp(std::move(d)));
  }
  Graph g = std::move(b).build(r.str(doc, "name", "", false));
  // "math": "tf32" (graph/precision.h): f32 matrix work at the TF32 rate
  const std::string math = r.str(doc, "math", "", false);
  if (!math.empty() && math != "tf32" && math != "f32") r.fail("", "field 'math' must be \"f32\" or \"tf32\", got \"" + math + "\"");
  return math == "tf32" ? withPrecision(g, Precision::TF32) : g;
}

Graph readGraphJson(const std::string& path) {
  return parseGraphJson(readFileText(path, "a graphplace JSON file"), path);
}

// One tensor / op per line: readable, diff-friendly, and still plain JSON.
std::string graphToJson(const Graph& g) {
  std::string out = "{\"format\": \"" + std::string(kFormat) + "\", \"version\": " + std::to_string(kVersion) +
                    ", \"name\": " + nlohmann::json(g.name()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                    (g.tf32Math() ? ", \"math\": \"tf32\"" : "") + ",\n\"tensors\": [";
  for (TensorId t = 0; t < g.numTensors(); ++t) {
    nlohmann::ordered_json j;
    j["name"] = g.tensorName(t);
    j["kind"] = tensorKindName(g.tensorKind(t));
    j["dtype"] = dtypeName(g.dtype(t));
    if (g.hasShape(t)) j["shape"] = std::vector<int64_t>(g.shape(t).begin(), g.shape(t).end());
    else j["shape"] = nullptr;
    j["bytes"] = g.tensorBytes(t);
    out += (t == 0 ? "\n" : ",\n") + j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  out += "],\n\"ops\": [";
  for (OpId op = 0; op < g.numOps(); ++op) {
    nlohmann::ordered_json j;
    j["name"] = g.opName(op);
    j["type"] = g.opType(op);
    auto& ins = j["inputs"] = nlohmann::ordered_json::array();
    for (TensorId t : g.inputs(op)) ins.push_back(g.tensorName(t));
    auto& outs = j["outputs"] = nlohmann::ordered_json::array();
    for (TensorId t : g.outputs(op)) outs.push_back(g.tensorName(t));
    j["flops"] = g.flops(op);
    j["bytes_read"] = g.bytesRead(op);
    j["bytes_written"] = g.bytesWritten(op);
    j["param_bytes"] = g.paramBytes(op);
    if (g.colocGroup(op) != kNone) j["coloc"] = g.colocGroupNames()[g.colocGroup(op)];
    if (!g.requestedDevice(op).empty()) j["device"] = g.requestedDevice(op);
    if (g.role(op) != OpRole::Forward) j["role"] = opRoleName(g.role(op));
    if (g.forwardOf(op) != kNone) j["forward_of"] = g.opName(g.forwardOf(op));
    if (g.costEstimated(op)) j["cost_estimated"] = true;
    out += (op == 0 ? "\n" : ",\n") + j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  out += "]}";
  return out;
}

void writeGraphJson(const Graph& g, const std::string& path) {
  writeTextFileAtomically(path, graphToJson(g) + "\n");
}

}  // namespace gp

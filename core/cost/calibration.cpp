#include "cost/calibration.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/file_text.h"
#include "base/json_text.h"

namespace gp {
namespace {

constexpr const char* kFormat = "graphplace-calibration";
constexpr int kVersion = 1;

void appendShape(std::string& s, std::span<const int64_t> shape) {
  s += '[';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
}

std::string finish(std::string s, DType dtype, std::string_view kind) {
  s += '|';
  s += dtypeName(dtype);
  s += '|';
  s += kind;
  return s;
}

}  // namespace

std::string CalibrationTable::signature(std::string_view opType, std::span<const std::vector<int64_t>> inputShapes,
                                        DType dtype, std::string_view deviceKind) {
  std::string s(opType);
  s += '|';
  for (const auto& sh : inputShapes) appendShape(s, sh);
  return finish(std::move(s), dtype, deviceKind);
}

std::string CalibrationTable::signature(const Entry& e) {
  std::string s(e.opType);
  s += '|';
  for (const auto& sh : e.inputShapes) {
    if (sh)
      appendShape(s, *sh);
    else
      s += '?';
  }
  return finish(std::move(s), e.dtype, e.deviceKind);
}

std::string CalibrationTable::signature(const Graph& g, OpId op, DType dtype, std::string_view deviceKind) {
  std::string s(g.opType(op));
  s += '|';
  for (TensorId t : g.inputs(op)) {
    if (g.hasShape(t))
      appendShape(s, g.shape(t));
    else
      s += '?';
  }
  return finish(std::move(s), dtype, deviceKind);
}

std::optional<double> CalibrationTable::lookup(const std::string& signature) const {
  auto it = index_.find(signature);
  if (it == index_.end()) return std::nullopt;
  return entries_[it->second].seconds;
}

void CalibrationTable::add(std::string_view opType, std::span<const std::vector<int64_t>> inputShapes, DType dtype,
                           std::string_view deviceKind, double seconds) {
  Entry e{std::string(opType), {}, dtype, std::string(deviceKind), seconds};
  for (const auto& sh : inputShapes) e.inputShapes.emplace_back(sh);
  add(std::move(e));
}

void CalibrationTable::add(Entry e) {
  if (!std::isfinite(e.seconds) || e.seconds < 0)
    throw Error("calibration", "time of '" + e.opType + "' must be finite and >= 0");
  std::string sig = signature(e);
  auto [it, inserted] = index_.emplace(std::move(sig), entries_.size());
  if (inserted)
    entries_.push_back(std::move(e));
  else
    entries_[it->second] = std::move(e);
}

CalibrationTable CalibrationTable::load(const std::string& path) {
  return parse(readFileText(path, "a calibration JSON file"), path);
}

CalibrationTable CalibrationTable::parse(const std::string& text, const std::string& source) {
  using nlohmann::json;
  json j = parseJsonText(text, source);
  if (!j.is_object()) throw Error(source, "top level must be an object");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "format" && it.key() != "version" && it.key() != "description" && it.key() != "entries")
      throw Error(source, "unknown field '" + it.key() + "'");
  if (!j.contains("format") || j["format"] != kFormat)
    throw Error(source, std::string("field 'format' must be \"") + kFormat + "\"");
  if (j.contains("version") && j["version"] != kVersion)
    throw Error(source, "field 'version' must be " + std::to_string(kVersion));
  if (!j.contains("entries") || !j["entries"].is_array()) throw Error(source, "field 'entries' must be an array");
  CalibrationTable t;
  const json& es = j["entries"];
  for (size_t i = 0; i < es.size(); ++i) {
    std::string where = "entries[" + std::to_string(i) + "]";
    auto bad = [&](const std::string& problem) { throw Error(source, where + ": " + problem); };
    const json& e = es[i];
    if (!e.is_object()) bad("must be an object");
    for (auto it = e.begin(); it != e.end(); ++it)
      if (it.key() != "op_type" && it.key() != "input_shapes" && it.key() != "dtype" && it.key() != "device_kind" &&
          it.key() != "seconds")
        bad("unknown field '" + it.key() + "'");
    Entry en;
    for (const char* k : {"op_type", "dtype", "device_kind"})
      if (!e.contains(k) || !e[k].is_string() || e[k].get<std::string>().empty())
        bad(std::string("field '") + k + "' must be a non-empty string");
    en.opType = e["op_type"].get<std::string>();
    en.deviceKind = e["device_kind"].get<std::string>();
    auto dt = parseDType(e["dtype"].get<std::string>());
    if (!dt || *dt == DType::Unknown) bad("unknown dtype '" + e["dtype"].get<std::string>() + "'");
    en.dtype = *dt;
    if (!e.contains("seconds") || !e["seconds"].is_number()) bad("field 'seconds' must be a number");
    en.seconds = e["seconds"].get<double>();
    if (!std::isfinite(en.seconds) || en.seconds < 0) bad("field 'seconds' must be >= 0");
    if (!e.contains("input_shapes") || !e["input_shapes"].is_array())
      bad("field 'input_shapes' must be an array (one shape or null per input)");
    for (const json& sh : e["input_shapes"]) {
      if (sh.is_null()) {
        en.inputShapes.emplace_back(std::nullopt);
        continue;
      }
      if (!sh.is_array()) bad("each input shape must be an array of integers or null");
      std::vector<int64_t> dims;
      for (const json& d : sh) {
        if (!d.is_number_integer()) bad("each input shape must be an array of integers or null");
        dims.push_back(d.get<int64_t>());
      }
      en.inputShapes.emplace_back(std::move(dims));
    }
    std::string sig = signature(en);
    if (t.index_.contains(sig)) bad("duplicate signature " + sig);
    t.add(std::move(en));
  }
  return t;
}

std::string CalibrationTable::toJson() const {
  using nlohmann::ordered_json;
  ordered_json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  ordered_json es = ordered_json::array();
  for (const Entry& e : entries_) {
    ordered_json shapes = ordered_json::array();
    for (const auto& sh : e.inputShapes) shapes.push_back(sh ? ordered_json(*sh) : ordered_json(nullptr));
    es.push_back({{"op_type", e.opType},
                  {"input_shapes", shapes},
                  {"dtype", std::string(dtypeName(e.dtype))},
                  {"device_kind", e.deviceKind},
                  {"seconds", e.seconds}});
  }
  j["entries"] = es;
  return j.dump(1) + "\n";
}

}  // namespace gp

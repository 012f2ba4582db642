#include "optimize/corpus_spec.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "base/error.h"
#include "base/file_text.h"
#include "base/json_text.h"

namespace gp {
namespace {

using nlohmann::json;

// The integer options of an entry, in expansion order (the last varies fastest).
constexpr const char* kIntOptions[] = {"batch", "seq_len", "layers", "hidden", "graph_seed"};
constexpr int64_t kMaxOptionValue = std::numeric_limits<int32_t>::max();

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw Error(path_, (where.empty() ? "" : where + ": ") + problem);
  }

  int64_t integer(const json& v, const std::string& where) const {
    if (!v.is_number_integer()) fail(where, "expected an integer, got " + std::string(v.type_name()));
    const auto x = jsonInteger(v, 0, kMaxOptionValue);
    if (!x) fail(where, "out of range (0 .. " + std::to_string(kMaxOptionValue) + ")");
    return *x;
  }

  // An integer, a list of integers, or {"from": A, "to": B} (A <= B, at most kMaxCorpusGraphs values).
  std::vector<int64_t> values(const json& v, const std::string& where) const {
    std::vector<int64_t> out;
    if (v.is_array()) {
      if (v.empty()) fail(where, "empty list");
      for (size_t i = 0; i < v.size(); ++i) out.push_back(integer(v[i], where + "[" + std::to_string(i) + "]"));
    } else if (v.is_object()) {
      for (const auto& [k, _] : v.items())
        if (k != "from" && k != "to") fail(where, "unknown key '" + k + "' (a range has from and to)");
      if (!v.contains("from") || !v.contains("to")) fail(where, "a range needs from and to");
      const int64_t a = integer(v["from"], where + ".from"), b = integer(v["to"], where + ".to");
      if (b < a) fail(where, "range from " + std::to_string(a) + " to " + std::to_string(b) + " is empty");
      if (b - a >= kMaxCorpusGraphs) fail(where, "range of more than " + std::to_string(kMaxCorpusGraphs) + " values");
      for (int64_t x = a; x <= b; ++x) out.push_back(x);
    } else {
      out.push_back(integer(v, where));
    }
    return out;
  }

  std::vector<std::string> names(const json& v, const std::string& where) const {
    if (!v.is_array()) fail(where, "expected a list of names");
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string() || v[i].get<std::string>().empty())
        fail(where + "[" + std::to_string(i) + "]", "expected a non-empty string");
      out.push_back(v[i].get<std::string>());
    }
    return out;
  }

  // A model spec: zoo names as they are, file paths made absolute against the corpus's folder.
  std::string modelSpec(const std::string& spec) const {
    if (spec.rfind("zoo:", 0) == 0) return spec;
    std::filesystem::path p(spec);
    if (p.is_relative()) p = std::filesystem::path(path_).parent_path() / p;
    return p.lexically_normal().string();
  }

  // One entry of a family -> its graphs.
  void entry(const json& e, const std::string& family, const std::string& where, std::vector<CorpusGraph>& out) const {
    CorpusGraph base;
    base.family = family;
    if (e.is_string()) {
      base.model = modelSpec(e.get<std::string>());
      base.label = e.get<std::string>();
      out.push_back(base);
      return;
    }
    if (!e.is_object()) fail(where, "expected a model spec string or an object");
    if (!e.contains("model") || !e["model"].is_string() || e["model"].get<std::string>().empty())
      fail(where, "needs \"model\": a file or zoo:NAME");
    base.model = modelSpec(e["model"].get<std::string>());
    base.label = e["model"].get<std::string>();
    std::vector<std::pair<std::string, std::vector<int64_t>>> expand;
    for (const auto& [key, v] : e.items()) {
      const std::string at = where + "." + key;
      if (key == "model") continue;
      if (key == "mode") {
        const std::string m = v.is_string() ? v.get<std::string>() : "";
        if (m == "training") base.load.mode = GraphMode::Training;
        else if (m == "inference") base.load.mode = GraphMode::Inference;
        else fail(at, "expected \"training\" or \"inference\"");
        base.label += " " + m;
      } else if (key == "input_shape") {
        if (!v.is_array() || v.empty()) fail(at, "expected a non-empty list of dimensions");
        for (size_t i = 0; i < v.size(); ++i) {
          const int64_t d = integer(v[i], at + "[" + std::to_string(i) + "]");
          if (d == 0) fail(at, "a dimension of 0");
          base.load.import.inputShape.push_back(d);
        }
      } else if (key == "dims") {
        if (!v.is_object()) fail(at, "expected {\"NAME\": VALUE, ...}");
        for (const auto& [name, d] : v.items()) base.load.import.dims[name] = integer(d, at + "." + name);
      } else if (std::find(std::begin(kIntOptions), std::end(kIntOptions), key) == std::end(kIntOptions)) {
        fail(at, "unknown key (known: model, mode, input_shape, dims, batch, seq_len, layers, hidden, graph_seed)");
      }
    }
    for (const char* key : kIntOptions)  // in kIntOptions' order, whatever the file's
      if (e.contains(key)) expand.emplace_back(key, values(e[key], where + "." + key));
    // every combination of the listed values
    std::vector<size_t> index(expand.size(), 0);
    for (;;) {
      CorpusGraph g = base;
      for (size_t i = 0; i < expand.size(); ++i) {
        const auto& [key, vals] = expand[i];
        const auto x = static_cast<int>(vals[index[i]]);
        if (key == "batch") g.load.zoo.batch = x;
        else if (key == "seq_len") g.load.zoo.seqLen = x;
        else if (key == "layers") g.load.zoo.layers = x;
        else if (key == "hidden") g.load.zoo.hidden = x;
        else g.load.zoo.seed = static_cast<uint64_t>(x);
        g.label += " " + key + "=" + std::to_string(x);
      }
      if (out.size() >= static_cast<size_t>(kMaxCorpusGraphs))
        fail(where, "more than " + std::to_string(kMaxCorpusGraphs) + " graphs in the corpus");
      out.push_back(std::move(g));
      size_t i = expand.size();
      while (i > 0 && ++index[i - 1] == expand[i - 1].second.size()) index[--i] = 0;
      if (i == 0) break;
    }
  }

 private:
  std::string path_;
};

}  // namespace

CorpusSpec parseCorpusSpec(const std::string& text, const std::string& path) {
  const Reader r(path);
  json j = parseJsonText(text, path);
  if (!j.is_object()) r.fail("", "expected a JSON object");
  for (const auto& [key, _] : j.items())
    if (key != "format" && key != "version" && key != "families" && key != "held_out" && key != "clusters" &&
        key != "eval_clusters" && key != "clusters_per_graph")
      r.fail(key, "unknown key (known: format, version, families, held_out, clusters, eval_clusters, "
                  "clusters_per_graph)");
  if (jsonString(j, "format") != "graphplace-corpus") r.fail("format", "expected \"graphplace-corpus\"");
  if (!jsonInteger(j, "version", 1, 1)) r.fail("version", "expected 1");
  if (!j.contains("families") || !j["families"].is_object() || j["families"].empty())
    r.fail("families", "expected an object of family name -> list of models");

  CorpusSpec spec;
  if (j.contains("held_out")) spec.heldOutFamilies = r.names(j["held_out"], "held_out");
  for (const std::string& h : spec.heldOutFamilies)
    if (!j["families"].contains(h)) r.fail("held_out", "no family '" + h + "'");
  const std::set<std::string> heldOut(spec.heldOutFamilies.begin(), spec.heldOutFamilies.end());
  for (const auto& [family, list] : j["families"].items()) {
    const std::string where = "families." + family;
    if (!list.is_array() || list.empty()) r.fail(where, "expected a non-empty list of models");
    auto& out = heldOut.count(family) ? spec.heldOut : spec.train;
    for (size_t i = 0; i < list.size(); ++i) r.entry(list[i], family, where + "[" + std::to_string(i) + "]", out);
    if (spec.train.size() + spec.heldOut.size() > static_cast<size_t>(kMaxCorpusGraphs))
      r.fail(where, "more than " + std::to_string(kMaxCorpusGraphs) + " graphs in the corpus");
  }
  if (spec.train.empty()) r.fail("held_out", "every family is held out: nothing left to train on");
  if (!j.contains("clusters")) r.fail("clusters", "missing: the clusters to train on");
  spec.clusters = r.names(j["clusters"], "clusters");
  if (spec.clusters.empty()) r.fail("clusters", "empty list");
  spec.evalClusters = j.contains("eval_clusters") ? r.names(j["eval_clusters"], "eval_clusters") : spec.clusters;
  if (spec.evalClusters.empty()) r.fail("eval_clusters", "empty list");
  if (j.contains("clusters_per_graph")) {
    const int64_t n = r.integer(j["clusters_per_graph"], "clusters_per_graph");
    if (n < 1 || n > static_cast<int64_t>(spec.clusters.size()))
      r.fail("clusters_per_graph", "must be between 1 and the " + std::to_string(spec.clusters.size()) + " clusters");
    spec.clustersPerGraph = static_cast<int>(n);
  }
  return spec;
}

std::vector<size_t> CorpusSpec::clustersOf(size_t g) const {
  const size_t c = clusters.size();
  const size_t n = clustersPerGraph > 0 ? static_cast<size_t>(clustersPerGraph) : c;
  std::vector<size_t> out;
  for (size_t j = 0; j < n; ++j) out.push_back((n == c ? j : g * n + j) % c);
  return out;
}

CorpusSpec loadCorpusSpec(const std::string& path) {
  return parseCorpusSpec(readFileText(path, "a corpus JSON file"), path);
}

}  // namespace gp

#include "fidelity/published_corpus.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "base/error.h"
#include "base/file_text.h"
#include "base/resource_dir.h"
#include "base/json_text.h"
#include "io/hf_config.h"
#include "parallel/plan_knobs.h"

namespace gp {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "graphplace-published";

const std::map<std::string, std::vector<std::string>>& kernelDims() {
  static const std::map<std::string, std::vector<std::string>> dims{
      {"gemm", {"m", "n", "k"}},
      {"conv", {"n", "c", "h", "w", "k", "r", "s", "stride", "pad"}},
  };
  return dims;
}

class RowParser {
 public:
  RowParser(std::string source, std::string dir) : source_(std::move(source)), dir_(std::move(dir)) {}

  std::vector<PublishedRow> parse(const std::string& text) {
    json j = parseJsonText(text, source_);
    if (!j.is_object()) fail("", "top level must be an object");
    keys(j, "", {"format", "version", "description", "rows"});
    if (!j.contains("format") || j["format"] != kFormat) fail("", std::string("field 'format' must be \"") + kFormat + "\"");
    if (!j.contains("version") || j["version"] != 1) fail("", "field 'version' must be 1");
    if (!j.contains("rows") || !j["rows"].is_array()) fail("", "field 'rows' must be an array");
    std::vector<PublishedRow> rows;
    std::map<std::string, size_t> firstOfTable;
    for (size_t i = 0; i < j["rows"].size(); ++i) {
      rows.push_back(row(j["rows"][i], i));
      const PublishedRow& r = rows.back();
      if (r.table.empty()) continue;
      auto [first, fresh] = firstOfTable.emplace(r.table, i);
      if (!fresh && rows[first->second].split != r.split)
        fail("rows[" + std::to_string(i) + "] ('" + r.name + "')",
             "table '" + r.table + "' is split \"" + splitName(rows[first->second].split) + "\" in row '" +
                 rows[first->second].name + "': a table's rows share one split");
    }
    return rows;
  }

 private:
  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw Error(source_, where.empty() ? problem : where + ": " + problem);
  }

  void keys(const json& o, const std::string& where, std::initializer_list<std::string_view> allowed) const {
    for (auto it = o.begin(); it != o.end(); ++it)
      if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
        fail(where, "unknown field '" + it.key() + "'");
  }

  std::string str(const json& o, const char* key, const std::string& where, bool required = true) const {
    if (!o.contains(key)) {
      if (required) fail(where, std::string("missing field '") + key + "'");
      return {};
    }
    if (!o[key].is_string() || o[key].get<std::string>().empty())
      fail(where, std::string("field '") + key + "' must be a non-empty string");
    return o[key].get<std::string>();
  }

  int64_t count(const json& o, const std::string& key, const std::string& where) const {
    const json& v = o[key];
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > (int64_t{1} << 40))
      fail(where, "field '" + key + "' must be a whole number >= 0, got " + v.dump());
    return v.get<int64_t>();
  }

  double positive(const json& o, const char* key, const std::string& where) const {
    const json& v = o[key];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || !(v.get<double>() > 0))
      fail(where, std::string("field '") + key + "' must be a positive number, got " + v.dump());
    return v.get<double>();
  }

  PublishedRow row(const json& r, size_t i) {
    std::string where = "rows[" + std::to_string(i) + "]";
    if (!r.is_object()) fail(where, "must be an object");
    PublishedRow p;
    p.file = source_;
    p.name = str(r, "name", where);
    where += " ('" + p.name + "')";
    keys(r, where,
         {"name", "source", "split", "hardware", "cluster", "framework", "precision", "workload", "placement", "table",
          "compare", "unit", "items_per_step", "flops", "published", "published_peak_memory_GiB",
          "published_peak_memory", "note"});
    p.source = str(r, "source", where);
    const std::string split = str(r, "split", where);
    if (split != "set" && split != "check") fail(where, "field 'split' must be \"set\" or \"check\", got \"" + split + "\"");
    p.split = split == "set" ? RowSplit::Set : RowSplit::Check;
    p.hardware = str(r, "hardware", where);
    p.cluster = str(r, "cluster", where);
    if (p.cluster.find('/') != std::string::npos || p.cluster.ends_with(".json")) {
      // a file, or "<N>x<FILE>": N servers of a file's (cluster/scaled_cluster.h)
      size_t digits = 0;
      while (digits < p.cluster.size() && std::isdigit(static_cast<unsigned char>(p.cluster[digits]))) ++digits;
      const size_t at = digits > 0 && digits < p.cluster.size() && p.cluster[digits] == 'x' ? digits + 1 : 0;
      const fs::path path(p.cluster.substr(at));
      if (path.is_relative() && !dir_.empty()) p.cluster = p.cluster.substr(0, at) + (fs::path(dir_) / path).string();
    }
    p.framework = str(r, "framework", where);
    if (r.contains("precision")) p.precision = parsePrecision(str(r, "precision", where), source_ + ": " + where);
    workload(r, where, p);
    if (r.contains("placement")) p.placement = str(r, "placement", where);
    if (r.contains("table")) p.table = str(r, "table", where);
    if (r.contains("compare")) {
      const std::string c = str(r, "compare", where);
      if (c != "value" && c != "order") fail(where, "field 'compare' must be \"value\" or \"order\", got \"" + c + "\"");
      p.orderOnly = c == "order";
      if (p.orderOnly && p.table.empty()) fail(where, "'compare': \"order\" needs a 'table'");
    }
    p.unit = str(r, "unit", where);
    if (p.parallel) {
      parallelFigures(r, where, p);
    } else {
      for (const char* k : {"flops", "published_peak_memory_GiB", "published_peak_memory"})
        if (r.contains(k)) fail(where, std::string("field '") + k + "' is for parallel runs (a workload with a 'plan')");
      if (p.unit != "ms" && p.unit != "s" && !isThroughputUnit(p.unit))
        fail(where, "field 'unit' must be \"ms\", \"s\" or a throughput like \"images/s\", got \"" + p.unit + "\"");
      p.unitKind = p.unit == "ms" ? UnitKind::Milliseconds : p.unit == "s" ? UnitKind::Seconds : UnitKind::Throughput;
    }
    if (p.unitKind == UnitKind::Throughput) {
      if (r.contains("items_per_step"))
        p.itemsPerStep = positive(r, "items_per_step", where);
      else if (p.dims.count("batch"))
        p.itemsPerStep = static_cast<double>(p.dims["batch"]);
      else
        fail(where, "a throughput row needs 'items_per_step' or a workload 'batch'");
    }
    if (!r.contains("published")) fail(where, "missing field 'published'");
    if (r["published"].is_string()) {
      if (r["published"] != "OOM" && r["published"] != "fits")
        fail(where, "field 'published' must be a positive number, \"OOM\" or \"fits\"");
      p.ranWithoutFigure = r["published"] == "fits";
      if (p.table.empty())
        fail(where, std::string(p.ranWithoutFigure ? "a \"fits\"" : "an \"OOM\"") + " row needs a 'table' (it only has an order)");
    } else {
      p.published = positive(r, "published", where);
    }
    if (r.contains("note")) p.note = str(r, "note", where);
    return p;
  }

  void workload(const json& r, const std::string& rowWhere, PublishedRow& p) const {
    if (!r.contains("workload") || !r["workload"].is_object()) fail(rowWhere, "field 'workload' must be an object");
    const json& w = r["workload"];
    const std::string where = rowWhere + ".workload";
    if (w.contains("kernel") == w.contains("model")) fail(where, "needs exactly one of 'kernel' and 'model'");
    if (w.contains("kernel")) {
      p.kernel = str(w, "kernel", where);
      auto k = kernelDims().find(p.kernel);
      if (k == kernelDims().end()) fail(where, "unknown kernel '" + p.kernel + "' (gemm or conv)");
      for (auto it = w.begin(); it != w.end(); ++it) {
        if (it.key() == "kernel") continue;
        if (std::find(k->second.begin(), k->second.end(), it.key()) == k->second.end())
          fail(where, "unknown field '" + it.key() + "' for kernel '" + p.kernel + "'");
        p.dims[it.key()] = count(w, it.key(), where);
      }
      for (const std::string& d : k->second)
        if (!p.dims.count(d) && d != "stride" && d != "pad") fail(where, "missing field '" + d + "'");
      if (!p.dims.count("stride")) p.dims["stride"] = 1;
      for (const auto& [d, v] : p.dims)
        if (v == 0 && d != "pad") fail(where, "field '" + d + "' must be at least 1");
      return;
    }
    p.model = str(w, "model", where);
    if (w.contains("plan")) return parallelWorkload(w, where, p);
    if (!p.model.starts_with("zoo:")) fail(where, "field 'model' must name a zoo model (zoo:NAME)");
    keys(w, where, {"model", "batch", "seq_len", "layers", "hidden", "mode"});
    for (const char* d : {"batch", "seq_len", "layers", "hidden"})
      if (w.contains(d)) p.dims[d] = count(w, d, where);
    if (w.contains("mode")) {
      const std::string mode = str(w, "mode", where);
      if (mode != "training" && mode != "inference")
        fail(where, "field 'mode' must be \"training\" or \"inference\", got \"" + mode + "\"");
      p.mode = mode == "inference" ? GraphMode::Inference : GraphMode::Training;
    }
  }

  // {"model": "zoo:NAME" | "hf:CONFIG", "seq_len", "global_batch", "micro_batch",
  //  "plan": {the plan file's knobs but "microbatches" (global batch / (dp x micro-batch)),
  //           "schedule" (default "1f1b"), "zero" (default 0), "recompute": "none" | "selective" | "full"}}
  void parallelWorkload(const json& w, const std::string& where, PublishedRow& p) const {
    keys(w, where, {"model", "seq_len", "global_batch", "micro_batch", "plan"});
    if (isHfSpec(p.model)) {
      const fs::path path(hfConfigPath(p.model));
      if (path.is_relative() && !dir_.empty()) p.model = kHfPrefix + (fs::path(dir_) / path).string();
    } else if (!p.model.starts_with("zoo:")) {
      fail(where, "field 'model' must name a zoo model (zoo:NAME) or a Hugging Face config (hf:PATH)");
    }
    ParallelRun run;
    for (const char* k : {"seq_len", "global_batch", "micro_batch"})
      if (!w.contains(k)) fail(where, std::string("missing field '") + k + "'");
    run.seqLen = count(w, "seq_len", where);
    run.globalBatch = count(w, "global_batch", where);
    run.microBatch = count(w, "micro_batch", where);
    if (run.seqLen < 1 || run.globalBatch < 1 || run.microBatch < 1)
      fail(where, "'seq_len', 'global_batch' and 'micro_batch' must be at least 1");
    const std::string planWhere = where + ".plan";
    if (!w["plan"].is_object()) fail(planWhere, "must be an object");
    json plan = w["plan"];
    if (plan.contains("microbatches"))
      fail(planWhere, "field 'microbatches' is derived (global_batch / (dp x micro_batch)); leave it out");
    for (const char* k : {"stages", "devices"})
      if (plan.contains(k)) fail(planWhere, std::string("field '") + k + "' is not taken: chunks are even, devices in server order");
    if (plan.contains("recompute")) {
      if (!plan["recompute"].is_string()) fail(planWhere, "field 'recompute' must be \"none\", \"selective\" or \"full\"");
      run.recompute = parseRecompute(plan["recompute"].get<std::string>(), source_ + ": " + planWhere);
      plan.erase("recompute");
    }
    if (!plan.contains("schedule")) plan["schedule"] = "1f1b";
    if (!plan.contains("zero")) plan["zero"] = 0;
    const int64_t dp = plan.contains("dp") && plan["dp"].is_number_integer() ? plan["dp"].get<int64_t>() : 0;
    if (dp < 1 || run.globalBatch % (dp * run.microBatch) != 0)
      fail(planWhere, "global_batch " + std::to_string(run.globalBatch) + " is not a multiple of dp x micro_batch");
    plan["microbatches"] = run.globalBatch / (dp * run.microBatch);
    readPlanKnobs(plan, run.plan, source_ + ": " + planWhere);
    p.parallel = run;
  }

  void parallelFigures(const json& r, const std::string& where, PublishedRow& p) const {
    if (r.contains("items_per_step")) fail(where, "field 'items_per_step' is not for parallel runs");
    if (p.unit == "s") p.unitKind = UnitKind::Seconds;
    else if (p.unit == "tokens/s/GPU") p.unitKind = UnitKind::TokensPerGpu;
    else if (p.unit == "TFLOP/s/GPU") p.unitKind = UnitKind::TflopsPerGpu;
    else fail(where, "a parallel run's 'unit' must be \"s\", \"tokens/s/GPU\" or \"TFLOP/s/GPU\", got \"" + p.unit + "\"");
    if (r.contains("flops")) {
      const std::string f = str(r, "flops", where);
      if (f == "megatron-2021") p.parallel->flops = FlopsFormula::Megatron2021;
      else if (f == "megatron-core") p.parallel->flops = FlopsFormula::MegatronCore;
      else fail(where, "field 'flops' must be \"megatron-2021\" or \"megatron-core\", got \"" + f + "\"");
    }
    if ((p.unitKind == UnitKind::TflopsPerGpu) != r.contains("flops"))
      fail(where, "field 'flops' (how the source counts FLOPs) goes with unit \"TFLOP/s/GPU\", and only with it");
    if (p.unitKind == UnitKind::TflopsPerGpu) {
      if (!isHfSpec(p.model)) fail(where, "a \"TFLOP/s/GPU\" row needs an hf: model (the formula reads its shape)");
      const std::string path = hfConfigPath(p.model);
      const HfModel m = parseHfConfig(readFileText(path, "a Hugging Face config"), path);
      if (m.t5) fail(where, "the FLOP formulas are for decoders, and '" + path + "' is a T5");
      p.parallel->flopsPerStep = stepFlops(p.parallel->flops, m.decoder, *p.parallel);
    }
    if (r.contains("published_peak_memory_GiB")) p.parallel->peakMemoryGiB = positive(r, "published_peak_memory_GiB", where);
    if (r.contains("published_peak_memory")) {
      if (!p.parallel->peakMemoryGiB) fail(where, "field 'published_peak_memory' describes 'published_peak_memory_GiB', which is missing");
      const std::string kind = str(r, "published_peak_memory", where);
      const size_t space = kind.find(' ');
      const std::string counts = kind.substr(0, space), rank = space == std::string::npos ? "" : kind.substr(space + 1);
      if ((counts != "allocated" && counts != "reserved") || (rank != "" && rank != "last rank"))
        fail(where, "field 'published_peak_memory' must be \"allocated\" or \"reserved\", optionally followed by \" last rank\", got \"" + kind + "\"");
      p.parallel->peakMemoryReserved = counts == "reserved";
      p.parallel->peakMemoryLastRank = !rank.empty();
    }
  }

  std::string source_, dir_;
};

}  // namespace

bool isThroughputUnit(const std::string& unit) {
  return unit.size() > 2 && unit.ends_with("/s") && unit.find(' ') == std::string::npos;
}

std::vector<PublishedRow> parsePublishedCorpus(const std::string& text, const std::string& source) {
  return RowParser(source, fs::path(source).parent_path().string()).parse(text);
}

const char* splitName(RowSplit s) { return s == RowSplit::Set ? "set" : "check"; }

std::vector<PublishedRow> loadPublishedCorpus(const std::string& fileOrDir) {
  std::error_code ec;
  std::vector<std::string> files;
  if (fs::is_directory(fileOrDir, ec)) {
    for (const auto& e : fs::directory_iterator(fileOrDir, ec))
      if (e.is_regular_file(ec) && e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw Error(fileOrDir, "no corpus files (*.json) in this folder");
  } else {
    files.push_back(fileOrDir);
  }
  std::vector<PublishedRow> all;
  std::map<std::string, std::string> seen;
  std::map<std::string, std::pair<RowSplit, std::string>> tableSplit;  // a table may span files: one split
  for (const std::string& f : files) {
    for (PublishedRow& r : parsePublishedCorpus(readFileText(f, "published measurements"), f)) {
      if (auto [it, fresh] = seen.emplace(r.name, f); !fresh)
        throw Error(f, "row '" + r.name + "': name already used in " + it->second);
      if (!r.table.empty()) {
        auto [t, fresh] = tableSplit.emplace(r.table, std::make_pair(r.split, r.name));
        if (!fresh && t->second.first != r.split)
          throw Error(f, "row '" + r.name + "': table '" + r.table + "' is split \"" + splitName(t->second.first) +
                             "\" in row '" + t->second.second + "' of " + seen[t->second.second] +
                             ": a table's rows share one split");
      }
      all.push_back(std::move(r));
    }
  }
  return all;
}

double stepFlops(FlopsFormula f, const zoo::DecoderConfig& d, const ParallelRun& run) {
  const double B = static_cast<double>(run.globalBatch), s = static_cast<double>(run.seqLen);
  const double l = static_cast<double>(d.layers), h = static_cast<double>(d.hidden), V = static_cast<double>(d.vocab);
  switch (f) {
    case FlopsFormula::None: return 0;
    case FlopsFormula::Megatron2021: return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
    case FlopsFormula::MegatronCore: {
      const double a = static_cast<double>(d.heads), g = static_cast<double>(d.kvHeads);
      const double q = a * static_cast<double>(d.headDim) / h;
      const double k = d.experts > 0 ? static_cast<double>(d.expertsPerToken) : 1.0;
      const double m = d.gatedMlp ? 1.5 : 1.0;
      return 12 * B * s * l * h * h * ((1 + g / a + s / h) * q + static_cast<double>(d.intermediate) / h * k * m + V / (2 * l * h));
    }
  }
  return 0;
}

std::string publishedCorpusDir() { return findResourceDir("published", "tests/data/published"); }

}  // namespace gp

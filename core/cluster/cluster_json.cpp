// parseClusterJson: the cluster file format of docs/formats.md, "Cluster JSON".
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cluster/cluster.h"
#include "cluster/cluster_units.h"
#include "base/error.h"
#include "base/json_text.h"

namespace gp {

using nlohmann::json;

class ClusterParser {
 public:
  explicit ClusterParser(std::string source) : source_(std::move(source)) {}

  Cluster parse(const std::string& text, bool routes = true) {
    json j = parseJsonText(text, source_);
    if (!j.is_object()) fail("", "top level must be an object");
    checkKeys(j, "",
              {"format", "version", "name", "description", "sources", "framework", "device_kinds", "devices", "switches",
               "links"});
    if (j.contains("format") && (!j["format"].is_string() || j["format"] != kClusterFormat))
      fail("", std::string("field 'format' must be \"") + kClusterFormat + "\"");
    if (j.contains("version") && (!j["version"].is_number_integer() || j["version"] != kClusterVersion))
      fail("", "field 'version' must be " + std::to_string(kClusterVersion));
    c_.name_ = str(j, "name", "");
    if (c_.name_.empty()) fail("", "field 'name' must not be empty");
    if (j.contains("description")) c_.description_ = str(j, "description", "");
    if (j.contains("sources")) {
      const json& s = j["sources"];
      if (!s.is_array()) fail("", "field 'sources' must be an array of strings");
      for (size_t i = 0; i < s.size(); ++i) {
        if (!s[i].is_string()) fail("sources[" + std::to_string(i) + "]", "must be a string");
        c_.sources_.push_back(s[i].get<std::string>());
      }
    }
    parseKinds(member(j, "device_kinds", "", json::value_t::object));
    parseDevices(member(j, "devices", "", json::value_t::array));
    c_.setFramework(j.contains("framework") ? parseFramework(j["framework"]) : frameworkPreset("cuda"));
    for (const DeviceSpec& d : c_.devices_)
      if (d.memCapacity <= 0)
        fail("framework", "keeps all of device '" + d.name + "' (" + std::to_string(d.memPhysical >> 20) +
                              " MiB): no memory is left for the model");
    if (j.contains("switches")) parseSwitches(member(j, "switches", "", json::value_t::array));
    parseLinks(member(j, "links", "", json::value_t::array));
    if (routes) c_.computeRoutes(source_);
    return std::move(c_);
  }

 private:
  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw Error(source_, where.empty() ? problem : where + ": " + problem);
  }

  void checkKeys(const json& o, const std::string& where, std::initializer_list<std::string_view> allowed) const {
    for (auto it = o.begin(); it != o.end(); ++it) {
      bool ok = false;
      for (std::string_view a : allowed) ok = ok || it.key() == a;
      if (!ok) fail(where, "unknown field '" + it.key() + "'");
    }
  }

  const json& member(const json& o, const std::string& key, const std::string& where, json::value_t type) const {
    auto it = o.find(key);
    if (it == o.end()) fail(where, "missing field '" + key + "'");
    if (it->type() != type)
      fail(where, "field '" + key + "' must be " + (type == json::value_t::array ? "an array" : "an object"));
    return *it;
  }

  std::string str(const json& o, const std::string& key, const std::string& where) const {
    auto it = o.find(key);
    if (it == o.end()) fail(where, "missing field '" + key + "'");
    if (!it->is_string()) fail(where, "field '" + key + "' must be a string");
    return it->get<std::string>();
  }

  // A finite number > 0 (or >= 0 when zeroOk).
  double num(const json& o, const std::string& key, const std::string& where, bool zeroOk = false) const {
    auto it = o.find(key);
    if (it == o.end()) fail(where, "missing field '" + key + "'");
    if (!it->is_number()) fail(where, "field '" + key + "' must be a number");
    double v = it->get<double>();
    if (!std::isfinite(v) || v < 0 || (v == 0 && !zeroOk))
      fail(where, "field '" + key + "' must be " + (zeroOk ? "non-negative" : "positive") + ", got " + it->dump());
    return v;
  }
  // A memory size in GiB (a finite number > 0, or >= 0 when zeroOk, up to 1 PiB), in bytes.
  int64_t gib(const json& o, const std::string& key, const std::string& where, bool zeroOk = false) const {
    constexpr double kMaxGiB = 1 << 20;
    const double v = num(o, key, where, zeroOk);
    if (v > kMaxGiB) fail(where, "field '" + key + "' must be at most 1048576 (1 PiB), got " + o[key].dump());
    return std::llround(v * kGiB);
  }

  void parseKinds(const json& kinds) {
    if (kinds.empty()) fail("device_kinds", "no device kinds");
    for (auto it = kinds.begin(); it != kinds.end(); ++it) {
      std::string where = "device_kinds['" + it.key() + "']";
      if (!it->is_object()) fail(where, "must be an object");
      const json& k = *it;
      checkKeys(k, where, {"peak_TFLOPS", "memory_bandwidth_GBps", "memory_GiB", "launch_overhead_us", "efficiency",
                           "bandwidth_efficiency", "flash2_attention_share", "sm_count"});
      DeviceSpec d;
      d.kind = it.key();
      const json& peaks = member(k, "peak_TFLOPS", where, json::value_t::object);
      std::array<bool, kNumPeakTypes> given{};
      for (auto p = peaks.begin(); p != peaks.end(); ++p) {
        int t = 0;
        while (t < kNumPeakTypes && peakTypeName(PeakType(t)) != p.key()) ++t;
        if (t == kNumPeakTypes)
          fail(where + ".peak_TFLOPS", "unknown type '" + p.key() + "' (f64 f32 f16 bf16 f8 int8 tf32)");
        d.peak[t] = num(peaks, p.key(), where + ".peak_TFLOPS") * kTera;
        given[t] = true;
      }
      auto idx = [](PeakType t) { return static_cast<size_t>(t); };
      if (!given[idx(PeakType::F32)]) fail(where + ".peak_TFLOPS", "missing field 'f32'");
      for (PeakType t : {PeakType::F64, PeakType::F16, PeakType::BF16, PeakType::I8})
        if (!given[idx(t)]) d.peak[idx(t)] = d.peak[idx(PeakType::F32)];
      if (!given[idx(PeakType::F8)]) d.peak[idx(PeakType::F8)] = d.peak[idx(PeakType::F16)];
      if (!given[idx(PeakType::TF32)]) d.peak[idx(PeakType::TF32)] = d.peak[idx(PeakType::F32)];
      d.memBandwidth = num(k, "memory_bandwidth_GBps", where) * kGiga;
      d.memPhysical = gib(k, "memory_GiB", where);
      d.memCapacity = d.memPhysical;
      if (k.contains("bandwidth_efficiency")) {
        d.bandwidthEfficiency = num(k, "bandwidth_efficiency", where);
        if (d.bandwidthEfficiency < 0.05 || d.bandwidthEfficiency > 1)
          fail(where, "field 'bandwidth_efficiency' must be in [0.05, 1], got " + k["bandwidth_efficiency"].dump());
      }
      d.launchOverhead = num(k, "launch_overhead_us", where, true) * kMicro;
      if (k.contains("flash2_attention_share")) {
        d.flash2Share = num(k, "flash2_attention_share", where);
        if (d.flash2Share < 0.05 || d.flash2Share > 1)
          fail(where, "field 'flash2_attention_share' must be in [0.05, 1], got " + k["flash2_attention_share"].dump());
      }
      if (k.contains("sm_count")) {
        const double sms = num(k, "sm_count", where);
        if (sms < 1 || sms > 4096 || sms != std::floor(sms))
          fail(where, "field 'sm_count' must be a whole number 1 .. 4096, got " + k["sm_count"].dump());
        d.smCount = static_cast<int>(sms);
      }
      if (k.contains("efficiency")) parseEfficiency(member(k, "efficiency", where, json::value_t::object), where, d);
      kinds_.emplace(d.kind, d);
    }
  }

  // "efficiency": {"MatMul": 0.8, "MatMul.f16": 0.65, "Conv": 0.55}: op class names of
  // opClassName(), optionally ".type" with a peak_TFLOPS type; each a fraction in [0.01, 1]
  // (below 1 % of the peak is a typo, not a measurement: it would inflate times 100-fold+).
  void parseEfficiency(const json& eff, const std::string& kindWhere, DeviceSpec& d) const {
    const std::string where = kindWhere + ".efficiency";
    for (auto it = eff.begin(); it != eff.end(); ++it) {
      const std::string& key = it.key();
      const size_t dot = key.find('.');
      const std::string clsName = key.substr(0, dot);
      int c = 0;
      while (c < kNumOpClasses && opClassName(OpClass(c)) != clsName) ++c;
      if (c == kNumOpClasses) {
        std::string names;
        for (int i = 0; i < kNumOpClasses; ++i) {
          if (i) names += ' ';
          names += opClassName(OpClass(i));
        }
        fail(where, "unknown op class '" + clsName + "' (" + names + ", optionally .f32 .f16 ...)");
      }
      int t = -1;
      if (dot != std::string::npos) {
        const std::string typeName = key.substr(dot + 1);
        t = 0;
        while (t < kNumPeakTypes && peakTypeName(PeakType(t)) != typeName) ++t;
        if (t == kNumPeakTypes)
          fail(where, "unknown type '" + typeName + "' in '" + key + "' (f64 f32 f16 bf16 f8 int8 tf32)");
      }
      if (!it->is_number()) fail(where, "field '" + key + "' must be a number");
      const double v = it->get<double>();
      if (!std::isfinite(v) || !(v >= 0.01) || v > 1)
        fail(where, "field '" + key + "' must be in [0.01, 1], got " + it->dump());
      if (t < 0)
        d.classEfficiency[static_cast<size_t>(c)] = v;
      else
        d.typedEfficiency[static_cast<size_t>(c)][static_cast<size_t>(t)] = v;
    }
  }

  // "framework": a preset name, or {"name", "op_overhead_us", "reserved_memory_GiB",
  // "fragmentation"} (each optional; "preset" starts from a preset's values).
  FrameworkSpec parseFramework(const json& f) const {
    if (f.is_string()) return frameworkPreset(f.get<std::string>(), source_ + ": framework");
    if (!f.is_object()) fail("framework", "must be a preset name or an object");
    checkKeys(f, "framework", {"name", "preset", "op_overhead_us", "reserved_memory_GiB", "fragmentation"});
    FrameworkSpec spec = f.contains("preset") ? frameworkPreset(str(f, "preset", "framework"), source_ + ": framework")
                                              : frameworkPreset("cuda");
    if (f.contains("name")) spec.name = str(f, "name", "framework");
    if (f.contains("op_overhead_us")) spec.opOverhead = num(f, "op_overhead_us", "framework", true) * kMicro;
    if (f.contains("reserved_memory_GiB"))
      spec.reservedMemory = gib(f, "reserved_memory_GiB", "framework", true);
    if (f.contains("fragmentation")) {
      spec.fragmentation = num(f, "fragmentation", "framework", true);
      if (spec.fragmentation > 1) fail("framework", "field 'fragmentation' must be in [0, 1], got " + f["fragmentation"].dump());
    }
    if (spec.opOverhead > 1e-3) fail("framework", "field 'op_overhead_us' must be at most 1000");
    return spec;
  }

  void addVertex(const std::string& name, const std::string& kind, const std::string& where) {
    if (name.empty()) fail(where, "field 'name' must not be empty");
    if (!vertex_.emplace(name, c_.numVertices()).second) fail(where, "duplicate name '" + name + "'");
    c_.vertexName_.push_back(name);
    c_.vertexKind_.push_back(kind);
  }

  void parseDevices(const json& devs) {
    if (devs.empty()) fail("devices", "no devices");
    for (size_t i = 0; i < devs.size(); ++i) {
      std::string where = "devices[" + std::to_string(i) + "]";
      if (!devs[i].is_object()) fail(where, "must be an object");
      checkKeys(devs[i], where, {"name", "kind"});
      std::string name = str(devs[i], "name", where);
      std::string kind = str(devs[i], "kind", where);
      where += " ('" + name + "')";
      auto k = kinds_.find(kind);
      if (k == kinds_.end()) fail(where, "unknown kind '" + kind + "' (not in device_kinds)");
      DeviceSpec d = k->second;
      d.name = name;
      d.node = c_.numVertices();
      addVertex(name, kind, where);
      c_.devices_.push_back(std::move(d));
    }
  }

  void parseSwitches(const json& sw) {
    for (size_t i = 0; i < sw.size(); ++i) {
      std::string where = "switches[" + std::to_string(i) + "]";
      if (!sw[i].is_object()) fail(where, "must be an object");
      checkKeys(sw[i], where, {"name", "kind"});
      std::string name = str(sw[i], "name", where);
      addVertex(name, str(sw[i], "kind", where), where + " ('" + name + "')");
    }
  }

  void parseLinks(const json& links) {
    std::set<std::pair<int, int>> seen;
    for (size_t i = 0; i < links.size(); ++i) {
      std::string where = "links[" + std::to_string(i) + "]";
      const json& l = links[i];
      if (!l.is_object()) fail(where, "must be an object");
      checkKeys(l, where, {"between", "kind", "bandwidth_GBps", "latency_us"});
      const json& ends = member(l, "between", where, json::value_t::array);
      if (ends.size() != 2 || !ends[0].is_string() || !ends[1].is_string())
        fail(where, "field 'between' must be two vertex names");
      int v[2];
      for (int e = 0; e < 2; ++e) {
        auto it = vertex_.find(ends[e].get<std::string>());
        if (it == vertex_.end()) fail(where, "unknown vertex '" + ends[e].get<std::string>() + "'");
        v[e] = it->second;
      }
      where += " (" + c_.vertexName_[v[0]] + " - " + c_.vertexName_[v[1]] + ")";
      if (v[0] == v[1]) fail(where, "a link must join two different vertices");
      if (!seen.emplace(std::min(v[0], v[1]), std::max(v[0], v[1])).second)
        fail(where, "duplicate link (give parallel links as one link with their summed bandwidth)");
      Channel ch;
      ch.kind = str(l, "kind", where);
      ch.bandwidth = num(l, "bandwidth_GBps", where) * kGiga;
      ch.latency = num(l, "latency_us", where, true) * kMicro;
      for (int dir = 0; dir < 2; ++dir) {
        ch.from = v[dir];
        ch.to = v[1 - dir];
        ch.name = c_.vertexName_[ch.from] + "->" + c_.vertexName_[ch.to];
        c_.channels_.push_back(ch);
      }
    }
  }

  std::string source_;
  Cluster c_;
  std::map<std::string, DeviceSpec> kinds_;
  std::map<std::string, int, std::less<>> vertex_;
};

Cluster parseClusterJson(const std::string& text, const std::string& source) {
  return ClusterParser(source).parse(text);
}

Cluster parseClusterJson(const std::string& text, const std::string& source, std::shared_ptr<const ServerRoutes> routes) {
  Cluster c = ClusterParser(source).parse(text, false);
  const ServerRoutes& r = *routes;
  if (c.numDevices() != r.servers * r.perServer || c.numChannels() < r.servers * r.blockChannels)
    throw Error(source, "the cluster does not have the servers its routes are for");
  c.serverRoutes_ = std::move(routes);
  return c;
}

}  // namespace gp

#include "cluster/cluster.h"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <queue>
#include <tuple>

#include "cluster/cluster_units.h"
#include "base/error.h"

namespace gp {

std::string_view peakTypeName(PeakType t) {
  static constexpr std::array<std::string_view, kNumPeakTypes> kNames{"f64", "f32", "f16", "bf16", "f8", "int8", "tf32"};
  return kNames.at(static_cast<size_t>(t));
}

PeakType peakTypeOf(DType t) {
  switch (t) {
    case DType::F16:
      return PeakType::F16;
    case DType::BF16:
      return PeakType::BF16;
    case DType::F64:
    case DType::Complex64:
      return PeakType::F64;
    case DType::F8:
      return PeakType::F8;
    case DType::I8:
    case DType::U8:
      return PeakType::I8;
    default:
      return PeakType::F32;
  }
}

bool DeviceSpec::listsEfficiency() const {
  for (int c = 0; c < kNumOpClasses; ++c) {
    if (classEfficiency[c] > 0) return true;
    for (double e : typedEfficiency[c])
      if (e > 0) return true;
  }
  return false;
}

int Cluster::findDevice(std::string_view name) const {
  for (int d = 0; d < numDevices(); ++d)
    if (devices_[d].name == name) return d;
  return -1;
}

// Dijkstra from every device by (total latency, hops, vertex); devices other than the source
// are endpoints only. Relaxation keeps the first-found path on ties, and channels are scanned
// in index order, so routes depend only on the file.
void Cluster::computeRoutes(const std::string& source) {
  const int nv = numVertices();
  const int nd = numDevices();
  std::vector<std::vector<int>> out(static_cast<size_t>(nv));
  for (int c = 0; c < numChannels(); ++c) out[static_cast<size_t>(channels_[c].from)].push_back(c);

  routeOff_.assign(1, 0);
  routeData_.clear();
  routeLatency_.assign(static_cast<size_t>(nd) * nd, 0.0);
  routeBandwidth_.assign(static_cast<size_t>(nd) * nd, 0.0);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> lat(static_cast<size_t>(nv));
  std::vector<int> hops(static_cast<size_t>(nv)), via(static_cast<size_t>(nv));
  std::vector<char> done(static_cast<size_t>(nv));
  std::vector<int> path;
  using Item = std::tuple<double, int, int>;  // latency, hops, vertex
  for (int a = 0; a < nd; ++a) {
    std::fill(lat.begin(), lat.end(), kInf);
    std::fill(hops.begin(), hops.end(), 0);
    std::fill(via.begin(), via.end(), -1);
    std::fill(done.begin(), done.end(), 0);
    std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
    const int src = devices_[a].node;
    lat[src] = 0;
    pq.emplace(0.0, 0, src);
    while (!pq.empty()) {
      auto [l, h, v] = pq.top();
      pq.pop();
      if (done[v]) continue;
      done[v] = 1;
      if (v != src && v < nd) continue;  // a device is never a transit vertex
      for (int c : out[v]) {
        const Channel& ch = channels_[c];
        double nl = l + ch.latency;
        int nh = h + 1;
        if (nl < lat[ch.to] || (nl == lat[ch.to] && nh < hops[ch.to])) {
          lat[ch.to] = nl;
          hops[ch.to] = nh;
          via[ch.to] = c;
          pq.emplace(nl, nh, ch.to);
        }
      }
    }
    for (int b = 0; b < nd; ++b) {
      size_t i = pairIndex(a, b);
      if (a != b) {
        const int dst = devices_[b].node;
        if (via[dst] < 0)
          throw Error(source, "devices '" + devices_[a].name + "' and '" + devices_[b].name + "' are not connected");
        path.clear();
        double bw = kInf;
        for (int v = dst; v != src; v = channels_[via[v]].from) {
          path.push_back(via[v]);
          bw = std::min(bw, channels_[via[v]].bandwidth);
        }
        routeData_.insert(routeData_.end(), path.rbegin(), path.rend());
        routeLatency_[i] = lat[dst];
        routeBandwidth_[i] = bw;
      }
      routeOff_.push_back(static_cast<int32_t>(routeData_.size()));
    }
  }
}

namespace {

// A preset by name when it is one unchanged, else its fields.
nlohmann::ordered_json frameworkJson(const FrameworkSpec& f) {
  for (const std::string& n : frameworkPresetNames()) {
    const FrameworkSpec p = frameworkPreset(n);
    if (p.name == f.name && p.opOverhead == f.opOverhead && p.reservedMemory == f.reservedMemory &&
        p.fragmentation == f.fragmentation)
      return f.name;
  }
  nlohmann::ordered_json j;
  j["name"] = f.name;
  j["op_overhead_us"] = f.opOverhead / kMicro;
  j["reserved_memory_GiB"] = static_cast<double>(f.reservedMemory) / kGiB;
  j["fragmentation"] = f.fragmentation;
  return j;
}

}  // namespace

std::string Cluster::toJson() const {
  using nlohmann::ordered_json;
  ordered_json j;
  j["format"] = kClusterFormat;
  j["version"] = kClusterVersion;
  j["name"] = name_;
  if (!description_.empty()) j["description"] = description_;
  j["sources"] = sources_;
  j["framework"] = frameworkJson(framework_);
  ordered_json kinds = ordered_json::object();
  std::map<std::string, const DeviceSpec*> byKind;
  for (const DeviceSpec& d : devices_) byKind.emplace(d.kind, &d);
  for (const auto& [kind, d] : byKind) {
    ordered_json peaks = ordered_json::object();
    for (int p = 0; p < kNumPeakTypes; ++p) peaks[std::string(peakTypeName(PeakType(p)))] = d->peak[p] / kTera;
    ordered_json k;
    k["peak_TFLOPS"] = peaks;
    k["memory_bandwidth_GBps"] = d->memBandwidth / kGiga;
    k["memory_GiB"] = static_cast<double>(d->memPhysical) / kGiB;
    k["launch_overhead_us"] = d->launchOverhead / kMicro;
    if (d->bandwidthEfficiency > 0) k["bandwidth_efficiency"] = d->bandwidthEfficiency;
    if (d->flash2Share != 1) k["flash2_attention_share"] = d->flash2Share;
    if (d->smCount > 0) k["sm_count"] = d->smCount;
    if (d->listsEfficiency()) {
      ordered_json eff = ordered_json::object();
      for (int c = 0; c < kNumOpClasses; ++c) {
        const std::string cls(opClassName(OpClass(c)));
        if (d->classEfficiency[c] > 0) eff[cls] = d->classEfficiency[c];
        for (int p = 0; p < kNumPeakTypes; ++p)
          if (d->typedEfficiency[c][p] > 0)
            eff[cls + "." + std::string(peakTypeName(PeakType(p)))] = d->typedEfficiency[c][p];
      }
      k["efficiency"] = eff;
    }
    kinds[kind] = k;
  }
  j["device_kinds"] = kinds;
  ordered_json devs = ordered_json::array();
  for (const DeviceSpec& d : devices_) devs.push_back({{"name", d.name}, {"kind", d.kind}});
  j["devices"] = devs;
  ordered_json sw = ordered_json::array();
  for (int v = numDevices(); v < numVertices(); ++v) sw.push_back({{"name", vertexName_[v]}, {"kind", vertexKind_[v]}});
  j["switches"] = sw;
  ordered_json links = ordered_json::array();
  for (int c = 0; c + 1 < numChannels(); c += 2) {
    const Channel& ch = channels_[c];
    ordered_json l;
    l["between"] = {vertexName_[ch.from], vertexName_[ch.to]};
    l["kind"] = ch.kind;
    l["bandwidth_GBps"] = ch.bandwidth / kGiga;
    l["latency_us"] = ch.latency / kMicro;
    links.push_back(l);
  }
  j["links"] = links;
  return j.dump(2) + "\n";
}

}  // namespace gp

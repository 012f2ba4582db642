#include "profile/profile_output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "cluster/cluster_units.h"
#include "base/error.h"
#include "profile/gpu_peaks.h"

namespace gp {
namespace {

using nlohmann::ordered_json;

// `digits` significant digits: the files stay readable and the numbers are not more precise
// than that (measured figures: 4; the memory size: 6).
double sig(double v, int digits) {
  if (v == 0 || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::abs(v)))));
  return std::round(v * scale) / scale;
}
double sig4(double v) {
  return sig(v, 4);
}

std::string deviceName(const ProfileResult& r, int d) {
  return "gpu" + std::to_string(r.devices[d].gpu.ordinal);
}

double throughput(const KernelBench& k) {
  return k.kernelSeconds > 0 ? k.flops / k.kernelSeconds : 0;
}
double bandwidthOf(const KernelBench& k) {
  return k.kernelSeconds > 0 ? k.bytes / k.kernelSeconds : 0;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string percent(double fraction) {
  return fmt("%.0f%%", fraction * 100);
}

// A measured efficiency as the cluster file takes it: in [0.01, 1], 4 significant digits.
double fileEfficiency(double e) {
  return std::clamp(sig4(e), 0.01, 1.0);  // the cluster format's range
}

// device_kinds.K.efficiency: MatMul and Conv, the f32 measurement under the class name (the
// fallback for unlisted types) and each other measured type as "Class.type".
ordered_json efficiencyJson(const KindSummary& k) {
  ordered_json eff = ordered_json::object();
  const auto f32 = static_cast<size_t>(PeakType::F32);
  for (auto [cls, perType] :
       {std::pair{OpClass::MatMul, &k.matmulEfficiency}, std::pair{OpClass::Conv, &k.convEfficiency}}) {
    const std::string name(opClassName(cls));
    if (auto e = (*perType)[f32]; e && *e > 0) eff[name] = fileEfficiency(*e);
    for (int t = 0; t < kNumPeakTypes; ++t)
      if (auto e = (*perType)[t]; e && *e > 0 && t != static_cast<int>(f32))
        eff[name + "." + std::string(peakTypeName(PeakType(t)))] = fileEfficiency(*e);
  }
  return eff;
}

}  // namespace

ProfileSummary summarizeProfile(const ProfileResult& r) {
  ProfileSummary s;
  if (r.devices.empty()) throw Error("profile", "no GPU was profiled");
  std::map<std::string, int> kindIndex;
  for (int d = 0; d < static_cast<int>(r.devices.size()); ++d) {
    const GpuInfo& g = r.devices[d].gpu;
    const std::string kind = deviceKindName(g.name, g.memoryBytes);
    auto [it, fresh] = kindIndex.emplace(kind, static_cast<int>(s.kinds.size()));
    if (fresh) {
      s.kinds.emplace_back();
      s.kinds.back().kind = kind;
      s.kinds.back().memoryBytes = g.memoryBytes;
    }
    KindSummary& k = s.kinds[it->second];
    k.devices.push_back(d);
    k.memoryBytes = std::min(k.memoryBytes, g.memoryBytes);
    s.kindOf.push_back(it->second);
  }

  for (KindSummary& k : s.kinds) {
    std::vector<double> bw, launch;
    std::array<double, kNumOpClasses> bestBandwidth{};
    const GpuInfo* first = nullptr;
    for (int d : k.devices) {
      const DeviceProfile& p = r.devices[d];
      if (!p.measured) continue;
      if (!first) first = &p.gpu;
      if (!(p.memBandwidth > 0) || !(p.launchOverhead > 0))
        throw Error("profile", deviceName(r, d) + " has no memory bandwidth or launch overhead measured");
      bw.push_back(p.memBandwidth);
      launch.push_back(p.launchOverhead);
      for (const KernelBench& b : p.kernels) {
        const auto t = static_cast<size_t>(peakTypeOf(b.dtype));
        if (b.opClass == OpClass::MatMul) k.bestMatMul[t] = std::max(k.bestMatMul[t], throughput(b));
        const auto c = static_cast<size_t>(b.opClass);
        if (b.opClass == OpClass::Elementwise || b.opClass == OpClass::Reduction)
          bestBandwidth[c] = std::max(bestBandwidth[c], bandwidthOf(b));
      }
    }
    if (!first) throw Error("profile", "no GPU of kind " + k.kind + " was measured");
    k.memBandwidth = median(bw);
    k.launchOverhead = median(launch);
    k.smCount = first->multiprocessors;
    if (auto peaks = theoreticalPeaks(first->ccMajor, first->ccMinor, first->multiprocessors, first->smClockHz)) {
      k.peak = *peaks;
      k.peakFromTable = true;
    } else {
      k.peak = k.bestMatMul;
    }
    const auto f32 = static_cast<size_t>(PeakType::F32);
    if (!(k.peak[f32] > 0))
      throw Error("profile",
                  "no f32 peak for " + k.kind + ": its architecture is unknown and no f32 GEMM was measured");
    for (int t = 0; t < kNumPeakTypes; ++t)
      if (k.bestMatMul[t] > 0 && k.peak[t] > 0) k.matmulEfficiency[t] = k.bestMatMul[t] / k.peak[t];
    k.efficiency[static_cast<size_t>(OpClass::MatMul)] = k.matmulEfficiency[f32];
    // Conv: the best f32 convolution against the f32 peak; without one, the best other type
    // against its own peak.
    std::optional<double> convF32, convOther;
    for (int d : k.devices)
      for (const KernelBench& b : r.devices[d].kernels) {
        const double peak = k.peak[static_cast<size_t>(peakTypeOf(b.dtype))];
        if (b.opClass != OpClass::Conv || !r.devices[d].measured || !(peak > 0) || !(throughput(b) > 0)) continue;
        std::optional<double>& slot = b.dtype == DType::F32 ? convF32 : convOther;
        slot = std::max(slot.value_or(0), throughput(b) / peak);
        std::optional<double>& typed = k.convEfficiency[static_cast<size_t>(peakTypeOf(b.dtype))];
        typed = std::max(typed.value_or(0), throughput(b) / peak);
      }
    k.efficiency[static_cast<size_t>(OpClass::Conv)] = convF32 ? convF32 : convOther;
    for (OpClass c : {OpClass::Elementwise, OpClass::Reduction}) {
      const auto i = static_cast<size_t>(c);
      if (bestBandwidth[i] > 0) k.bandwidthFraction[i] = bestBandwidth[i] / k.memBandwidth;
    }
  }

  const int n = static_cast<int>(r.devices.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const PeerProfile *ab = nullptr, *ba = nullptr;
      for (const PeerProfile& p : r.peers) {
        if (p.src == a && p.dst == b && !p.samples.empty()) ab = &p;
        if (p.src == b && p.dst == a && !p.samples.empty()) ba = &p;
      }
      if (!ab && !ba)
        throw Error("profile", "no transfers were measured between " + deviceName(r, a) + " and " + deviceName(r, b));
      LinkSummary l;
      l.a = a;
      l.b = b;
      try {
        l.ab = fitLatencyBandwidth(medianPerSize((ab ? ab : ba)->samples));
        l.ba = fitLatencyBandwidth(medianPerSize((ba ? ba : ab)->samples));
      } catch (const Error& e) {
        throw Error("profile", deviceName(r, a) + " <-> " + deviceName(r, b) + ": " + e.problem());
      }
      l.peerAccess = (ab ? ab->peerAccess : true) && (ba ? ba->peerAccess : true);
      l.bandwidth = std::min(l.ab.bandwidth, l.ba.bandwidth);
      l.latency = 0.5 * (l.ab.latency + l.ba.latency);
      s.links.push_back(l);
    }
  return s;
}

std::string profileClusterJson(const ProfileResult& r, const ProfileSummary& s, const std::string& name) {
  if (name.empty()) throw Error("profile", "the cluster needs a name");
  ordered_json j;
  j["format"] = kClusterFormat;
  j["version"] = kClusterVersion;
  j["name"] = name;
  std::string desc =
      "Measured by graphplace-cli profile" + (r.hostName.empty() ? "" : " on " + r.hostName) + ": " +
      std::to_string(r.devices.size()) + " GPU(s). Peaks: " +
      "SMs x max SM clock x FLOP per clock of the architecture (the best measured GEMM where the "
      "architecture is unknown); memory bandwidth: device-to-device copy, bytes read + written; "
      "launch overhead: start-to-start of back-to-back empty kernels; efficiency: best measured GEMM / "
      "convolution FLOP/s over the peak, per type (\"MatMul\" = f32; classes not listed keep the cost "
      "model's defaults); links: latency + bytes/bandwidth fitted to peer copies of 2^0.. bytes (slower "
      "direction's bandwidth, mean latency).";
  j["description"] = desc;
  ordered_json sources = ordered_json::array();
  sources.push_back("graphplace-cli profile, CUDA driver " + r.driverVersion + ", runtime " + r.runtimeVersion +
                    ", timer " + r.timer + (r.timerNote.empty() ? "" : " (" + r.timerNote + ")"));
  for (const KindSummary& k : s.kinds) {
    std::string line = k.kind + " measured: GEMM";
    for (int t = 0; t < kNumPeakTypes; ++t)
      if (k.matmulEfficiency[t]) {
        line += ' ';
        line += peakTypeName(PeakType(t));
        line +=
            ' ' + fmt("%.4g", k.bestMatMul[t] / kTera) + " TFLOP/s (" + percent(*k.matmulEfficiency[t]) + " of peak)";
      }
    if (auto e = k.efficiency[static_cast<size_t>(OpClass::Conv)]) line += ", Conv efficiency " + fmt("%.2f", *e);
    line += ", copy bandwidth " + fmt("%.4g", k.memBandwidth / kGiga) + " GB/s, launch " +
            fmt("%.3g", k.launchOverhead / kMicro) + " us";
    sources.push_back(line);
  }
  j["sources"] = sources;
  ordered_json kinds = ordered_json::object();
  for (const KindSummary& k : s.kinds) {
    ordered_json peaks = ordered_json::object();
    for (int t = 0; t < kNumPeakTypes; ++t)
      if (k.peak[t] > 0) peaks[std::string(peakTypeName(PeakType(t)))] = sig4(k.peak[t] / kTera);
    kinds[k.kind] = {{"peak_TFLOPS", peaks},
                     {"memory_bandwidth_GBps", sig4(k.memBandwidth / kGiga)},
                     {"memory_GiB", sig(static_cast<double>(k.memoryBytes) / kGiB, 6)},
                     {"launch_overhead_us", sig4(k.launchOverhead / kMicro)}};
    if (k.smCount > 0) kinds[k.kind]["sm_count"] = k.smCount;
    ordered_json eff = efficiencyJson(k);
    if (!eff.empty()) kinds[k.kind]["efficiency"] = eff;
  }
  j["device_kinds"] = kinds;
  ordered_json devs = ordered_json::array();
  for (int d = 0; d < static_cast<int>(r.devices.size()); ++d)
    devs.push_back({{"name", deviceName(r, d)}, {"kind", s.kinds[s.kindOf[d]].kind}});
  j["devices"] = devs;
  ordered_json links = ordered_json::array();
  for (const LinkSummary& l : s.links)
    links.push_back({{"between", {deviceName(r, l.a), deviceName(r, l.b)}},
                     {"kind", l.peerAccess ? "P2P" : "via-host"},
                     {"bandwidth_GBps", sig4(l.bandwidth / kGiga)},
                     {"latency_us", sig4(l.latency / kMicro)}});
  j["links"] = links;
  return j.dump(2) + "\n";
}

CalibrationTable profileCalibration(const ProfileResult& r, const ProfileSummary& s) {
  struct Group {
    CalibrationTable::Entry entry;
    std::vector<double> seconds;
  };
  std::vector<Group> groups;
  std::map<std::string, size_t> index;
  for (int d = 0; d < static_cast<int>(r.devices.size()); ++d) {
    const DeviceProfile& p = r.devices[d];
    if (!p.measured) continue;
    for (const KernelBench& b : p.kernels) {
      if (!b.calibrate || !(b.seconds > 0)) continue;
      CalibrationTable::Entry e{b.opType, {}, b.dtype, s.kinds[s.kindOf[d]].kind, 0};
      for (const auto& sh : b.inputShapes) e.inputShapes.emplace_back(sh);
      const std::string sig = CalibrationTable::signature(e);
      auto [it, fresh] = index.emplace(sig, groups.size());
      if (fresh) groups.push_back({std::move(e), {}});
      groups[it->second].seconds.push_back(b.seconds);
    }
  }
  CalibrationTable t;
  for (Group& g : groups) {
    g.entry.seconds = median(g.seconds);
    t.add(std::move(g.entry));
  }
  return t;
}

std::string profileCalibrationJson(const ProfileResult& r, const CalibrationTable& t) {
  ordered_json j = ordered_json::parse(t.toJson());
  ordered_json out;
  out["format"] = j["format"];
  out["version"] = j["version"];
  out["description"] = "graphplace-cli profile" + (r.hostName.empty() ? "" : " on " + r.hostName) + ", timer " +
                       r.timer + ": median start-to-start time of back-to-back repetitions, launch included";
  out["entries"] = j["entries"];
  return out.dump(1) + "\n";
}

std::string profileReportJson(const ProfileResult& r, const ProfileSummary& s) {
  ordered_json j;
  j["host"] = r.hostName;
  j["timer"] = r.timer;
  if (!r.timerNote.empty()) j["timer_note"] = r.timerNote;
  j["driver"] = r.driverVersion;
  j["runtime"] = r.runtimeVersion;
  j["wall_seconds"] = sig4(r.wallSeconds);
  ordered_json devs = ordered_json::array();
  for (int d = 0; d < static_cast<int>(r.devices.size()); ++d) {
    const DeviceProfile& p = r.devices[d];
    ordered_json benches = ordered_json::array();
    for (const KernelBench& b : p.kernels)
      benches.push_back({{"label", b.label},
                         {"op_type", b.opType},
                         {"class", std::string(opClassName(b.opClass))},
                         {"dtype", std::string(dtypeName(b.dtype))},
                         {"input_shapes", b.inputShapes},
                         {"flops", b.flops},
                         {"bytes", b.bytes},
                         {"seconds", b.seconds},
                         {"kernel_seconds", b.kernelSeconds},
                         {"TFLOPS", sig4(throughput(b) / kTera)},
                         {"GBps", sig4(bandwidthOf(b) / kGiga)},
                         {"repetitions", b.repetitions},
                         {"kernels_per_repetition", b.kernelsPerRepetition}});
    devs.push_back({{"name", deviceName(r, d)},
                    {"gpu", p.gpu.name},
                    {"kind", s.kinds[s.kindOf[d]].kind},
                    {"pci_bus_id", p.gpu.pciBusId},
                    {"compute_capability", std::to_string(p.gpu.ccMajor) + "." + std::to_string(p.gpu.ccMinor)},
                    {"multiprocessors", p.gpu.multiprocessors},
                    {"sm_clock_MHz", sig4(p.gpu.smClockHz * 1e-6)},
                    {"memory_GiB", sig4(static_cast<double>(p.gpu.memoryBytes) / kGiB)},
                    {"measured", p.measured},
                    {"memory_bandwidth_GBps", sig4(p.memBandwidth / kGiga)},
                    {"launch_overhead_us", sig4(p.launchOverhead / kMicro)},
                    {"empty_kernel_us", sig4(p.emptyKernelSeconds / kMicro)},
                    {"benchmarks", benches}});
  }
  j["devices"] = devs;
  ordered_json kinds = ordered_json::array();
  for (const KindSummary& k : s.kinds) {
    ordered_json peaks = ordered_json::object(), best = ordered_json::object(), me = ordered_json::object();
    for (int t = 0; t < kNumPeakTypes; ++t) {
      const std::string tn(peakTypeName(PeakType(t)));
      if (k.peak[t] > 0) peaks[tn] = sig4(k.peak[t] / kTera);
      if (k.bestMatMul[t] > 0) best[tn] = sig4(k.bestMatMul[t] / kTera);
      if (k.matmulEfficiency[t]) me[tn] = sig4(*k.matmulEfficiency[t]);
    }
    ordered_json eff = ordered_json::object(), frac = ordered_json::object();
    for (int c = 0; c < kNumOpClasses; ++c) {
      const std::string cn(opClassName(OpClass(c)));
      if (k.efficiency[c]) eff[cn] = sig4(*k.efficiency[c]);
      if (k.bandwidthFraction[c]) frac[cn] = sig4(*k.bandwidthFraction[c]);
    }
    kinds.push_back({{"kind", k.kind},
                     {"peak_TFLOPS", peaks},
                     {"peak_source", k.peakFromTable ? "architecture table" : "best measured GEMM"},
                     {"matmul_TFLOPS", best},
                     {"matmul_efficiency", me},
                     {"efficiency", eff},
                     {"bandwidth_fraction", frac},
                     {"memory_bandwidth_GBps", sig4(k.memBandwidth / kGiga)},
                     {"launch_overhead_us", sig4(k.launchOverhead / kMicro)}});
  }
  j["kinds"] = kinds;
  ordered_json links = ordered_json::array();
  for (const LinkSummary& l : s.links) {
    auto fitJson = [&](const LinkFit& f, int from, int to) {
      return ordered_json{{"from", deviceName(r, from)},
                          {"to", deviceName(r, to)},
                          {"latency_us", sig4(f.latency / kMicro)},
                          {"bandwidth_GBps", sig4(f.bandwidth / kGiga)},
                          {"max_relative_error", sig4(f.maxRelativeError)},
                          {"sizes", f.distinctSizes}};
    };
    links.push_back({{"between", {deviceName(r, l.a), deviceName(r, l.b)}},
                     {"peer_access", l.peerAccess},
                     {"bandwidth_GBps", sig4(l.bandwidth / kGiga)},
                     {"latency_us", sig4(l.latency / kMicro)},
                     {"fits", {fitJson(l.ab, l.a, l.b), fitJson(l.ba, l.b, l.a)}}});
  }
  j["links"] = links;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string profileSummaryText(const ProfileResult& r, const ProfileSummary& s) {
  std::string out = "profiled " + std::to_string(r.devices.size()) + " GPU(s)" +
                    (r.hostName.empty() ? "" : " on " + r.hostName) + " in " + fmt("%.1f", r.wallSeconds) +
                    " s (timer: " + r.timer + (r.timerNote.empty() ? "" : ", " + r.timerNote) + ")\n";
  for (int d = 0; d < static_cast<int>(r.devices.size()); ++d) {
    const GpuInfo& g = r.devices[d].gpu;
    out += "  " + deviceName(r, d) + "  " + g.name + "  (" + s.kinds[s.kindOf[d]].kind + ", sm_" +
           std::to_string(g.ccMajor) + std::to_string(g.ccMinor) + ", " + std::to_string(g.multiprocessors) + " SMs, " +
           fmt("%.0f", g.smClockHz * 1e-6) + " MHz, " + fmt("%.1f", static_cast<double>(g.memoryBytes) / kGiB) +
           " GiB)\n";
  }
  for (const KindSummary& k : s.kinds) {
    out += k.kind + std::string(k.peakFromTable ? "" : "  (architecture not in the table: peaks = best measured)") +
           "\n  GEMM           ";
    for (int t = 0; t < kNumPeakTypes; ++t)
      if (k.bestMatMul[t] > 0) {
        out += ' ';
        out += peakTypeName(PeakType(t));
        out += ' ' + fmt("%.4g", k.bestMatMul[t] / kTera) + " TFLOP/s";
        if (k.matmulEfficiency[t])
          out += " (" + percent(*k.matmulEfficiency[t]) + " of " + fmt("%.4g", k.peak[t] / kTera) + ")";
        out += "  ";
      }
    out += "\n";
    if (auto e = k.efficiency[static_cast<size_t>(OpClass::Conv)]) out += "  Conv efficiency " + percent(*e) + "\n";
    out += "  memory bandwidth " + fmt("%.4g", k.memBandwidth / kGiga) + " GB/s (device copy)";
    for (OpClass c : {OpClass::Elementwise, OpClass::Reduction})
      if (auto f = k.bandwidthFraction[static_cast<size_t>(c)])
        out += ", " + std::string(opClassName(c)) + " " + percent(*f) + " of it";
    out += "\n  launch overhead " + fmt("%.3g", k.launchOverhead / kMicro) + " us\n";
  }
  if (!s.links.empty()) out += "links (latency + bytes / bandwidth)\n";
  for (const LinkSummary& l : s.links)
    out += "  " + deviceName(r, l.a) + " <-> " + deviceName(r, l.b) + "  " + (l.peerAccess ? "P2P" : "via host") +
           "  latency " + fmt("%.3g", l.latency / kMicro) + " us  bandwidth " + fmt("%.4g", l.bandwidth / kGiga) +
           " GB/s  (max fit error " + percent(std::max(l.ab.maxRelativeError, l.ba.maxRelativeError)) + ")\n";
  return out;
}


}  // namespace gp

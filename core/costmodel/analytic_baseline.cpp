#include "costmodel/analytic_baseline.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <span>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/json_text.h"

namespace gp {
namespace {

bool computeClass(int cls) {
  return cls == static_cast<int>(OpClass::MatMul) || cls == static_cast<int>(OpClass::Conv) ||
         cls == static_cast<int>(OpClass::Recurrent);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

std::span<const float> row(const CostGraph& g, int64_t config, int64_t r, int32_t width) {
  return {g.configFeatures.data() + (config * g.configRows() + r) * width, static_cast<size_t>(width)};
}

}  // namespace

std::string configuredSignature(const std::string& signature, const KernelConfig& c) {
  return signature + "|t" + std::to_string(c.threads) + "|l" + std::to_string(c.layout) + "|x" + std::to_string(c.tiles);
}

AnalyticCostModel AnalyticCostModel::fit(const CostDataset& d) {
  if (d.task != CostTask::Kernel) throw Error("costmodel", "the roofline + calibration model is fitted on kernel-task data");
  AnalyticCostModel m;
  m.overhead_ = 1;
  struct Sample {
    double flops, bytes, seconds;
    int cls;
    int32_t threads;
  };
  std::vector<Sample> canonical;
  for (const CostGraph& g : d.graphs) {
    if (g.nodeFlops.empty() || g.threads.empty() || g.nodeSignature.empty())
      throw Error("costmodel", "graph " + g.name + " has no analytic fields (FLOPs, bytes, signature, threads)");
    if (g.numNodes() != 1) continue;  // a fused group: the table and the fit hold single kernels
    double flops = 0, bytes = 0;
    for (size_t i = 0; i < g.nodeFlops.size(); ++i) flops += g.nodeFlops[i], bytes += g.nodeBytes[i];
    const int cls = g.nodeClass.empty() ? static_cast<int>(OpClass::Other) : g.nodeClass[0];
    for (int64_t c = 0; c < g.numConfigs(); ++c) {
      const KernelConfig k = configOfRow(row(g, c, 0, d.configWidth));
      m.table_[configuredSignature(g.nodeSignature[0], k)] = g.runtime[static_cast<size_t>(c)];
      m.overhead_ = std::min(m.overhead_, g.runtime[static_cast<size_t>(c)]);
      if (k.layout == 0 && k.tiles == 1) canonical.push_back({flops, bytes, g.runtime[static_cast<size_t>(c)], cls, k.threads});
    }
  }
  if (canonical.empty()) throw Error("costmodel", "no kernel measured in its canonical configuration to fit the roofline on");
  // Rates of kernels large enough to reach them (10 MFLOP; 4 MiB, beyond the caches), else of
  // all; the 95th percentile, so that one noisy sample does not set the peak.
  std::map<int32_t, std::vector<double>> flopRates, byteRates, smallFlopRates, smallByteRates;
  for (const Sample& s : canonical) {
    if (computeClass(s.cls)) (s.flops >= 1e7 ? flopRates : smallFlopRates)[s.threads].push_back(s.flops / s.seconds);
    else (s.bytes >= 4.0 * (1 << 20) ? byteRates : smallByteRates)[s.threads].push_back(s.bytes / s.seconds);
  }
  auto high = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    // nearest rank: ceil(0.95 n)-th smallest
    const auto rank = static_cast<size_t>(std::ceil(0.95 * static_cast<double>(v.size())));
    return v[std::max<size_t>(rank, 1) - 1];
  };
  std::set<int32_t> threads;
  for (const Sample& s : canonical) threads.insert(s.threads);
  for (int32_t t : threads) {
    auto pick = [&](std::map<int32_t, std::vector<double>>& big, std::map<int32_t, std::vector<double>>& small) {
      const auto& v = big.count(t) ? big[t] : small[t];
      return v.empty() ? 1e9 : high(v);
    };
    m.peak_[t] = pick(flopRates, smallFlopRates);
    m.bandwidth_[t] = pick(byteRates, smallByteRates);
  }
  std::array<std::vector<double>, kNumOpClasses> achieved;
  for (const Sample& s : canonical) {
    const double peak = m.peakFlops(s.threads), bw = m.bandwidth(s.threads);
    if (s.flops / peak > s.bytes / bw) achieved[static_cast<size_t>(s.cls)].push_back(s.flops / s.seconds / peak);
  }
  for (int c = 0; c < kNumOpClasses; ++c) {
    const double e = median(achieved[static_cast<size_t>(c)]);
    m.efficiency_[static_cast<size_t>(c)] = e > 0 ? std::min(e, 1.0) : 0.5;
  }
  return m;
}

double AnalyticCostModel::peakFlops(int32_t threads) const {
  if (auto it = peak_.find(threads); it != peak_.end()) return it->second;
  // an unmeasured thread count: the nearest measured one, scaled linearly
  auto it = peak_.lower_bound(threads);
  if (it == peak_.end()) --it;
  return it->second * threads / std::max(1, it->first);
}

double AnalyticCostModel::bandwidth(int32_t threads) const {
  if (auto it = bandwidth_.find(threads); it != bandwidth_.end()) return it->second;
  auto it = bandwidth_.lower_bound(threads);
  if (it == bandwidth_.end()) --it;
  return it->second;
}

double AnalyticCostModel::kernelTime(double flops, double bytes, int cls, const std::string& signature,
                                     const KernelConfig& c) const {
  if (auto it = table_.find(configuredSignature(signature, c)); it != table_.end()) return it->second;
  const double eff = efficiency_[static_cast<size_t>(std::clamp(cls, 0, kNumOpClasses - 1))];
  return overhead_ * c.tiles + std::max(flops / (peakFlops(c.threads) * eff), bytes / bandwidth(c.threads));
}

std::vector<double> AnalyticCostModel::predict(const CostGraph& g, CostTask task, int32_t configWidth) const {
  if (g.nodeFlops.empty() || g.threads.empty() || g.nodeSignature.empty())
    throw Error("costmodel", "graph " + g.name + " has no analytic fields (FLOPs, bytes, signature, threads)");
  std::vector<double> out;
  const int64_t n = g.numNodes();
  std::vector<int64_t> rowOf(static_cast<size_t>(n), -1);
  for (size_t r = 0; r < g.configNodes.size(); ++r) rowOf[static_cast<size_t>(g.configNodes[r])] = static_cast<int64_t>(r);
  for (int64_t c = 0; c < g.numConfigs(); ++c) {
    const int32_t threads = g.threads[static_cast<size_t>(c)];
    double t = 0;
    for (int64_t v = 0; v < n; ++v) {
      const auto i = static_cast<size_t>(v);
      if (g.nodeFlops[i] <= 0 && g.nodeBytes[i] <= 0) continue;
      KernelConfig k{threads, 0, 1};
      if (task == CostTask::Kernel) k = configOfRow(row(g, c, 0, configWidth));
      else if (rowOf[i] >= 0) k = configOfRow(row(g, c, rowOf[i], configWidth));
      k.threads = threads;
      t += kernelTime(g.nodeFlops[i], g.nodeBytes[i], g.nodeClass.empty() ? 0 : g.nodeClass[i], g.nodeSignature[i], k);
    }
    if (!g.conversionBytes.empty()) t += g.conversionBytes[static_cast<size_t>(c)] / bandwidth(threads);
    out.push_back(t);
  }
  return out;
}

std::string AnalyticCostModel::toJson() const {
  nlohmann::json peaks = nlohmann::json::object(), bws = nlohmann::json::object(), table = nlohmann::json::object();
  for (const auto& [t, p] : peak_) peaks[std::to_string(t)] = p;
  for (const auto& [t, b] : bandwidth_) bws[std::to_string(t)] = b;
  for (const auto& [k, v] : table_) table[k] = v;
  return nlohmann::json{{"format", "graphplace-cpu-roofline"}, {"version", 1},       {"peak_flops", peaks},
                        {"bandwidth", bws},                    {"efficiency", efficiency_}, {"overhead", overhead_},
                        {"table", table}}
             .dump() + "\n";
}

AnalyticCostModel AnalyticCostModel::parse(const std::string& text, const std::string& source) {
  const nlohmann::json j = parseJsonText(text, source);
  if (jsonString(j, "format") != "graphplace-cpu-roofline" || !jsonInteger(j, "version", 1, 1))
    throw Error(source, "not a fitted roofline (\"format\": \"graphplace-cpu-roofline\", version 1)");
  AnalyticCostModel m;
  try {
    auto threadsMap = [&](const char* key, std::map<int32_t, double>& out) {
      for (const auto& [t, v] : j.at(key).items()) {
        const double x = v.get<double>();
        const int32_t threads = std::stoi(t);
        if (!(x > 0) || !std::isfinite(x) || threads < 1) throw Error(source, std::string(key) + " holds a bad value");
        out[threads] = x;
      }
      if (out.empty()) throw Error(source, std::string(key) + " is empty");
    };
    threadsMap("peak_flops", m.peak_);
    threadsMap("bandwidth", m.bandwidth_);
    const auto eff = j.at("efficiency").get<std::vector<double>>();
    if (eff.size() != m.efficiency_.size()) throw Error(source, "efficiency needs one value per op class");
    for (size_t i = 0; i < eff.size(); ++i) {
      if (!(eff[i] > 0 && eff[i] <= 1)) throw Error(source, "an efficiency is outside (0, 1]");
      m.efficiency_[i] = eff[i];
    }
    m.overhead_ = j.at("overhead").get<double>();
    if (!(m.overhead_ >= 0) || !std::isfinite(m.overhead_)) throw Error(source, "overhead is not a time");
    for (const auto& [k, v] : j.at("table").items()) m.table_[k] = v.get<double>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(source, std::string("bad fitted roofline (") + e.what() + ")");
  } catch (const std::logic_error&) {
    throw Error(source, "bad thread count in a fitted roofline");
  }
  return m;
}

}  // namespace gp

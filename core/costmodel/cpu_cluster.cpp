#include "costmodel/cpu_cluster.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "costmodel/analytic_baseline.h"
#include "graph/op_class.h"

namespace gp {

std::string thisCpuKind() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      if (auto p = line.find(':'); p != std::string::npos) model = line.substr(std::min(line.size(), p + 2));
      break;
    }
  return "cpu:" + model + " (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads)";
}

int32_t threadsOfCpuKind(std::string_view kind) {
  constexpr std::string_view kTail = " threads)";
  if (kind.rfind("cpu:", 0) != 0 || kind.size() < kTail.size() || kind.substr(kind.size() - kTail.size()) != kTail)
    return 0;
  const size_t end = kind.size() - kTail.size();
  const size_t open = kind.rfind('(', end);
  if (open == std::string_view::npos) return 0;
  int32_t n = 0;
  const auto [p, ec] = std::from_chars(kind.data() + open + 1, kind.data() + end, n);
  return ec == std::errc() && p == kind.data() + end && n > 0 ? n : 0;
}

std::string cpuClusterJson(const AnalyticCostModel* fit, const std::string& fitSource) {
  using nlohmann::ordered_json;
  const std::string kind = thisCpuKind();
  const int32_t threads = std::max(1, threadsOfCpuKind(kind));
  const double pages = static_cast<double>(sysconf(_SC_PHYS_PAGES)), pageSize = static_cast<double>(sysconf(_SC_PAGESIZE));
  const double memGiB = pages > 0 && pageSize > 0 ? pages * pageSize / (1024.0 * 1024 * 1024) : 16;
  ordered_json k{{"peak_TFLOPS", {{"f32", 0.1}}}, {"memory_bandwidth_GBps", 20}, {"memory_GiB", memGiB},
                 {"launch_overhead_us", 1}, {"bandwidth_efficiency", 1}};
  std::string description = "this machine's CPU, " + std::to_string(threads) + " threads; ";
  if (fit) {
    k["peak_TFLOPS"]["f32"] = fit->peakFlops(threads) / 1e12;
    k["memory_bandwidth_GBps"] = fit->bandwidth(threads) / 1e9;
    k["launch_overhead_us"] = fit->overhead() * 1e6;
    ordered_json eff = ordered_json::object();
    for (int c = 0; c < kNumOpClasses; ++c)
      eff[std::string(opClassName(static_cast<OpClass>(c)))] = std::clamp(fit->efficiency(c), 0.01, 1.0);
    k["efficiency"] = eff;
    description += "roofline fitted on measured kernels (" + fitSource + ")";
  } else {
    description += "nominal roofline (no fitted one)";
  }
  ordered_json j{{"format", "graphplace-cluster"},
                 {"version", 1},
                 {"name", "cpu"},
                 {"description", description},
                 {"framework", {{"name", "libtorch-cpu"}, {"op_overhead_us", 0}, {"reserved_memory_GiB", 0}}},
                 {"device_kinds", {{kind, k}}},
                 {"devices", {{{"name", "cpu0"}, {"kind", kind}}}},
                 {"switches", ordered_json::array()},
                 {"links", ordered_json::array()}};
  return j.dump(2);
}

Cluster cpuCluster(const AnalyticCostModel* fit, const std::string& fitSource) {
  return parseClusterJson(cpuClusterJson(fit, fitSource), "built-in cluster cpu");
}

}  // namespace gp

// The toy cluster the simulator and placement tests derive step times on: devices of
// 1 TFLOP/s (f32), memory so fast that ops are compute-bound, no launch overhead, joined
// through one switch by 1 MB/s links without latency (1e12 FLOPs = 1 s, 1e6 bytes = 1 s).
#pragma once
#include <string>

#include "cluster/cluster.h"
#include "cost/cost_model.h"

namespace gptest {

// `memGBps`: each device's memory bandwidth (the default makes every op compute-bound).
inline gp::Cluster toyCluster(double memGiB = 1, int devices = 2, double memGBps = 1e9) {
  std::string devs, links;
  for (int d = 0; d < devices; ++d) {
    const std::string name = "gpu" + std::to_string(d);
    if (d > 0) {
      devs += ',';
      links += ',';
    }
    devs += R"({"name": ")" + name + R"(", "kind": "T"})";
    links += R"({"between": ["sw", ")" + name + R"("], "kind": "test", "bandwidth_GBps": 0.001, "latency_us": 0})";
  }
  return gp::parseClusterJson(R"({"name": "test", "device_kinds": {"T": {"peak_TFLOPS": {"f32": 1},
      "memory_bandwidth_GBps": )" + std::to_string(memGBps) + R"(, "memory_GiB": )" + std::to_string(memGiB) +
                                  R"(, "launch_overhead_us": 0}}, "devices": [)" + devs +
                                  R"(], "switches": [{"name": "sw", "kind": "switch"}], "links": [)" + links + "]}",
                              "test-cluster");
}

// Every op class at 100% of peak, no fill time, full bandwidth, no Winograd, so test times are
// FLOPs / peak exactly.
inline gp::CostParams exactCosts() {
  gp::CostParams p;
  p.efficiency.fill(1.0);
  p.fillTime.fill(0.0);
  p.bandwidthEfficiency = 1.0;
  p.winogradSpeedup = 1.0;
  p.tf32ConvEfficiency = 1.0;
  return p;
}

}  // namespace gptest

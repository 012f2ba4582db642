// DeviceGroups: a cluster's devices as the tree the cluster views show — pods of servers (a
// scaled cluster with ":pod=S"), servers (the device name before its last '/'), GPUs — and the
// figures a group row shows of its GPUs: the least and most peak memory, the GPU with the least
// headroom (the worst), how many are over capacity, the least and most utilization, the longest
// busy time. Qt-free; built once per cluster in O(devices), aggregated in O(devices).
//
//   DeviceGroups g(cluster);                 // 2048x8xH100-IB: 2,048 servers of 8 GPUs, no pods
//   g.numServers(); g.devicesOf(s);          // server s's GPUs in cluster order
//   GroupFigures f = aggregate(g.devicesOf(s), figures);
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cluster/cluster.h"

namespace gp {

// One device's figures under a plan; peak < 0 when not measured (or not used by the plan),
// utilization and busy < 0 when not known.
struct DeviceFigures {
  int64_t peak = -1;
  int64_t capacity = 0;
  double utilization = -1;  // 0..1
  double busy = -1;         // seconds
};

struct GroupFigures {
  int devices = 0;
  int measured = 0;         // devices with a peak
  int over = 0;             // devices over their capacity
  int64_t minPeak = -1, maxPeak = -1;
  int64_t capacity = 0;     // the largest capacity in the group
  int worst = -1;           // the measured device with the highest peak / capacity (-1: none)
  double minUtil = -1, maxUtil = -1;
  double maxBusy = -1;
  int busiest = -1;         // the device with maxBusy
};

// The aggregate of `devices`' figures (indices into `figures`).
GroupFigures aggregate(std::span<const int> devices, std::span<const DeviceFigures> figures);

class DeviceGroups {
 public:
  DeviceGroups() = default;
  explicit DeviceGroups(const Cluster& c);

  int numDevices() const { return static_cast<int>(serverOf_.size()); }
  int numServers() const { return static_cast<int>(servers_.size()); }
  int numPods() const { return static_cast<int>(pods_.size()); }  // 0: no pod level
  // Levels shown above the GPUs: 0 (one server), 1 (servers), 2 (pods of servers).
  int levels() const { return pods_.size() > 1 ? 2 : servers_.size() > 1 ? 1 : 0; }

  const std::string& deviceName(int d) const { return names_[static_cast<size_t>(d)]; }  // "node3/gpu5"
  std::string deviceShortName(int d) const;  // "gpu5"
  const std::string& serverName(int s) const { return servers_[static_cast<size_t>(s)].name; }
  const std::string& podName(int p) const { return pods_[static_cast<size_t>(p)].name; }

  int serverOf(int d) const { return serverOf_[static_cast<size_t>(d)]; }
  int slotOf(int d) const { return slotOf_[static_cast<size_t>(d)]; }  // position in its server
  int podOf(int s) const { return pods_.empty() ? 0 : servers_[static_cast<size_t>(s)].pod; }
  std::span<const int> devicesOf(int s) const { return servers_[static_cast<size_t>(s)].devices; }
  std::span<const int> serversOf(int p) const { return pods_[static_cast<size_t>(p)].servers; }
  std::span<const int> devicesOfPod(int p) const { return pods_[static_cast<size_t>(p)].devices; }
  int mostDevicesPerServer() const { return mostPerServer_; }

 private:
  struct Server {
    std::string name;
    int pod = 0;
    std::vector<int> devices;
  };
  struct Pod {
    std::string name;
    std::vector<int> servers, devices;
  };
  std::vector<std::string> names_;
  std::vector<int> serverOf_, slotOf_;
  std::vector<Server> servers_;
  std::vector<Pod> pods_;
  int mostPerServer_ = 0;
};

}  // namespace gp

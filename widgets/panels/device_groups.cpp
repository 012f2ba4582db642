#include "panels/device_groups.h"

#include <algorithm>

#include "parallel/parallel_plan.h"

namespace gp {

GroupFigures aggregate(std::span<const int> devices, std::span<const DeviceFigures> figures) {
  GroupFigures g;
  g.devices = static_cast<int>(devices.size());
  double worstShare = -1;
  for (int d : devices) {
    if (d < 0 || static_cast<size_t>(d) >= figures.size()) continue;
    const DeviceFigures& f = figures[static_cast<size_t>(d)];
    g.capacity = std::max(g.capacity, f.capacity);
    if (f.peak >= 0) {
      ++g.measured;
      if (f.capacity > 0 && f.peak > f.capacity) ++g.over;
      g.minPeak = g.minPeak < 0 ? f.peak : std::min(g.minPeak, f.peak);
      g.maxPeak = std::max(g.maxPeak, f.peak);
      const double share = f.capacity > 0 ? static_cast<double>(f.peak) / static_cast<double>(f.capacity)
                                          : static_cast<double>(f.peak);
      if (share > worstShare) {
        worstShare = share;
        g.worst = d;
      }
    }
    if (f.utilization >= 0) {
      g.minUtil = g.minUtil < 0 ? f.utilization : std::min(g.minUtil, f.utilization);
      g.maxUtil = std::max(g.maxUtil, f.utilization);
    }
    if (f.busy > g.maxBusy) {
      g.maxBusy = f.busy;
      g.busiest = d;
    }
  }
  return g;
}

DeviceGroups::DeviceGroups(const Cluster& c) {
  const int n = c.numDevices();
  names_.reserve(static_cast<size_t>(n));
  serverOf_ = gp::serverOf(c);
  slotOf_.assign(static_cast<size_t>(n), 0);
  for (int d = 0; d < n; ++d) {
    const std::string& name = c.device(d).name;
    names_.push_back(name);
    const auto s = static_cast<size_t>(serverOf_[static_cast<size_t>(d)]);
    if (servers_.size() <= s) servers_.resize(s + 1);
    Server& server = servers_[s];
    if (server.devices.empty()) {
      const size_t slash = name.find_last_of('/');
      server.name = slash == std::string::npos ? c.name() : name.substr(0, slash);
    }
    slotOf_[static_cast<size_t>(d)] = static_cast<int>(server.devices.size());
    server.devices.push_back(d);
    mostPerServer_ = std::max(mostPerServer_, static_cast<int>(server.devices.size()));
  }
  const int perPod = c.serversPerPod();
  if (perPod > 0 && static_cast<int>(servers_.size()) > perPod) {
    pods_.resize((servers_.size() + static_cast<size_t>(perPod) - 1) / static_cast<size_t>(perPod));
    for (size_t p = 0; p < pods_.size(); ++p) pods_[p].name = "pod" + std::to_string(p);
    for (size_t s = 0; s < servers_.size(); ++s) {
      const int p = static_cast<int>(s) / perPod;
      servers_[s].pod = p;
      Pod& pod = pods_[static_cast<size_t>(p)];
      pod.servers.push_back(static_cast<int>(s));
      pod.devices.insert(pod.devices.end(), servers_[s].devices.begin(), servers_[s].devices.end());
    }
  }
}

std::string DeviceGroups::deviceShortName(int d) const {
  const std::string& name = deviceName(d);
  const size_t slash = name.find_last_of('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

}  // namespace gp

#include "cluster/scaled_cluster.h"

#include <charconv>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/file_text.h"
#include "base/json_text.h"

namespace gp {
namespace {

// "node0/gpu3" -> "node<k>/gpu3"; names outside node0 stay.
std::string renamed(const std::string& name, int k) {
  return name.rfind("node0/", 0) == 0 ? "node" + std::to_string(k) + name.substr(5) : name;
}

bool inNode0(const std::string& name) { return name.rfind("node0/", 0) == 0; }
bool inServer(const std::string& name) { return name.rfind("node", 0) == 0 && name.find('/') != std::string::npos; }

}  // namespace

std::optional<std::string> scaledClusterJson(const std::string& spec) {
  const size_t x = spec.find('x');
  if (x == std::string::npos || x == 0) return std::nullopt;
  int servers = 0;
  const auto [end, ec] = std::from_chars(spec.data(), spec.data() + x, servers);
  if (ec != std::errc() || end != spec.data() + x) return std::nullopt;
  const std::string server = spec.substr(x + 1);
  std::string path, base;
  if (server.ends_with(".json")) {  // a multi-server cluster file
    std::error_code fsError;
    if (!std::filesystem::is_regular_file(server, fsError)) return std::nullopt;
    path = server;
    base = std::filesystem::path(server).stem().string();
  } else {  // the preset with the fewest servers of this kind
    const std::string dir = clusterResourceDir();
    if (dir.empty()) return std::nullopt;
    int baseServers = 0;
    for (const std::string& name : clusterPresetNames()) {
      const size_t bx = name.find('x');
      int k = 0;
      if (bx == std::string::npos || name.substr(bx + 1) != server) continue;
      const auto [e, err] = std::from_chars(name.data(), name.data() + bx, k);
      if (err != std::errc() || e != name.data() + bx || k < 2) continue;
      if (base.empty() || k < baseServers) base = name, baseServers = k;
    }
    if (base.empty()) return std::nullopt;
    path = (std::filesystem::path(dir) / (base + ".json")).string();
  }
  const nlohmann::json j = parseJsonText(readFileText(path, "a cluster JSON file"), path);
  int perServer = 0;
  for (const auto& d : j.at("devices")) perServer += inNode0(d.at("name").get<std::string>());
  if (perServer == 0) return std::nullopt;
  if (servers < 1 || static_cast<int64_t>(servers) * perServer > kMaxScaledDevices)
    throw Error(spec, "a cluster of " + std::to_string(servers) + " servers of " + std::to_string(perServer) +
                          " devices is outside 1.." + std::to_string(kMaxScaledDevices / perServer) +
                          " servers (at most " + std::to_string(kMaxScaledDevices) + " devices: routes are kept for every pair)");
  nlohmann::json out = j;
  out["name"] = spec;
  out["description"] = std::to_string(servers) + " servers as in " + base + ": " + j.value("description", std::string());
  out["devices"] = nlohmann::json::array();
  out["switches"] = nlohmann::json::array();
  out["links"] = nlohmann::json::array();
  for (int k = 0; k < servers; ++k) {
    for (const auto& d : j.at("devices"))
      if (inNode0(d.at("name").get<std::string>())) {
        nlohmann::json c = d;
        c["name"] = renamed(d["name"].get<std::string>(), k);
        out["devices"].push_back(c);
      }
    for (const auto& s : j.value("switches", nlohmann::json::array()))
      if (inNode0(s.at("name").get<std::string>())) {
        nlohmann::json c = s;
        c["name"] = renamed(s["name"].get<std::string>(), k);
        out["switches"].push_back(c);
      }
    for (const auto& l : j.at("links")) {
      const std::string a = l.at("between").at(0).get<std::string>(), b = l.at("between").at(1).get<std::string>();
      if (!(inNode0(a) || inNode0(b)) || (inServer(a) && !inNode0(a)) || (inServer(b) && !inNode0(b))) continue;
      nlohmann::json c = l;
      c["between"] = {renamed(a, k), renamed(b, k)};
      out["links"].push_back(c);
    }
  }
  for (const auto& s : j.value("switches", nlohmann::json::array()))
    if (!inServer(s.at("name").get<std::string>())) out["switches"].push_back(s);
  for (const auto& l : j.at("links")) {  // among the shared switches
    const std::string a = l.at("between").at(0).get<std::string>(), b = l.at("between").at(1).get<std::string>();
    if (!inServer(a) && !inServer(b)) out["links"].push_back(l);
  }
  return out.dump();
}

}  // namespace gp

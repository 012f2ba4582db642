#include "cluster/scaled_cluster.h"

#include <charconv>
#include <filesystem>
#include <map>
#include <memory>
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

// A scaled cluster's file, and what its routes are built from.
struct Scaled {
  std::string json;
  std::string basePath;  // the template: the preset (or file) whose server is copied
  int servers = 0;
  std::vector<std::string> node0Devices;                           // in file order
  std::vector<std::pair<std::string, std::string>> blockLinks;     // a server's links (node0's), in file order
  std::vector<std::pair<std::string, std::string>> sharedLinks;    // among the shared switches
};
std::optional<Scaled> build(const std::string& spec) {
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
                          " servers (at most " + std::to_string(kMaxScaledDevices) + " devices)");
  Scaled sc;
  sc.basePath = path;
  sc.servers = servers;
  for (const auto& d : j.at("devices"))
    if (inNode0(d.at("name").get<std::string>())) sc.node0Devices.push_back(d["name"].get<std::string>());
  for (const auto& l : j.at("links")) {
    const std::string a = l.at("between").at(0).get<std::string>(), b = l.at("between").at(1).get<std::string>();
    if ((inNode0(a) || inNode0(b)) && !(inServer(a) && !inNode0(a)) && !(inServer(b) && !inNode0(b)))
      sc.blockLinks.emplace_back(a, b);
    else if (!inServer(a) && !inServer(b))
      sc.sharedLinks.emplace_back(a, b);
  }
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
  sc.json = out.dump();
  return sc;
}

// Which server a vertex name is in: 0 for node0/, 1 for node1/, 2 for another server, -1 for
// the shared switches.
int serverOfName(const std::string& name) {
  if (inNode0(name)) return 0;
  if (name.rfind("node1/", 0) == 0) return 1;
  return inServer(name) ? 2 : -1;
}

// The link's index in `links` and the direction (0: as listed, 1: reversed); -1 if absent.
std::pair<int, int> linkIndex(const std::map<std::pair<std::string, std::string>, int>& links, const std::string& u,
                              const std::string& v) {
  if (auto it = links.find({u, v}); it != links.end()) return {it->second, 0};
  if (auto it = links.find({v, u}); it != links.end()) return {it->second, 1};
  return {-1, 0};
}

// The routes of `sc` from its template file's: each template channel moved to its block.
std::shared_ptr<const ServerRoutes> serverRoutes(const Scaled& sc, const std::string& spec) {
  const Cluster base = parseClusterJson(readFileText(sc.basePath, "a cluster JSON file"), sc.basePath);
  auto r = std::make_shared<ServerRoutes>();
  const int D = static_cast<int>(sc.node0Devices.size());
  const auto Ls = static_cast<int32_t>(sc.blockLinks.size());
  r->servers = sc.servers, r->perServer = D, r->blockChannels = 2 * Ls;
  std::map<std::pair<std::string, std::string>, int> block, shared;
  for (int i = 0; i < Ls; ++i) block[sc.blockLinks[static_cast<size_t>(i)]] = i;
  for (size_t i = 0; i < sc.sharedLinks.size(); ++i) shared[sc.sharedLinks[i]] = static_cast<int>(i);
  auto baseDevice = [&](int server, int local) {
    const std::string name = "node" + std::to_string(server) + sc.node0Devices[static_cast<size_t>(local)].substr(5);
    const int d = base.findDevice(name);
    if (d < 0) throw Error(spec, "the template " + sc.basePath + " has no device '" + name + "'");
    return d;
  };
  auto fail = [&](const std::string& why) { return Error(spec, "cannot scale " + sc.basePath + ": " + why); };
  r->offset.push_back(0);
  for (int same = 1; same >= 0; --same)
    for (int la = 0; la < D; ++la)
      for (int lb = 0; lb < D; ++lb) {
        const int a = baseDevice(0, la), b = baseDevice(same ? 0 : 1, lb);
        for (int ch : base.route(a, b)) {
          std::string u = base.vertexName(base.channel(ch).from), v = base.vertexName(base.channel(ch).to);
          const int su = serverOfName(u), sv = serverOfName(v);
          if (su == 2 || sv == 2) throw fail("a route between two servers passes a third");
          const int server = su >= 0 ? su : sv;
          if (server < 0) {
            const auto [i, dir] = linkIndex(shared, u, v);
            if (i < 0) throw fail("no link " + u + " -> " + v);
            r->channel.push_back(2 * (sc.servers * Ls + i) + dir);
            r->side.push_back(0);
            continue;
          }
          if (server == 1) {  // the target's server: as node0's links
            if (su == 1) u[4] = '0';  // "node1/..." -> "node0/..."
            if (sv == 1) v[4] = '0';
          }
          const auto [i, dir] = linkIndex(block, u, v);
          if (i < 0) throw fail("no link " + u + " -> " + v + " in a server");
          r->channel.push_back(2 * i + dir);
          r->side.push_back(static_cast<uint8_t>(1 + server));
        }
        r->offset.push_back(static_cast<int32_t>(r->channel.size()));
        r->latency.push_back(base.routeLatency(a, b));
        r->bandwidth.push_back(base.routeBandwidth(a, b));
      }
  return r;
}

}  // namespace

std::optional<std::string> scaledClusterJson(const std::string& spec) {
  std::optional<Scaled> sc = build(spec);
  if (!sc) return std::nullopt;
  return std::move(sc->json);
}

std::optional<Cluster> scaledCluster(const std::string& spec) {
  std::optional<Scaled> sc = build(spec);
  if (!sc) return std::nullopt;
  return parseClusterJson(sc->json, spec, serverRoutes(*sc, spec));
}

}  // namespace gp

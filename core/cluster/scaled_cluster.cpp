#include "cluster/scaled_cluster.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
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

std::string shortNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
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
  // Pods (":pod=S:os=O"): the shared switches the servers attach to, copied per pod as
  // "pod<p>/<switch>" and joined through "<switch>-spine" by one link per pod and switch.
  int serversPerPod = 0;
  double oversubscription = 1;
  std::vector<std::string> podSwitches;  // the shared switches servers attach to, in file order
};

// ":pod=S[:os=O]" at the end of a spec: servers per pod and the spine oversubscription.
void podOptions(std::string& server, const std::string& spec, Scaled& sc) {
  const size_t at = server.find(":pod=");
  if (at == std::string::npos) return;
  std::string opts = server.substr(at + 1);
  server.resize(at);
  auto number = [&](const std::string& key, const std::string& v) {
    double d = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc() || end != v.data() + v.size() || !(d >= 1) || d > 1e6)
      throw Error(spec, key + " wants a number of at least 1, got '" + v + "'");
    return d;
  };
  while (!opts.empty()) {
    const size_t colon = opts.find(':');
    const std::string kv = opts.substr(0, colon);
    opts = colon == std::string::npos ? "" : opts.substr(colon + 1);
    const size_t eq = kv.find('=');
    const std::string key = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    if (key == "pod") {
      const double s = number("pod", v);
      if (s != static_cast<int>(s)) throw Error(spec, "pod wants a whole number of servers, got '" + v + "'");
      sc.serversPerPod = static_cast<int>(s);
    } else if (key == "os") {
      sc.oversubscription = number("os", v);
    } else {
      throw Error(spec, "unknown fabric option '" + kv + "' (pod=SERVERS, os=OVERSUBSCRIPTION)");
    }
  }
}

std::optional<Scaled> build(const std::string& spec) {
  const size_t x = spec.find('x');
  if (x == std::string::npos || x == 0) return std::nullopt;
  int servers = 0;
  const auto [end, ec] = std::from_chars(spec.data(), spec.data() + x, servers);
  if (ec != std::errc() || end != spec.data() + x) return std::nullopt;
  std::string server = spec.substr(x + 1);
  Scaled sc;
  podOptions(server, spec, sc);
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
  // The shared switches a server's links reach, and what one server's links to each carry.
  std::map<std::string, nlohmann::json> attached;  // switch -> {bandwidth of one server's links, latency, kind}
  for (const auto& [a, b] : sc.blockLinks)
    for (const std::string& endpoint : {a, b})
      if (!inServer(endpoint) && std::find(sc.podSwitches.begin(), sc.podSwitches.end(), endpoint) == sc.podSwitches.end())
        sc.podSwitches.push_back(endpoint);
  for (const auto& l : j.at("links")) {
    const std::string a = l.at("between").at(0).get<std::string>(), b = l.at("between").at(1).get<std::string>();
    const std::string sw = inNode0(a) && !inServer(b) ? b : inNode0(b) && !inServer(a) ? a : "";
    if (sw.empty()) continue;
    nlohmann::json& t = attached[sw];
    if (t.is_null()) t = nlohmann::json::object();
    t["bandwidth_GBps"] = t.value("bandwidth_GBps", 0.0) + l.at("bandwidth_GBps").get<double>();
    t["latency_us"] = l.value("latency_us", 0.0);
    t["kind"] = l.value("kind", std::string("link"));
  }
  const int pods = sc.serversPerPod > 0 ? (servers + sc.serversPerPod - 1) / sc.serversPerPod : 0;
  if (pods > 0 && !sc.sharedLinks.empty())
    throw Error(spec, "pods need the servers joined through one switch layer; " + path + " links its shared switches to one another");
  if (pods > 0 && sc.podSwitches.empty()) throw Error(spec, "pods need servers that reach one another through a switch");
  auto podOf = [&](const std::string& name, int k) {
    return pods > 0 && !inServer(name) ? "pod" + std::to_string(k / sc.serversPerPod) + "/" + name : renamed(name, k);
  };
  nlohmann::json out = j;
  out["name"] = spec;
  out["description"] = std::to_string(servers) + " servers as in " + base +
                       (pods > 0 ? " in pods of " + std::to_string(sc.serversPerPod) + " under one leaf layer, the pods joined "
                                   "through spines at " + shortNumber(sc.oversubscription) + ":1 oversubscription"
                                 : std::string()) +
                       ": " + j.value("description", std::string());
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
      c["between"] = {podOf(a, k), podOf(b, k)};
      out["links"].push_back(c);
    }
  }
  for (const auto& s : j.value("switches", nlohmann::json::array())) {
    const std::string name = s.at("name").get<std::string>();
    if (inServer(name)) continue;
    const bool podded = pods > 0 && std::find(sc.podSwitches.begin(), sc.podSwitches.end(), name) != sc.podSwitches.end();
    if (!podded) {
      out["switches"].push_back(s);
      continue;
    }
    for (int p = 0; p < pods; ++p) {
      nlohmann::json c = s;
      c["name"] = "pod" + std::to_string(p) + "/" + name;
      out["switches"].push_back(c);
    }
    nlohmann::json spine = s;
    spine["name"] = name + "-spine";
    out["switches"].push_back(spine);
  }
  for (const auto& l : j.at("links")) {  // among the shared switches
    const std::string a = l.at("between").at(0).get<std::string>(), b = l.at("between").at(1).get<std::string>();
    if (!inServer(a) && !inServer(b)) out["links"].push_back(l);
  }
  for (int p = 0; p < pods; ++p)  // each pod's leaves to the spine: its servers' links, over the oversubscription
    for (const std::string& sw : sc.podSwitches) {
      const int inPod = std::min(sc.serversPerPod, servers - p * sc.serversPerPod);
      const nlohmann::json t = attached.count(sw) ? attached[sw] : nlohmann::json::object();
      out["links"].push_back({{"between", {"pod" + std::to_string(p) + "/" + sw, sw + "-spine"}},
                              {"kind", t.value("kind", std::string("link")) + "-spine"},
                              {"bandwidth_GBps", t.value("bandwidth_GBps", 0.0) * inPod / sc.oversubscription},
                              {"latency_us", t.value("latency_us", 0.0)}});
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
  // Per channel of the other-server routes: the pod switch it enters (its index), or -1, and its latency.
  std::vector<int> enters;
  std::vector<double> latencies;
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
            if (!same) enters.push_back(-1), latencies.push_back(base.channel(ch).latency);
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
          if (!same) {
            const auto w = std::find(sc.podSwitches.begin(), sc.podSwitches.end(), v);
            enters.push_back(w == sc.podSwitches.end() ? -1 : static_cast<int>(w - sc.podSwitches.begin()));
            latencies.push_back(base.channel(ch).latency);
          }
        }
        r->offset.push_back(static_cast<int32_t>(r->channel.size()));
        r->latency.push_back(base.routeLatency(a, b));
        r->bandwidth.push_back(base.routeBandwidth(a, b));
      }
  if (sc.serversPerPod <= 0) return r;
  // Between pods: the other-server routes with the source pod's uplink and the target pod's
  // downlink after the channel that enters the leaf (pod links: one per pod and pod switch, the
  // up direction first).
  const nlohmann::json out = nlohmann::json::parse(sc.json);
  const auto W = static_cast<int32_t>(sc.podSwitches.size());
  r->serversPerPod = sc.serversPerPod;
  r->podBase = 2 * (sc.servers * Ls + static_cast<int32_t>(sc.sharedLinks.size()));
  r->podChannels = 2 * W;
  double podLatency = 0, podBandwidth = 0;
  for (const auto& l : out.at("links")) {
    const std::string a = l.at("between").at(0).get<std::string>();
    if (!a.starts_with("pod")) continue;
    podLatency = std::max(podLatency, l.value("latency_us", 0.0) * 1e-6);
    const double bw = l.at("bandwidth_GBps").get<double>() * 1e9;
    podBandwidth = podBandwidth > 0 ? std::min(podBandwidth, bw) : bw;
  }
  const size_t pairs = static_cast<size_t>(D) * D;
  size_t at = 0;  // into `enters`
  for (size_t t = pairs; t < 2 * pairs; ++t) {
    double latency = 0;  // summed along the route, as a search over the cluster's links sums it
    for (int32_t k = r->offset[t]; k < r->offset[t + 1]; ++k, ++at) {
      r->channel.push_back(r->channel[static_cast<size_t>(k)]);
      r->side.push_back(r->side[static_cast<size_t>(k)]);
      latency += latencies[at];
      if (const int w = enters[at]; w >= 0) {
        r->channel.push_back(2 * w), r->side.push_back(3);
        r->channel.push_back(2 * w + 1), r->side.push_back(4);
        latency += podLatency, latency += podLatency;
      }
    }
    r->offset.push_back(static_cast<int32_t>(r->channel.size()));
    r->latency.push_back(latency);
    r->bandwidth.push_back(std::min(r->bandwidth[t], podBandwidth));
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

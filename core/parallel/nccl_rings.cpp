#include "parallel/nccl_rings.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>

namespace gp {

namespace {

constexpr size_t kMaxPackedGroup = 16;   // larger groups keep the rank order
constexpr double kNextRingShare = 0.5;   // a further ring carries at least this share of the first's
constexpr long kSearchNodes = 200'000;   // cycle search budget per ring

struct KeyHash {
  size_t operator()(const std::vector<int64_t>& k) const noexcept {
    uint64_t h = 1469598103934665603ull;
    for (int64_t v : k) h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

RingSet rankOrder(std::span<const int> members) {
  RingSet rs;
  rs.orders.emplace_back(members.begin(), members.end());
  rs.shares.push_back(1.0);
  rs.bandwidths.push_back(0.0);
  return rs;
}

// Whether every member reaches the others through one outgoing channel and hears them
// through one incoming channel (a switch port): then no ring beats the rank order.
bool throughOnePort(const Cluster& c, std::span<const int> m) {
  for (int a : m) {
    int out = -1, in = -1;
    for (int b : m) {
      if (a == b) continue;
      const Route ra = c.route(a, b), rb = c.route(b, a);
      if (ra.size() == 0 || rb.size() == 0) return false;
      const int first = ra[0], last = rb[rb.size() - 1];
      if ((out >= 0 && out != first) || (in >= 0 && in != last)) return false;
      out = first, in = last;
    }
  }
  return true;
}

// The best cycle over n members by bottleneck, given each channel's remaining bandwidth.
class CycleSearch {
 public:
  CycleSearch(const std::vector<std::vector<int>>& hops, const std::vector<double>& residual, size_t n)
      : hops_(hops), residual_(residual), n_(n), uses_(residual.size(), 0) {}

  // The bottleneck of `order` as a cycle.
  double bottleneck(const std::vector<int>& order) {
    std::fill(uses_.begin(), uses_.end(), 0);
    double b = 1e300;
    for (size_t i = 0; i < order.size(); ++i) b = std::min(b, add(order[i], order[(i + 1) % order.size()]));
    std::fill(uses_.begin(), uses_.end(), 0);
    return b;
  }

  // Searches for a cycle with a bottleneck above `best`; returns whether it found one.
  bool improve(double& best, std::vector<int>& bestOrder) {
    best_ = best;
    found_ = false;
    nodes_ = 0;
    path_.assign(1, 0);
    visited_.assign(n_, 0);
    visited_[0] = 1;
    std::fill(uses_.begin(), uses_.end(), 0);
    dfs(1e300);
    if (found_) best = best_, bestOrder = bestPath_;
    return found_;
  }

 private:
  // Adds hop a -> b to the uses; returns the lowest remaining / uses over its channels.
  double add(int a, int b) {
    double b2 = 1e300;
    for (int ch : hops_[static_cast<size_t>(a) * n_ + static_cast<size_t>(b)]) {
      ++uses_[static_cast<size_t>(ch)];
      b2 = std::min(b2, residual_[static_cast<size_t>(ch)] / uses_[static_cast<size_t>(ch)]);
    }
    return b2;
  }
  void remove(int a, int b) {
    for (int ch : hops_[static_cast<size_t>(a) * n_ + static_cast<size_t>(b)]) --uses_[static_cast<size_t>(ch)];
  }

  void dfs(double bound) {
    if (++nodes_ > kSearchNodes) return;
    const int last = path_.back();
    if (path_.size() == n_) {
      const double b = std::min(bound, add(last, path_[0]));
      remove(last, path_[0]);
      if (b > best_ * (1 + 1e-9)) best_ = b, bestPath_ = path_, found_ = true;
      return;
    }
    for (size_t next = 1; next < n_; ++next) {
      if (visited_[next]) continue;
      const double b = std::min(bound, add(last, static_cast<int>(next)));
      if (b > best_ * (1 + 1e-9)) {
        visited_[next] = 1;
        path_.push_back(static_cast<int>(next));
        dfs(b);
        path_.pop_back();
        visited_[next] = 0;
      }
      remove(last, static_cast<int>(next));
    }
  }

  const std::vector<std::vector<int>>& hops_;
  const std::vector<double>& residual_;
  size_t n_;
  std::vector<int> uses_;
  std::vector<int> path_, bestPath_;
  std::vector<char> visited_;
  double best_ = 0;
  bool found_ = false;
  long nodes_ = 0;
};

RingSet packRings(const Cluster& c, std::span<const int> m) {
  const size_t n = m.size();
  // Local channel indices over every route between members.
  std::vector<int> channels;
  for (int a : m)
    for (int b : m)
      if (a != b)
        for (int ch : c.route(a, b)) channels.push_back(ch);
  std::sort(channels.begin(), channels.end());
  channels.erase(std::unique(channels.begin(), channels.end()), channels.end());
  std::vector<std::vector<int>> hops(n * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j)
        for (int ch : c.route(m[i], m[j]))
          hops[i * n + j].push_back(static_cast<int>(std::lower_bound(channels.begin(), channels.end(), ch) - channels.begin()));
  std::vector<double> residual;
  for (int ch : channels) residual.push_back(c.channel(ch).bandwidth);

  RingSet rs;
  std::vector<int> identity(n);
  for (size_t i = 0; i < n; ++i) identity[i] = static_cast<int>(i);
  std::vector<int> uses(residual.size());
  for (int r = 0; r < kMaxRings; ++r) {
    CycleSearch search(hops, residual, n);
    std::vector<int> order = identity;
    double best = search.bottleneck(order);
    search.improve(best, order);
    if (best <= 0 || (r > 0 && best < kNextRingShare * rs.bandwidths[0])) break;
    std::fill(uses.begin(), uses.end(), 0);
    for (size_t i = 0; i < n; ++i)
      for (int ch : hops[static_cast<size_t>(order[i]) * n + static_cast<size_t>(order[(i + 1) % n])]) ++uses[static_cast<size_t>(ch)];
    for (size_t ch = 0; ch < residual.size(); ++ch) residual[ch] = std::max(0.0, residual[ch] - best * uses[ch]);
    std::vector<int> devices;
    for (int i : order) devices.push_back(m[static_cast<size_t>(i)]);
    rs.orders.push_back(std::move(devices));
    rs.bandwidths.push_back(best);
  }
  if (rs.orders.empty()) return rankOrder(m);
  double total = 0;
  for (double b : rs.bandwidths) total += b;
  for (double b : rs.bandwidths) rs.shares.push_back(b / total);
  return rs;
}


// The cluster's identity for the caches below: its name, sizes and channel table's address.
std::array<int64_t, 4> identityOf(const Cluster& c) {
  return {static_cast<int64_t>(std::hash<std::string>{}(c.name())), c.numDevices(), c.numChannels(),
          c.numChannels() > 0 ? reinterpret_cast<int64_t>(&c.channel(0)) : 0};
}

// Whether every device of `server` reaches the others of its server through one port: then no
// group inside it has rings better than its rank order. Worked out once per server and thread.
bool serverBehindOnePort(const Cluster& c, int server, std::span<const int> serverOf) {
  thread_local std::array<int64_t, 4> identity{};
  thread_local std::vector<std::vector<int>> devices;
  thread_local std::vector<int8_t> known;  // -1 not yet, 0 no, 1 yes
  const std::array<int64_t, 4> id = identityOf(c);
  if (id != identity || devices.size() == 0) {
    identity = id;
    devices.clear();
    for (int d = 0; d < c.numDevices() && static_cast<size_t>(d) < serverOf.size(); ++d) {
      const size_t sv = static_cast<size_t>(serverOf[static_cast<size_t>(d)]);
      if (devices.size() <= sv) devices.resize(sv + 1);
      devices[sv].push_back(d);
    }
    known.assign(devices.size(), -1);
  }
  if (server < 0 || static_cast<size_t>(server) >= devices.size()) return false;
  int8_t& k = known[static_cast<size_t>(server)];
  if (k < 0) k = throughOnePort(c, devices[static_cast<size_t>(server)]) ? 1 : 0;
  return k == 1;
}

}  // namespace

bool mayPackRings(const Cluster& c, std::span<const int> members, std::span<const int> serverOf) {
  if (members.size() <= 2 || members.size() > kMaxPackedGroup) return false;
  const int server = serverOf[static_cast<size_t>(members[0])];
  for (int d : members)
    if (serverOf[static_cast<size_t>(d)] != server) return false;
  return !serverBehindOnePort(c, server, serverOf);
}

const RingSet& ringsOver(const Cluster& c, std::span<const int> members, std::span<const int> serverOf) {
  thread_local RingSet single;
  if (!mayPackRings(c, members, serverOf)) return single = rankOrder(members);
  auto pack = [&] { return throughOnePort(c, members) ? rankOrder(members) : packRings(c, members); };
  // Keyed by the cluster's identity (its name, sizes and channel table's address) and the
  // members; an entry also holds what the rank order's hops cost, checked on every hit, so a
  // cluster built where a freed one lived never reads the other's rings.
  struct Entry {
    double signature;
    RingSet rings;
  };
  auto signature = [&] {
    double s = 0;
    for (size_t i = 0; i < members.size(); ++i) {
      const int a = members[i], b = members[(i + 1) % members.size()];
      s = s * 1.000001 + c.routeBandwidth(a, b) + 1e9 * c.routeLatency(a, b);
    }
    return s;
  };
  thread_local std::unordered_map<std::vector<int64_t>, Entry, KeyHash> cache;
  thread_local std::vector<int64_t> key;
  const std::array<int64_t, 4> id = identityOf(c);
  key.assign(id.begin(), id.end());
  key.insert(key.end(), members.begin(), members.end());
  const double sig = signature();
  if (auto it = cache.find(key); it != cache.end()) {
    if (it->second.signature == sig) return it->second.rings;
    it->second = Entry{sig, pack()};
    return it->second.rings;
  }
  if (cache.size() > 8192) cache.clear();
  return cache.emplace(key, Entry{sig, pack()}).first->second.rings;
}

}  // namespace gp

// Route: the directed channels a transfer between two devices crosses, in order, as a range of
// channel ids. A cluster keeps its routes either as one list per pair, or (clusters of many
// identical servers, cluster/scaled_cluster.h) as a two-server template whose channels are moved
// to the blocks of the servers the endpoints sit in; Route reads both alike.
//
//   for (int ch : c.route(a, b)) busy[ch] = end;
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace gp {

class Route {
 public:
  Route() = default;
  // `channel[i]` plus, where `side` is given, `sourceBase` (side 1), `targetBase` (side 2), or the
  // source's or target's pod base (sides 3, 4).
  Route(const int32_t* channel, const uint8_t* side, size_t n, int32_t sourceBase = 0, int32_t targetBase = 0,
        int32_t sourcePodBase = 0, int32_t targetPodBase = 0)
      : channel_(channel), side_(side), n_(n), base_{0, sourceBase, targetBase, sourcePodBase, targetPodBase} {}

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  int operator[](size_t i) const { return channel_[i] + (side_ ? base_[side_[i]] : 0); }
  int front() const { return (*this)[0]; }

  class iterator {
   public:
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::forward_iterator_tag;
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    using reference = int;
    using pointer = void;
    iterator() = default;
    iterator(const Route* r, size_t i) : r_(r), i_(i) {}
    int operator*() const { return (*r_)[i_]; }
    iterator& operator++() { return ++i_, *this; }
    iterator operator++(int) { iterator t = *this; ++i_; return t; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const Route* r_ = nullptr;
    size_t i_ = 0;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, n_}; }

 private:
  const int32_t* channel_ = nullptr;
  const uint8_t* side_ = nullptr;
  size_t n_ = 0;
  int32_t base_[5] = {0, 0, 0, 0, 0};
};

// The routes of N identical servers joined by shared switches: server k's channels are the
// block [k x blockChannels, (k + 1) x blockChannels), the shared switches' own links follow the
// last block. Template pair t = kind x D^2 + local source x D + local target (D devices per
// server, numbered server by server; kind 0: the same server, 1: another server, 2: another
// server in another pod) lists its route's channels as block-local ids (side 1: the source's
// server, 2: the target's), absolute ids (side 0: shared links), or pod-local ids (side 3: the
// source's pod's leaf-to-spine links, 4: the target's). With pods (serversPerPod > 0) pod p's
// links are the block [podBase + p x podChannels, ...).
struct ServerRoutes {
  int servers = 0, perServer = 0;
  int32_t blockChannels = 0;
  int serversPerPod = 0;                      // 0: one switch layer joins every server
  int32_t podBase = 0, podChannels = 0;
  std::vector<int32_t> offset;  // CSR over template pairs (2 or 3 D^2 + 1 entries)
  std::vector<int32_t> channel;
  std::vector<uint8_t> side;
  std::vector<double> latency, bandwidth;  // per template pair

  size_t pair(int a, int b) const {
    const int sa = a / perServer, sb = b / perServer;
    const size_t kind = sa == sb ? 0 : serversPerPod > 0 && sa / serversPerPod != sb / serversPerPod ? 2 : 1;
    return kind * perServer * perServer + static_cast<size_t>(a % perServer) * perServer + static_cast<size_t>(b % perServer);
  }
  Route route(int a, int b) const {
    const size_t t = pair(a, b);
    const auto begin = static_cast<size_t>(offset[t]);
    const int sa = a / perServer, sb = b / perServer;
    const int pa = serversPerPod > 0 ? sa / serversPerPod : 0, pb = serversPerPod > 0 ? sb / serversPerPod : 0;
    return {channel.data() + begin, side.data() + begin, static_cast<size_t>(offset[t + 1]) - begin,
            sa * blockChannels,     sb * blockChannels,  podBase + pa * podChannels,
            podBase + pb * podChannels};
  }
};

}  // namespace gp

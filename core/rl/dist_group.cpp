#include "rl/dist_group.h"

#include <glog/logging.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <csignal>
#include <exception>
#include <string>
#include <thread>

#include "base/error.h"

namespace gp::rl {
namespace {

std::string firstLine(const std::string& s) {
  const auto end = s.find('\n');
  return end == std::string::npos ? s : s.substr(0, end);
}

std::string seconds(std::chrono::milliseconds t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", static_cast<double>(t.count()) / 1000);
  return buf;
}

}  // namespace

// c10d logs a failed connect or bind through glog on stderr before it throws; the error this
// class throws says it in one line, so only fatal messages pass while a group exists.
class QuietGlog {
 public:
  QuietGlog() : before_(FLAGS_minloglevel) { FLAGS_minloglevel = std::max(FLAGS_minloglevel, google::GLOG_FATAL); }
  ~QuietGlog() { FLAGS_minloglevel = before_; }
  QuietGlog(const QuietGlog&) = delete;
  QuietGlog& operator=(const QuietGlog&) = delete;

 private:
  int before_;
};

// Each rank's pulse in the store, for naming the rank that failed a collective: a thread with
// its own store connection adds 1 to "graphplace/beat/R" every kBeat and raises
// "graphplace/at/R" to the number of collectives this rank has started.
constexpr auto kBeat = std::chrono::milliseconds(200);

class Heartbeat {
 public:
  Heartbeat(const std::string& host, uint16_t port, int rank, std::chrono::milliseconds timeout) : rank_(rank) {
    c10d::TCPStoreOptions o;
    o.port = port;
    o.isServer = false;
    o.waitWorkers = false;
    o.timeout = timeout;
    store_ = c10::make_intrusive<c10d::TCPStore>(host, o);
    thread_ = std::thread([this] { run(); });
  }
  ~Heartbeat() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;
  void started() { collectives_.fetch_add(1); }
  int64_t collectives() const { return collectives_.load(); }

 private:
  void run() {
    const std::string beat = "graphplace/beat/" + std::to_string(rank_), at = "graphplace/at/" + std::to_string(rank_);
    int64_t published = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      try {
        store_->add(beat, 1);
        const int64_t now = collectives_.load();
        if (now > published) store_->add(at, now - published);
        published = now;
      } catch (const std::exception&) {
        return;  // the store is gone (rank 0 exited): nothing left to tell
      }
      wake_.wait_for(lock, kBeat, [this] { return stop_; });
    }
  }
  int rank_;
  c10::intrusive_ptr<c10d::TCPStore> store_;
  std::atomic<int64_t> collectives_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

struct DistGroup::Impl {
  QuietGlog quiet;
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
  std::unique_ptr<Heartbeat> heartbeat;
};

DistGroup::DistGroup(const DistEnv& env, std::chrono::milliseconds timeout, std::chrono::milliseconds rendezvous)
    : impl_(std::make_unique<Impl>()), rank_(env.rank), worldSize_(env.worldSize), timeout_(timeout) {
  // Gloo writes to its peers' sockets: a peer that exited would kill this process with SIGPIPE
  // before the write's error could be reported (Python, torch.distributed's usual host, ignores
  // SIGPIPE from the start).
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) std::signal(SIGPIPE, SIG_IGN);
  const std::string where = this->where();
  const std::string master = env.masterAddr + ":" + std::to_string(env.masterPort);
  try {
    c10d::TCPStoreOptions o;
    o.port = env.masterPort;
    o.isServer = rank_ == 0;
    o.numWorkers = static_cast<size_t>(worldSize_);
    o.waitWorkers = true;
    o.timeout = rendezvous;
    impl_->store = c10::make_intrusive<c10d::TCPStore>(env.masterAddr, o);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (rank_ == 0 && what.find("in use") != std::string::npos)
      throw Error("distributed", where + ": MASTER_PORT " + std::to_string(env.masterPort) +
                                     " is in use (rank 0 serves the rendezvous there): choose another MASTER_PORT");
    throw Error("distributed", where + ": the rendezvous at " + master + " did not complete within " + seconds(rendezvous) +
                                   (rank_ == 0 ? " (not every rank joined)" : " (the master is unreachable)") + ": " +
                                   firstLine(what));
  }
  // Every rank checks in at the store before the Gloo group forms: the group's connections then
  // only wait the collective timeout, which may be far shorter than a slow start needs.
  try {
    impl_->store->add("graphplace/joined", 1);
    const auto deadline = std::chrono::steady_clock::now() + rendezvous;
    while (impl_->store->add("graphplace/joined", 0) < worldSize_) {
      if (std::chrono::steady_clock::now() > deadline)
        throw Error("distributed", where + ": only " + std::to_string(impl_->store->add("graphplace/joined", 0)) + " of " +
                                       std::to_string(worldSize_) + " ranks joined at " + master + " within " +
                                       seconds(rendezvous));
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error("distributed", where + ": the rendezvous at " + master + " broke off: " + firstLine(e.what()));
  }
  try {
    auto options = c10d::ProcessGroupGloo::Options::create(timeout);
    // loopback for a master on this machine; else GLOO_SOCKET_IFNAME's interface, or the address
    // this machine's hostname resolves to (as torch.distributed picks)
    const bool loopback = env.masterAddr == "localhost" || env.masterAddr.rfind("127.", 0) == 0;
    const char* ifname = std::getenv("GLOO_SOCKET_IFNAME");
    options->devices.push_back(loopback                ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                               : ifname && *ifname     ? c10d::ProcessGroupGloo::createDeviceForInterface(ifname)
                                                       : c10d::ProcessGroupGloo::createDefaultDevice());
    options->threads = 1;
    impl_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(impl_->store, rank_, worldSize_, options);
    impl_->heartbeat = std::make_unique<Heartbeat>(env.masterAddr, env.masterPort, rank_, timeout);
  } catch (const std::exception& e) {
    throw Error("distributed", where + ": the Gloo group did not form within " + seconds(timeout) + ": " +
                                   firstLine(e.what()));
  }
}

DistGroup::~DistGroup() {
  impl_->heartbeat.reset();  // before the store it beats in
}

std::string DistGroup::where() const { return "rank " + std::to_string(rank_) + " of " + std::to_string(worldSize_); }

std::string DistGroup::culprits() {
  // two looks at every other rank's pulse, a few beats apart: a pulse that stopped is a rank that
  // exited (or was killed or frozen); a live rank that started fewer collectives hangs or is slow
  try {
    std::vector<int64_t> first, at;
    for (int r = 0; r < worldSize_; ++r) first.push_back(impl_->store->add("graphplace/beat/" + std::to_string(r), 0));
    std::this_thread::sleep_for(3 * kBeat);
    std::vector<std::string> gone, behind;
    const int64_t mine = impl_->heartbeat->collectives();
    for (int r = 0; r < worldSize_; ++r) {
      if (r == rank_) continue;
      if (impl_->store->add("graphplace/beat/" + std::to_string(r), 0) == first[r]) gone.push_back(std::to_string(r));
      else if (impl_->store->add("graphplace/at/" + std::to_string(r), 0) < mine) behind.push_back(std::to_string(r));
    }
    auto list = [](const std::vector<std::string>& rs) {
      std::string s = rs.size() > 1 ? "ranks " : "rank ";
      for (size_t i = 0; i < rs.size(); ++i) s += (i ? ", " : "") + rs[i];
      return s;
    };
    if (!gone.empty()) return list(gone) + " stopped (exited, killed or frozen)";
    if (!behind.empty()) return list(behind) + " did not reach this step within " + seconds(timeout_) + " (hung or too slow)";
    return "a rank did not answer within " + seconds(timeout_);
  } catch (const std::exception&) {
    return "rank 0 stopped (exited, killed or frozen: the rendezvous it serves is gone)";
  }
}

template <class F>
void DistGroup::collective(const char* step, F&& run) {
  impl_->heartbeat->started();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    run()->wait(timeout_);
    collectiveSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } catch (const std::exception& e) {
    throw Error("distributed", where() + ": " + step + " failed: " + culprits() + " (" + firstLine(e.what()) + ")");
  }
}

void DistGroup::allReduceSum(std::vector<torch::Tensor>& tensors) {
  if (worldSize_ == 1) return;
  for (torch::Tensor& t : tensors) {  // c10d's list is one tensor per device: one collective each
    std::vector<torch::Tensor> one{t};
    collective("all-reduce", [&] { return impl_->group->allreduce(one); });
  }
}

void DistGroup::allReduceMean(std::vector<torch::Tensor>& tensors) {
  allReduceSum(tensors);
  if (worldSize_ > 1)
    for (torch::Tensor& t : tensors) t.div_(worldSize_);
}

std::vector<std::vector<int32_t>> DistGroup::allGather(const std::vector<int32_t>& mine) {
  if (worldSize_ == 1) return {mine};
  // the lengths first (a gather needs equal sizes), then every rank's values padded to the longest
  auto gather = [&](const torch::Tensor& t) {
    std::vector<std::vector<torch::Tensor>> out(1);
    for (int r = 0; r < worldSize_; ++r) out[0].push_back(torch::empty_like(t));
    std::vector<torch::Tensor> in{t};
    collective("all-gather", [&] { return impl_->group->allgather(out, in); });
    return out[0];
  };
  const std::vector<torch::Tensor> lengths = gather(torch::tensor({static_cast<int64_t>(mine.size())}, torch::kInt64));
  int64_t longest = 0;
  for (const torch::Tensor& l : lengths) longest = std::max(longest, l.item<int64_t>());
  torch::Tensor padded = torch::zeros({std::max<int64_t>(1, longest)}, torch::kInt32);
  std::copy(mine.begin(), mine.end(), padded.data_ptr<int32_t>());
  const std::vector<torch::Tensor> values = gather(padded);
  std::vector<std::vector<int32_t>> out;
  for (int r = 0; r < worldSize_; ++r) {
    const int32_t* v = values[r].data_ptr<int32_t>();
    out.emplace_back(v, v + lengths[r].item<int64_t>());
  }
  return out;
}

void DistGroup::broadcast(std::vector<torch::Tensor>& tensors, int root) {
  if (worldSize_ == 1) return;
  c10d::BroadcastOptions o;
  o.rootRank = root;
  for (torch::Tensor& t : tensors) {
    std::vector<torch::Tensor> one{t};
    collective("broadcast", [&] { return impl_->group->broadcast(one, o); });
  }
}

void DistGroup::barrier() {
  if (worldSize_ == 1) return;
  collective("barrier", [&] { return impl_->group->barrier(); });
}

}  // namespace gp::rl

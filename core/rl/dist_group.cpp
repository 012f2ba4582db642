#include "rl/dist_group.h"

#include <glog/logging.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <signal.h>

#include <algorithm>
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

struct DistGroup::Impl {
  QuietGlog quiet;
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
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
    options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(
        env.masterAddr == "localhost" || env.masterAddr.rfind("127.", 0) == 0 ? "127.0.0.1" : env.masterAddr));
    options->threads = 1;
    impl_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(impl_->store, rank_, worldSize_, options);
  } catch (const std::exception& e) {
    throw Error("distributed", where + ": the Gloo group did not form within " + seconds(timeout) + ": " +
                                   firstLine(e.what()));
  }
}

DistGroup::~DistGroup() = default;

std::string DistGroup::where() const { return "rank " + std::to_string(rank_) + " of " + std::to_string(worldSize_); }

namespace {

template <class F>
void collective(const std::string& where, const char* step, std::chrono::milliseconds timeout, F&& run) {
  try {
    run()->wait(timeout);
  } catch (const std::exception& e) {
    throw Error("distributed", where + ": " + step + " failed (a rank exited or did not answer within " + seconds(timeout) +
                                   "): " + firstLine(e.what()));
  }
}

}  // namespace

void DistGroup::allReduceMean(std::vector<torch::Tensor>& tensors) {
  if (worldSize_ == 1 || tensors.empty()) return;
  collective(where(), "all-reduce", timeout_, [&] { return impl_->group->allreduce(tensors); });
  for (torch::Tensor& t : tensors) t.div_(worldSize_);
}

void DistGroup::broadcast(std::vector<torch::Tensor>& tensors, int root) {
  if (worldSize_ == 1 || tensors.empty()) return;
  c10d::BroadcastOptions o;
  o.rootRank = root;
  collective(where(), "broadcast", timeout_, [&] { return impl_->group->broadcast(tensors, o); });
}

void DistGroup::barrier() {
  if (worldSize_ == 1) return;
  collective(where(), "barrier", timeout_, [&] { return impl_->group->barrier(); });
}

}  // namespace gp::rl

// A Gloo process group over TCP (torch.distributed's c10d, as Debian's LibTorch builds it):
// rank 0 serves the rendezvous, a c10d::TCPStore at MASTER_ADDR:MASTER_PORT, the others connect
// to it (waiting at most `rendezvous` for every rank to join), then collectives run on CPU
// tensors. Every collective waits at most `timeout`; a peer that died or stopped answering
// makes it throw gp::Error("distributed", one line naming this rank, the step that failed and the
// rank to blame: each rank keeps a pulse in the store, so one whose pulse stopped is named as
// stopped and a live one that has not reached the step as hung), as do an unreachable master and
// a port already in use. Ranks on other machines talk over GLOO_SOCKET_IFNAME's interface, else
// the address their hostname resolves to. Making a group ignores SIGPIPE (unless the process set
// its own handler), as Python does, so that a peer that exited is an error here rather than a
// signal that kills this process.
//
//   DistGroup group(distEnvFrom(getenv), std::chrono::seconds(30), std::chrono::minutes(5));
//   group.broadcast(weights);         // every rank starts from rank 0's weights
//   group.allReduceMean(gradients);   // a data-parallel update
#pragma once
#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "optimize/dist_env.h"

namespace gp::rl {

class DistGroup {
 public:
  DistGroup(const DistEnv& env, std::chrono::milliseconds timeout, std::chrono::milliseconds rendezvous);
  ~DistGroup();
  DistGroup(const DistGroup&) = delete;
  DistGroup& operator=(const DistGroup&) = delete;

  int rank() const { return rank_; }
  int worldSize() const { return worldSize_; }
  // Seconds spent in collectives so far (waiting for the other ranks, and the transfer).
  double collectiveSeconds() const { return collectiveSeconds_; }

  // In place: each tensor becomes its sum (or mean) over the ranks (float or double, contiguous;
  // one collective per tensor); every rank holds the same bits afterwards.
  void allReduceSum(std::vector<torch::Tensor>& tensors);
  void allReduceMean(std::vector<torch::Tensor>& tensors);
  // Every rank's `mine` (int32, any length), in rank order.
  std::vector<std::vector<int32_t>> allGather(const std::vector<int32_t>& mine);
  // In place: each tensor becomes root's (one collective per tensor).
  void broadcast(std::vector<torch::Tensor>& tensors, int root = 0);
  void barrier();

 private:
  std::string where() const;  // "rank 1 of 4", for errors
  // After a failed collective: which ranks stopped (their pulse in the store stopped) or lag
  // behind, in words.
  std::string culprits();
  template <class F>
  void collective(const char* step, F&& run);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int rank_ = 0, worldSize_ = 1;
  std::chrono::milliseconds timeout_;
  double collectiveSeconds_ = 0;
};

}  // namespace gp::rl

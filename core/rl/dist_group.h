// A Gloo process group over TCP (torch.distributed's c10d, as Debian's LibTorch builds it):
// rank 0 serves the rendezvous, a c10d::TCPStore at MASTER_ADDR:MASTER_PORT, the others connect
// to it, then collectives run on CPU tensors. Every call waits at most `timeout`; a peer that
// died or stopped answering makes it throw gp::Error("distributed", one line naming this rank
// and the step that failed), as do an unreachable master and a port already in use.
//
//   DistGroup group(distEnvFrom(getenv), std::chrono::seconds(30));
//   group.broadcast(weights);         // every rank starts from rank 0's weights
//   group.allReduceMean(gradients);   // a data-parallel update
#pragma once
#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <vector>

#include "optimize/dist_env.h"

namespace gp::rl {

class DistGroup {
 public:
  DistGroup(const DistEnv& env, std::chrono::milliseconds timeout);
  ~DistGroup();
  DistGroup(const DistGroup&) = delete;
  DistGroup& operator=(const DistGroup&) = delete;

  int rank() const { return rank_; }
  int worldSize() const { return worldSize_; }

  // In place: each tensor becomes its mean over the ranks (float or double, contiguous).
  void allReduceMean(std::vector<torch::Tensor>& tensors);
  // In place: each tensor becomes root's.
  void broadcast(std::vector<torch::Tensor>& tensors, int root = 0);
  void barrier();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int rank_ = 0, worldSize_ = 1;
  std::chrono::milliseconds timeout_;
};

}  // namespace gp::rl

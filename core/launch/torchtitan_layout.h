// What torchtitan's two configuration forms share when they express a plan (torchtitan_launch.h:
// the TOML of commit 9dec370, torchtitan_py_launch.h: the Python configuration of b5bcd76): where
// the data-parallel replicas keep their state, the one recomputation every block gets, and what
// torchtitan cannot express exactly.
#pragma once
#include <string>
#include <vector>

#include "parallel/parallel_plan.h"

namespace gp {

struct TorchtitanLayout {
  int replicate = 1, shard = 1;  // data_parallel_replicate_degree, data_parallel_shard_degree
  Recompute recompute = Recompute::None;
  bool cpuOffload = false;  // training.enable_cpu_offload (FSDP2's CPUOffloadPolicy)
  const char* reduce = "float32";  // training.mixed_precision_reduce: bfloat16 for 16-bit gradients
  std::vector<std::string> inexact;
};

// `current`: the b5bcd76 rules (expert parallelism, replicas beside other dimensions and gradient
// accumulation are supported there); else 9dec370's. Throws gp::Error("torchtitan", reason) for
// plans that torchtitan version rejects.
TorchtitanLayout torchtitanLayout(const ParallelPlan& p, int64_t globalBatch, bool current);

// training.mixed_precision_reduce as the gradient accumulation it means: "float32" (torchtitan's
// default) the framework's, "bfloat16" 16-bit; gp::Error(source, ...) naming `key` for others.
GradAccumulation torchtitanReduce(const std::string& value, const std::string& source, const std::string& key);

}  // namespace gp

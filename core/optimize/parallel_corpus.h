// The synthetic layer stacks the parallel-plan DQN pre-trains on: GPT-style decoders of random
// depth, width and sequence length (zoo gpt generator, heads of 128), on the multi-GPU cluster
// presets with a bf16 rate, at random global batches. Only the GPT family: T5, the mixture of
// experts and BERT stay out, to measure transfer to families never trained on.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parallel/parallel_task.h"
#include "zoo/zoo.h"

namespace gp {

// The forward graph of zoo model `zoo` (params; batch 1 unless given) in the cluster's training
// precision (defaultTrainingPrecision) on cluster preset or file `cluster`, at `globalBatch`.
std::unique_ptr<ParallelTask> zooParallelTask(const std::string& zoo, ZooParams params, const std::string& cluster,
                                              int64_t globalBatch, const std::string& name = {});

// `count` tasks drawn from `seed` (the same seed gives the same tasks).
std::vector<std::unique_ptr<ParallelTask>> syntheticParallelTasks(uint64_t seed, int count);

}  // namespace gp

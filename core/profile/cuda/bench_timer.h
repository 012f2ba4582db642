// Timing a batch of back-to-back repetitions of one GPU operation (plugin only), with CUPTI
// activity records or, without CUPTI, CUDA events. See profile_result.h for what `seconds` and
// `kernelSeconds` mean.
//
//   BenchTimer timer(/*cupti=*/true);
//   BatchTiming t = timer.timeFor(stream, 0.05, 10, 200, [&] { cublasGemmEx(...); });
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <string>

namespace gp::prof {

struct BatchTiming {
  double seconds = 0;        // median start-to-start of consecutive repetitions
  double kernelSeconds = 0;  // median first-start to last-end of one repetition
  int repetitions = 0;
  int kernelsPerRepetition = 0;  // 0: unknown (events)
};

class BenchTimer {
 public:
  explicit BenchTimer(bool cupti) : cupti_(cupti) {}
  bool cupti() const { return cupti_; }

  // `warmup` untimed calls of `launch`, then `reps` timed ones back to back on `stream`.
  // tagged (CUPTI): each call's work carries its own external id, so calls that launch several
  // kernels are told apart; untagged: each kernel record counts as one call (the launch
  // benchmark, where tagging would add host time between launches).
  BatchTiming time(cudaStream_t stream, int warmup, int reps, const std::function<void()>& launch, bool tagged = true);
  // The same with `reps` chosen so that the batch takes about targetSeconds.
  BatchTiming timeFor(cudaStream_t stream, double targetSeconds, int minReps, int maxReps,
                      const std::function<void()>& launch);

  // Set when CUPTI delivered no usable records for a batch and CUDA events timed it.
  const std::string& note() const { return note_; }

 private:
  BatchTiming timeEvents(cudaStream_t stream, int reps, const std::function<void()>& launch);

  bool cupti_;
  uint64_t nextId_ = uint64_t{1} << 40;
  std::string note_;
};

}  // namespace gp::prof

// This machine's CPU as a measurement source: every KernelSpec runs as the LibTorch kernel of
// its kind (costmodel/kernel_run.h) under its configuration, timed with a steady clock.
//
// Layout 1 is what it would be in PyTorch: B a transposed view (GEMM), channels-last tensors
// (convolution, pooling), a transposed view as input (the others: the output written
// contiguous). Tiles cut the leading dimension (GEMM rows, convolution output channels, rows
// of the others) and run the pieces one after another. Operands are allocated once per
// distinct (kernel, layout) before timing; outputs are allocated by each call, as in eager
// PyTorch.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "costmodel/kernel_run.h"

namespace gp::rl {

class CpuMeasurementSource : public MeasurementSource {
 public:
  explicit CpuMeasurementSource(const std::atomic<bool>* cancel = nullptr) : cancel_(cancel) {}
  std::string deviceKind() const override;  // "cpu:<model name> (<n> threads)"
  std::vector<int32_t> threadChoices() const override;  // 1, 2, 4, ... up to the hardware threads
  std::vector<RunTiming> time(const std::vector<KernelRun>& runs, int repeats) override;

 private:
  const std::atomic<bool>* cancel_;
};

}  // namespace gp::rl

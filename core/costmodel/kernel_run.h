// What a measurement source runs: the representative kernel of a graph op, as the GPU executor
// has it (profile/gpu_program.h: a GEMM or convolution with the op's shapes), and for the
// other classes a kernel of the op's own kind (an activation, a binary op, softmax, layer norm,
// a reduction, pooling, a copy) over the op's main tensor viewed as rows x cols.
//
// A configuration of a kernel (TpuGraphs' "tile" configuration, on a CPU):
//   threads  the worker threads it runs with,
//   layout   0 its canonical layout; 1 the other one: B stored transposed (GEMM), channels-last
//            (convolution, pooling), the input a transposed view (every other kind),
//   tiles    the leading dimension (batch or rows) cut into this many pieces run one after
//            another (1 or 4).
// A run is calls back to back: one kernel, a fused group's kernels, or a whole plan with its
// layout conversions (copies).
//
//   KernelSpec k = kernelSpecOf(cost, op);
//   KernelRun run{{{k, /*layout*/ 1, /*tiles*/ 1}}, /*threads*/ 2};
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/dtype.h"
#include "graph/graph.h"

namespace gp {

class CostModel;

struct KernelSpec {
  enum class Kind : uint8_t {
    None,       // metadata op: nothing runs
    Gemm,       // batch x ([m,k] x [k,n])
    Conv,       // NCHW [n,c,h,w] * [k,c,r,s], stride, "same" padding
    Unary,      // y = relu(x) and other cheap elementwise maps
    Transcendental,  // tanh, sigmoid, exp, gelu, ...
    Binary,     // y = a + b (both rows x cols)
    Softmax,    // over cols
    LayerNorm,  // over cols
    BatchNorm,  // inference batch norm of rows x cols, cols the channels
    Reduce,     // sum over cols -> [rows]
    Pool,       // NCHW [n,c,h,w], an average over convR x convS windows (stride = window)
    Copy,       // [rows, cols] -> [rows, cols] (a transposed copy under layout 1)
  };
  Kind kind = Kind::None;
  DType dtype = DType::F32;  // runs as f32 on a CPU
  int64_t m = 0, n = 0, k = 0, batch = 1;                         // Gemm
  int64_t convN = 0, convC = 0, convH = 0, convW = 0, convK = 0;  // Conv, Pool ([n,c,h,w])
  int64_t convR = 1, convS = 1, stride = 1;                       // Conv; Pool: the window
  int64_t rows = 0, cols = 0;                                     // the other kinds
  double flops = 0;
  int64_t bytes = 0;  // read + written

  bool operator==(const KernelSpec&) const = default;
  // Elements of the largest operand (what a source allocates); 0 for None.
  int64_t largestOperand() const;
};
const char* kernelKindName(KernelSpec::Kind k);

struct KernelCall {
  KernelSpec kernel;
  uint8_t layout = 0;  // 0 canonical, 1 the alternative
  uint8_t tiles = 1;
};

struct KernelRun {
  std::vector<KernelCall> calls;
  int32_t threads = 1;
};

struct RunTiming {
  double seconds = 0;  // median of the repeats
  double spread = 0;   // (max - min) / median
};

// The representative kernel of `op` (None for a metadata op). Sizes are clamped so that no
// operand exceeds kMaxKernelElements (a larger op runs on a proportionally smaller batch).
KernelSpec kernelSpecOf(const CostModel& cost, OpId op);
inline constexpr int64_t kMaxKernelElements = int64_t{1} << 24;  // 64 MiB of f32

// The copy that converts a tensor of `elements` between layouts (a transposed copy).
KernelSpec layoutConversion(int64_t elements);

// Something that runs kernels for real and times them: this machine's CPU through LibTorch
// (the RL plugin), a GPU through CUPTI.
class MeasurementSource {
 public:
  virtual ~MeasurementSource() = default;
  virtual std::string deviceKind() const = 0;        // "cpu:<model name>"
  virtual std::vector<int32_t> threadChoices() const = 0;
  // One timing per run, each the median of `repeats` timed executions after a warm-up; the runs
  // are timed round-robin (run 0, 1, ..., 0, 1, ...), so a slow phase of a noisy machine
  // spreads over all of them instead of biasing one. Throws gp::Error when cancelled.
  virtual std::vector<RunTiming> time(const std::vector<KernelRun>& runs, int repeats) = 0;
};

}  // namespace gp

// FLOP formulas shared by importers and the zoo. A multiply-add counts as 2 FLOPs.
#pragma once
#include <cstdint>
#include <span>

namespace gp::flops {

// Elements of a shape; 0 if any dimension is <= 0; saturates at INT64_MAX instead of overflowing.
int64_t numel(std::span<const int64_t> shape);
// A @ B with numpy broadcasting of batch dims; rank-1 operands as in numpy.matmul.
double matmul(std::span<const int64_t> a, std::span<const int64_t> b);
// Convolution producing `out` (N, Cout, spatial...) with Cin/groups input channels per
// output channel and a kernel of kernelElems spatial elements; bias adds numel(out).
double conv(std::span<const int64_t> out, int64_t cinPerGroup, int64_t kernelElems, bool bias);
// One step of an RNN layer over `batch` rows: gates * (input + hidden) * hidden MACs plus
// elementwise gate work (LSTM: 4 gates, GRU: 3, vanilla RNN: 1).
double rnnStep(int64_t batch, int64_t inputSize, int64_t hiddenSize, int gates);

}  // namespace gp::flops

// One cuDNN forward convolution of a fixed shape (plugin only), as the zoo's Conv2D has it: NHWC
// input [n,h,w,c], filter k x r x s x c (cuDNN's NHWC filter layout), stride, "same" padding,
// f32 without TF32 (CUDNN_FMA_MATH) or f16 / bf16 on tensor cores with f32 accumulation. The
// algorithm is chosen once, by cudnnFindConvolutionForwardAlgorithm, among those whose
// workspace fits a limit; run() then only launches. The microbenchmarks and the executor's
// kernels (kernel_launch.h) both use it.
//
//   ConvShape s{DType::F16, 32, 14, 14, 256, 256, 3, 3, 1, 1};
//   ConvRunner conv(dnn, s, 1 << 30);               // descriptors + algorithm search (host-blocking)
//   conv.run(dnn, x, w, y, workspace);              // workspace: conv.workspaceBytes()
#pragma once
#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "graph/dtype.h"

namespace gp::prof {

struct ConvShape {
  DType dtype = DType::F32;  // F16 and BF16 run as such; anything else as F32
  int64_t n = 0, h = 0, w = 0, c = 0, k = 0;
  int64_t r = 0, s = 0;  // filter height and width
  int64_t strideH = 1, strideW = 1;
  bool operator==(const ConvShape&) const = default;
};

// The sizes cuDNN works with, computed without cuDNN (the executor sizes its buffers from
// them before any descriptor exists). "Same" padding as TensorFlow's total padding
// max((out - 1) * stride + r - h, 0) with out = ceil(h / stride), split symmetrically (cuDNN
// has no asymmetric padding): floor(total / 2) per side, or the ceiling when the floor would
// give fewer output rows than `same` asks for. With an odd total (even filters), the output
// can so come out one row or column larger than TensorFlow's.
struct ConvDims {
  int64_t padH = 0, padW = 0, outH = 0, outW = 0;
  int64_t inputElems = 0, filterElems = 0, outputElems = 0;
  int elementBytes = 4;
};
// Throws gp::Error("profile", ...) for a non-positive size or one past cuDNN's int range.
ConvDims convDims(const ConvShape& s);

// "conv 3x3/1 f16 32x14x14x256 -> 256"
std::string convLabel(const ConvShape& s);

class ConvRunner {
 public:
  // Sets up the descriptors and picks the fastest algorithm whose workspace is at most
  // maxWorkspaceBytes. cuDNN allocates its own buffers for the search (run it before allocating
  // the layer data, as cuDNN advises). Throws gp::Error("profile", ...) when no algorithm runs.
  ConvRunner(cudnnHandle_t dnn, const ConvShape& shape, size_t maxWorkspaceBytes);
  ~ConvRunner();
  ConvRunner(const ConvRunner&) = delete;
  ConvRunner& operator=(const ConvRunner&) = delete;

  const ConvShape& shape() const { return shape_; }
  const ConvDims& dims() const { return dims_; }
  size_t workspaceBytes() const { return workspaceBytes_; }
  // y = conv(x, w) on the handle's stream; `workspace` holds at least workspaceBytes().
  void run(cudnnHandle_t dnn, const void* x, const void* w, void* y, void* workspace) const;

 private:
  // cuDNN descriptors, destroyed in reverse order (also when the constructor throws)
  struct Descriptors {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    Descriptors();
    ~Descriptors();
    Descriptors(const Descriptors&) = delete;
    Descriptors& operator=(const Descriptors&) = delete;
  };

  ConvShape shape_;
  ConvDims dims_;
  Descriptors d_;
  cudnnConvolutionFwdAlgo_t algo_ = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  size_t workspaceBytes_ = 0;
};

}  // namespace gp::prof

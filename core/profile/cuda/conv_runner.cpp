#include "profile/cuda/conv_runner.h"

#include <algorithm>
#include <climits>

#include "profile/cuda/cuda_errors.h"

namespace gp::prof {
namespace {

// TensorFlow's "same" output size and cuDNN's symmetric padding for one spatial dimension.
// Returns false when no symmetric padding gives an output.
bool samePadding(int64_t in, int64_t filter, int64_t stride, int64_t& pad, int64_t& out) {
  const int64_t want = (in + stride - 1) / stride;
  const int64_t total = std::max<int64_t>((want - 1) * stride + filter - in, 0);
  auto outFor = [&](int64_t p) { return in + 2 * p < filter ? int64_t{0} : (in + 2 * p - filter) / stride + 1; };
  pad = total / 2;
  out = outFor(pad);
  if (out < want) {
    pad = (total + 1) / 2;
    out = outFor(pad);
  }
  return out > 0;
}

cudnnDataType_t cudnnType(DType t) {
  return t == DType::F16 ? CUDNN_DATA_HALF : t == DType::BF16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
}

bool tensorCores(DType t) {
  return t == DType::F16 || t == DType::BF16;
}

const char* typeName(DType t) {
  return t == DType::F16 ? "f16" : t == DType::BF16 ? "bf16" : "f32";
}

int asInt(int64_t v) {
  return static_cast<int>(v);  // range checked by convDims()
}

}  // namespace

ConvDims convDims(const ConvShape& s) {
  for (int64_t v : {s.n, s.h, s.w, s.c, s.k, s.r, s.s, s.strideH, s.strideW})
    if (v <= 0) fail("convolution " + convLabel(s) + ": every size and stride must be positive");
  for (int64_t v : {s.n, s.h, s.w, s.c, s.k, s.r, s.s, s.strideH, s.strideW})
    if (v > INT_MAX) fail("convolution " + convLabel(s) + ": a size is past cuDNN's range");
  // cuDNN's 4-d descriptors have int strides: every tensor stays below 2^31 elements
  for (int64_t v : {s.n * s.h * s.w * s.c, s.k * s.r * s.s * s.c})
    if (v > INT_MAX) fail("convolution " + convLabel(s) + ": a tensor has 2^31 elements or more, past cuDNN's range");
  ConvDims d;
  if (!samePadding(s.h, s.r, s.strideH, d.padH, d.outH) || !samePadding(s.w, s.s, s.strideW, d.padW, d.outW))
    fail("convolution " + convLabel(s) + ": no 'same' padding fits the filter");
  d.elementBytes = tensorCores(s.dtype) ? 2 : 4;
  d.inputElems = s.n * s.h * s.w * s.c;
  d.filterElems = s.k * s.r * s.s * s.c;
  d.outputElems = s.n * d.outH * d.outW * s.k;
  if (d.outputElems > INT_MAX) fail("convolution " + convLabel(s) + ": the output has 2^31 elements or more, past cuDNN's range");
  return d;
}

std::string convLabel(const ConvShape& s) {
  std::string stride = std::to_string(s.strideH);
  if (s.strideW != s.strideH) stride += ',' + std::to_string(s.strideW);
  return "conv " + std::to_string(s.r) + "x" + std::to_string(s.s) + "/" + stride + " " + typeName(s.dtype) + " " +
         std::to_string(s.n) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + "x" + std::to_string(s.c) +
         " -> " + std::to_string(s.k);
}

ConvRunner::Descriptors::Descriptors() {
  checkCudnn(cudnnCreateTensorDescriptor(&x), "cudnnCreateTensorDescriptor");
  checkCudnn(cudnnCreateTensorDescriptor(&y), "cudnnCreateTensorDescriptor");
  checkCudnn(cudnnCreateFilterDescriptor(&w), "cudnnCreateFilterDescriptor");
  checkCudnn(cudnnCreateConvolutionDescriptor(&conv), "cudnnCreateConvolutionDescriptor");
}

ConvRunner::Descriptors::~Descriptors() {
  if (conv) cudnnDestroyConvolutionDescriptor(conv);
  if (w) cudnnDestroyFilterDescriptor(w);
  if (y) cudnnDestroyTensorDescriptor(y);
  if (x) cudnnDestroyTensorDescriptor(x);
}

ConvRunner::ConvRunner(cudnnHandle_t dnn, const ConvShape& shape, size_t maxWorkspaceBytes)
    : shape_(shape), dims_(convDims(shape)) {
  const ConvShape& s = shape_;
  const std::string label = convLabel(s);
  const cudnnDataType_t dt = cudnnType(s.dtype);
  checkCudnn(cudnnSetTensor4dDescriptor(d_.x, CUDNN_TENSOR_NHWC, dt, asInt(s.n), asInt(s.c), asInt(s.h), asInt(s.w)),
             "conv input descriptor");
  checkCudnn(cudnnSetFilter4dDescriptor(d_.w, dt, CUDNN_TENSOR_NHWC, asInt(s.k), asInt(s.c), asInt(s.r), asInt(s.s)),
             "conv filter descriptor");
  checkCudnn(cudnnSetConvolution2dDescriptor(d_.conv, asInt(dims_.padH), asInt(dims_.padW), asInt(s.strideH),
                                             asInt(s.strideW), 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
             "conv descriptor");
  // f32 without TF32 (as the GEMMs); f16 / bf16 on tensor cores
  const cudnnMathType_t math = tensorCores(s.dtype) ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH;
  checkCudnn(cudnnSetConvolutionMathType(d_.conv, math), "conv math type");
  int on = 0, oc = 0, oh = 0, ow = 0;
  checkCudnn(cudnnGetConvolution2dForwardOutputDim(d_.conv, d_.x, d_.w, &on, &oc, &oh, &ow), "conv output size");
  if (on != s.n || oc != s.k || oh != dims_.outH || ow != dims_.outW)
    fail(label + ": cuDNN's output " + std::to_string(on) + "x" + std::to_string(oh) + "x" + std::to_string(ow) + "x" +
         std::to_string(oc) + " differs from the expected " + std::to_string(s.n) + "x" + std::to_string(dims_.outH) +
         "x" + std::to_string(dims_.outW) + "x" + std::to_string(s.k));
  checkCudnn(cudnnSetTensor4dDescriptor(d_.y, CUDNN_TENSOR_NHWC, dt, on, oc, oh, ow), "conv output descriptor");

  cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int got = 0;
  checkCudnn(cudnnFindConvolutionForwardAlgorithm(dnn, d_.x, d_.w, d_.conv, d_.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                  &got, perf),
             "cudnnFindConvolutionForwardAlgorithm");
  // The search also tries CUDNN_DEFAULT_MATH, which allows TF32 for f32: f32 keeps FMA results only.
  const cudnnConvolutionFwdAlgoPerf_t* best = nullptr;
  for (int i = 0; i < got && !best; ++i)
    if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= maxWorkspaceBytes &&
        (tensorCores(s.dtype) || perf[i].mathType == CUDNN_FMA_MATH))
      best = &perf[i];
  if (best) {
    algo_ = best->algo;
    workspaceBytes_ = best->memory;
    checkCudnn(cudnnSetConvolutionMathType(d_.conv, best->mathType), "conv math type");
    return;
  }
  // f32 when the search reported no entry as FMA-only (cuDNN versions differ in what they
  // report): the fastest algorithm that runs with the math type forced to FMA.
  if (!tensorCores(s.dtype)) {
    checkCudnn(cudnnSetConvolutionMathType(d_.conv, CUDNN_FMA_MATH), "conv math type");
    for (int i = 0; i < got; ++i) {
      if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
      size_t bytes = 0;
      if (cudnnGetConvolutionForwardWorkspaceSize(dnn, d_.x, d_.w, d_.conv, d_.y, perf[i].algo, &bytes) !=
              CUDNN_STATUS_SUCCESS ||
          bytes > maxWorkspaceBytes)
        continue;
      algo_ = perf[i].algo;
      workspaceBytes_ = bytes;
      return;
    }
  }
  fail("cuDNN has no forward algorithm for " + label + " within " + std::to_string(maxWorkspaceBytes >> 20) +
       " MiB of workspace");
}

ConvRunner::~ConvRunner() = default;

void ConvRunner::run(cudnnHandle_t dnn, const void* x, const void* w, void* y, void* workspace) const {
  const float alpha = 1.0f, beta = 0.0f;
  checkCudnn(cudnnConvolutionForward(dnn, &alpha, d_.x, x, d_.w, w, d_.conv, algo_, workspace, workspaceBytes_, &beta,
                                     d_.y, y),
             "cudnnConvolutionForward");
}

}  // namespace gp::prof

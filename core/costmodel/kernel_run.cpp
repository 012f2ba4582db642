#include "costmodel/kernel_run.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "cost/cost_model.h"
#include "profile/gpu_program.h"

namespace gp {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool hasAny(const std::string& s, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return s.find(w) != std::string::npos; });
}

int64_t elementsOf(const Graph& g, TensorId t) {
  if (!g.hasShape(t)) return -1;
  int64_t e = 1;
  for (int64_t d : g.shape(t)) e *= std::max<int64_t>(d, 1);
  return e;
}

// The op's main tensor as rows x cols (cols = its last dimension): the first input with a
// shape, else the first output, else the bytes read as f32 elements in rows of 256.
void rowsCols(const Graph& g, OpId op, KernelSpec& k) {
  auto pick = [&](std::span<const TensorId> ts) -> TensorId {
    for (TensorId t : ts)
      if (g.hasShape(t) && !g.shape(t).empty() && elementsOf(g, t) > 0) return t;
    return kNone;
  };
  TensorId t = pick(g.inputs(op));
  if (k.kind == KernelSpec::Kind::Copy || t == kNone) {  // a copy writes its output's size
    if (TensorId o = pick(g.outputs(op)); o != kNone) t = o;
  }
  if (t != kNone) {
    const auto s = g.shape(t);
    k.cols = std::max<int64_t>(1, s.back());
    k.rows = std::max<int64_t>(1, elementsOf(g, t) / k.cols);
    return;
  }
  const int64_t e = std::max<int64_t>(1, (g.bytesRead(op) + g.bytesWritten(op)) / 8);
  k.cols = std::min<int64_t>(e, 256);
  k.rows = std::max<int64_t>(1, e / k.cols);
}

// Pooling over a 4-d tensor: NHWC when the channel count (last dimension) survives, NCHW when
// the second does. False when neither reads.
bool poolShape(const Graph& g, OpId op, KernelSpec& k) {
  auto in = g.inputs(op);
  auto out = g.outputs(op);
  if (in.empty() || out.empty() || !g.hasShape(in[0]) || !g.hasShape(out[0])) return false;
  const auto x = g.shape(in[0]), y = g.shape(out[0]);
  if (x.size() != 4 || y.size() != 4 || std::any_of(x.begin(), x.end(), [](int64_t d) { return d <= 0; })) return false;
  int64_t c = 0, h = 0, w = 0, oh = 0, ow = 0;
  if (x[3] == y[3] && x[0] == y[0]) {
    c = x[3], h = x[1], w = x[2], oh = y[1], ow = y[2];
  } else if (x[1] == y[1] && x[0] == y[0]) {
    c = x[1], h = x[2], w = x[3], oh = y[2], ow = y[3];
  } else {
    return false;
  }
  k.kind = KernelSpec::Kind::Pool;
  k.convN = x[0], k.convC = c, k.convH = h, k.convW = w;
  k.convR = std::max<int64_t>(1, h / std::max<int64_t>(oh, 1));
  k.convS = std::max<int64_t>(1, w / std::max<int64_t>(ow, 1));
  return true;
}

KernelSpec::Kind elementwiseKind(const Graph& g, OpId op, const std::string& type) {
  if (!hasAny(type, {"relu"}) && hasAny(type, {"tanh", "sigmoid", "exp", "gelu", "erf", "log", "pow", "sqrt", "swish", "silu", "softplus", "elu",
                    "sin", "cos", "mish"}))
    return KernelSpec::Kind::Transcendental;
  auto in = g.inputs(op);
  int big = 0;
  for (TensorId t : in)
    if (elementsOf(g, t) > 1) ++big;
  return big >= 2 ? KernelSpec::Kind::Binary : KernelSpec::Kind::Unary;
}

// Shrinks the kernel so that no operand exceeds kMaxKernelElements, scaling its FLOPs and
// bytes by the same factor.
void clamp(KernelSpec& k) {
  const int64_t largest = k.largestOperand();
  if (largest <= kMaxKernelElements) return;
  const double f = static_cast<double>(kMaxKernelElements) / static_cast<double>(largest);
  auto shrink = [f](int64_t& d) { d = std::max<int64_t>(1, static_cast<int64_t>(std::floor(static_cast<double>(d) * f))); };
  switch (k.kind) {
    case KernelSpec::Kind::Gemm:
      if (k.batch > 1) shrink(k.batch);
      else shrink(k.m);
      if (k.largestOperand() > kMaxKernelElements) {
        shrink(k.n);
        shrink(k.k);
      }
      break;
    case KernelSpec::Kind::Conv:
    case KernelSpec::Kind::Pool:
      shrink(k.convN);
      if (k.largestOperand() > kMaxKernelElements) {
        shrink(k.convH);
        shrink(k.convW);
      }
      break;
    default:
      shrink(k.rows);
      if (k.largestOperand() > kMaxKernelElements) shrink(k.cols);
  }
  k.flops *= f;
  k.bytes = static_cast<int64_t>(static_cast<double>(k.bytes) * f);
}

}  // namespace

int64_t KernelSpec::largestOperand() const {
  switch (kind) {
    case Kind::None:
      return 0;
    case Kind::Gemm:
      return batch * std::max({m * k, k * n, m * n});
    case Kind::Conv: {
      const int64_t oh = (convH + stride - 1) / stride, ow = (convW + stride - 1) / stride;
      return std::max({convN * convC * convH * convW, convK * convC * convR * convS, convN * convK * oh * ow});
    }
    case Kind::Pool:
      return convN * convC * convH * convW;
    default:
      return rows * cols;
  }
}

const char* kernelKindName(KernelSpec::Kind k) {
  switch (k) {
    case KernelSpec::Kind::None: return "none";
    case KernelSpec::Kind::Gemm: return "gemm";
    case KernelSpec::Kind::Conv: return "conv";
    case KernelSpec::Kind::Unary: return "unary";
    case KernelSpec::Kind::Transcendental: return "transcendental";
    case KernelSpec::Kind::Binary: return "binary";
    case KernelSpec::Kind::Softmax: return "softmax";
    case KernelSpec::Kind::LayerNorm: return "layernorm";
    case KernelSpec::Kind::BatchNorm: return "batchnorm";
    case KernelSpec::Kind::Reduce: return "reduce";
    case KernelSpec::Kind::Pool: return "pool";
    case KernelSpec::Kind::Copy: return "copy";
  }
  return "?";
}

KernelSpec kernelSpecOf(const CostModel& cost, OpId op) {
  const Graph& g = cost.graph();
  KernelSpec k;
  if (cost.isMetadata(op)) return k;
  k.flops = g.flops(op);
  k.bytes = g.bytesRead(op) + g.bytesWritten(op);
  const std::string type = lower(g.opType(op));
  const OpClass cls = cost.opClass(op);
  if (cls == OpClass::MatMul || cls == OpClass::Conv) {
    const GpuKernel gk = kernelForOp(cost, op);
    if (gk.kind == GpuKernel::Kind::Conv) {
      k.kind = KernelSpec::Kind::Conv;
      k.convN = gk.convN, k.convC = gk.convC, k.convH = gk.convH, k.convW = gk.convW, k.convK = gk.convK;
      k.convR = gk.convR, k.convS = gk.convS, k.stride = gk.strideH;
    } else {
      k.kind = KernelSpec::Kind::Gemm;
      k.m = std::max<int64_t>(gk.m, 1), k.n = std::max<int64_t>(gk.n, 1), k.k = std::max<int64_t>(gk.k, 1);
      k.batch = std::max<int64_t>(gk.batch, 1);
    }
  } else if (cls == OpClass::Recurrent || (cls == OpClass::Other && k.flops > 8.0 * static_cast<double>(k.bytes))) {
    // a fused cell or an unknown compute-heavy op: the GEMM of its FLOPs
    const auto n = std::max<int64_t>(1, std::llround(std::cbrt(std::max(0.0, k.flops) / 2)));
    k.kind = KernelSpec::Kind::Gemm;
    k.m = k.n = k.k = n;
  } else if (hasAny(type, {"pool"}) && poolShape(g, op, k)) {
  } else {
    if (cls == OpClass::Elementwise) k.kind = elementwiseKind(g, op, type);
    else if (cls == OpClass::Reduction) k.kind = hasAny(type, {"softmax"}) ? KernelSpec::Kind::Softmax : KernelSpec::Kind::Reduce;
    else if (cls == OpClass::Normalization) k.kind = hasAny(type, {"batchnorm"}) ? KernelSpec::Kind::BatchNorm : KernelSpec::Kind::LayerNorm;
    else if (cls == OpClass::DataMovement) k.kind = KernelSpec::Kind::Copy;
    else k.kind = KernelSpec::Kind::Unary;
    rowsCols(g, op, k);
  }
  clamp(k);
  return k;
}

KernelSpec layoutConversion(int64_t elements) {
  KernelSpec k;
  k.kind = KernelSpec::Kind::Copy;
  elements = std::clamp<int64_t>(elements, 1, kMaxKernelElements);
  // a near-square view: the transpose touches both dimensions
  k.cols = std::max<int64_t>(1, static_cast<int64_t>(std::sqrt(static_cast<double>(elements))));
  k.rows = std::max<int64_t>(1, elements / k.cols);
  k.bytes = 2 * 4 * k.rows * k.cols;
  return k;
}

}  // namespace gp

#include "cost/kernel_shape.h"

#include <cctype>
#include <string>

#include "graph/op_class.h"

namespace gp {

KernelShape kernelShapeOf(const Graph& g, OpId op) {
  KernelShape s;
  const OpId f = g.forwardOf(op) != kNone ? g.forwardOf(op) : op;
  std::string type(g.opType(f));
  for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const OpClass cls = classifyOp(g.opType(f));
  const auto ins = g.inputs(f);
  if (cls == OpClass::MatMul) {
    if (!ins.empty() && g.hasShape(ins[0]) && !g.shape(ins[0]).empty()) s.reduction = g.shape(ins[0]).back();
    return s;
  }
  if (cls != OpClass::Conv || ins.size() < 2 || g.outputs(f).empty()) return s;
  const TensorId x = ins[0], w = ins[1], y = g.outputs(f)[0];
  if (!g.hasShape(w) || g.shape(w).size() != 4) return s;
  const auto ws = g.shape(w);
  const bool transposed = type.find("transpose") != std::string::npos;
  const bool tfDepthwise = type.find("depthwise") != std::string::npos;
  const bool tfLayout = type == "conv2d" || tfDepthwise;  // HWIO weights, NHWC images
  // an OIHW convolution with one input channel per group is depthwise (groups = channels)
  const bool depthwise = tfDepthwise || (!tfLayout && !transposed && ws[1] == 1);
  const int64_t kh = tfLayout ? ws[0] : ws[2], kw = tfLayout ? ws[1] : ws[3];
  // input channels: HWIO's I; OIHW's I (per group); a transposed convolution's IOHW I
  s.reduction = depthwise ? 1 : tfLayout ? ws[2] : transposed ? ws[0] : ws[1];
  bool stride1 = false;
  if (g.hasShape(x) && g.hasShape(y) && g.shape(x).size() == 4 && g.shape(y).size() == 4) {
    const auto xs = g.shape(x), ys = g.shape(y);
    const size_t h = tfLayout ? 1 : 2, wd = tfLayout ? 2 : 3;
    // stride 1: the output keeps the input's size ("same") or loses k - 1 ("valid")
    auto keeps = [](int64_t in, int64_t out, int64_t k) { return out == in || out == in - k + 1; };
    stride1 = keeps(xs[h], ys[h], kh) && keeps(xs[wd], ys[wd], kw);
  }
  s.winograd = !depthwise && !transposed && kh == 3 && kw == 3 && stride1;
  return s;
}

}  // namespace gp

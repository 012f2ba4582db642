#include "cost/kernel_shape.h"

#include <cctype>
#include <string>

#include "cost/op_class.h"

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
  const bool depthwise = type.find("depthwise") != std::string::npos;
  const bool tfLayout = type == "conv2d" || depthwise;  // HWIO weights, NHWC images
  const int64_t kh = tfLayout ? ws[0] : ws[2], kw = tfLayout ? ws[1] : ws[3];
  s.reduction = depthwise ? 1 : (tfLayout ? ws[2] : ws[1]);
  bool stride1 = false;
  if (g.hasShape(x) && g.hasShape(y) && g.shape(x).size() == 4 && g.shape(y).size() == 4) {
    const auto xs = g.shape(x), ys = g.shape(y);
    stride1 = tfLayout ? xs[1] == ys[1] && xs[2] == ys[2] : xs[2] == ys[2] && xs[3] == ys[3];
  }
  s.winograd = !depthwise && kh == 3 && kw == 3 && stride1;
  return s;
}

}  // namespace gp

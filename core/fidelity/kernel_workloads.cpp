#include "fidelity/kernel_workloads.h"

#include "base/error.h"
#include "zoo/layers.h"
#include "zoo/net.h"

namespace gp {

Graph kernelGraph(const std::string& kernel, const std::map<std::string, int64_t>& dims) {
  auto dim = [&](const char* name) {
    auto it = dims.find(name);
    if (it == dims.end() || it->second <= 0) throw Error("kernel " + kernel, std::string("needs dimension '") + name + "'");
    return it->second;
  };
  zoo::Net net(kernel);
  if (kernel == "gemm") {
    const TensorId a = net.input("a", {dim("m"), dim("k")});
    const TensorId b = net.input("b", {dim("k"), dim("n")});
    zoo::matmul(net, a, b);
  } else if (kernel == "conv") {
    const TensorId x = net.input("x", {dim("n"), dim("h"), dim("w"), dim("c")});
    auto pad = dims.find("pad");
    const int r = static_cast<int>(dim("r")), s = static_cast<int>(dim("s")), stride = static_cast<int>(dim("stride"));
    zoo::ConvSpec spec{dim("k"), r, s, stride, stride, pad != dims.end() && pad->second > 0 ? zoo::Pad::Same : zoo::Pad::Valid};
    zoo::conv2d(net, x, spec);
  } else {
    throw Error("kernel " + kernel, "unknown kernel (gemm or conv)");
  }
  return std::move(net).build();
}

}  // namespace gp

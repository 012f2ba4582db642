#include "onnxio/onnx_names.h"

#include <string_view>
#include <unordered_set>

namespace gp {

std::vector<std::string> onnxNodeNames(const onnx::GraphProto& g) {
  std::unordered_set<std::string> taken, used;
  for (const auto& node : g.node())
    if (!node.name().empty()) taken.insert(node.name());
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(g.node_size()));
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    if (!node.name().empty() && used.insert(node.name()).second) {
      names.push_back(node.name());
      continue;
    }
    std::string base;
    if (!node.name().empty()) {
      base = node.name() + "_" + std::to_string(i);
    } else {
      std::string_view out = node.output_size() > 0 ? std::string_view(node.output(0)) : std::string_view();
      auto slash = out.rfind('/');
      if (slash != std::string_view::npos && slash > 0) base = std::string(out.substr(0, slash + 1));
      base += (node.op_type().empty() ? std::string("Op") : node.op_type()) + "_" + std::to_string(i);
    }
    std::string name = base;
    for (int k = 1; taken.count(name) != 0 || used.count(name) != 0; ++k) name = base + "_" + std::to_string(k);
    used.insert(name);
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace gp

#include "llm_first.h"

#include <algorithm>

#include "io/hf_config.h"
#include "parallel/layer_stack.h"
#include "zoo/zoo.h"

namespace gp {

bool isLlmSpec(const std::string& spec) {
  if (!hfConfigPath(spec).empty()) return true;
  if (spec.rfind("zoo:", 0) != 0) return false;
  for (const ZooEntry& z : zooModels())
    if (z.name == spec.substr(4)) return z.llm;
  return false;
}

bool opensAsParallelPlan(const std::string& spec, const Graph& g, GraphMode mode, const Cluster& c) {
  if (isLlmSpec(spec)) return true;
  if (spec.rfind("zoo:", 0) == 0 || mode == GraphMode::Training || c.numDevices() < 2) return false;
  // Weights, gradients and two Adam moments of the graph's (fp32) parameters.
  const int64_t trainingState = 4 * g.totalParamBytes();
  int64_t largest = 0;
  for (int d = 0; d < c.numDevices(); ++d) largest = std::max(largest, c.device(d).memCapacity);
  if (trainingState <= largest) return false;
  try {
    return detectLayerStack(g, spec).numLayers() >= 2;
  } catch (const std::exception&) {  // no repeated layers: the op graph is the view
    return false;
  }
}

}  // namespace gp

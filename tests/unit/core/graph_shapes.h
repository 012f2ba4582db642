// Shapes looked up by name, for tests of generated graphs: empty when the op or tensor is not
// there, so a missing name fails the comparison instead of the test program.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace gptest {

// The shape of op `op`'s first output.
inline std::vector<int64_t> outputShape(const gp::Graph& g, const std::string& op) {
  const gp::OpId id = g.findOp(op);
  if (id == gp::kNone) return {};
  auto s = g.shape(g.outputs(id)[0]);
  return {s.begin(), s.end()};
}

inline std::vector<int64_t> tensorShape(const gp::Graph& g, const std::string& name) {
  const gp::TensorId t = g.findTensor(name);
  if (t == gp::kNone) return {};
  auto s = g.shape(t);
  return {s.begin(), s.end()};
}

}  // namespace gptest

// A synthetic graph of n ops in scopes "block_B/layer_L", each reading the previous op and the
// one 7 back: ~2 edges per op. Used by the IR's size test and benchmark.
#pragma once
#include <string>
#include <vector>

#include "graph/graph_builder.h"

namespace gptest {

inline gp::Graph syntheticChainGraph(int n) {
  gp::GraphBuilder b("synthetic");
  b.addGraphInput({"in", {64, 1024}});
  std::vector<gp::TensorId> outs;
  outs.reserve(n);
  for (int i = 0; i < n; ++i) {
    gp::OpDesc d{.name = "block_" + std::to_string(i / 100) + "/layer_" + std::to_string(i % 100) + "/MatMul",
                 .type = i % 3 ? "MatMul" : "Add"};
    if (i == 0) d.inputs = {b.tensorRef("in")};
    if (i >= 1) d.inputs.push_back(outs[i - 1]);
    if (i >= 7) d.inputs.push_back(outs[i - 7]);
    d.outputs = {{"", {64, 1024}}};
    d.flops = 1e6;
    outs.push_back(b.output(b.addOp(std::move(d))));
  }
  return std::move(b).build("synthetic");
}

}  // namespace gptest

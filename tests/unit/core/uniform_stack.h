// Layer stacks whose stages are uniform and free of communication, for closed-form pipeline tests.
#pragma once
#include <string>

#include "cost/cost_model.h"
#include "parallel/layer_stack.h"
#include "test_clusters.h"
#include "test_graphs.h"

namespace gptest {

// L identical layers of one replicated MatMul each (1e9 FLOPs per sample), nothing sent
// between stages, no parameters: stages are uniform and communication-free.
inline gp::LayerStack uniformStack(int layers) {
  gp::LayerStack st;
  st.model = "uniform";
  for (int l = 0; l < layers; ++l) {
    gp::StackPart p;
    p.name = "layer_" + std::to_string(l);
    p.kind = "layer";
    gp::StackOp op;
    op.cls = gp::OpClass::MatMul;
    op.flops = 1e9;
    p.ops.push_back(op);
    p.forwardFlops = 1e9;
    st.layers.push_back(p);
  }
  return st;
}

// A toy cluster of `devices` identical devices on one server, with exact costs.
struct ToyModel {
  explicit ToyModel(int devices = 8) : c(toyCluster(1, devices)) {}
  gp::Graph g = smallMlp();
  gp::Cluster c;
  gp::CostModel cost{g, c, exactCosts()};
};

}  // namespace gptest

// Test graphs with a known optimum for the RL tests (toy cluster: 1e12 FLOPs = 1 s, 1e6 bytes =
// 1 s on a link; gptest::toyCluster, gptest::exactCosts).
#pragma once
#include <string>

#include "graph/graph_builder.h"

namespace gptest {

// `n` independent chains of `len` 1-second ops whose outputs take 1 s over a link, one op type
// per chain (MatMul, Conv, Relu, Add, repeating): the optimum puts each chain whole on its own
// device (step = len s); any split chain pays at least 1 s of transfer. The chains differ in op
// type: with identical chains every op of "a" would have the same features and neighbourhood
// as its twin in "b", and a permutation-equivariant policy gives twins the same distribution.
inline gp::Graph heavyChains(int n, int len) {
  gp::GraphBuilder b("chains");
  const char* types[] = {"MatMul", "Conv", "Relu", "Add"};
  for (int c = 0; c < n; ++c) {
    const std::string chain(1, static_cast<char>('a' + c));
    gp::TensorId prev = b.addGraphInput({chain + "/x", {4}});
    for (int i = 0; i < len; ++i) {
      gp::OpId op = b.addOp({.name = chain + "/op" + std::to_string(i), .type = types[c % 4], .inputs = {prev},
                             .outputs = {{"", {250000}}}, .flops = 1e12});
      prev = b.output(op);
    }
  }
  return std::move(b).build("chains");
}

}  // namespace gptest

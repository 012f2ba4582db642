// The hand-built graph the GPU program and re-measure tests share (on gptest::toyCluster:
// 1 TFLOP/s, 1 MB/s links, so every op takes 1 s and t1 4 ms between devices).
#pragma once
#include "graph/graph_builder.h"

namespace gptest {

// x (graph input) -> a -> t1 (4000 bytes) -> b -> c; w (parameter, 2000 bytes) is read by a and
// b, and b also reads x. With a on gpu0 and b, c on gpu1: copies of w (at 0 s) and t1 (after a).
inline gp::Graph twoDeviceChain() {
  using namespace gp;
  GraphBuilder b("chain");
  TensorId x = b.addGraphInput({"x", {1000}});
  TensorId w = b.addParameter({"w", {500}});
  OpId a = b.addOp({.name = "a", .type = "Relu", .inputs = {x, w}, .outputs = {{"t1", {1000}}}, .flops = 1e12});
  OpId o = b.addOp({.name = "b", .type = "Relu", .inputs = {b.output(a), w, x}, .outputs = {{"t2", {1000}}}, .flops = 1e12});
  b.addOp({.name = "c", .type = "Relu", .inputs = {b.output(o)}, .outputs = {{"t3", {1000}}}, .flops = 1e12});
  return std::move(b).build();
}

}  // namespace gptest

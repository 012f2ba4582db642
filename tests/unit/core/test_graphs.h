// Small graphs the core tests share, and a field-by-field comparison of two Graphs.
#pragma once
#include <gtest/gtest.h>

#include "graph/graph_builder.h"

namespace gptest {

// A two-layer MLP with a shared bias tensor, a colocation group and a requested device.
inline gp::Graph smallMlp() {
  using namespace gp;
  GraphBuilder b("mlp");
  TensorId x = b.addGraphInput({"x", {32, 64}});
  TensorId w1 = b.addParameter({"fc1/w", {64, 128}});
  TensorId w2 = b.addParameter({"fc2/w", {128, 10}});
  TensorId ids = b.addGraphInput({"ids", {32}, DType::I64});
  OpId m1 = b.addOp({.name = "fc1/MatMul", .type = "MatMul", .inputs = {x, w1}, .outputs = {{"h", {32, 128}}},
                     .flops = 2.0 * 32 * 64 * 128, .colocGroup = "g1"});
  OpId r = b.addOp({.name = "fc1/Relu", .type = "Relu", .inputs = {b.output(m1)}, .outputs = {{"", {32, 128}}},
                    .flops = 32 * 128, .device = "gpu:1"});
  b.addOp({.name = "fc2/MatMul", .type = "MatMul", .inputs = {b.output(r), w2}, .outputs = {{"logits", {32, 10}}},
           .flops = 2.0 * 32 * 128 * 10});
  b.addOp({.name = "ids/Cast", .type = "Cast", .inputs = {ids}, .outputs = {{"idsf", {32}, DType::I32}}});
  return std::move(b).build("mlp");
}

inline void expectSameGraph(const gp::Graph& a, const gp::Graph& b) {
  using namespace gp;
  ASSERT_EQ(a.name(), b.name());
  ASSERT_EQ(a.numOps(), b.numOps());
  ASSERT_EQ(a.numTensors(), b.numTensors());
  ASSERT_EQ(a.numEdges(), b.numEdges());
  for (TensorId t = 0; t < a.numTensors(); ++t) {
    SCOPED_TRACE(a.tensorName(t));
    EXPECT_EQ(a.tensorName(t), b.tensorName(t));
    EXPECT_EQ(a.tensorKind(t), b.tensorKind(t));
    EXPECT_EQ(a.dtype(t), b.dtype(t));
    EXPECT_EQ(a.hasShape(t), b.hasShape(t));
    EXPECT_TRUE(std::ranges::equal(a.shape(t), b.shape(t)));
    EXPECT_EQ(a.tensorBytes(t), b.tensorBytes(t));
    EXPECT_EQ(a.producer(t), b.producer(t));
  }
  for (OpId op = 0; op < a.numOps(); ++op) {
    SCOPED_TRACE(a.opName(op));
    EXPECT_EQ(a.opName(op), b.opName(op));
    EXPECT_EQ(a.opType(op), b.opType(op));
    EXPECT_EQ(a.flops(op), b.flops(op));
    EXPECT_EQ(a.bytesRead(op), b.bytesRead(op));
    EXPECT_EQ(a.bytesWritten(op), b.bytesWritten(op));
    EXPECT_EQ(a.paramBytes(op), b.paramBytes(op));
    EXPECT_EQ(a.colocGroup(op) == kNone, b.colocGroup(op) == kNone);
    if (a.colocGroup(op) != kNone) {
      EXPECT_EQ(a.colocGroupNames()[a.colocGroup(op)], b.colocGroupNames()[b.colocGroup(op)]);
    }
    EXPECT_EQ(a.requestedDevice(op), b.requestedDevice(op));
    EXPECT_EQ(a.role(op), b.role(op));
    EXPECT_EQ(a.forwardOf(op), b.forwardOf(op));
    EXPECT_TRUE(std::ranges::equal(a.inputs(op), b.inputs(op)));
    EXPECT_TRUE(std::ranges::equal(a.outputs(op), b.outputs(op)));
    EXPECT_EQ(a.scopeName(a.opScope(op)), b.scopeName(b.opScope(op)));
  }
}

}  // namespace gptest

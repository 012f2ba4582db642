#include <gtest/gtest.h>

#include "base/error.h"
#include "graph/graph_stats.h"
#include "graph/training.h"
#include "test_graphs.h"

using namespace gp;

TEST(Training, BackwardHasTwiceTheForwardFlops) {
  Graph f = gptest::smallMlp();
  Graph t = deriveTrainingGraph(f);
  double fwd = 0, bwd = 0;
  for (OpId op = 0; op < t.numOps(); ++op) {
    if (t.role(op) == OpRole::Forward && t.opType(op) != "Loss") fwd += t.flops(op);
    if (t.role(op) == OpRole::Backward && t.opType(op) != "LossGrad" && t.opType(op) != "AddN") bwd += t.flops(op);
  }
  EXPECT_DOUBLE_EQ(fwd, f.totalFlops());
  EXPECT_DOUBLE_EQ(bwd, 2 * (f.totalFlops() - f.flops(f.findOp("ids/Cast"))));
}

TEST(Training, GradientsFlowInReverseAndUpdatesAreColocated) {
  Graph t = deriveTrainingGraph(gptest::smallMlp());
  // fc2 has two differentiable inputs: relu output and weight
  OpId dRelu = t.findOp("gradients/fc2/MatMul_grad/d0");
  OpId dW2 = t.findOp("gradients/fc2/MatMul_grad/d1");
  ASSERT_NE(dRelu, kNone);
  ASSERT_NE(dW2, kNone);
  EXPECT_EQ(t.opType(dW2), "MatMulGrad");
  EXPECT_EQ(t.forwardOf(dW2), t.findOp("fc2/MatMul"));
  // The first matmul reads a graph input: only its weight gets a gradient.
  EXPECT_NE(t.findOp("gradients/fc1/MatMul_grad"), kNone);
  EXPECT_EQ(t.findOp("gradients/fc1/MatMul_grad/d0"), kNone);
  // The integer branch gets no backward.
  EXPECT_EQ(t.findOp("gradients/ids/Cast_grad"), kNone);
  // Relu's gradient depends on fc2's data gradient: edges reversed.
  OpId dReluOp = t.findOp("gradients/fc1/Relu_grad");
  ASSERT_NE(dReluOp, kNone);
  auto in = t.fanIn(dReluOp);
  EXPECT_NE(std::find(in.begin(), in.end(), dRelu), in.end());
  // Update ops: one per parameter, colocated with the op that owns the parameter.
  OpId u1 = t.findOp("update/fc1/w/ApplyAdam");
  ASSERT_NE(u1, kNone);
  EXPECT_EQ(t.role(u1), OpRole::Update);
  EXPECT_EQ(t.colocGroup(u1), t.colocGroup(t.findOp("fc1/MatMul")));
  EXPECT_EQ(t.colocGroupNames()[t.colocGroup(u1)], "g1");  // keeps the model's own group
  OpId u2 = t.findOp("update/fc2/w/ApplyAdam");
  ASSERT_NE(u2, kNone);
  EXPECT_EQ(t.colocGroup(u2), t.colocGroup(t.findOp("fc2/MatMul")));
  EXPECT_NE(t.colocGroup(u2), kNone);
  auto uin = t.fanIn(u2);
  EXPECT_NE(std::find(uin.begin(), uin.end(), dW2), uin.end());
  GraphStats s = computeStats(t);
  EXPECT_EQ(s.updateOps, 2);
}

TEST(Training, SharedTensorGradientsAccumulateWithAddN) {
  GraphBuilder b("shared");
  TensorId x = b.addGraphInput({"x", {4, 4}});
  TensorId w = b.addParameter({"w", {4, 4}});
  OpId m = b.addOp({.name = "m", .type = "MatMul", .inputs = {x, w}, .outputs = {{"h", {4, 4}}}, .flops = 128});
  b.addOp({.name = "a", .type = "Relu", .inputs = {b.output(m)}, .outputs = {{"ya", {4, 4}}}, .flops = 16});
  b.addOp({.name = "c", .type = "Tanh", .inputs = {b.output(m)}, .outputs = {{"yc", {4, 4}}}, .flops = 16});
  Graph t = deriveTrainingGraph(std::move(b).build("shared"));
  OpId addn = t.findOp("gradients/m_grad/AddN");
  ASSERT_NE(addn, kNone);
  EXPECT_EQ(t.fanIn(addn).size(), 2u);
  OpId loss = t.findOp("loss/Loss");
  ASSERT_NE(loss, kNone);
  EXPECT_EQ(t.fanIn(loss).size(), 2u);  // both sinks feed the loss
}

TEST(Training, RefusesAGraphThatIsAlreadyTraining) {
  Graph t = deriveTrainingGraph(gptest::smallMlp());
  EXPECT_THROW(deriveTrainingGraph(t), Error);
}

TEST(Training, GraphWithoutParametersStillGetsABackwardPass) {
  GraphBuilder b("dot-like");
  OpId a = b.addOp({.name = "a", .type = "Op", .outputs = {{"", {}, DType::Unknown, false, 100}}, .flops = 10});
  b.addOp({.name = "b", .type = "Op", .inputs = {b.output(a)}, .outputs = {{"", {}, DType::Unknown, false, 100}},
           .flops = 20});
  Graph t = deriveTrainingGraph(std::move(b).build("dot-like"));
  EXPECT_NE(t.findOp("gradients/b_grad"), kNone);
  EXPECT_EQ(computeStats(t).updateOps, 0);
}

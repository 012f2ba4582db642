// Splitting an op-level placement into torch.fx partitions and a device map (io/torch_split.h),
// on small graphs whose answers are derived by hand, and the program text around them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cluster/cluster.h"
#include "graph/graph_builder.h"
#include "io/torch_program.h"
#include "io/torch_split.h"

namespace gp {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

const std::vector<std::string> kDevices = {"gpu0", "gpu1", "gpu2"};

struct Net {
  GraphBuilder b{"net.onnx"};
  TensorId x = b.addGraphInput({"x", {8, 8}});
  TensorId w = b.addParameter({"w", {8, 8}});
  TensorId op(const std::string& name, std::vector<TensorId> in, double flops = 1024, OpRole role = OpRole::Forward) {
    return b.output(b.addOp({.name = name, .type = "MatMul", .inputs = std::move(in), .outputs = {{"", {8, 8}}},
                             .flops = flops, .role = role}));
  }
};

TorchSplit split(const Graph& g, std::vector<int32_t> device, TorchNames names = TorchNames::OnnxExport) {
  return splitForTorch(g, Plan{std::move(device), {}, {}}, {}, names, kDevices);
}

TEST(TorchSplit, ChainBackAndForthIsACycleThatCostsAPartition) {
  Net n;
  TensorId a = n.op("/a/MatMul", {n.x, n.w});
  TensorId b = n.op("/b/MatMul", {a, n.w});
  n.op("/c/MatMul", {b, n.w});
  const Graph g = std::move(n.b).build();
  const TorchSplit s = split(g, {0, 1, 0});
  EXPECT_THAT(s.partitionDevice, ElementsAre(0, 1, 0));
  EXPECT_THAT(s.partitionOf, ElementsAre(0, 1, 2));
  ASSERT_EQ(s.cyclesFound, 1);
  EXPECT_EQ(s.cycles[0],
            "gpu0 -> gpu1 -> gpu0: '/a/MatMul' (gpu0) feeds '/b/MatMul' (gpu1); '/b/MatMul' (gpu1) feeds "
            "'/c/MatMul' (gpu0)");
}

// x -> a (gpu0), x -> b (gpu1), c(a, b) on gpu0: no cycle, two partitions; b's partition comes
// first in the numbering because c's partition waits for it.
TEST(TorchSplit, ForkJoinNeedsNoExtraPartitionAndNumbersTopologically) {
  Net n;
  TensorId a = n.op("/a/MatMul", {n.x, n.w});
  TensorId b = n.op("/b/MatMul", {n.x, n.w});
  n.op("/c/MatMul", {a, b});
  const Graph g = std::move(n.b).build();
  const TorchSplit s = split(g, {0, 1, 0});
  EXPECT_EQ(s.cyclesFound, 0);
  EXPECT_THAT(s.partitionDevice, ElementsAre(1, 0));
  EXPECT_THAT(s.partitionOf, ElementsAre(1, 0, 1));
}

TEST(TorchSplit, WeightPlumbingAndBackwardOpsAreNotPartitioned) {
  Net n;
  TensorId wi = n.b.output(n.b.addOp({.name = "Identity_0", .type = "Identity", .inputs = {n.w},
                                      .outputs = {{"", {8, 8}}}}));
  TensorId a = n.op("/a/MatMul", {n.x, wi});
  n.op("/a/MatMul_grad", {a}, 1024, OpRole::Backward);
  const Graph g = std::move(n.b).build();
  const TorchSplit s = split(g, {1, 0, 2});
  EXPECT_THAT(s.partitionOf, ElementsAre(-1, 0, -1));
  EXPECT_THAT(s.partitionDevice, ElementsAre(0));
  ASSERT_EQ(s.scopes.size(), 1u);
  EXPECT_EQ(s.scopes[0].key, "/a");
  EXPECT_THAT(s.scopes[0].weight, ElementsAre(Pair(0, 1025.0)));
}

// /blk holds l1 (gpu0) and l2 (gpu1); its own Add reads l2's output only and runs on gpu1: the
// placement follows the module tree, and the map names l1, l2 and the stand-alone /head.
TEST(TorchSplit, DeviceMapOfAModuleAlignedPlacement) {
  Net n;
  TensorId l1 = n.op("/blk/l1/MatMul", {n.x, n.w});
  TensorId l2 = n.op("/blk/l2/MatMul", {l1, n.w});
  TensorId add = n.op("/blk/Add", {l2});
  n.op("/head/MatMul", {add, n.w});
  const Graph g = std::move(n.b).build();
  const TorchSplit s = split(g, {0, 1, 1, 1});
  ASSERT_TRUE(s.moduleAligned) << s.notAligned;
  EXPECT_THAT(s.deviceMap, ElementsAre(Pair("/blk/l1", 0), Pair("/blk/l2", 1), Pair("/head", 1)));
}

TEST(TorchSplit, NotAlignedWhenAModuleCombinesTensorsFromTwoDevices) {
  Net n;
  TensorId l1 = n.op("/blk/l1/MatMul", {n.x, n.w});
  TensorId l2 = n.op("/blk/l2/MatMul", {n.x, n.w});
  n.op("/blk/Add", {l1, l2});
  const Graph g = std::move(n.b).build();
  const TorchSplit s = split(g, {0, 1, 1});
  EXPECT_FALSE(s.moduleAligned);
  EXPECT_TRUE(s.deviceMap.empty());
  EXPECT_THAT(s.notAligned, HasSubstr("'/blk/Add' (module '/blk', whose ops span several devices) reads tensors "
                                      "from gpu0 and gpu1"));
}

TEST(TorchSplit, NotAlignedWhenAModuleComputesWithItsOwnWeightsAcrossDevices) {
  Net n;
  TensorId l1 = n.op("/blk/l1/MatMul", {n.x, n.w});
  n.op("/blk/MatMul", {l1, n.w});
  n.op("/blk/l2/MatMul", {n.x, n.w});
  const Graph g = std::move(n.b).build();
  EXPECT_THAT(split(g, {0, 0, 1}).notAligned, HasSubstr("uses weights of that module itself"));
}

TEST(TorchSplit, NotAlignedWhenAnOpIsPlacedAwayFromItsInputs) {
  Net n;
  TensorId l1 = n.op("/blk/l1/MatMul", {n.x, n.w});
  n.op("/blk/Relu", {l1});
  n.op("/blk/l2/MatMul", {n.x, n.w});
  const Graph g = std::move(n.b).build();
  EXPECT_THAT(split(g, {0, 1, 1}).notAligned, HasSubstr("is placed on gpu1 but its inputs are on gpu0"));
}

TEST(TorchSplit, ScopeKeysOfOnnxExportsAndTorchScript) {
  EXPECT_EQ(torchScopeKey("/layer1/layer1.0/conv1/Conv", TorchNames::OnnxExport), "/layer1/layer1.0/conv1");
  EXPECT_EQ(torchScopeKey("/Flatten", TorchNames::OnnxExport), "");
  EXPECT_EQ(torchScopeKey("Identity_3", TorchNames::OnnxExport), "");
  EXPECT_EQ(torchScopeKey("layer1/0/conv1/conv2d_3", TorchNames::TorchScript), "layer1.0.conv1");
  EXPECT_EQ(torchScopeKey("forward/add_1", TorchNames::TorchScript), "");
}

TEST(TorchSplit, TorchScriptModulePathsNestByDots) {
  GraphBuilder b("net.pt");
  TensorId x = b.addGraphInput({"x", {8, 8}});
  auto op = [&](const std::string& name, TensorId in) {
    return b.output(b.addOp({.name = name, .type = "aten::relu", .inputs = {in}, .outputs = {{"", {8, 8}}}, .flops = 64}));
  };
  op("forward/add_2", op("layer1/1/relu_1", op("layer1/0/relu_0", x)));
  const Graph g = std::move(b).build();
  const TorchSplit s = split(g, {0, 1, 1}, TorchNames::TorchScript);
  ASSERT_TRUE(s.moduleAligned) << s.notAligned;
  EXPECT_THAT(s.deviceMap, ElementsAre(Pair("layer1.0", 0), Pair("layer1.1", 1)));
}

TEST(TorchProgram, TablesNameDevicesPartitionsAndCycles) {
  Net n;
  TensorId a = n.op("/a/MatMul", {n.x, n.w});
  TensorId b = n.op("/b/MatMul", {a, n.w});
  n.op("/c/MatMul", {b, n.w});
  const Graph g = std::move(n.b).build();
  const std::string text = torchProgram(split(g, {0, 1, 0}), loadCluster("4xP100-PCIe"), "net.onnx");
  EXPECT_THAT(text, HasSubstr("DEVICES = [\"cuda:0\", \"cuda:1\", \"cuda:2\", \"cuda:3\"]"));
  EXPECT_THAT(text, HasSubstr("PARTITION_DEVICE = [0, 1, 0]"));
  EXPECT_THAT(text, HasSubstr("\"/b\": {1: 1025.0},"));
  EXPECT_THAT(text, HasSubstr("# 1 cycle(s) between devices"));
  EXPECT_THAT(text, HasSubstr("DEVICE_MAP_SCOPES = {\n    \"/a\": 0,\n    \"/b\": 1,\n    \"/c\": 0,\n}"));
  EXPECT_THAT(text, HasSubstr("def split(model, example_inputs, devices=None):"));
}

}  // namespace
}  // namespace gp

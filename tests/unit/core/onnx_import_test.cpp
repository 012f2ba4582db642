// ONNX importer: committed fixtures against the manifest, FLOPs of single layers built here
// with the ONNX protobuf API, malformed inputs, stable names (shapes: onnx_shapes_test.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "onnx_test_model.h"

#include "base/error.h"
#include "graph/flops.h"
#include "onnxio/onnx_import.h"
#include "test_paths.h"

namespace {

using namespace onnxtest;

// ---------------------------------------------------------------- helpers

nlohmann::json manifest() {
  std::ifstream in(gptest::dataPath("fixtures.json"));
  return nlohmann::json::parse(in);
}

// ---------------------------------------------------------------- committed fixtures

TEST(OnnxImport, FixturesMatchManifest) {
  auto m = manifest();
  int checked = 0;
  for (const auto& [key, f] : m.at("fixtures").items()) {
    if (f.at("format") != "onnx") continue;
    SCOPED_TRACE(key);
    Graph g = gp::importOnnx(gptest::dataPath(f.at("file").get<std::string>()));
    EXPECT_EQ(g.numOps(), f.at("op_count").get<int>());
    EXPECT_EQ(g.totalParamBytes(), f.at("param_bytes").get<int64_t>());
    EXPECT_GT(g.totalFlops(), 0.0);
    // every op output has a shape: value_info or shape inference found them all
    for (OpId op = 0; op < g.numOps(); ++op)
      for (auto t : g.outputs(op)) EXPECT_TRUE(g.hasShape(t)) << g.opName(op) << " -> " << g.tensorName(t);
    ++checked;
  }
  EXPECT_GE(checked, 9);
}

TEST(OnnxImport, Resnet18Figures) {
  Graph g = gp::importOnnx(gptest::dataPath("onnx/resnet18.onnx"));
  const double macs = g.totalFlops() / 2;
  EXPECT_NEAR(macs, 1.82e9, 0.03 * 1.82e9);
  // torchvision's resnet18 has 11.69 M parameters; the exporter folds BatchNorm into the convs
  EXPECT_NEAR(static_cast<double>(g.totalParamBytes()), 11.7e6 * 4, 0.01 * 11.7e6 * 4);
  EXPECT_EQ(opsOfType(g, "Conv").size(), 20u);
  EXPECT_EQ(shapeOf(g, "input"), (std::vector<int64_t>{1, 3, 224, 224}));
  // scopes from the exporter's names ("/layer1/layer1.0/conv1/Conv")
  EXPECT_GE(g.maxScopeDepth(), 3);
}

TEST(OnnxImport, TorchvisionMacs) {
  // published figures: mobilenet_v2 0.30 GMACs, squeezenet1_1 0.35 GMACs
  Graph mobilenet = gp::importOnnx(gptest::dataPath("onnx/mobilenet_v2.onnx"));
  EXPECT_NEAR(mobilenet.totalFlops() / 2, 0.30e9, 0.05 * 0.30e9);
  Graph squeeze = gp::importOnnx(gptest::dataPath("onnx/squeezenet1_1.onnx"));
  EXPECT_NEAR(squeeze.totalFlops() / 2, 0.35e9, 0.05 * 0.35e9);
}

TEST(OnnxImport, SymbolicBatchIsOneAndInputShapeOverrides) {
  const std::string path = gptest::dataPath("onnx/mlp.onnx");
  Graph g = gp::importOnnx(path);
  EXPECT_EQ(shapeOf(g, "input"), (std::vector<int64_t>{1, 64}));
  // fc1 64->256, fc2 256->256, fc3 256->10 at batch 1, bias included
  const double gemm = (2.0 * 64 * 256 + 256) + (2.0 * 256 * 256 + 256) + (2.0 * 256 * 10 + 10);
  double gemmFlops = 0;
  for (OpId op : opsOfType(g, "Gemm")) gemmFlops += g.flops(op);
  EXPECT_DOUBLE_EQ(gemmFlops, gemm);

  Graph g8 = gp::importOnnx(path, gp::ImportOptions{{8, 64}});
  EXPECT_EQ(shapeOf(g8, "input"), (std::vector<int64_t>{8, 64}));
  double gemm8 = 0;
  for (OpId op : opsOfType(g8, "Gemm")) gemm8 += g8.flops(op);
  EXPECT_DOUBLE_EQ(gemm8, 8 * gemm);
  EXPECT_EQ(shapeOf(g8, "output"), (std::vector<int64_t>{8, 10}));
}

TEST(OnnxImport, NoValueInfoNeedsShapeInference) {
  Graph g = gp::importOnnx(gptest::dataPath("onnx/no_value_info.onnx"));
  // x.view(x.size(0), -1) before the last Linear
  auto reshapes = opsOfType(g, "Reshape");
  ASSERT_EQ(reshapes.size(), 1u);
  auto out = g.outputs(reshapes[0])[0];
  ASSERT_TRUE(g.hasShape(out));
  EXPECT_EQ(std::vector<int64_t>(g.shape(out).begin(), g.shape(out).end()), (std::vector<int64_t>{2, 16}));
  auto gemms = opsOfType(g, "Gemm");
  ASSERT_EQ(gemms.size(), 1u);
  EXPECT_DOUBLE_EQ(g.flops(gemms[0]), 2.0 * 2 * 16 * 10 + 2 * 10);
  auto deconv = opsOfType(g, "ConvTranspose");
  ASSERT_EQ(deconv.size(), 1u);  // 32->16, k2 s2 on 8x8 -> 16x16, batch 2, bias
  EXPECT_DOUBLE_EQ(g.flops(deconv[0]), 2.0 * (2 * 32 * 8 * 8) * 16 * 4 + 2 * 16 * 16 * 16);
}

TEST(OnnxImport, RecurrentFixture) {
  Graph g = gp::importOnnx(gptest::dataPath("onnx/lstm.onnx"));
  auto lstms = opsOfType(g, "LSTM");
  ASSERT_EQ(lstms.size(), 2u);  // seq 20, batch 2: 64->128, 128->128
  EXPECT_DOUBLE_EQ(g.flops(lstms[0]), 20 * gp::flops::rnnStep(2, 64, 128, 4));
  EXPECT_DOUBLE_EQ(g.flops(lstms[1]), 20 * gp::flops::rnnStep(2, 128, 128, 4));
  auto grus = opsOfType(g, "GRU");
  ASSERT_EQ(grus.size(), 1u);
  EXPECT_DOUBLE_EQ(g.flops(grus[0]), 20 * gp::flops::rnnStep(2, 128, 64, 3));
  auto gathers = opsOfType(g, "Gather");
  ASSERT_FALSE(gathers.empty());  // the embedding: reads the ids and the 40 looked-up rows
  EXPECT_EQ(g.flops(gathers[0]), 0.0);
  EXPECT_EQ(g.bytesRead(gathers[0]), 20 * 2 * 8 + 20 * 2 * 64 * 4);
  EXPECT_EQ(g.paramBytes(gathers[0]), 1000 * 64 * 4);
}

TEST(OnnxImport, LargeUnrolledSeq2Seq) {
  Graph g = gp::importOnnx(gptest::dataPath("onnx/seq2seq_unrolled.onnx"));
  EXPECT_GE(g.numOps(), 10000);
  EXPECT_GT(g.numEdges(), g.numOps());
  EXPECT_EQ(static_cast<int32_t>(g.topoOrder().size()), g.numOps());
  EXPECT_GT(g.totalFlops(), 0.0);
}

TEST(OnnxImport, ExternalDataIsNotRead) {
  const auto m = manifest().at("fixtures").at("mlp_external_onnx");
  Graph g = gp::importOnnx(gptest::dataPath("onnx/mlp_external.onnx"));
  EXPECT_EQ(g.numOps(), m.at("op_count").get<int>());
  EXPECT_EQ(g.totalParamBytes(), m.at("param_bytes").get<int64_t>());
  // without its .data file next to it the model imports the same (only dims are needed)
  TempDir dir;
  fs::copy_file(gptest::dataPath("onnx/mlp_external.onnx"), dir.file("alone.onnx"));
  Graph alone = gp::importOnnx(dir.file("alone.onnx"));
  EXPECT_EQ(alone.numOps(), g.numOps());
  EXPECT_EQ(alone.totalParamBytes(), g.totalParamBytes());
  EXPECT_DOUBLE_EQ(alone.totalFlops(), g.totalFlops());
}

TEST(OnnxImport, TransformerEncoderLayer) {
  Graph g = gp::importOnnx(gptest::dataPath("onnx/transformer_encoder.onnx"));
  EXPECT_EQ(opsOfType(g, "LayerNormalization").size(), 2u);
  EXPECT_FALSE(opsOfType(g, "Softmax").empty());
  // d_model 64, ff 256, seq 16: the two feed-forward MatMuls alone are 2 * 2*16*64*256 FLOPs
  EXPECT_GT(g.totalFlops(), 4.0 * 16 * 64 * 256);
}

// ---------------------------------------------------------------- single layers

TEST(OnnxLayerFlops, Conv3x3) {
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {1, 64, 56, 56});
  mm.init("w", {128, 64, 3, 3});
  mm.init("b", {128});
  auto& conv = mm.node("Conv", {"x", "w", "b"}, {"y"}, "conv");
  setInts(conv, "kernel_shape", {3, 3});
  setInts(conv, "pads", {1, 1, 1, 1});
  auto& nobias = mm.node("Conv", {"y", "w2"}, {"z"}, "conv_nobias");
  setInts(nobias, "pads", {1, 1, 1, 1});
  setInts(nobias, "strides", {2, 2});
  mm.init("w2", {128, 128, 3, 3});
  auto& dw = mm.node("Conv", {"z", "wd"}, {"d"}, "depthwise");
  setInt(dw, "group", 128);
  setInts(dw, "pads", {1, 1, 1, 1});
  mm.init("wd", {128, 1, 3, 3});
  mm.output("d");
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "conv")), 2.0 * 56 * 56 * 128 * 64 * 9 + 56 * 56 * 128);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "conv_nobias")), 2.0 * 28 * 28 * 128 * 128 * 9);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "depthwise")), 2.0 * 28 * 28 * 128 * 9);
  EXPECT_EQ(shapeOf(g, "y"), (std::vector<int64_t>{1, 128, 56, 56}));
  EXPECT_EQ(g.paramBytes(opNamed(g, "conv")), (128 * 64 * 9 + 128) * 4);
  EXPECT_EQ(g.bytesWritten(opNamed(g, "conv")), 128 * 56 * 56 * 4);
}

TEST(OnnxLayerFlops, ConvTransposeGemmMatMul) {
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {1, 32, 8, 8});
  mm.init("wt", {32, 16, 4, 4});
  auto& ct = mm.node("ConvTranspose", {"x", "wt"}, {"up"}, "deconv");
  setInts(ct, "strides", {2, 2});
  setInts(ct, "pads", {1, 1, 1, 1});
  mm.input("a", {8, 256});
  mm.init("bw", {512, 256});
  mm.init("bc", {512});
  setInt(mm.node("Gemm", {"a", "bw", "bc"}, {"g"}, "gemm"), "transB", 1);
  mm.input("m1", {2, 1, 4, 8, 16});
  mm.input("m2", {3, 1, 16, 32});
  mm.node("MatMul", {"m1", "m2"}, {"mm"}, "matmul");
  mm.input("v", {16});
  mm.node("MatMul", {"m1", "v"}, {"mv"}, "matvec");
  for (const char* o : {"up", "g", "mm", "mv"}) mm.output(o);
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(shapeOf(g, "up"), (std::vector<int64_t>{1, 16, 16, 16}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "deconv")), 2.0 * (32 * 8 * 8) * 16 * 16);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "gemm")), 2.0 * 8 * 512 * 256 + 8 * 512);
  EXPECT_EQ(shapeOf(g, "mm"), (std::vector<int64_t>{2, 3, 4, 8, 32}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "matmul")), 2.0 * (2 * 3 * 4) * 8 * 32 * 16);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "matvec")), 2.0 * (2 * 4) * 8 * 16);
}

TEST(OnnxLayerFlops, LstmAndGru) {
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {10, 4, 32});
  mm.init("w", {1, 256, 32});
  mm.init("r", {1, 256, 64});
  mm.init("b", {1, 512});
  auto& lstm = mm.node("LSTM", {"x", "w", "r", "b"}, {"y", "", "yc"}, "lstm");
  setInt(lstm, "hidden_size", 64);
  mm.init("wb", {2, 256, 32});
  mm.init("rb", {2, 256, 64});
  auto& bi = mm.node("LSTM", {"x", "wb", "rb"}, {"ybi"}, "bilstm");
  setInt(bi, "hidden_size", 64);
  setString(bi, "direction", "bidirectional");
  mm.init("wg", {1, 96, 32});
  mm.init("rg", {1, 96, 32});
  setInt(mm.node("GRU", {"x", "wg", "rg"}, {"yg"}, "gru"), "hidden_size", 32);
  for (const char* o : {"y", "yc", "ybi", "yg"}) mm.output(o);
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "lstm")), 10 * gp::flops::rnnStep(4, 32, 64, 4));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "bilstm")), 2 * 10 * gp::flops::rnnStep(4, 32, 64, 4));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "gru")), 10 * gp::flops::rnnStep(4, 32, 32, 3));
  EXPECT_EQ(shapeOf(g, "y"), (std::vector<int64_t>{10, 1, 4, 64}));
  EXPECT_EQ(g.outputs(opNamed(g, "lstm")).size(), 3u);  // the skipped output gets a name too
}

TEST(OnnxLayerFlops, ElementwiseNormsPoolsReductions) {
  TempDir dir;
  ModelMaker mm(17);
  mm.input("x", {1, 64, 112, 112});
  auto& mp = mm.node("MaxPool", {"x"}, {"p"}, "maxpool");
  setInts(mp, "kernel_shape", {3, 3});
  setInts(mp, "strides", {2, 2});
  setInts(mp, "pads", {1, 1, 1, 1});
  mm.node("Relu", {"p"}, {"r"}, "relu");
  for (const char* s : {"scale", "bias", "mean", "var"}) mm.init(s, {64});
  mm.node("BatchNormalization", {"r", "scale", "bias", "mean", "var"}, {"bn"}, "bn");
  mm.node("GlobalAveragePool", {"bn"}, {"gap"}, "gap");
  mm.input("s", {4, 1000});
  mm.node("Softmax", {"s"}, {"sm"}, "softmax");
  mm.input("t", {2, 3, 4});
  mm.input("u", {4});
  mm.node("Add", {"t", "u"}, {"tu"}, "add");
  mm.node("Sum", {"t", "t", "u"}, {"sum3"}, "sum3");
  mm.input("l", {1, 16, 64});
  mm.init("lg", {64});
  mm.init("lb", {64});
  mm.node("LayerNormalization", {"l", "lg", "lb"}, {"ln"}, "layernorm");
  setInts(mm.node("ReduceMean", {"s"}, {"rm"}, "reducemean"), "axes", {1});
  for (const char* o : {"gap", "sm", "tu", "sum3", "ln", "rm"}) mm.output(o);
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(shapeOf(g, "p"), (std::vector<int64_t>{1, 64, 56, 56}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "maxpool")), 64.0 * 56 * 56 * 9);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "relu")), 64.0 * 56 * 56);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "bn")), 2.0 * 64 * 56 * 56);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "gap")), 64.0 * 56 * 56);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "softmax")), 3.0 * 4000);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "add")), 24.0);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "sum3")), 48.0);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "layernorm")), 5.0 * 16 * 64);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "reducemean")), 4000.0);
}

TEST(OnnxLayerFlops, DataMovementIsZeroFlopsWithBytes) {
  TempDir dir;
  ModelMaker mm;
  mm.input("a", {2, 3});
  mm.input("b", {2, 5});
  setInt(mm.node("Concat", {"a", "b"}, {"c"}, "concat"), "axis", 1);
  setInts(mm.node("Transpose", {"c"}, {"ct"}, "transpose"), "perm", {1, 0});
  mm.node("Shape", {"ct"}, {"shape"}, "shape");
  mm.init("table", {1000, 64});
  mm.input("ids", {2, 5}, kInt64);
  mm.node("Gather", {"table", "ids"}, {"emb"}, "embedding");
  mm.output("ct");
  mm.output("shape", onnx::TensorProto_DataType_FLOAT);  // wrong: Shape gives int64; inference copes
  mm.output("emb");
  Graph g = gp::importOnnx(mm.save(dir));
  const OpId concat = opNamed(g, "concat");
  EXPECT_EQ(g.flops(concat), 0.0);
  EXPECT_EQ(g.bytesRead(concat), (6 + 10) * 4);
  EXPECT_EQ(g.bytesWritten(concat), 16 * 4);
  EXPECT_EQ(g.flops(opNamed(g, "transpose")), 0.0);
  EXPECT_EQ(g.bytesWritten(opNamed(g, "transpose")), 16 * 4);
  EXPECT_EQ(g.bytesRead(opNamed(g, "shape")), 0);
  EXPECT_EQ(g.bytesWritten(opNamed(g, "shape")), 2 * 8);
  EXPECT_EQ(g.dtype(g.findTensor("shape")), gp::DType::I64);
  const OpId emb = opNamed(g, "embedding");
  EXPECT_EQ(g.flops(emb), 0.0);
  EXPECT_EQ(g.bytesRead(emb), 10 * 8 + 10 * 64 * 4);
  EXPECT_EQ(g.paramBytes(emb), 1000 * 64 * 4);
}

TEST(OnnxLayerFlops, Einsum) {
  TempDir dir;
  ModelMaker mm;
  mm.input("a", {2, 3, 4});
  mm.input("b", {2, 4, 5});
  setString(mm.node("Einsum", {"a", "b"}, {"c"}, "bmm"), "equation", "bij,bjk->bik");
  setString(mm.node("Einsum", {"a"}, {"at"}, "transpose"), "equation", "...ij->...ji");
  setString(mm.node("Einsum", {"a", "b"}, {"e"}, "ellipsis"), "equation", "...ij,...jk->...ik");
  setString(mm.node("Einsum", {"a"}, {"s"}, "sum"), "equation", "bij->b");
  for (const char* o : {"c", "at", "e", "s"}) mm.output(o);
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "bmm")), 2.0 * 2 * 3 * 4 * 5);
  EXPECT_EQ(g.flops(opNamed(g, "transpose")), 0.0);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "ellipsis")), 2.0 * 2 * 3 * 4 * 5);
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "sum")), 24.0);
}

TEST(OnnxLayerFlops, ControlFlowCountsItsBody) {
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {4, 8});
  mm.input("cond", {}, onnx::TensorProto_DataType_BOOL);
  auto& ifNode = mm.node("If", {"cond"}, {"y"}, "if");
  onnx::GraphProto* thenG = setGraph(ifNode, "then_branch");
  ModelMaker::addNode(*thenG, "Relu", {"x"}, {"t1"});
  ModelMaker::addNode(*thenG, "Relu", {"t1"}, {"t2"});
  ModelMaker::fill(thenG->add_output(), "t2", {4, 8}, kFloat);
  onnx::GraphProto* elseG = setGraph(ifNode, "else_branch");
  ModelMaker::addNode(*elseG, "Identity", {"x"}, {"e1"});
  ModelMaker::fill(elseG->add_output(), "e1", {4, 8}, kFloat);
  // Loop 5 times: acc = acc + x
  mm.intConstant("trips", 5);
  auto& loop = mm.node("Loop", {"trips", "", "x"}, {"acc"}, "loop");
  onnx::GraphProto* body = setGraph(loop, "body");
  ModelMaker::fill(body->add_input(), "i", {}, kInt64);
  ModelMaker::fill(body->add_input(), "c_in", {}, onnx::TensorProto_DataType_BOOL);
  ModelMaker::fill(body->add_input(), "acc_in", {4, 8}, kFloat);
  ModelMaker::addNode(*body, "Identity", {"c_in"}, {"c_out"});
  ModelMaker::addNode(*body, "Add", {"acc_in", "x"}, {"acc_out"});
  ModelMaker::fill(body->add_output(), "c_out", {}, onnx::TensorProto_DataType_BOOL);
  ModelMaker::fill(body->add_output(), "acc_out", {4, 8}, kFloat);
  mm.output("y");
  mm.output("acc");
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(g.numOps(), 2);
  const OpId ifOp = opNamed(g, "if");
  EXPECT_DOUBLE_EQ(g.flops(ifOp), 2 * 32.0);  // the larger branch
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "loop")), 5 * 32.0);
  // the body's outer-scope read of x is an input of the If op
  auto ins = g.inputs(ifOp);
  EXPECT_NE(std::find(ins.begin(), ins.end(), g.findTensor("x")), ins.end());
}

// ---------------------------------------------------------------- names

TEST(OnnxImport, UnnamedNodesGetUniqueStableNames) {
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {2, 2});
  mm.node("Relu", {"x"}, {"a"});                    // 0: unnamed, but "Relu_0" is taken
  mm.node("Relu", {"a"}, {"b"}, "Relu_0");          // 1
  mm.node("Relu", {"b"}, {"c"}, "dup");             // 2
  mm.node("Relu", {"c"}, {"d"}, "dup");             // 3: duplicate name
  mm.node("Add", {"d", "a"}, {"/enc/layer0/out"});  // 4: unnamed, scoped output
  mm.node("Relu", {"/enc/layer0/out"}, {"e"});      // 5
  mm.output("e");
  const std::string path = mm.save(dir);
  Graph g1 = gp::importOnnx(path);
  Graph g2 = gp::importOnnx(path);
  ASSERT_EQ(g1.numOps(), 6);
  std::vector<std::string> names;
  for (OpId op = 0; op < g1.numOps(); ++op) {
    names.push_back(g1.opName(op));
    EXPECT_EQ(g1.opName(op), g2.opName(op));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Relu_0_1", "Relu_0", "dup", "dup_3", "/enc/layer0/Add_4", "Relu_5"}));
  EXPECT_EQ(g1.scopeName(g1.opScope(4)), "enc/layer0");
}

// ---------------------------------------------------------------- malformed inputs

struct BadFile {
  const char* file;
  std::vector<const char*> words;  // what the message must say (lower-case match)
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

TEST(OnnxMalformed, EveryFileGivesAClearError) {
  const std::vector<BadFile> cases = {
      {"truncated.onnx", {"not a valid onnx", "truncated"}},
      {"not_onnx.onnx", {"onnx"}},
      {"empty.onnx", {"empty"}},
      {"no_graph.onnx", {"no graph"}},
      {"unknown_op.onnx", {"unknown op", "fancyop", "'fancy'"}},
      {"cycle.onnx", {"cycle", "add_a", "relu_b"}},
      {"dangling_input.onnx", {"add_ghost", "ghost", "nothing produces"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = gptest::dataPath(std::string("malformed/") + c.file);
    ASSERT_TRUE(fs::exists(path));
    try {
      gp::importOnnx(path);
      ADD_FAILURE() << "no error";
    } catch (const gp::Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      for (const char* w : c.words)
        EXPECT_NE(lower(what).find(w), std::string::npos) << "'" << w << "' not in: " << what;
    }
  }
}

TEST(OnnxMalformed, MissingFileAndDirectory) {
  TempDir dir;
  const std::string missing = dir.file("nope.onnx");
  try {
    gp::importOnnx(missing);
    ADD_FAILURE() << "no error";
  } catch (const gp::Error& e) {
    EXPECT_EQ(std::string(e.what()), missing + ": file not found");
  }
  fs::create_directory(dir.file("folder.onnx"));
  EXPECT_THROW(gp::importOnnx(dir.file("folder.onnx")), gp::Error);
}

TEST(OnnxMalformed, MutatedModelsNeverCrash) {
  static const char* kOps[] = {"Conv",
                               "ConvTranspose",
                               "Gemm",
                               "MatMul",
                               "Einsum",
                               "LSTM",
                               "Slice",
                               "Reshape",
                               "Gather",
                               "Concat",
                               "Split",
                               "Softmax",
                               "MaxPool",
                               "Shape",
                               "Unsqueeze",
                               "Range",
                               "ConstantOfShape",
                               "Expand",
                               "Tile",
                               "Resize",
                               "Transpose",
                               "LayerNormalization",
                               "ReduceMean",
                               "Add",
                               "Where",
                               "TopK",
                               "Loop",
                               "If",
                               "Scan",
                               "Pad",
                               "Constant"};
  onnx::ModelProto base;
  {
    std::ifstream in(gptest::dataPath("onnx/transformer_encoder.onnx"), std::ios::binary);
    ASSERT_TRUE(base.ParseFromIstream(&in));
  }
  std::mt19937 rng(20240611);
  auto pick = [&](int n) { return n <= 0 ? 0 : static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto value = [&]() -> int64_t {
    switch (pick(5)) {
      case 0:
        return -1;
      case 1:
        return 0;
      case 2:
        return int64_t{1} << pick(62);
      default:
        return pick(10);
    }
  };
  TempDir dir;
  const std::string path = dir.file("mutated.onnx");
  int imported = 0, rejected = 0;
  for (int i = 0; i < 150; ++i) {
    onnx::ModelProto m = base;
    onnx::GraphProto& g = *m.mutable_graph();
    for (int k = 0; k < 2; ++k) {
      onnx::NodeProto& n = *g.mutable_node(pick(g.node_size()));
      switch (pick(5)) {
        case 0:
          for (auto& a : *n.mutable_attribute()) {
            if (a.has_i()) a.set_i(value());
            for (int j = 0; j < a.ints_size(); ++j) a.set_ints(j, value());
          }
          break;
        case 1:
          if (n.input_size() > 0) n.set_input(pick(n.input_size()), g.node(pick(g.node_size())).output(0));
          break;
        case 2:
          n.set_op_type(kOps[pick(static_cast<int>(std::size(kOps)))]);
          break;
        case 3: {
          onnx::TensorProto& t = *g.mutable_initializer(pick(g.initializer_size()));
          if (t.dims_size() > 0) t.set_dims(pick(t.dims_size()), value());
          break;
        }
        default: {
          auto* shape = g.mutable_value_info(pick(g.value_info_size()))->mutable_type()->mutable_tensor_type();
          if (shape->shape().dim_size() > 0) shape->mutable_shape()->mutable_dim(0)->set_dim_value(value());
          break;
        }
      }
    }
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      m.SerializeToOstream(&out);
    }
    try {
      gp::importOnnx(path);
      ++imported;
    } catch (const gp::Error& e) {
      ++rejected;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(imported + rejected, 150);
  EXPECT_GT(rejected, 0);
}

TEST(OnnxMalformed, UnknownDomainAndOpset) {
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {2});
  mm.node("Relu", {"x"}, {"y"}, "relu").set_domain("com.example");
  mm.output("y");
  try {
    gp::importOnnx(mm.save(dir));
    ADD_FAILURE() << "no error";
  } catch (const gp::Error& e) {
    EXPECT_NE(std::string(e.what()).find("com.example"), std::string::npos) << e.what();
  }
  // an op that exists only in later opsets than the model's: LayerNormalization at opset 13
  ModelMaker old(13);
  old.input("x", {2, 4});
  old.node("LayerNormalization", {"x"}, {"y"}, "ln");
  old.output("y");
  EXPECT_THROW(gp::importOnnx(old.save(dir, "old.onnx")), gp::Error);
}

}  // namespace

// ONNX importer: committed fixtures against the manifest, FLOPs of single layers built here
// with the ONNX protobuf API, malformed inputs, stable names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

// gp_core_tests sees ONNX only through gpcore (linked privately), so the definition that
// ONNX::onnx_proto would bring is made here.
#ifndef ONNX_ML
#define ONNX_ML 1
#endif
#include <onnx/onnx_pb.h>

#include "graph/error.h"
#include "graph/flops.h"
#include "io/model_loader.h"
#include "io/onnx_import.h"
#include "io/onnx_read.h"
#include "test_paths.h"

namespace {

namespace fs = std::filesystem;
using gp::Graph;
using gp::OpId;

// ---------------------------------------------------------------- helpers

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() / ("gp_onnx_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

constexpr int kFloat = onnx::TensorProto_DataType_FLOAT;
constexpr int kInt64 = onnx::TensorProto_DataType_INT64;

// A tiny ONNX model written from C++; initializers carry dims only (no data), like the
// stripped fixtures.
class ModelMaker {
 public:
  explicit ModelMaker(int opset = 13) {
    m_.set_ir_version(8);
    auto* o = m_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    m_.mutable_graph()->set_name("test");
  }
  onnx::GraphProto& graph() { return *m_.mutable_graph(); }

  void input(const std::string& name, const std::vector<int64_t>& dims, int elem = kFloat) {
    fill(graph().add_input(), name, dims, elem);
  }
  void output(const std::string& name, int elem = kFloat) {
    auto* v = graph().add_output();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(elem);
  }
  void init(const std::string& name, const std::vector<int64_t>& dims, int elem = kFloat) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    for (int64_t d : dims) t->add_dims(d);
  }
  // A scalar int64 initializer with its value (e.g. a Loop trip count).
  void intConstant(const std::string& name, int64_t value) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(kInt64);
    t->add_int64_data(value);
  }
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& ins,
                        const std::vector<std::string>& outs, const std::string& name = {}) {
    return addNode(graph(), op, ins, outs, name);
  }
  std::string save(const TempDir& dir, const std::string& file = "model.onnx") const {
    std::string path = dir.file(file);
    std::ofstream out(path, std::ios::binary);
    m_.SerializeToOstream(&out);
    return path;
  }

  static void fill(onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims, int elem) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto* shape = tt->mutable_shape();
    for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  }
  static onnx::NodeProto& addNode(onnx::GraphProto& g, const std::string& op, const std::vector<std::string>& ins,
                                  const std::vector<std::string>& outs, const std::string& name = {}) {
    auto* n = g.add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : ins) n->add_input(i);
    for (const auto& o : outs) n->add_output(o);
    return *n;
  }

 private:
  onnx::ModelProto m_;
};

void setInts(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_INTS);
  for (int64_t x : v) a->add_ints(x);
}
void setInt(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_INT);
  a->set_i(v);
}
void setString(onnx::NodeProto& n, const std::string& name, const std::string& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_STRING);
  a->set_s(v);
}
onnx::GraphProto* setGraph(onnx::NodeProto& n, const std::string& name) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_GRAPH);
  a->mutable_g()->set_name(name);
  return a->mutable_g();
}

OpId opNamed(const Graph& g, const std::string& name) {
  OpId op = g.findOp(name);
  EXPECT_NE(op, gp::kNone) << "no op '" << name << "'";
  return op;
}

std::vector<OpId> opsOfType(const Graph& g, std::string_view type) {
  std::vector<OpId> ops;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.opType(op) == type) ops.push_back(op);
  return ops;
}

std::vector<int64_t> shapeOf(const Graph& g, const std::string& tensor) {
  auto t = g.findTensor(tensor);
  if (t == gp::kNone || !g.hasShape(t)) return {-1};
  auto s = g.shape(t);
  return {s.begin(), s.end()};
}

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

TEST(OnnxLayerFlops, SplitLoopsAndFoldedBranchesKeepExactShapes) {
  // torch.split as torch.onnx writes it: a Loop with a constant trip count inserting slices into
  // a sequence, then SequenceAt / ConcatFromSequence; and an If on a condition computed from a
  // shape. The body's and the branch's shapes come out exact.
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {6, 4});
  mm.intConstant("trips", 3);
  mm.intConstant("one", 1);
  mm.intConstant("two", 2);
  mm.intConstant("zero", 0);
  mm.intConstant("six", 6);
  mm.node("SequenceEmpty", {}, {"empty"}, "empty");
  auto& loop = mm.node("Loop", {"trips", "", "empty"}, {"parts"}, "split");
  onnx::GraphProto* body = setGraph(loop, "body");
  ModelMaker::fill(body->add_input(), "i", {}, kInt64);
  ModelMaker::fill(body->add_input(), "c_in", {}, onnx::TensorProto_DataType_BOOL);
  auto* seqIn = body->add_input();  // a sequence of float tensors
  seqIn->set_name("seq_in");
  seqIn->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(kFloat);
  ModelMaker::addNode(*body, "Identity", {"c_in"}, {"c_out"});
  ModelMaker::addNode(*body, "Mul", {"i", "two"}, {"start0"});
  ModelMaker::addNode(*body, "Add", {"start0", "two"}, {"end0"});
  ModelMaker::addNode(*body, "Unsqueeze", {"start0", "zero1d"}, {"start"});
  ModelMaker::addNode(*body, "Unsqueeze", {"end0", "zero1d"}, {"end"});
  ModelMaker::addNode(*body, "Slice", {"x", "start", "end", "zero1d"}, {"part"});
  ModelMaker::addNode(*body, "SequenceInsert", {"seq_in", "part"}, {"seq_out"});
  ModelMaker::fill(body->add_output(), "c_out", {}, onnx::TensorProto_DataType_BOOL);
  body->add_output()->set_name("seq_out");
  auto* zero1d = mm.graph().add_initializer();
  zero1d->set_name("zero1d");
  zero1d->set_data_type(kInt64);
  zero1d->add_dims(1);
  zero1d->add_int64_data(0);
  mm.node("SequenceAt", {"parts", "one"}, {"second"}, "at");
  mm.init("w", {4, 5});
  mm.node("MatMul", {"second", "w"}, {"y"}, "matmul");  // [2,4] @ [4,5]
  setInt(mm.node("ConcatFromSequence", {"parts"}, {"joined"}, "concat"), "axis", 0);
  mm.node("Relu", {"joined"}, {"r"}, "relu");  // [6,4]
  mm.node("Shape", {"x"}, {"shape"}, "shape");
  mm.node("Gather", {"shape", "zero"}, {"rows"}, "rows");
  mm.node("Equal", {"rows", "six"}, {"is6"}, "is6");
  auto& ifNode = mm.node("If", {"is6"}, {"picked"}, "if");
  ModelMaker::addNode(*setGraph(ifNode, "then_branch"), "Transpose", {"x"}, {"t"});
  ifNode.mutable_attribute(0)->mutable_g()->add_output()->set_name("t");
  ModelMaker::addNode(*setGraph(ifNode, "else_branch"), "Identity", {"x"}, {"e"});
  ifNode.mutable_attribute(1)->mutable_g()->add_output()->set_name("e");
  mm.node("Sigmoid", {"picked"}, {"s"}, "sigmoid");
  mm.output("y");
  mm.output("r");
  mm.output("s");
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(shapeOf(g, "second"), (std::vector<int64_t>{2, 4}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "matmul")), 2.0 * 2 * 4 * 5);
  EXPECT_EQ(shapeOf(g, "joined"), (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(shapeOf(g, "picked"), (std::vector<int64_t>{4, 6}));  // the then branch: transposed
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "sigmoid")), 24.0);
  EXPECT_EQ(g.numEstimatedOps(), 0) << gp::estimatedCostWarning(g);
}

TEST(OnnxLayerFlops, LoopsRunOnlyWhileTheirConditionIsKnown) {
  // acc grows by x every iteration; 5 iterations when the condition is the constant true, an
  // unknown count when it is a graph input (the result is then estimated, not guessed).
  auto model = [](bool knownCondition, const TempDir& dir) {
    ModelMaker mm;
    mm.input("x", {2, 2});
    if (knownCondition) {
      auto* t = mm.graph().add_initializer();
      t->set_name("go");
      t->set_data_type(onnx::TensorProto_DataType_BOOL);
      t->add_int32_data(1);
    } else {
      mm.input("go", {}, onnx::TensorProto_DataType_BOOL);
    }
    mm.intConstant("trips", 5);
    auto& loop = mm.node("Loop", {"trips", "go", "x"}, {"acc"}, "loop");
    onnx::GraphProto* body = setGraph(loop, "body");
    ModelMaker::fill(body->add_input(), "i", {}, kInt64);
    ModelMaker::fill(body->add_input(), "c_in", {}, onnx::TensorProto_DataType_BOOL);
    body->add_input()->set_name("acc_in");
    body->mutable_input(2)->mutable_type()->mutable_tensor_type()->set_elem_type(kFloat);
    ModelMaker::addNode(*body, "Identity", {"c_in"}, {"c_out"});
    setInt(ModelMaker::addNode(*body, "Concat", {"acc_in", "x"}, {"acc_out"}), "axis", 0);
    ModelMaker::fill(body->add_output(), "c_out", {}, onnx::TensorProto_DataType_BOOL);
    body->add_output()->set_name("acc_out");
    mm.node("Relu", {"acc"}, {"r"}, "relu");
    mm.output("r");
    return gp::importOnnx(mm.save(dir));
  };
  TempDir dir;
  Graph known = model(true, dir);
  EXPECT_EQ(shapeOf(known, "acc"), (std::vector<int64_t>{12, 2}));
  EXPECT_FALSE(known.costEstimated(opNamed(known, "relu")));
  TempDir dir2;
  Graph unknown = model(false, dir2);
  EXPECT_TRUE(unknown.costEstimated(opNamed(unknown, "relu")));
}

TEST(OnnxLayerFlops, ComputedShapesAreFolded) {
  // Reshape / Slice / ConstantOfShape fed by Shape -> Gather -> Div -> Unsqueeze -> Concat:
  // ONNX inference alone leaves these shapes unknown; the folding pass finds them.
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {2, 3, 4});
  mm.node("Shape", {"x"}, {"shape"}, "shape");
  auto constant = [&](const std::string& name, const std::vector<int64_t>& values) {
    auto& c = mm.node("Constant", {}, {name}, name);
    auto* a = c.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
    a->mutable_t()->set_data_type(kInt64);
    a->mutable_t()->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) a->mutable_t()->add_int64_data(v);
  };
  constant("zero", {0});
  constant("two", {2});
  constant("minus1", {-1});
  mm.node("Gather", {"shape", "zero"}, {"batch"}, "gather_batch");  // [2]
  setInt(mm.node("Concat", {"batch", "minus1"}, {"newshape"}, "concat"), "axis", 0);
  mm.node("Reshape", {"x", "newshape"}, {"flat"}, "reshape");  // [2, 12]
  mm.init("w", {12, 5});
  mm.node("MatMul", {"flat", "w"}, {"y"}, "matmul");
  mm.node("Gather", {"shape", "two"}, {"last"}, "gather_last");         // [4]
  mm.node("Div", {"last", "two"}, {"half"}, "half");                    // [2]
  mm.node("Slice", {"x", "zero", "half", "two"}, {"sliced"}, "slice");  // [2, 3, 2]
  mm.node("Relu", {"sliced"}, {"r"}, "relu");
  mm.node("ConstantOfShape", {"newshape"}, {"zeros"}, "zeros");  // shape [2, -1] is invalid: stays unknown
  mm.output("y");
  mm.output("r");
  mm.output("zeros");
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(shapeOf(g, "flat"), (std::vector<int64_t>{2, 12}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "matmul")), 2.0 * 2 * 12 * 5);
  EXPECT_EQ(shapeOf(g, "sliced"), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "relu")), 12.0);
  EXPECT_EQ(shapeOf(g, "half"), (std::vector<int64_t>{1}));
}

TEST(OnnxLayerFlops, LongShapeChainsFoldInOnePass) {
  // Twelve blocks, each reshaping by a shape computed from the previous block's output: every
  // block's shape is known only once the one before it is resolved.
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {2, 3, 4});
  auto constant = [&](const std::string& name, int64_t value) {
    auto& c = mm.node("Constant", {}, {name}, name);
    auto* a = c.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
    a->mutable_t()->set_data_type(kInt64);
    a->mutable_t()->add_dims(1);
    a->mutable_t()->add_int64_data(value);
  };
  constant("zero", 0);
  constant("minus1", -1);
  std::string cur = "x";
  for (int i = 0; i < 12; ++i) {
    const std::string k = std::to_string(i);
    mm.node("Shape", {cur}, {"s" + k}, "shape" + k);
    mm.node("Gather", {"s" + k, "zero"}, {"b" + k}, "gather" + k);
    setInt(mm.node("Concat", {"b" + k, "minus1"}, {"ns" + k}, "concat" + k), "axis", 0);
    mm.node("Reshape", {cur, "ns" + k}, {"r" + k}, "reshape" + k);
    mm.node("Relu", {"r" + k}, {"a" + k}, "relu" + k);
    cur = "a" + k;
  }
  mm.init("w", {12, 5});
  mm.node("MatMul", {cur, "w"}, {"y"}, "matmul");
  mm.output("y");
  Graph g = gp::importOnnx(mm.save(dir));
  EXPECT_EQ(g.numEstimatedOps(), 0);
  for (int i = 0; i < 12; ++i) EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "relu" + std::to_string(i))), 24.0) << i;
  EXPECT_EQ(shapeOf(g, "y"), (std::vector<int64_t>{2, 5}));
  EXPECT_DOUBLE_EQ(g.flops(opNamed(g, "matmul")), 2.0 * 2 * 12 * 5);
}

TEST(OnnxImport, UnknownShapesOpenWithEstimatedCost) {
  // x has no shape: nothing can say what Relu and MatMul cost, yet the model opens.
  Graph g = gp::importOnnx(gptest::dataPath("malformed/missing_shape.onnx"));
  EXPECT_EQ(g.numOps(), 2);
  EXPECT_TRUE(g.costEstimated(opNamed(g, "relu")));
  EXPECT_TRUE(g.costEstimated(opNamed(g, "matmul")));
  EXPECT_GT(g.flops(opNamed(g, "matmul")), 0);  // from the weight's shape
  const std::string warning = gp::estimatedCostWarning(g);
  EXPECT_NE(warning.find("2 ops have shapes"), std::string::npos) << warning;
  EXPECT_NE(warning.find("'relu' (Relu)"), std::string::npos) << warning;
  EXPECT_EQ(warning.find('\n'), std::string::npos);

  // strides 0: libonnx's inference must not run (it divides by them); the pool's output stays
  // unknown and is sized like its input.
  Graph pool = gp::importOnnx(gptest::dataPath("malformed/zero_strides.onnx"));
  const OpId p = opNamed(pool, "pool");
  EXPECT_TRUE(pool.costEstimated(p));
  EXPECT_EQ(pool.bytesWritten(p), 16 * 4);

  // A model whose shapes are all known has nothing estimated.
  Graph mlp = gp::importOnnx(gptest::dataPath("onnx/mlp.onnx"));
  EXPECT_EQ(mlp.numEstimatedOps(), 0);
  EXPECT_EQ(gp::estimatedCostWarning(mlp), "");
}

TEST(OnnxImport, SymbolicDimsAreBoundByName) {
  const std::string path = gptest::dataPath("onnx/mlp.onnx");
  Graph g1 = gp::importOnnx(path);
  ASSERT_EQ(g1.symbolicDims().size(), 1u);
  EXPECT_EQ(g1.symbolicDims()[0].name, "batch");
  EXPECT_EQ(g1.symbolicDims()[0].value, 1);
  EXPECT_FALSE(g1.symbolicDims()[0].bound);

  gp::ImportOptions o;
  o.dims["batch"] = 8;
  Graph g8 = gp::importOnnx(path, o);
  EXPECT_EQ(shapeOf(g8, "input"), (std::vector<int64_t>{8, 64}));
  EXPECT_EQ(shapeOf(g8, "output"), (std::vector<int64_t>{8, 10}));
  EXPECT_TRUE(g8.symbolicDims()[0].bound);
  EXPECT_EQ(g8.symbolicDims()[0].value, 8);
  EXPECT_NEAR(g8.totalFlops(), 8 * g1.totalFlops(), 1e-6 * g8.totalFlops());
  // training derivation keeps them
  EXPECT_EQ(gp::loadModel(path, gp::LoadOptions{gp::GraphMode::Training, o, {}}).symbolicDims().size(), 1u);

  gp::ImportOptions typo;
  typo.dims["batch_size"] = 8;
  try {
    gp::importOnnx(path, typo);
    ADD_FAILURE() << "no error";
  } catch (const gp::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": --dim batch_size", 0), 0u) << what;
    EXPECT_NE(what.find("(they have: batch)"), std::string::npos) << what;
  }
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

void appendVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

TEST(OnnxImport, OverTwoGigabytesOpensWithoutReadingWeights) {
  // A real > 2 GiB model: x[1,4] @ w[4,N] with w's 2 GiB of raw data inline, written as a
  // sparse file (the zeros take no disk space).
  TempDir dir;
  const std::string big = dir.file("huge.onnx");
  const uint64_t n = (uint64_t{1} << 29) + 16;  // w's columns
  const uint64_t raw = 4 * n * 4;               // float bytes: 2 GiB + 256
  ModelMaker mm;
  mm.input("x", {1, 4});
  mm.node("MatMul", {"x", "w"}, {"y"}, "matmul");
  mm.output("y");
  onnx::ModelProto model;
  {
    TempDir tmp;
    std::ifstream in(mm.save(tmp), std::ios::binary);
    ASSERT_TRUE(model.ParseFromIstream(&in));
  }
  const std::string graph = model.graph().SerializeAsString();
  model.clear_graph();
  onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(kFloat);
  w.add_dims(4);
  w.add_dims(static_cast<int64_t>(n));
  std::string tensorHead = w.SerializeAsString();
  tensorHead.push_back(static_cast<char>(9 << 3 | 2));  // raw_data
  appendVarint(tensorHead, raw);
  const uint64_t tensorLen = tensorHead.size() + raw;
  std::string graphHead = graph;
  graphHead.push_back(static_cast<char>(5 << 3 | 2));  // initializer
  appendVarint(graphHead, tensorLen);
  std::string bytes = model.SerializeAsString();
  bytes.push_back(static_cast<char>(7 << 3 | 2));  // graph
  appendVarint(bytes, graphHead.size() + tensorLen);
  bytes += graphHead + tensorHead;
  { std::ofstream(big, std::ios::binary) << bytes; }
  std::error_code ec;
  fs::resize_file(big, bytes.size() + raw, ec);
  if (ec) GTEST_SKIP() << "cannot make a sparse 2 GiB file here: " << ec.message();
  ASSERT_GT(fs::file_size(big), uint64_t{1} << 31);
  Graph g = gp::importOnnx(big);
  ASSERT_EQ(g.numOps(), 1);
  EXPECT_DOUBLE_EQ(g.flops(0), 2.0 * 4 * static_cast<double>(n));
  EXPECT_EQ(g.totalParamBytes(), static_cast<int64_t>(raw));

  // The same file cut short: a clear error, not a crash.
  fs::resize_file(big, bytes.size() + raw - 100, ec);
  ASSERT_FALSE(ec);
  try {
    gp::importOnnx(big);
    ADD_FAILURE() << "no error";
  } catch (const gp::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(big + ": not a valid ONNX model", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(OnnxImport, StrippedReadKeepsSmallInitializers) {
  // The large-file path on a small file: large initializers lose their data, small integer
  // ones (shape constants) keep it, and the model imports the same.
  TempDir dir;
  ModelMaker mm;
  mm.input("x", {2, 3, 4});
  mm.init("w", {12, 300});
  auto* big = mm.graph().mutable_initializer(0);
  big->set_raw_data(std::string(12 * 300 * 4, '\1'));
  mm.intConstant("unused", 7);
  auto* shape = mm.graph().add_initializer();
  shape->set_name("newshape");
  shape->set_data_type(kInt64);
  shape->add_dims(2);
  shape->add_int64_data(2);
  shape->add_int64_data(12);
  mm.node("Reshape", {"x", "newshape"}, {"flat"}, "reshape");
  mm.node("MatMul", {"flat", "w"}, {"y"}, "matmul");
  mm.output("y");
  const std::string path = mm.save(dir);
  const onnx::ModelProto full = gp::onnxio::readOnnxModel(path);
  const onnx::ModelProto stripped = gp::onnxio::readOnnxModel(path, 0);
  EXPECT_EQ(full.graph().initializer(0).raw_data().size(), 12u * 300 * 4);
  EXPECT_TRUE(stripped.graph().initializer(0).raw_data().empty());
  EXPECT_EQ(stripped.graph().initializer(0).dims_size(), 2);
  EXPECT_EQ(stripped.graph().initializer(2).int64_data_size(), 2);
  EXPECT_EQ(stripped.graph().node_size(), 2);
  EXPECT_THROW(gp::onnxio::stripInitializerData(reinterpret_cast<const uint8_t*>("\x3a\xff"), 2),
               std::runtime_error);
}

// Models that parse but are inconsistent (random dims, attributes, op types, inputs) must
// import or fail with gp::Error; libonnx's shape inference crashes on some of them, which the
// importer keeps out of the process (see io/onnx_infer.h).
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

// TorchScript import: op counts against what TorchScript reports (tests/data/fixtures.json,
// written by tests/data/make_fixtures.py), FLOPs, shapes, names, and malformed archives.
#include "io/torchscript_import.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/error.h"
#include "error_text.h"
#include "graph/flops.h"
#include "graph/graph.h"
#include "io/torchscript_flops.h"
#include "test_paths.h"
#include "zip_bomb.h"

namespace {

using gp::Graph;
using gp::OpId;
using gp::TensorId;

nlohmann::json manifest() {
  std::ifstream in(gptest::dataPath("fixtures.json"));
  EXPECT_TRUE(in.good()) << "missing " << gptest::dataPath("fixtures.json");
  return in.good() ? nlohmann::json::parse(in) : nlohmann::json::object();
}

Graph importFixture(const std::string& rel, std::vector<int64_t> shape) {
  gp::ImportOptions o;
  o.inputShape = std::move(shape);
  return gp::importTorchScript(gptest::dataPath(rel), o);
}

std::vector<int64_t> shapeOf(const Graph& g, TensorId t) {
  auto s = g.shape(t);
  return {s.begin(), s.end()};
}

// Output shape of the op with this name; fails the test if there is no such op.
std::vector<int64_t> outShape(const Graph& g, const std::string& op) {
  OpId id = g.findOp(op);
  EXPECT_NE(id, gp::kNone) << "no op named " << op;
  if (id == gp::kNone || g.outputs(id).empty() || !g.hasShape(g.outputs(id)[0])) return {};
  return shapeOf(g, g.outputs(id)[0]);
}

std::string errorOf(const std::string& path, const gp::ImportOptions& o = {}) {
  return gptest::errorOf([&] { gp::importTorchScript(path, o); });
}

TEST(TorchScriptImport, OpCountsMatchWhatTorchScriptReports) {
  int checked = 0;
  const nlohmann::json fixtures = manifest().value("fixtures", nlohmann::json::object());
  for (const auto& [key, f] : fixtures.items()) {
    if (f.value("format", "") != "torchscript") continue;
    SCOPED_TRACE(key);
    Graph g = importFixture(f.at("file"), f.at("input_shape").get<std::vector<int64_t>>());
    EXPECT_EQ(g.numOps(), f.at("op_count").get<int32_t>()) << f.at("file");
    for (OpId op = 0; op < g.numOps(); ++op) EXPECT_TRUE(g.opType(op).starts_with("aten::")) << g.opName(op);
    EXPECT_GT(g.totalFlops(), 0);
    EXPECT_GT(g.totalParamBytes(), 0);
    ++checked;
  }
  EXPECT_GE(checked, 4) << "expected the resnet18, mobilenet_v2, mlp and lstm TorchScript fixtures";
}

TEST(TorchScriptImport, ResNet18FlopsAndParameters) {
  Graph g = importFixture("torchscript/resnet18.pt", {1, 3, 224, 224});
  // ResNet-18 at 224x224: 1.82 G multiply-adds (a multiply-add counts as 2 FLOPs).
  EXPECT_NEAR(g.totalFlops() / 2, 1.82e9, 0.05 * 1.82e9);
  // 11,689,512 parameters plus the BatchNorm running mean/var (4,800 channels x 2), f32.
  EXPECT_EQ(g.totalParamBytes(), (11689512 + 2 * 4800) * 4);
  // The stem convolution alone: 112*112*64 outputs x 3*7*7 MACs, no bias.
  OpId stem = g.findOp("conv1/_convolution_0");
  ASSERT_NE(stem, gp::kNone);
  EXPECT_DOUBLE_EQ(g.flops(stem), 2.0 * 112 * 112 * 64 * 3 * 7 * 7);
  EXPECT_EQ(g.opType(stem), "aten::_convolution");
}

TEST(TorchScriptImport, ResNet18ShapesNamesAndScopes) {
  Graph g = importFixture("torchscript/resnet18.pt", {1, 3, 224, 224});
  EXPECT_EQ(outShape(g, "conv1/_convolution_0"), (std::vector<int64_t>{1, 64, 112, 112}));
  EXPECT_EQ(outShape(g, "maxpool/max_pool2d_3"), (std::vector<int64_t>{1, 64, 56, 56}));
  EXPECT_EQ(outShape(g, "layer1/0/conv1/_convolution_4"), (std::vector<int64_t>{1, 64, 56, 56}));
  EXPECT_EQ(outShape(g, "avgpool/adaptive_avg_pool2d_66"), (std::vector<int64_t>{1, 512, 1, 1}));
  EXPECT_EQ(outShape(g, "forward/flatten_67"), (std::vector<int64_t>{1, 512}));
  EXPECT_EQ(outShape(g, "fc/linear_68"), (std::vector<int64_t>{1, 1000}));

  TensorId w = g.findTensor("layer1.0.conv1.weight");
  ASSERT_NE(w, gp::kNone);
  EXPECT_EQ(g.tensorKind(w), gp::TensorKind::Parameter);
  EXPECT_EQ(shapeOf(g, w), (std::vector<int64_t>{64, 64, 3, 3}));
  EXPECT_EQ(g.dtype(w), gp::DType::F32);

  // Residual: the block's add reads both the second BN and the block input (the max pool).
  OpId add = g.findOp("layer1/0/add__9");
  ASSERT_NE(add, gp::kNone);
  std::vector<std::string> producers;
  for (OpId p : g.fanIn(add)) producers.push_back(g.opName(p));
  EXPECT_EQ(producers.size(), 2u);
  EXPECT_NE(std::find(producers.begin(), producers.end(), "maxpool/max_pool2d_3"), producers.end());
  EXPECT_NE(std::find(producers.begin(), producers.end(), "layer1/0/bn2/batch_norm_8"), producers.end());

  // Scopes from the module hierarchy: layer1 > 0 > conv1; the deepest is layer2/0/downsample/0.
  EXPECT_EQ(g.scopeName(g.opScope(g.findOp("layer1/0/conv1/_convolution_4"))), "layer1/0/conv1");
  EXPECT_NE(g.findOp("layer2/0/downsample/0/_convolution_23"), gp::kNone);
  EXPECT_EQ(g.maxScopeDepth(), 4);
}

TEST(TorchScriptImport, MobileNetV2NamesAndFlops) {
  Graph g = importFixture("torchscript/mobilenet_v2.pt", {1, 3, 224, 224});
  // MobileNetV2 1.0 at 224x224: about 300 M multiply-adds.
  EXPECT_NEAR(g.totalFlops() / 2, 3.0e8, 0.1 * 3.0e8);
  // Depthwise convolution of the first inverted residual: 32 channels, groups = 32.
  OpId dw = g.findOp("features/1/conv/0/0/_convolution_3");
  ASSERT_NE(dw, gp::kNone);
  EXPECT_DOUBLE_EQ(g.flops(dw), 2.0 * 32 * 112 * 112 * 3 * 3);
}

TEST(TorchScriptImport, ShapesFollowTheGivenInputShape) {
  Graph g = importFixture("torchscript/resnet18.pt", {2, 3, 64, 64});
  EXPECT_EQ(outShape(g, "conv1/_convolution_0"), (std::vector<int64_t>{2, 64, 32, 32}));
  EXPECT_EQ(outShape(g, "fc/linear_68"), (std::vector<int64_t>{2, 1000}));
  Graph big = importFixture("torchscript/resnet18.pt", {1, 3, 224, 224});
  // Convolution FLOPs scale with batch x pixels: 2 x (64/224)^2 of the 224 figure.
  const double ratio =
      g.flops(g.findOp("conv1/_convolution_0")) / big.flops(big.findOp("conv1/_convolution_0"));
  EXPECT_NEAR(ratio, 2.0 * (32.0 * 32) / (112.0 * 112), 1e-12);
}

TEST(TorchScriptImport, LstmFlopsFromShapes) {
  // Two-layer LSTM (32 -> 64), batch_first input (batch 2, 10 steps, 32 features).
  Graph g = importFixture("torchscript/lstm.pt", {2, 10, 32});
  OpId lstm = gp::kNone;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.opType(op) == "aten::lstm") lstm = op;
  ASSERT_NE(lstm, gp::kNone);
  const double expected = 10 * (gp::flops::rnnStep(2, 32, 64, 4) + gp::flops::rnnStep(2, 64, 64, 4));
  EXPECT_DOUBLE_EQ(g.flops(lstm), expected);
  EXPECT_EQ(shapeOf(g, g.outputs(lstm)[0]), (std::vector<int64_t>{2, 10, 64}));
  EXPECT_EQ(g.scopeName(g.opScope(lstm)), "lstm");
  // All eight LSTM weights and biases are parameters read by the lstm op.
  int params = 0;
  for (TensorId t : g.inputs(lstm)) params += g.tensorKind(t) == gp::TensorKind::Parameter;
  EXPECT_EQ(params, 8);
}

TEST(TorchScriptImport, ImportIsDeterministic) {
  Graph a = importFixture("torchscript/mobilenet_v2.pt", {1, 3, 224, 224});
  Graph b = importFixture("torchscript/mobilenet_v2.pt", {1, 3, 224, 224});
  ASSERT_EQ(a.numOps(), b.numOps());
  for (OpId op = 0; op < a.numOps(); ++op) EXPECT_EQ(a.opName(op), b.opName(op));
  EXPECT_EQ(a.numEdges(), b.numEdges());
  EXPECT_DOUBLE_EQ(a.totalFlops(), b.totalFlops());
}

TEST(TorchScriptImport, MissingInputShapeIsAClearError) {
  const std::string path = gptest::dataPath("torchscript/resnet18.pt");
  EXPECT_EQ(errorOf(path), path + ": input shape unknown; pass --input-shape, e.g. 1x3x224x224");
}

TEST(TorchScriptImport, WrongInputShapeIsAClearError) {
  const std::string path = gptest::dataPath("torchscript/resnet18.pt");
  gp::ImportOptions o;
  o.inputShape = {1, 1, 224, 224};
  const std::string e = errorOf(path, o);
  EXPECT_EQ(e.rfind(path + ": running forward on a 1x1x224x224 input failed: ", 0), 0u) << e;
  EXPECT_NE(e.find("channels"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

TEST(TorchScriptImport, MalformedFilesGiveOneLineErrors) {
  struct Case {
    std::string file, problem;
  };
  const std::vector<Case> cases = {
      {"malformed/not_torchscript.pt", "not a readable TorchScript archive"},
      {"malformed/truncated.pt", "not a readable TorchScript archive"},
      {"malformed/empty.pt", "not a readable TorchScript archive"},
      {"malformed/bad_code.pt", "not a readable TorchScript archive (expected ident"},
      {"malformed/no_forward.pt", "the module has no forward method"},
      // 2^40 nodes once inlined (tests/data/make_fixtures.py): refused before LibTorch inlines it
      {"malformed/call_tree.pt", "forward would have more than 2000000 nodes once its calls are inlined, over the limit"},
      {"malformed/does_not_exist.pt", "no such file"},
  };
  for (const Case& c : cases) {
    const std::string path = gptest::dataPath(c.file);
    gp::ImportOptions o;
    o.inputShape = {1, 3};
    const std::string e = errorOf(path, o);
    EXPECT_EQ(e.rfind(path + ": " + c.problem, 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_LT(e.size(), path.size() + 200) << e;
  }
}

TEST(TorchScriptImport, AZipBombIsRefusedBeforeLibTorchReadsIt) {
  const std::string path = (std::filesystem::temp_directory_path() / ("gp_bomb_" + std::to_string(getpid()) + ".pt")).string();
  ASSERT_TRUE(gptest::writeZipBomb(path));
  gp::ImportOptions o;
  o.inputShape = {1, 3};
  const std::string e = errorOf(path, o);
  std::filesystem::remove(path);
  EXPECT_EQ(e.rfind(path + ": record bomb/data/0 expands ", 0), 0u) << e;
  EXPECT_NE(e.find("(a zip bomb?)"), std::string::npos) << e;
}

TEST(TorchScriptImport, PrintsNothing) {
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  Graph g = importFixture("torchscript/mlp.pt", {4, 64});
  errorOf(gptest::dataPath("malformed/truncated.pt"));
  errorOf(gptest::dataPath("torchscript/mlp.pt"));  // no input shape
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(g.numOps(), 6);
  EXPECT_EQ(err, "");
  EXPECT_EQ(out, "");
}

// ---- FLOP formulas from run-time argument values (torch-free part of the importer)

gp::ts::ArgValue tensor(std::vector<int64_t> shape) {
  return {.kind = gp::ts::ArgValue::Kind::Tensor, .shapes = {std::move(shape)}, .dtypes = {gp::DType::F32}};
}
gp::ts::ArgValue integer(int64_t v) {
  return {.kind = gp::ts::ArgValue::Kind::Int, .ints = {v}};
}
gp::ts::ArgValue ints(std::vector<int64_t> v) {
  return {.kind = gp::ts::ArgValue::Kind::IntList, .ints = std::move(v)};
}
gp::ts::ArgValue none() {
  return {};
}

TEST(TorchScriptFlops, FormulasFromShapes) {
  using gp::ts::atenFlops;
  using V = std::vector<gp::ts::ArgValue>;
  // conv2d 3->64, 7x7, with bias: 2 * out * 3 * 49 + out.
  const double out = 1.0 * 64 * 112 * 112;
  EXPECT_DOUBLE_EQ(atenFlops("conv2d", V{tensor({1, 3, 224, 224}), tensor({64, 3, 7, 7}), tensor({64})},
                             V{tensor({1, 64, 112, 112})}),
                   2 * out * 3 * 49 + out);
  // _convolution with transposed = true: weight (Cin, Cout/g, k, k), no bias.
  V tconv{tensor({1, 8, 4, 4}),
          tensor({8, 4, 2, 2}),
          none(),
          ints({2, 2}),
          ints({0, 0}),
          ints({1, 1}),
          {.kind = gp::ts::ArgValue::Kind::Bool, .ints = {1}}};
  EXPECT_DOUBLE_EQ(atenFlops("_convolution", tconv, V{tensor({1, 4, 8, 8})}), 2.0 * 128 * 4 * 4);
  EXPECT_DOUBLE_EQ(
      atenFlops("linear", V{tensor({8, 64}), tensor({10, 64}), tensor({10})}, V{tensor({8, 10})}),
      2.0 * 8 * 10 * 64 + 80);
  EXPECT_DOUBLE_EQ(atenFlops("matmul", V{tensor({4, 1, 5, 6}), tensor({3, 6, 7})}, V{tensor({4, 3, 5, 7})}),
                   2.0 * 12 * 5 * 6 * 7);
  EXPECT_DOUBLE_EQ(atenFlops("addmm", V{tensor({7}), tensor({5, 6}), tensor({6, 7})}, V{tensor({5, 7})}),
                   2.0 * 5 * 6 * 7 + 35);
  EXPECT_DOUBLE_EQ(
      atenFlops("max_pool2d", V{tensor({1, 64, 112, 112}), ints({3, 3})}, V{tensor({1, 64, 56, 56})}),
      64.0 * 56 * 56 * 9);
  EXPECT_DOUBLE_EQ(atenFlops("softmax", V{tensor({2, 10}), integer(-1)}, V{tensor({2, 10})}), 100);
  // In-place variants cost what the op costs; an int compare costs nothing.
  EXPECT_DOUBLE_EQ(atenFlops("relu_", V{tensor({2, 3})}, V{tensor({2, 3})}), 6);
  EXPECT_DOUBLE_EQ(
      atenFlops("gt", V{integer(3), integer(2)}, V{{.kind = gp::ts::ArgValue::Kind::Bool, .ints = {1}}}), 0);
  EXPECT_DOUBLE_EQ(atenFlops("view", V{tensor({2, 3}), ints({6})}, V{tensor({6})}), 0);
  EXPECT_DOUBLE_EQ(atenFlops("lstm_cell", V{tensor({4, 16}), none(), tensor({128, 16}), tensor({128, 32})},
                             V{tensor({4, 32}), tensor({4, 32})}),
                   gp::flops::rnnStep(4, 16, 32, 4));
}

TEST(TorchScriptFlops, ResultTensors) {
  gp::TensorDesc t = gp::ts::resultTensor(tensor({2, 3}));
  EXPECT_TRUE(t.shapeKnown);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
  gp::TensorDesc list = gp::ts::resultTensor({.kind = gp::ts::ArgValue::Kind::TensorList,
                                              .shapes = {{2, 3}, {4}},
                                              .dtypes = {gp::DType::F32, gp::DType::I64}});
  EXPECT_FALSE(list.shapeKnown);
  EXPECT_EQ(list.bytes, 6 * 4 + 4 * 8);
  gp::TensorDesc sizes = gp::ts::resultTensor(ints({1, 3, 224, 224}));
  EXPECT_EQ(sizes.shape, (std::vector<int64_t>{4}));
  EXPECT_EQ(sizes.dtype, gp::DType::I64);
  EXPECT_FALSE(gp::ts::resultTensor(none()).shapeKnown);
}

}  // namespace

// The zoo's workloads: well-formed graphs, TensorFlow-like granularity and the published
// figures (multiply-adds, parameter counts) each checked within a stated tolerance.
#include "zoo/zoo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "base/error.h"
#include "graph/training.h"
#include "zoo_checks.h"

using namespace gp;

namespace {

int64_t paramCount(const Graph& g) {
  int64_t n = 0;
  for (TensorId t = 0; t < g.numTensors(); ++t) {
    if (g.tensorKind(t) != TensorKind::Parameter) continue;
    int64_t e = 1;
    for (int64_t d : g.shape(t)) e *= d;
    n += e;
  }
  return n;
}

// Multiply-adds of the convolutions and matrix products (FLOPs count a multiply-add as 2).
double multiplyAdds(const Graph& g) {
  double f = 0;
  for (OpId op = 0; op < g.numOps(); ++op) {
    auto t = g.opType(op);
    if (t == "Conv2D" || t == "DepthwiseConv2dNative" || t == "MatMul" || t == "BatchMatMulV2") f += g.flops(op);
  }
  return f / 2;
}

int countType(const Graph& g, std::string_view type) {
  int n = 0;
  for (OpId op = 0; op < g.numOps(); ++op) n += g.opType(op) == type;
  return n;
}

// Ops directly in scope `scope`, as a type histogram.
std::map<std::string, int> typesInScope(const Graph& g, const std::string& scope) {
  std::map<std::string, int> h;
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.scopeName(g.opScope(op)) == scope) ++h[std::string(g.opType(op))];
  return h;
}

void expectNear(double value, double expected, double relTol, const char* what) {
  EXPECT_LE(std::abs(value - expected), relTol * expected)
      << what << ": " << value << " is not within " << relTol * 100 << "% of " << expected;
}

std::string errorOf(const std::string& name, ZooParams p) {
  try {
    makeZooModel(name, p);
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), "zoo:" + name);
    return e.problem();
  }
  return "";
}

const char* const kNames[] = {"rnnlm",   "nmt",      "gnmt",      "inception_v3", "amoebanet",   "transformer_xl",
                              "wavenet", "resnet50", "bert_base", "random_dag",   "gpt_1_3b",    "gpt_6_7b",
                              "gpt_13b", "gpt_30b",  "gpt_175b",  "t5_base",      "moe_1_3b_64e", "llama3_8b",
                              "llama3_70b", "llama3_405b", "mixtral_8x7b"};

}  // namespace

TEST(ZooTest, ListsThePapersWorkloadsRandomDagAndTheLlms) {
  const auto& models = zooModels();
  ASSERT_EQ(models.size(), std::size(kNames));
  for (size_t i = 0; i < models.size(); ++i) {
    EXPECT_EQ(models[i].name, kNames[i]);
    EXPECT_FALSE(models[i].description.empty());
    EXPECT_GT(models[i].defaultBatch, 0);
    const bool noSequence = models[i].name == "resnet50" || models[i].name == "inception_v3" ||
                            models[i].name == "amoebanet" || models[i].name == "random_dag";
    EXPECT_EQ(models[i].defaultSeqLen == 0, noSequence) << models[i].name;
    EXPECT_EQ(models[i].synthetic, models[i].name == "random_dag") << models[i].name;
    EXPECT_EQ(models[i].llm, i >= 10) << models[i].name;  // the LLMs: llm_zoo_test.cpp
    EXPECT_EQ(models[i].defaultLayers == 0, models[i].name == "inception_v3") << models[i].name;
    EXPECT_EQ(models[i].parameters.rfind("batch", 0), 0u) << models[i].name;
  }
}

// Small sizes keep this fast; the structure does not depend on them.
class ZooModelTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ZooModelTest, BuildsAWellFormedScopedGraph) {
  const std::string name = GetParam();
  Graph g = makeZooModel(name, {.batch = 2, .seqLen = 8});
  EXPECT_GT(g.numOps(), 100);
  gptest::expectWellFormedZooGraph(g, name);
}

TEST_P(ZooModelTest, DefaultsAreTheListedOnesAndTrainingDerives) {
  const std::string name = GetParam();
  const ZooEntry* entry = nullptr;
  for (const auto& e : zooModels())
    if (e.name == name) entry = &e;
  ASSERT_NE(entry, nullptr);
  Graph a = makeZooModel(name);
  Graph b = makeZooModel(name, {.batch = entry->defaultBatch, .seqLen = entry->defaultSeqLen});
  EXPECT_EQ(a.numOps(), b.numOps());
  EXPECT_DOUBLE_EQ(a.totalFlops(), b.totalFlops());
  for (OpId op = 0; op < a.numOps(); op += 97) EXPECT_EQ(a.opName(op), b.opName(op));  // deterministic
  if (name == "gnmt") return;  // its training step: GnmtTrainingStepHasThePapersSize
  Graph t = deriveTrainingGraph(a);
  EXPECT_GT(t.numOps(), 2 * a.numOps());
  expectNear(t.totalFlops() / a.totalFlops(), 3.0, 0.05, "training / forward FLOPs");
}

INSTANTIATE_TEST_SUITE_P(Zoo, ZooModelTest, ::testing::ValuesIn(kNames),
                         [](const ::testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

TEST(ZooTest, ResNet50MatchesPublishedFigures) {
  Graph g = makeZooModel("resnet50", {.batch = 1});
  expectNear(multiplyAdds(g), 4.1e9, 0.05, "ResNet-50 multiply-adds");  // He et al. / torchvision: 4.09 G
  expectNear(g.totalFlops(), 8.2e9, 0.05, "ResNet-50 FLOPs");
  expectNear(static_cast<double>(paramCount(g)), 25.6e6, 0.01, "ResNet-50 parameters");  // 25,557,032
  EXPECT_EQ(countType(g, "Conv2D"), 53);
  EXPECT_EQ(countType(g, "FusedBatchNorm"), 53);
  EXPECT_NE(g.findOp("resnet50/stage2/block1/conv1/Conv2D"), kNone);
  EXPECT_EQ(g.totalParamBytes(), 4 * paramCount(g));
}

TEST(ZooTest, InceptionV3MatchesPublishedFigures) {
  Graph g = makeZooModel("inception_v3", {.batch = 1});
  expectNear(multiplyAdds(g), 5.7e9, 0.05, "Inception-V3 multiply-adds");
  const auto params = static_cast<double>(paramCount(g));
  EXPECT_GE(params, 23.8e6);
  EXPECT_LE(params, 27e6);
  EXPECT_EQ(countType(g, "Conv2D"), 94);
  OpId concat = g.findOp("inception_v3/Mixed_7c/ConcatV2_2");  // branch concat of the last block
  ASSERT_NE(concat, kNone);
  auto s = g.shape(g.outputs(concat)[0]);
  EXPECT_EQ(std::vector<int64_t>(s.begin(), s.end()), (std::vector<int64_t>{1, 8, 8, 2048}));
}

TEST(ZooTest, AmoebaNetMatchesPublishedFigures) {
  // Real et al. 2019, Table 2: AmoebaNet-A (N=6, F=190) 86.7 M parameters, 23.1 G multiply-adds.
  Graph g = makeZooModel("amoebanet", {.batch = 1});
  expectNear(static_cast<double>(paramCount(g)), 86.7e6, 0.03, "AmoebaNet-A parameters");
  expectNear(multiplyAdds(g), 23.1e9, 0.05, "AmoebaNet-A multiply-adds");
  // 2 stem + 2 reduction + 18 normal cells, each of 5 pairwise combinations
  int cells = 0;
  for (ScopeId s = 0; s < g.numScopes(); ++s)
    if (g.scopeDepth(s) == 2 && g.scopeName(s).find("cell_") != std::string::npos) ++cells;
  EXPECT_EQ(cells, 22);
  EXPECT_GT(countType(g, "DepthwiseConv2dNative"), 100);
}

TEST(ZooTest, BertBaseHas110MParameters) {
  Graph g = makeZooModel("bert_base", {.batch = 1, .seqLen = 128});
  expectNear(static_cast<double>(paramCount(g)), 110e6, 0.03, "BERT-base parameters");
  EXPECT_EQ(countType(g, "Softmax"), 12);
  EXPECT_EQ(countType(g, "LayerNorm"), 2 * 12 + 2);
  // the encoder is about 2 * 85 M multiply-adds per token
  OpId ffn = g.findOp("bert_base/encoder/layer_11/intermediate/MatMul");
  ASSERT_NE(ffn, kNone);
  EXPECT_DOUBLE_EQ(g.flops(ffn), 2.0 * 128 * 768 * 3072);
}

TEST(ZooTest, TransformerXlIsTheEnwik8BaseModel) {
  // Dai et al. 2019: 12-layer Transformer-XL on enwik8, 41 M parameters.
  Graph g = makeZooModel("transformer_xl", {.batch = 1, .seqLen = 512});
  expectNear(static_cast<double>(paramCount(g)), 41e6, 0.03, "Transformer-XL parameters");
  const int64_t perLayer =
      512 * 3 * 512 + 512 * 512 + 512 * 512 + 2 * 2 * 512 + (512 * 2048 + 2048) + (2048 * 512 + 512);
  EXPECT_EQ(paramCount(g), 12 * perLayer + 2 * 512 + 204 * 512 + 204);
  // attention spans memory + segment: scores are [qlen, qlen + mem_len, batch, heads]
  OpId sm = g.findOp("transformer_xl/layer_5/rel_attn/Softmax");
  ASSERT_NE(sm, kNone);
  auto s = g.shape(g.outputs(sm)[0]);
  EXPECT_EQ(std::vector<int64_t>(s.begin(), s.end()), (std::vector<int64_t>{512, 1024, 1, 8}));
}

TEST(ZooTest, RecurrentModelsHaveTheirParameterCounts) {
  constexpr int64_t H = 1024, V = 32000;
  auto lstm = [](int64_t in, int64_t h) { return (in + h) * 4 * h + 4 * h; };
  // GNMT: embeddings and projection, bidirectional bottom encoder layer, 1 + 6 uni layers,
  // 8 decoder layers reading [input, attention], normed Bahdanau attention.
  const int64_t gnmt =
      3 * V * H + 2 * lstm(H, H) + lstm(2 * H, H) + 6 * lstm(H, H) + 8 * lstm(2 * H, H) + 2 * H * H + 2 * H + 1;
  EXPECT_EQ(paramCount(makeZooModel("gnmt", {.batch = 1, .seqLen = 4})), gnmt);  // 280.8 M
  const int64_t nmt = 3 * V * H + 2 * lstm(H, H) + lstm(2 * H, H) + lstm(H, H) + 2 * H * H + H + 2 * H * H;
  EXPECT_EQ(paramCount(makeZooModel("nmt", {.batch = 1, .seqLen = 4})), nmt);
  // Zaremba et al. 2014: the large PTB model has 66 M parameters.
  expectNear(static_cast<double>(paramCount(makeZooModel("rnnlm", {.batch = 1, .seqLen = 4}))), 66e6, 0.01,
             "RNNLM parameters");
}

TEST(ZooTest, LstmCellsHaveTensorFlowGranularity) {
  Graph g = makeZooModel("gnmt", {.batch = 8, .seqLen = 20});
  const std::map<std::string, int> cell = {{"ConcatV2", 1}, {"MatMul", 1},  {"BiasAdd", 1}, {"Split", 1},
                                           {"Add", 2},      {"Sigmoid", 3}, {"Tanh", 2},    {"Mul", 3}};
  EXPECT_EQ(typesInScope(g, "gnmt/encoder/layer_3/step_17/lstm"), cell);
  EXPECT_EQ(typesInScope(g, "gnmt/decoder/layer_8/step_0/lstm"), cell);
  OpId mm = g.findOp("gnmt/encoder/layer_3/step_17/lstm/MatMul");
  ASSERT_NE(mm, kNone);
  EXPECT_DOUBLE_EQ(g.flops(mm), 2.0 * 8 * 2048 * 4096);
  // residual connections from layer 3 on
  EXPECT_EQ(typesInScope(g, "gnmt/encoder/layer_2/step_5").count("Add"), 0u);
  EXPECT_EQ(typesInScope(g, "gnmt/encoder/layer_3/step_5").at("Add"), 1);
  // attention per decoder step over all source positions
  auto att = typesInScope(g, "gnmt/decoder/attention/step_4");
  EXPECT_EQ(att.at("Softmax"), 1);
  EXPECT_EQ(att.at("BatchMatMulV2"), 1);
  // bidirectional bottom layer: forward and backward chains
  EXPECT_NE(g.findOp("gnmt/encoder/layer_1/fw/step_19/lstm/MatMul"), kNone);
  EXPECT_NE(g.findOp("gnmt/encoder/layer_1/bw/step_0/lstm/MatMul"), kNone);
  // 8 + 8 layers (encoder layer 1 has two directions) x 20 steps of 14 ops
  EXPECT_EQ(countType(g, "Split"), 17 * 20);
}

TEST(ZooTest, WaveNetHasTwoStacksOfDilatedCausalConvolutions) {
  Graph g = makeZooModel("wavenet", {.batch = 1, .seqLen = 16000});
  // receptive field = (filter width - 1) * sum of dilations + 1, plus the causal input layer
  int64_t dilationSum = 0;
  int dilatedConvs = 0;
  for (OpId op = 0; op < g.numOps(); ++op) {
    const std::string& n = g.opName(op);
    auto pos = n.find("/dilation_");
    if (pos == std::string::npos || g.opType(op) != "Conv2D" || n.find("/filter/") == std::string::npos) continue;
    ++dilatedConvs;
    dilationSum += std::stoll(n.substr(pos + 10));
  }
  EXPECT_EQ(dilatedConvs, 20);
  EXPECT_EQ((2 - 1) * dilationSum + 1 + (2 - 1), 2048);
  EXPECT_EQ(countType(g, "Conv2D"), 1 + 20 * 4 - 1 + 2);  // input, filter/gate/skip/dense, output
  EXPECT_EQ(g.numOps(), 164);
  EXPECT_EQ(paramCount(g), 2 * 256 * 32 + 20 * (2 * 2 * 32 * 32 + 32 * 512) + 19 * 32 * 32 + 512 * 512 + 512 * 256);
}

TEST(ZooTest, BatchAndSequenceLengthScaleTheWork) {
  Graph r1 = makeZooModel("resnet50", {.batch = 1});
  Graph r2 = makeZooModel("resnet50", {.batch = 2});
  expectNear(r2.totalFlops() / r1.totalFlops(), 2.0, 0.01, "ResNet-50 batch 2 / batch 1");
  EXPECT_EQ(r1.numOps(), r2.numOps());
  // CNNs ignore the sequence length
  EXPECT_DOUBLE_EQ(makeZooModel("resnet50", {.batch = 1, .seqLen = 77}).totalFlops(), r1.totalFlops());

  Graph g10 = makeZooModel("gnmt", {.batch = 4, .seqLen = 10});
  Graph g20 = makeZooModel("gnmt", {.batch = 4, .seqLen = 20});
  expectNear(static_cast<double>(g20.numOps()) / g10.numOps(), 2.0, 0.02, "GNMT ops, 20 / 10 steps");
  EXPECT_GT(g20.totalFlops() / g10.totalFlops(), 2.0);  // attention grows with the source length too

  Graph b1 = makeZooModel("bert_base", {.batch = 1, .seqLen = 128});
  Graph b4 = makeZooModel("bert_base", {.batch = 4, .seqLen = 128});
  expectNear(b4.totalFlops() / b1.totalFlops(), 4.0, 0.01, "BERT batch 4 / batch 1");
  Graph w1 = makeZooModel("wavenet", {.batch = 1, .seqLen = 1000});
  Graph w2 = makeZooModel("wavenet", {.batch = 1, .seqLen = 2000});
  expectNear(w2.totalFlops() / w1.totalFlops(), 2.0, 0.01, "WaveNet 2000 / 1000 samples");
}

TEST(ZooTest, BadParametersAndUnknownNamesThrow) {
  EXPECT_NE(errorOf("resnet50", {.batch = -1}).find("batch"), std::string::npos);
  EXPECT_NE(errorOf("gnmt", {.batch = 1, .seqLen = -5}).find("sequence length"), std::string::npos);
  EXPECT_NE(errorOf("bert_base", {.batch = 1, .seqLen = 513}).find("at most 512"), std::string::npos);
  EXPECT_NE(errorOf("gnmt", {.batch = 1 << 20}).find("batch"), std::string::npos);
  EXPECT_NE(errorOf("gnmt", {.batch = 1, .seqLen = 100000}).find("sequence length"), std::string::npos);
  EXPECT_NE(errorOf("resnet50", {.seqLen = -1}).find("sequence length"), std::string::npos);
  EXPECT_NE(errorOf("no_such_model", {}).find("unknown zoo model"), std::string::npos);
  EXPECT_NE(errorOf("GNMT", {}).find("unknown zoo model"), std::string::npos);  // names are lower case
}

TEST(ZooTest, GnmtTrainingStepHasThePapersSize) {
  // HDP / GDP place GNMT-8 training graphs of tens of thousands of ops: at its default
  // sequence lengths the forward graph is ~23k ops and the training step 50k-80k.
  Graph f = makeZooModel("gnmt");
  EXPECT_GE(f.numOps(), 20000);
  EXPECT_LE(f.numOps(), 25000);
  Graph t = deriveTrainingGraph(f);
  EXPECT_GE(t.numOps(), 50000);
  EXPECT_LE(t.numOps(), 80000);
}

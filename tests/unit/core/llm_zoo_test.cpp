// The LLM-scale zoo models (core/zoo/llm_models.cpp): parameter counts against the models'
// names and published figures, forward FLOPs per token against the usual formula, one scope per
// transformer layer with nothing else in them, the mixture of experts' scope conventions, and
// graphs small enough in ops to build fast at 175 B parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "base/error.h"
#include "parallel/layer_stack.h"
#include "zoo/zoo.h"
#include "graph_shapes.h"

using namespace gp;
using gptest::outputShape;
using gptest::tensorShape;

namespace {

double params(const Graph& g) {
  return static_cast<double>(g.totalParamBytes()) / 4;  // f32
}

// The layer indices N of the scopes "<model>/<prefix>_N" the ops lie in; every op outside them
// must lie in one of the scopes `outside` (below the model's).
std::set<int> layerScopes(const Graph& g, const std::string& prefix, const std::set<std::string>& outside) {
  std::set<int> layers;
  const std::string layerStart = g.name() + "/" + prefix + "_";
  for (OpId op = 0; op < g.numOps(); ++op) {
    const std::string& n = g.opName(op);
    if (n.rfind(layerStart, 0) == 0) {
      const size_t end = n.find('/', layerStart.size());
      EXPECT_NE(end, std::string::npos) << n;
      layers.insert(std::stoi(n.substr(layerStart.size(), end - layerStart.size())));
      continue;
    }
    const std::string rest = n.substr(g.name().size() + 1);
    bool known = false;
    for (const std::string& s : outside) known |= rest.rfind(s + "/", 0) == 0;
    EXPECT_TRUE(known) << n;
  }
  return layers;
}

std::set<int> range(int n) {
  std::set<int> s;
  for (int i = 0; i < n; ++i) s.insert(i);
  return s;
}

std::string errorOf(const std::string& name, ZooParams p) {
  try {
    makeZooModel(name, p);
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return e.problem();
  }
  return "";
}

struct GptSize {
  const char* name;
  double nominal;  // the parameters the name says
  int layers, hidden;
};
const GptSize kGpts[] = {{"gpt_1_3b", 1.3e9, 24, 2048},
                         {"gpt_6_7b", 6.7e9, 32, 4096},
                         {"gpt_13b", 13e9, 40, 5120},
                         {"gpt_30b", 30e9, 48, 7168},
                         {"gpt_175b", 175e9, 96, 12288}};
constexpr int64_t kVocab = 50304, kPositions = 2048, kSeq = 2048;

// Per layer: QKV 3h^2 + 3h, output projection h^2 + h, MLP 8h^2 + 5h, two LayerNorms 4h.
int64_t gptLayerParams(int64_t h) {
  return 12 * h * h + 13 * h;
}

}  // namespace

TEST(LlmZoo, GptParametersMatchTheirNames) {
  for (const GptSize& m : kGpts) {
    SCOPED_TRACE(m.name);
    const Graph g = makeZooModel(m.name, {.batch = 1});
    const int64_t h = m.hidden;
    EXPECT_EQ(g.totalParamBytes() / 4, m.layers * gptLayerParams(h) + kVocab * h + kPositions * h + 2 * h);
    EXPECT_LE(std::abs(params(g) - m.nominal), 0.02 * m.nominal) << params(g);
  }
}

TEST(LlmZoo, GptForwardFlopsPerTokenAreTwiceTheParametersPlusAttention) {
  // 2 FLOPs per parameter and token (the position table aside), plus the attention's two
  // [s, s] products, 2 * s * h FLOPs per token and layer each. The dense BatchMatMulV2 computes
  // the whole score matrix; Kaplan et al.'s 2 * layers * s * h counts its causal half only
  // (7 % lower at 1.3 B, 1.4 % at 175 B).
  for (const GptSize& m : kGpts) {
    SCOPED_TRACE(m.name);
    const Graph g = makeZooModel(m.name, {.batch = 1});
    const double perToken = g.totalFlops() / kSeq;
    const double expected = 2 * params(g) + 4.0 * m.layers * kSeq * m.hidden;
    EXPECT_LE(std::abs(perToken - expected), 0.05 * expected) << perToken << " vs " << expected;
    // the batch scales the work, not the graph
    const Graph g2 = makeZooModel(m.name, {.batch = 2});
    EXPECT_EQ(g2.numOps(), g.numOps());
    EXPECT_DOUBLE_EQ(g2.totalFlops(), 2 * g.totalFlops());
  }
}

TEST(LlmZoo, Gpt175bStaysSmallInOps) {
  const Graph g = makeZooModel("gpt_175b");
  EXPECT_LT(g.numOps(), 10000);
  EXPECT_EQ(outputShape(g, "gpt_175b/layers/layer_95/self_attention/Softmax"),
            (std::vector<int64_t>{1536, 96, 2048, 2048}));
  EXPECT_EQ(outputShape(g, "gpt_175b/lm_head/MatMul"), (std::vector<int64_t>{1536 * 2048, kVocab}));
}

TEST(LlmZoo, EveryLayerIsOneScope) {
  const Graph gpt = makeZooModel("gpt_1_3b", {.batch = 1, .seqLen = 16});
  EXPECT_EQ(layerScopes(gpt, "layers/layer", {"embedding", "final_layernorm", "lm_head"}), range(24));
  EXPECT_NE(gpt.findOp("gpt_1_3b/layers/layer_0/input_layernorm/LayerNorm"), kNone);
  EXPECT_NE(gpt.findOp("gpt_1_3b/layers/layer_23/mlp/dense_4h_to_h/MatMul"), kNone);
  const Graph moe = makeZooModel("moe_1_3b_64e", {.batch = 1, .seqLen = 64});
  EXPECT_EQ(layerScopes(moe, "layers/layer", {"embedding", "final_layernorm", "lm_head"}), range(24));
  const std::set<std::string> t5Outside = {"encoder/embed_tokens",     "encoder/attention_mask",
                                           "encoder/final_layer_norm", "decoder/embed_tokens",
                                           "decoder/final_layer_norm", "lm_head"};
  const Graph t5 = makeZooModel("t5_base", {.batch = 1, .seqLen = 16});
  std::set<std::string> notEncoder = t5Outside, notDecoder = t5Outside;
  for (int l = 0; l < 12; ++l) {
    notEncoder.insert("decoder/block_" + std::to_string(l));
    notDecoder.insert("encoder/block_" + std::to_string(l));
  }
  EXPECT_EQ(layerScopes(t5, "encoder/block", notEncoder), range(12));
  EXPECT_EQ(layerScopes(t5, "decoder/block", notDecoder), range(12));
  // In the stack, in dependency order: the decoder's blocks after the last encoder block, whose
  // output their cross-attention reads (the decoder's first ops run earlier).
  const LayerStack t5Stack = detectLayerStack(t5, "zoo:t5_base");
  ASSERT_EQ(t5Stack.numLayers(), 24);
  for (int l = 0; l < 12; ++l) {
    EXPECT_EQ(t5Stack.layers[static_cast<size_t>(l)].name, "t5_base/encoder/block_" + std::to_string(l));
    EXPECT_EQ(t5Stack.layers[static_cast<size_t>(12 + l)].name, "t5_base/decoder/block_" + std::to_string(l));
  }
  const Graph small = makeZooModel("gpt_6_7b", {.batch = 1, .seqLen = 16, .layers = 3, .hidden = 256});
  EXPECT_EQ(layerScopes(small, "layers/layer", {"embedding", "final_layernorm", "lm_head"}), range(3));
  EXPECT_EQ(outputShape(small, "gpt_6_7b/layers/layer_2/self_attention/Softmax"),
            (std::vector<int64_t>{1, 2, 16, 16}));  // heads of 128
}

TEST(LlmZoo, T5BaseHasItsPublishedSize) {
  // Raffel et al. 2020: T5-base ~220 M parameters; Hugging Face's t5-base has 222,903,552:
  // shared embedding, 12 encoder blocks (attention 4 d^2, FFN 2 d d_ff, 2 RMS norms), 12 decoder
  // blocks (+ cross-attention, 3 norms), a 32 x 12 relative bias table per stack, final norms.
  const int64_t d = 768, ff = 3072;
  const Graph g = makeZooModel("t5_base", {.batch = 1});
  const int64_t encoder = 12 * (4 * d * d + 2 * d * ff + 2 * d), decoder = 12 * (8 * d * d + 2 * d * ff + 3 * d);
  EXPECT_EQ(g.totalParamBytes() / 4, 32128 * d + encoder + decoder + 2 * 32 * 12 + 2 * d);
  EXPECT_EQ(g.totalParamBytes() / 4, 222903552);
  EXPECT_LE(std::abs(params(g) - 220e6), 0.02 * 220e6);
  // encoder 512, decoder 128 positions; cross-attention from the decoder over the encoder
  EXPECT_EQ(outputShape(g, "t5_base/encoder/block_11/layer_0/SelfAttention/Softmax"),
            (std::vector<int64_t>{1, 12, 512, 512}));
  EXPECT_EQ(outputShape(g, "t5_base/decoder/block_11/layer_1/EncDecAttention/Softmax"),
            (std::vector<int64_t>{1, 12, 128, 512}));
  EXPECT_EQ(outputShape(g, "t5_base/lm_head/MatMul"), (std::vector<int64_t>{128, 32128}));
  const OpId wi = g.findOp("t5_base/encoder/block_3/layer_1/DenseReluDense/MatMul");
  ASSERT_NE(wi, kNone);
  EXPECT_DOUBLE_EQ(g.flops(wi), 2.0 * 512 * d * ff);
  EXPECT_NE(g.findOp("t5_base/encoder/block_3/layer_1/DenseReluDense/Relu"), kNone);
  // the relative position bias: block 0 of each stack only
  EXPECT_EQ(tensorShape(g, "t5_base/encoder/block_0/layer_0/SelfAttention/relative_attention_bias"),
            (std::vector<int64_t>{32, 12}));
  EXPECT_EQ(g.findTensor("t5_base/encoder/block_1/layer_0/SelfAttention/relative_attention_bias"), kNone);
}

TEST(LlmZoo, MoeFollowsTheParallelPlannersConventions) {
  // By hand: gpt_1_3b has 1,315,819,520 parameters; 12 of its 24 MLPs (8h^2 + 5h = 33,564,672
  // each) become 64 experts each plus a 2048 x 64 router:
  // 1,315,819,520 + 12 * (63 * 33,564,672 + 131,072) = 26,692,284,416, about 26.7 B.
  // (DeepSpeed-MoE's 1.3B+MoE-128, the same with 128 experts, is the paper's 52 B.)
  const int64_t h = 2048, mlp = 8 * h * h + 5 * h;
  const Graph g = makeZooModel("moe_1_3b_64e", {.batch = 1});
  EXPECT_EQ(g.totalParamBytes() / 4, 1315819520 + 12 * (63 * mlp + h * 64));
  EXPECT_EQ(g.totalParamBytes() / 4, int64_t{26692284416});
  const Graph dense = makeZooModel("gpt_1_3b", {.batch = 1});
  EXPECT_EQ(dense.totalParamBytes() / 4, 1315819520);

  const int64_t tokens = 2048;
  const std::string l1 = "moe_1_3b_64e/layers/layer_1/moe/";
  for (const char* op :
       {"router/MatMul", "router/Softmax", "router/TopKV2", "dispatch/ScatterNd", "experts/dense_h_to_4h/BatchMatMulV2",
        "experts/Gelu", "experts/dense_4h_to_h/BatchMatMulV2", "combine/GatherNd", "combine/Mul"})
    EXPECT_NE(g.findOp(l1 + op), kNone) << op;
  EXPECT_EQ(g.findOp("moe_1_3b_64e/layers/layer_0/moe/router/MatMul"), kNone);  // every other layer
  EXPECT_NE(g.findOp("moe_1_3b_64e/layers/layer_0/mlp/dense_h_to_4h/MatMul"), kNone);
  EXPECT_EQ(g.findOp("moe_1_3b_64e/layers/layer_1/mlp/dense_h_to_4h/MatMul"), kNone);
  EXPECT_NE(g.findOp("moe_1_3b_64e/layers/layer_23/moe/combine/GatherNd"), kNone);
  // experts: [experts, capacity, hidden] buffers, capacity factor 1.0; each token through one expert
  EXPECT_EQ(tensorShape(g, l1 + "experts/dense_h_to_4h/kernel"), (std::vector<int64_t>{64, h, 4 * h}));
  EXPECT_EQ(tensorShape(g, l1 + "experts/dense_4h_to_h/kernel"), (std::vector<int64_t>{64, 4 * h, h}));
  EXPECT_EQ(outputShape(g, l1 + "dispatch/ScatterNd"), (std::vector<int64_t>{64, tokens / 64, h}));
  for (const char* mm : {"experts/dense_h_to_4h/BatchMatMulV2", "experts/dense_4h_to_h/BatchMatMulV2"})
    EXPECT_DOUBLE_EQ(g.flops(g.findOp(l1 + mm)), 2.0 * tokens * h * 4 * h) << mm;
  EXPECT_EQ(outputShape(g, l1 + "combine/Mul"), (std::vector<int64_t>{tokens, h}));
  // the same work per token as the dense model, give or take the router
  EXPECT_LE(std::abs(g.totalFlops() / dense.totalFlops() - 1), 0.01);
}

TEST(LlmZoo, ListedAsLlmsWithOneLineErrors) {
  const std::set<std::string> llms = {"gpt_1_3b", "gpt_6_7b", "gpt_13b",     "gpt_30b",
                                      "gpt_175b", "t5_base",  "moe_1_3b_64e", "llama3_8b",
                                      "llama3_70b", "llama3_405b", "mixtral_8x7b"};
  std::set<std::string> listed;
  for (const ZooEntry& e : zooModels())
    if (e.llm) listed.insert(e.name);
  EXPECT_EQ(listed, llms);
  EXPECT_EQ(errorOf("gpt_1_3b", {.hidden = 1000}),
            "hidden (the model width, 128 per attention head) must be 128..32768 in steps of 128 (got 1000)");
  EXPECT_EQ(errorOf("gpt_175b", {.hidden = 64}),
            "hidden (the model width, 128 per attention head) must be 128..32768 in steps of 128 (got 64)");
  EXPECT_EQ(errorOf("moe_1_3b_64e", {.layers = 1}),
            "layers (decoder layers, every other one a mixture of experts) must be 2..128 (got 1)");
  EXPECT_EQ(errorOf("t5_base", {.hidden = 100}),
            "hidden (the model width, 64 per attention head) must be 64..8192 in steps of 64 (got 100)");
  EXPECT_EQ(errorOf("gpt_13b", {.seed = 2}),
            "seed is not a parameter of gpt_13b (it takes: batch, seq_len, layers, hidden)");
}

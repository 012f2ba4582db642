// The Llama-family zoo models (core/zoo/llama_models.cpp): parameter counts equal to the
// published ones (Hugging Face's count of each model's checkpoint), grouped-query attention and
// the top-2 mixture's shapes, forward FLOPs per token, and the layer stack parallel plans see.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "parallel/layer_stack.h"
#include "zoo/zoo.h"
#include "graph_shapes.h"

using namespace gp;
using gptest::outputShape;
using gptest::tensorShape;

namespace {

struct Published {
  const char* name;
  int64_t params;  // the published checkpoint's parameter count
  int layers;
  int64_t hidden, heads, kvHeads, intermediate, vocab;
};
// 8,030,261,248 (Meta-Llama-3-8B), 70,553,706,496 (Meta-Llama-3-70B), 405,853,388,800
// (Llama-3.1-405B), 46,702,792,704 (Mixtral-8x7B-v0.1): the counts of their model cards.
const Published kModels[] = {{"llama3_8b", 8030261248, 32, 4096, 32, 8, 14336, 128256},
                             {"llama3_70b", 70553706496, 80, 8192, 64, 8, 28672, 128256},
                             {"llama3_405b", 405853388800, 126, 16384, 128, 8, 53248, 128256},
                             {"mixtral_8x7b", 46702792704, 32, 4096, 32, 8, 14336, 32000}};

int64_t paramCount(const Graph& g) {
  return g.totalParamBytes() / 4;  // f32
}

}  // namespace

TEST(LlamaZoo, ParametersEqualThePublishedCounts) {
  for (const Published& m : kModels) {
    SCOPED_TRACE(m.name);
    const Graph g = makeZooModel(m.name, {.batch = 1, .seqLen = 16});
    EXPECT_EQ(paramCount(g), m.params);
    const std::string l0 = std::string(m.name) + "/layers/layer_0/";
    EXPECT_EQ(tensorShape(g, l0 + "self_attn/q_proj/weight"), (std::vector<int64_t>{m.hidden, m.heads * 128}));
    EXPECT_EQ(tensorShape(g, l0 + "self_attn/k_proj/weight"), (std::vector<int64_t>{m.hidden, m.kvHeads * 128}));
    EXPECT_EQ(tensorShape(g, std::string(m.name) + "/lm_head/weight"), (std::vector<int64_t>{m.hidden, m.vocab}));
  }
}

TEST(LlamaZoo, GroupedQueryAttentionRepeatsEachKeyValueHead) {
  const Graph g = makeZooModel("llama3_8b", {.batch = 2, .seqLen = 16});
  const std::string a = "llama3_8b/layers/layer_31/self_attn/";
  EXPECT_EQ(outputShape(g, a + "k_proj/MatMul"), (std::vector<int64_t>{32, 8 * 128}));
  EXPECT_EQ(outputShape(g, a + "repeat_kv/Expand"), (std::vector<int64_t>{2, 32, 16, 128}));
  EXPECT_EQ(outputShape(g, a + "Softmax"), (std::vector<int64_t>{2, 32, 16, 16}));
  EXPECT_EQ(outputShape(g, a + "rotary_k/Add"), (std::vector<int64_t>{2, 8, 16, 128}));
  EXPECT_EQ(outputShape(g, "llama3_8b/layers/layer_31/mlp/down_proj/MatMul"), (std::vector<int64_t>{32, 4096}));
}

TEST(LlamaZoo, MixtralRoutesEachTokenToTwoOfEightExperts) {
  const int64_t tokens = 64, h = 4096, ffn = 14336;
  const Graph g = makeZooModel("mixtral_8x7b", {.batch = 1, .seqLen = tokens});
  const std::string m = "mixtral_8x7b/layers/layer_5/block_sparse_moe/";
  EXPECT_EQ(outputShape(g, m + "gate/TopKV2"), (std::vector<int64_t>{tokens, 2}));
  EXPECT_EQ(outputShape(g, m + "dispatch/ScatterNd"), (std::vector<int64_t>{8, 2 * tokens / 8, h}));
  EXPECT_EQ(tensorShape(g, m + "experts/w1"), (std::vector<int64_t>{8, h, ffn}));
  EXPECT_EQ(tensorShape(g, m + "experts/w2"), (std::vector<int64_t>{8, ffn, h}));
  EXPECT_EQ(outputShape(g, m + "combine/Sum"), (std::vector<int64_t>{tokens, h}));
  // each token's work is two experts' SwiGLU: 2 x 3 products of 2 h ffn FLOPs
  double expertFlops = 0;
  for (const char* mm : {"experts/BatchMatMulV2", "experts/BatchMatMulV2_1", "experts/BatchMatMulV2_2"})
    expertFlops += g.flops(g.findOp(m + mm));
  EXPECT_DOUBLE_EQ(expertFlops / tokens, 2 * 3 * 2.0 * h * ffn);
}

TEST(LlamaZoo, ForwardFlopsPerTokenAreTwiceTheActiveParametersPlusAttention) {
  // 2 FLOPs per active parameter and token (the embedding table is a lookup, not a product),
  // plus the attention's two [s, s] products, 2 s h FLOPs per token and layer each.
  const int64_t seq = 4096;
  for (const Published& m : kModels) {
    SCOPED_TRACE(m.name);
    const Graph g = makeZooModel(m.name, {.batch = 1, .seqLen = static_cast<int>(seq)});
    const bool moe = std::string(m.name) == "mixtral_8x7b";
    const double inactive = moe ? 6.0 * 3 * m.hidden * m.intermediate * m.layers : 0;  // 6 of 8 experts idle
    const double active = static_cast<double>(m.params) - inactive - static_cast<double>(m.vocab * m.hidden);
    const double expected = 2 * active + 4.0 * m.layers * seq * m.hidden;
    const double perToken = g.totalFlops() / seq;
    EXPECT_LE(std::abs(perToken - expected), 0.03 * expected) << perToken << " vs " << expected;
  }
}

TEST(LlamaZoo, LayerStackHasEveryLayerTheHeadsAndTheExperts) {
  const LayerStack dense = detectLayerStack(makeZooModel("llama3_8b", {.batch = 1, .seqLen = 16}), "llama3_8b", 1);
  EXPECT_EQ(dense.numLayers(), 32);
  EXPECT_EQ(dense.hidden, 4096);
  EXPECT_EQ(dense.heads, 32);
  EXPECT_EQ(dense.experts, 0);
  EXPECT_EQ(dense.totalParams(), 8030261248);
  const LayerStack moe =
      detectLayerStack(makeZooModel("mixtral_8x7b", {.batch = 1, .seqLen = 16}), "mixtral_8x7b", 1);
  EXPECT_EQ(moe.numLayers(), 32);
  EXPECT_EQ(moe.experts, 8);
  EXPECT_TRUE(moe.layers[0].moe);
  EXPECT_EQ(moe.layers[0].expertParams, 8LL * 3 * 4096 * 14336);
}

TEST(LlamaZoo, WidthsKeepTheHeadGroupsAndTheMlpRatio) {
  const Graph g = makeZooModel("llama3_70b", {.batch = 1, .seqLen = 16, .layers = 2, .hidden = 2048});
  // 16 query heads of 128, 8 per key / value head: 2 key / value heads; MLP 3.5 x the width
  EXPECT_EQ(tensorShape(g, "llama3_70b/layers/layer_1/self_attn/k_proj/weight"), (std::vector<int64_t>{2048, 256}));
  EXPECT_EQ(tensorShape(g, "llama3_70b/layers/layer_1/mlp/up_proj/weight"), (std::vector<int64_t>{2048, 7168}));
  try {
    makeZooModel("llama3_70b", {.hidden = 1536});
    ADD_FAILURE() << "a width that splits a head group was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("must be 1024..32768 in steps of 1024 (got 1536)"), std::string::npos)
        << e.what();
  }
}

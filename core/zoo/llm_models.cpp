// LLM-scale workloads as TensorFlow-like forward graphs (real shapes and FLOPs, no weights),
// for planning with data / tensor / pipeline / expert parallelism rather than single-graph
// placement. Every transformer layer is one scope "layers/layer_N"; embeddings, the final
// norm and the output projection lie outside the layer scopes. T5 is in t5_model.cpp.
//   gpt: GPT-3-style pre-LayerNorm decoder (Brown et al. 2020; Megatron-LM naming): learned
//     position embedding, causal self-attention with heads of 128, GELU MLP 4h, final
//     LayerNorm, output projection tied to the word embedding; vocabulary 50257 padded to
//     50304 (Megatron-LM's --make-vocab-size-divisible-by 128).
//   gpt with experts: the same decoder where every other layer (the 2nd, 4th, ...) has a top-1
//     Switch-style mixture of experts instead of its MLP (Fedus et al. 2021; DeepSpeed-MoE,
//     Rajbhandari et al. 2022): router in "<layer>/moe/router", token dispatch to an
//     [experts, capacity, hidden] buffer in "<layer>/moe/dispatch", the experts' MLPs as
//     batched matmuls over it with parameters [experts, hidden, 4 hidden] in
//     "<layer>/moe/experts", the gather back and gate scaling in "<layer>/moe/combine".
#include <algorithm>
#include <cmath>
#include <string>

#include "zoo/attention_parts.h"
#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {
namespace {

constexpr int64_t kGptHeadDim = 128;
constexpr int64_t kGptVocab = 50304;  // 50257 padded to a multiple of 128
constexpr int64_t kGptPositions = 2048;
constexpr int64_t kMoeExperts = 64;
constexpr double kMoeCapacityFactor = 1.0;

// ---- GPT ----

TensorId gptSelfAttention(Net& net, TensorId x, int64_t batch, TensorId causalMask) {
  Net::Scope as(net, "self_attention");
  const int64_t width = net.dim(x, -1);
  TensorId qkv;
  {
    Net::Scope s(net, "query_key_value");
    qkv = dense(net, x, 3 * width);
  }
  auto parts = split(net, qkv, 3, -1);
  TensorId q = toHeads(net, parts[0], batch, kGptHeadDim);
  TensorId k = toHeads(net, parts[1], batch, kGptHeadDim);
  TensorId v = toHeads(net, parts[2], batch, kGptHeadDim);
  TensorId ctx = attend(net, q, k, v, causalMask, true);
  Net::Scope s(net, "dense");
  return dense(net, ctx, width);
}

TensorId gptMlp(Net& net, TensorId x) {
  Net::Scope ms(net, "mlp");
  const int64_t width = net.dim(x, -1);
  TensorId y;
  {
    Net::Scope s(net, "dense_h_to_4h");
    y = dense(net, x, 4 * width);
  }
  y = unary(net, "Gelu", y, 8);
  Net::Scope s(net, "dense_4h_to_h");
  return dense(net, y, width);
}

// One expert matmul over the dispatched tokens: [E, C, K] @ kernel [E, K, N] + bias [E, 1, N].
TensorId expertDense(Net& net, std::string_view scope, TensorId x, int64_t units) {
  Net::Scope s(net, scope);
  const int64_t experts = net.dim(x, 0), capacity = net.dim(x, 1), k = net.dim(x, 2);
  TensorId y = batchMatmul(net, x, net.param("kernel", {experts, k, units}), {experts, capacity, units}, k);
  return binary(net, "BiasAdd", y, net.param("bias", {experts, 1, units}));
}

// Top-1 mixture of experts over tokens x [T, h]: each token goes through one expert's MLP.
TensorId switchMoe(Net& net, TensorId x, int64_t experts) {
  Net::Scope ms(net, "moe");
  const int64_t tokens = net.dim(x, 0), width = net.dim(x, 1);
  const auto capacity = static_cast<int64_t>(std::ceil(kMoeCapacityFactor * static_cast<double>(tokens) / experts));
  const auto te = static_cast<double>(tokens * experts);
  TensorId gate, slots;
  {
    Net::Scope rs(net, "router");
    TensorId logits = matmul(net, x, net.param("kernel", {width, experts}));
    TensorId probs = softmax(net, logits);
    auto top = net.opN("TopKV2", {probs}, {{tokens, 1}, {tokens, 1}}, te);  // gate value, expert index
    gate = top[0];
    TensorId oneHot = net.op("OneHot", {top[1]}, {tokens, experts}, 0);
    slots = net.op("Cumsum", {oneHot}, {tokens, experts}, te);  // each token's slot in its expert's buffer
  }
  TensorId buffer;
  {
    Net::Scope ds(net, "dispatch");
    buffer = net.op("ScatterNd", {x, slots}, {experts, capacity, width}, 0);
  }
  TensorId y;
  {
    Net::Scope es(net, "experts");
    y = expertDense(net, "dense_h_to_4h", buffer, 4 * width);
    y = unary(net, "Gelu", y, 8);
    y = expertDense(net, "dense_4h_to_h", y, width);
  }
  Net::Scope cs(net, "combine");
  y = net.op("GatherNd", {y, slots}, {tokens, width}, 0);
  return binary(net, "Mul", y, gate);
}

Graph gptDecoder(const ModelArgs& a, int64_t experts) {
  const int64_t b = a.batch, s = a.seqLen, width = a.hidden, layers = a.layers, tokens = b * s;
  const int64_t positions = std::max(kGptPositions, s);
  Net net(a.name);
  TensorId ids = net.input("input_ids", {b, s}, DType::I32);
  TensorId causalMask = net.input("causal_mask", {1, 1, s, s});
  TensorId wordTable, x;
  {
    Net::Scope es(net, "embedding");
    wordTable = net.param("word_embeddings", {kGptVocab, width});
    TensorId posTable = net.param("position_embeddings", {positions, width});
    TensorId e = gather(net, wordTable, ids);
    TensorId pe = net.op("Slice", {posTable}, {s, width}, 0, s * width * 4);
    e = binary(net, "Add", e, pe);
    x = reshape(net, e, {tokens, width});
  }
  for (int64_t l = 0; l < layers; ++l) {
    Net::Scope ls(net, "layers/layer", l);
    TensorId y;
    {
      Net::Scope ns(net, "input_layernorm");
      y = layerNorm(net, x);
    }
    y = gptSelfAttention(net, y, b, causalMask);
    x = binary(net, "Add", y, x);
    {
      Net::Scope ns(net, "post_attention_layernorm");
      y = layerNorm(net, x);
    }
    y = experts > 0 && l % 2 == 1 ? switchMoe(net, y, experts) : gptMlp(net, y);
    x = binary(net, "Add", y, x);
  }
  {
    Net::Scope ns(net, "final_layernorm");
    x = layerNorm(net, x);
  }
  Net::Scope hs(net, "lm_head");
  const double f = 2.0 * static_cast<double>(tokens) * static_cast<double>(width) * kGptVocab;
  net.op("MatMul", {x, wordTable}, {tokens, kGptVocab}, f);  // tied, transpose_b
  return std::move(net).build();
}

}  // namespace

Graph gpt(const ModelArgs& a) {
  return gptDecoder(a, 0);
}

Graph gptMoe(const ModelArgs& a) {
  return gptDecoder(a, kMoeExperts);
}

}  // namespace gp::zoo

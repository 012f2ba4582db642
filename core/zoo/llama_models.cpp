// Llama-family decoders as forward graphs (real shapes and FLOPs, no weights), named as Hugging
// Face's LlamaForCausalLM / MixtralForCausalLM modules are: "embed_tokens", one scope
// "layers/layer_N" per decoder layer, "norm", "lm_head". Each layer is pre-RMSNorm
// ("input_layernorm", "post_attention_layernorm", weight only) around
//   - self-attention "self_attn": bias-free q_proj [h, heads x 128], k_proj and v_proj
//     [h, kv heads x 128] (grouped-query attention: each key / value head serves heads / kv
//     heads query heads, "repeat_kv"), rotary position embedding of q and k (rotate-half form,
//     cos / sin tables as inputs), causal softmax(q k^T / sqrt(128)) v, o_proj [heads x 128, h];
//   - a SwiGLU MLP "mlp": down_proj(silu(gate_proj x) * up_proj x), all bias-free; or, for the
//     mixtures, "block_sparse_moe": a router "gate" [h, experts] choosing the top k experts per
//     token (softmax, top-k), token dispatch to an [experts, capacity, h] buffer ("dispatch",
//     capacity k x tokens / experts: capacity factor 1.0), each expert's SwiGLU as batched
//     matmuls over it with parameters w1, w3 [experts, h, intermediate] and w2
//     [experts, intermediate, h] ("experts"), and the gather back, gate scaling and sum over
//     the k choices ("combine").
// Shapes come from the models' published config.json (cited in zoo.cpp's entries). A width
// other than the published one keeps heads of 128, the query heads per key / value head and the
// MLP's ratio to the width.
#include <cmath>
#include <string>

#include "base/error.h"
#include "zoo/attention_parts.h"
#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {
namespace {

constexpr int64_t kHeadDim = 128;

struct LlamaShape {
  const char* name;
  int64_t hidden;        // the published width (the MLP ratio's reference)
  int64_t heads, kvHeads, intermediate, vocab;
  int64_t experts = 0;   // 0: a dense MLP in every layer
  int64_t expertsPerToken = 0;
};

// meta-llama/Meta-Llama-3-8B, -70B, Llama-3.1-405B and mistralai/Mixtral-8x7B-v0.1 config.json
const LlamaShape kShapes[] = {
    {"llama3_8b", 4096, 32, 8, 14336, 128256},
    {"llama3_70b", 8192, 64, 8, 28672, 128256},
    {"llama3_405b", 16384, 128, 8, 53248, 128256},
    {"mixtral_8x7b", 4096, 32, 8, 14336, 32000, 8, 2},
};

const LlamaShape& shapeOf(const std::string& name) {
  for (const LlamaShape& s : kShapes)
    if (name == s.name) return s;
  throw Error("zoo:" + name, "not a Llama-family zoo model");  // zoo.cpp names only those above
}

// Rotary position embedding of x [b, heads, s, 128]: x * cos + rotate_half(x) * sin.
TensorId rotary(Net& net, std::string_view scope, TensorId x, TensorId cos, TensorId sin) {
  Net::Scope rs(net, scope);
  TensorId half = unary(net, "Neg", x, 0.5);  // rotate_half: the second half negated, halves swapped
  TensorId a = binary(net, "Mul", x, cos);
  TensorId c = binary(net, "Mul", half, sin);
  return binary(net, "Add", a, c);
}

// [b, kv heads, s, d] -> [b, heads, s, d]: each key / value head repeated for its query heads.
TensorId repeatKv(Net& net, TensorId x, int64_t heads) {
  if (net.dim(x, 1) == heads) return x;
  return net.op("Expand", {x}, {net.dim(x, 0), heads, net.dim(x, 2), net.dim(x, 3)}, 0);
}

TensorId projection(Net& net, std::string_view scope, TensorId x, int64_t units) {
  Net::Scope s(net, scope);
  return matmul(net, x, net.param("weight", {net.dim(x, -1), units}));
}

TensorId selfAttention(Net& net, TensorId x, int64_t batch, int64_t kvHeads, TensorId causalMask, TensorId cos,
                       TensorId sin) {
  Net::Scope as(net, "self_attn");
  const int64_t width = net.dim(x, -1), heads = width / kHeadDim;
  TensorId q = toHeads(net, projection(net, "q_proj", x, heads * kHeadDim), batch, kHeadDim);
  TensorId k = toHeads(net, projection(net, "k_proj", x, kvHeads * kHeadDim), batch, kHeadDim);
  TensorId v = toHeads(net, projection(net, "v_proj", x, kvHeads * kHeadDim), batch, kHeadDim);
  q = rotary(net, "rotary_q", q, cos, sin);
  k = rotary(net, "rotary_k", k, cos, sin);
  {
    Net::Scope rs(net, "repeat_kv");
    k = repeatKv(net, k, heads);
    v = repeatKv(net, v, heads);
  }
  TensorId ctx = attend(net, q, k, v, causalMask, true);
  return projection(net, "o_proj", ctx, width);
}

TensorId swiGlu(Net& net, TensorId x, int64_t intermediate) {
  Net::Scope ms(net, "mlp");
  const int64_t width = net.dim(x, -1);
  TensorId gate = unary(net, "Silu", projection(net, "gate_proj", x, intermediate), 4);
  TensorId up = projection(net, "up_proj", x, intermediate);
  return projection(net, "down_proj", binary(net, "Mul", gate, up), width);
}

// One expert product over the dispatched tokens: [E, C, K] @ weight [E, K, N].
TensorId expertProduct(Net& net, std::string_view name, TensorId x, int64_t units) {
  const int64_t experts = net.dim(x, 0), capacity = net.dim(x, 1), k = net.dim(x, 2);
  return batchMatmul(net, x, net.param(name, {experts, k, units}), {experts, capacity, units}, k);
}

// Top-k mixture of SwiGLU experts over tokens x [T, h].
TensorId sparseMoe(Net& net, TensorId x, int64_t experts, int64_t topK, int64_t intermediate) {
  Net::Scope ms(net, "block_sparse_moe");
  const int64_t tokens = net.dim(x, 0), width = net.dim(x, 1);
  const auto capacity =
      static_cast<int64_t>(std::ceil(static_cast<double>(topK * tokens) / static_cast<double>(experts)));
  const auto te = static_cast<double>(tokens * experts);
  TensorId gate, slots;
  {
    Net::Scope rs(net, "gate");
    TensorId probs = softmax(net, matmul(net, x, net.param("weight", {width, experts})));
    auto top = net.opN("TopKV2", {probs}, {{tokens, topK}, {tokens, topK}}, te);  // gate values, expert indices
    gate = top[0];
    TensorId oneHot = net.op("OneHot", {top[1]}, {tokens, topK, experts}, 0);
    slots = net.op("Cumsum", {oneHot}, {tokens, topK, experts}, te * static_cast<double>(topK));
  }
  TensorId buffer;
  {
    Net::Scope ds(net, "dispatch");
    buffer = net.op("ScatterNd", {x, slots}, {experts, capacity, width}, 0);
  }
  TensorId y;
  {
    Net::Scope es(net, "experts");
    TensorId g = unary(net, "Silu", expertProduct(net, "w1", buffer, intermediate), 4);
    TensorId u = expertProduct(net, "w3", buffer, intermediate);
    y = expertProduct(net, "w2", binary(net, "Mul", g, u), width);
  }
  Net::Scope cs(net, "combine");
  y = net.op("GatherNd", {y, slots}, {tokens, topK, width}, 0);
  y = binary(net, "Mul", y, gate);
  return reduce(net, "Sum", y, {tokens, width});
}

}  // namespace

Graph llamaDecoder(const ModelArgs& a) {
  const LlamaShape& shape = shapeOf(a.name);
  const int64_t b = a.batch, s = a.seqLen, width = a.hidden, tokens = b * s;
  const int64_t heads = width / kHeadDim, kvHeads = heads / (shape.heads / shape.kvHeads);
  const int64_t intermediate = shape.intermediate * width / shape.hidden;
  Net net(a.name);
  TensorId ids = net.input("input_ids", {b, s}, DType::I32);
  TensorId causalMask = net.input("causal_mask", {1, 1, s, s});
  TensorId cos = net.input("rope_cos", {s, kHeadDim});
  TensorId sin = net.input("rope_sin", {s, kHeadDim});
  TensorId x;
  {
    Net::Scope es(net, "embed_tokens");
    x = reshape(net, gather(net, net.param("weight", {shape.vocab, width}), ids), {tokens, width});
  }
  for (int64_t l = 0; l < a.layers; ++l) {
    Net::Scope ls(net, "layers/layer", l);
    TensorId y;
    {
      Net::Scope ns(net, "input_layernorm");
      y = rmsNorm(net, x);
    }
    x = binary(net, "Add", selfAttention(net, y, b, kvHeads, causalMask, cos, sin), x);
    {
      Net::Scope ns(net, "post_attention_layernorm");
      y = rmsNorm(net, x);
    }
    y = shape.experts > 0 ? sparseMoe(net, y, shape.experts, shape.expertsPerToken, intermediate)
                          : swiGlu(net, y, intermediate);
    x = binary(net, "Add", y, x);
  }
  {
    Net::Scope ns(net, "norm");
    x = rmsNorm(net, x);
  }
  projection(net, "lm_head", x, shape.vocab);  // untied from embed_tokens in all four
  return std::move(net).build();
}

}  // namespace gp::zoo

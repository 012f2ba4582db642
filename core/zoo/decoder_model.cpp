#include "zoo/decoder_model.h"

#include <cmath>
#include <string>

#include "zoo/attention_parts.h"
#include "zoo/layers.h"

namespace gp::zoo {
namespace {

// x [.., K] @ weight [K, units] (+ bias) in scope `scope`.
TensorId projection(Net& net, std::string_view scope, TensorId x, int64_t units, bool bias = false) {
  Net::Scope s(net, scope);
  TensorId y = matmul(net, x, net.param("weight", {net.dim(x, -1), units}));
  return bias ? binary(net, "BiasAdd", y, net.param("bias", {units})) : y;
}

TensorId norm(Net& net, std::string_view scope, const DecoderConfig& c, TensorId x) {
  Net::Scope s(net, scope);
  return c.rmsNorm ? rmsNorm(net, x) : layerNorm(net, x);
}

// Rotary position embedding of x [b, heads, s, d]: x * cos + rotate_half(x) * sin.
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

TensorId selfAttention(Net& net, const DecoderConfig& c, TensorId x, int64_t batch, TensorId causalMask, TensorId cos,
                       TensorId sin) {
  Net::Scope as(net, "self_attn");
  const int64_t d = c.headDim;
  TensorId q = toHeads(net, projection(net, "q_proj", x, c.heads * d, c.qkvBias), batch, d);
  TensorId k = toHeads(net, projection(net, "k_proj", x, c.kvHeads * d, c.qkvBias), batch, d);
  TensorId v = toHeads(net, projection(net, "v_proj", x, c.kvHeads * d, c.qkvBias), batch, d);
  if (c.rotary) {
    q = rotary(net, "rotary_q", q, cos, sin);
    k = rotary(net, "rotary_k", k, cos, sin);
  }
  {
    Net::Scope rs(net, "repeat_kv");
    k = repeatKv(net, k, c.heads);
    v = repeatKv(net, v, c.heads);
  }
  TensorId ctx = attend(net, q, k, v, causalMask, true);
  return projection(net, "o_proj", ctx, c.hidden, c.outputBias);
}

TensorId mlp(Net& net, const DecoderConfig& c, TensorId x) {
  Net::Scope ms(net, "mlp");
  if (!c.gatedMlp) {
    TensorId y = unary(net, "Gelu", projection(net, "up_proj", x, c.intermediate, c.mlpBias), 8);
    return projection(net, "down_proj", y, c.hidden, c.mlpBias);
  }
  TensorId gate = unary(net, "Silu", projection(net, "gate_proj", x, c.intermediate, c.mlpBias), 4);
  TensorId up = projection(net, "up_proj", x, c.intermediate, c.mlpBias);
  return projection(net, "down_proj", binary(net, "Mul", gate, up), c.hidden, c.mlpBias);
}

// One expert product over the dispatched tokens: [E, C, K] @ weight [E, K, N].
TensorId expertProduct(Net& net, std::string_view name, TensorId x, int64_t units) {
  const int64_t experts = net.dim(x, 0), capacity = net.dim(x, 1), k = net.dim(x, 2);
  return batchMatmul(net, x, net.param(name, {experts, k, units}), {experts, capacity, units}, k);
}

// Top-k mixture of SwiGLU experts over tokens x [T, h]: a router "gate" [h, experts] choosing
// the top k experts per token (softmax, top-k), token dispatch to an [experts, capacity, h]
// buffer (capacity k x tokens / experts: capacity factor 1.0), each expert's SwiGLU as batched
// products with w1, w3 [experts, h, intermediate] and w2 [experts, intermediate, h], and the
// gather back, gate scaling and sum over the k choices.
TensorId sparseMoe(Net& net, const DecoderConfig& c, TensorId x) {
  Net::Scope ms(net, "block_sparse_moe");
  const int64_t tokens = net.dim(x, 0), width = net.dim(x, 1), experts = c.experts, topK = c.expertsPerToken;
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
    TensorId g = unary(net, "Silu", expertProduct(net, "w1", buffer, c.intermediate), 4);
    TensorId u = expertProduct(net, "w3", buffer, c.intermediate);
    y = expertProduct(net, "w2", binary(net, "Mul", g, u), width);
  }
  Net::Scope cs(net, "combine");
  y = net.op("GatherNd", {y, slots}, {tokens, topK, width}, 0);
  y = binary(net, "Mul", y, gate);
  return reduce(net, "Sum", y, {tokens, width});
}

TensorId feedForward(Net& net, const DecoderConfig& c, TensorId y) {
  return c.experts > 0 ? sparseMoe(net, c, y) : mlp(net, c, y);
}

}  // namespace

Graph decoderModel(const DecoderConfig& c, int64_t batch, int64_t seqLen) {
  const int64_t b = batch, s = seqLen, width = c.hidden, tokens = b * s;
  Net net(c.name);
  TensorId ids = net.input("input_ids", {b, s}, DType::I32);
  TensorId causalMask = net.input("causal_mask", {1, 1, s, s});
  TensorId cos = kNone, sin = kNone;
  if (c.rotary) {
    cos = net.input("rope_cos", {s, c.headDim});
    sin = net.input("rope_sin", {s, c.headDim});
  }
  TensorId table, x;
  {
    Net::Scope es(net, "embed_tokens");
    table = net.param("weight", {c.vocab, width});
    x = reshape(net, gather(net, table, ids), {tokens, width});
  }
  if (!c.rotary) {
    Net::Scope ps(net, "embed_positions");
    TensorId positions = net.op("Slice", {net.param("weight", {c.maxPositions, width})}, {s, width}, 0, s * width * 4);
    x = reshape(net, binary(net, "Add", reshape(net, x, {b, s, width}), positions), {tokens, width});
  }
  for (int64_t l = 0; l < c.layers; ++l) {
    Net::Scope ls(net, "layers/layer", l);
    switch (c.residual) {
      case DecoderResidual::Sequential: {
        TensorId y = norm(net, "input_layernorm", c, x);
        x = binary(net, "Add", selfAttention(net, c, y, b, causalMask, cos, sin), x);
        y = norm(net, "post_attention_layernorm", c, x);
        x = binary(net, "Add", feedForward(net, c, y), x);
        break;
      }
      case DecoderResidual::ParallelOneNorm: {
        TensorId y = norm(net, "input_layernorm", c, x);
        TensorId a = selfAttention(net, c, y, b, causalMask, cos, sin);
        x = binary(net, "Add", binary(net, "Add", a, feedForward(net, c, y)), x);
        break;
      }
      case DecoderResidual::ParallelTwoNorms: {
        TensorId a = selfAttention(net, c, norm(net, "input_layernorm", c, x), b, causalMask, cos, sin);
        TensorId m = feedForward(net, c, norm(net, "post_attention_layernorm", c, x));
        x = binary(net, "Add", binary(net, "Add", a, m), x);
        break;
      }
    }
  }
  x = norm(net, "norm", c, x);
  if (c.tiedEmbeddings) {
    Net::Scope hs(net, "lm_head");
    const double f = 2.0 * static_cast<double>(tokens) * static_cast<double>(width) * static_cast<double>(c.vocab);
    net.op("MatMul", {x, table}, {tokens, c.vocab}, f);  // embed_tokens' table, transposed
  } else {
    projection(net, "lm_head", x, c.vocab, c.lmHeadBias);
  }
  return std::move(net).build();
}

}  // namespace gp::zoo

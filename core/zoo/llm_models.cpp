// LLM-scale workloads as TensorFlow-like forward graphs (real shapes and FLOPs, no weights),
// for planning with data / tensor / pipeline / expert parallelism rather than single-graph
// placement. Every transformer layer is one scope "<prefix>_<N>" ("layers/layer_N" for the
// decoders, "encoder/block_N" / "decoder/block_N" for T5); embeddings, final norms and the
// output projection lie outside the layer scopes.
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
//   t5_base: T5 v1.0 base encoder-decoder (Raffel et al. 2020; HF t5-base config): RMS layer
//     norms without bias, bias-free projections, unscaled attention with a relative position
//     bias computed in block 0 of each stack and shared by its blocks, ReLU FFN, shared input
//     embedding tied to the output projection (scaled by d_model^-0.5).
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

// ---- T5 ----

constexpr int64_t kT5HeadDim = 64, kT5Vocab = 32128, kT5Buckets = 32;

// T5's layer norm: scale only, no mean subtraction, no bias.
TensorId t5Norm(Net& net, TensorId x) {
  Net::Scope s(net, "layer_norm");
  return rmsNorm(net, x);
}

// Relative position bias [1, heads, q, k] of one stack, from its block 0's bucket table.
TensorId positionBias(Net& net, TensorId buckets, int64_t heads) {
  TensorId table = net.param("relative_attention_bias", {kT5Buckets, heads});
  TensorId bias = gather(net, table, buckets);  // [q, k, heads]
  return net.op("Transpose", {bias}, {1, heads, net.dim(buckets, 0), net.dim(buckets, 1)}, 0);
}

// T5Attention in the current scope: q from xq, k and v from xkv, no biases, no scaling.
TensorId t5Attention(Net& net, TensorId xq, TensorId xkv, int64_t batch, TensorId adder) {
  const int64_t d = net.dim(xq, -1);
  TensorId q = toHeads(net, matmul(net, xq, net.param("q", {d, d})), batch, kT5HeadDim);
  TensorId k = toHeads(net, matmul(net, xkv, net.param("k", {d, d})), batch, kT5HeadDim);
  TensorId v = toHeads(net, matmul(net, xkv, net.param("v", {d, d})), batch, kT5HeadDim);
  TensorId ctx = attend(net, q, k, v, adder, false);
  return matmul(net, ctx, net.param("o", {d, d}));
}

// One pre-norm residual sub-layer "layer_<index>": x + body(norm(x)).
template <class Body>
TensorId t5Sublayer(Net& net, int index, TensorId x, Body body) {
  Net::Scope ls(net, "layer", index);
  TensorId y = t5Norm(net, x);
  y = body(y);
  return binary(net, "Add", y, x);
}

TensorId t5Ffn(Net& net, TensorId x) {
  Net::Scope fs(net, "DenseReluDense");
  const int64_t d = net.dim(x, -1);
  TensorId y = matmul(net, x, net.param("wi", {d, 4 * d}));
  y = unary(net, "Relu", y);
  return matmul(net, y, net.param("wo", {4 * d, d}));
}

// The token embedding of one stack, [batch * seq, d].
TensorId t5Embed(Net& net, TensorId table, TensorId ids) {
  Net::Scope es(net, "embed_tokens");
  TensorId e = gather(net, table, ids);
  return reshape(net, e, {net.numel(ids), net.dim(table, -1)});
}

TensorId t5FinalNorm(Net& net, TensorId x) {
  Net::Scope fs(net, "final_layer_norm");
  return t5Norm(net, x);
}

}  // namespace

Graph gpt(const ModelArgs& a) {
  return gptDecoder(a, 0);
}

Graph gptMoe(const ModelArgs& a) {
  return gptDecoder(a, kMoeExperts);
}

Graph t5Base(const ModelArgs& a) {
  const int64_t d = a.hidden, layers = a.layers, heads = d / kT5HeadDim;
  const int64_t b = a.batch, s = a.seqLen, t = std::max<int64_t>(1, a.seqLen / 4);
  Net net("t5_base");
  TensorId ids = net.input("input_ids", {b, s}, DType::I32);
  TensorId mask = net.input("attention_mask", {b, s}, DType::I32);
  TensorId encBuckets = net.input("encoder_position_buckets", {s, s}, DType::I32);
  TensorId decIds = net.input("decoder_input_ids", {b, t}, DType::I32);
  TensorId decBuckets = net.input("decoder_position_buckets", {t, t}, DType::I32);
  TensorId causalMask = net.input("causal_mask", {1, 1, t, t});
  TensorId table;
  {
    Net::Scope ss(net, "shared");
    table = net.param("weight", {kT5Vocab, d});
  }
  TensorId enc, maskAdder;
  {
    Net::Scope es(net, "encoder");
    enc = t5Embed(net, table, ids);
    {
      Net::Scope ms(net, "attention_mask");  // (1 - mask) * -1e9, broadcast over heads and queries
      maskAdder = net.op("Mul", {mask}, {b, 1, 1, s}, static_cast<double>(2 * b * s));
    }
    TensorId bias = kNone;
    for (int64_t l = 0; l < layers; ++l) {
      Net::Scope bs(net, "block", l);
      enc = t5Sublayer(net, 0, enc, [&](TensorId y) {
        Net::Scope as(net, "SelfAttention");
        if (l == 0) {
          bias = positionBias(net, encBuckets, heads);
          bias = net.op("Add", {bias, maskAdder}, {b, heads, s, s}, static_cast<double>(b * heads * s * s));
        }
        return t5Attention(net, y, y, b, bias);
      });
      enc = t5Sublayer(net, 1, enc, [&](TensorId y) { return t5Ffn(net, y); });
    }
    enc = t5FinalNorm(net, enc);
  }
  TensorId dec;
  {
    Net::Scope ds(net, "decoder");
    dec = t5Embed(net, table, decIds);
    TensorId bias = kNone;
    for (int64_t l = 0; l < layers; ++l) {
      Net::Scope bs(net, "block", l);
      dec = t5Sublayer(net, 0, dec, [&](TensorId y) {
        Net::Scope as(net, "SelfAttention");
        if (l == 0) bias = binary(net, "Add", positionBias(net, decBuckets, heads), causalMask);
        return t5Attention(net, y, y, b, bias);
      });
      dec = t5Sublayer(net, 1, dec, [&](TensorId y) {
        Net::Scope as(net, "EncDecAttention");
        return t5Attention(net, y, enc, b, maskAdder);
      });
      dec = t5Sublayer(net, 2, dec, [&](TensorId y) { return t5Ffn(net, y); });
    }
    dec = t5FinalNorm(net, dec);
  }
  Net::Scope hs(net, "lm_head");
  dec = unary(net, "Mul", dec);  // * d_model^-0.5 (tied embedding)
  const double f = 2.0 * static_cast<double>(b * t) * static_cast<double>(d) * kT5Vocab;
  net.op("MatMul", {dec, table}, {b * t, kT5Vocab}, f);  // transpose_b
  return std::move(net).build();
}

}  // namespace gp::zoo

#include "zoo/t5_model.h"

#include <algorithm>

#include "zoo/attention_parts.h"
#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {
namespace {

// T5's layer norm: scale only, no mean subtraction, no bias.
TensorId t5Norm(Net& net, TensorId x) {
  Net::Scope s(net, "layer_norm");
  return rmsNorm(net, x);
}

// Relative position bias [1, heads, q, k] of one stack, from its block 0's bucket table.
TensorId positionBias(Net& net, TensorId buckets, int64_t heads, int64_t bucketCount) {
  TensorId table = net.param("relative_attention_bias", {bucketCount, heads});
  TensorId bias = gather(net, table, buckets);  // [q, k, heads]
  return net.op("Transpose", {bias}, {1, heads, net.dim(buckets, 0), net.dim(buckets, 1)}, 0);
}

// T5Attention in the current scope: q from xq, k and v from xkv, no biases, no scaling.
TensorId t5Attention(Net& net, const T5Config& c, TensorId xq, TensorId xkv, int64_t batch, TensorId adder) {
  const int64_t d = net.dim(xq, -1), inner = c.heads * c.dKv;
  TensorId q = toHeads(net, matmul(net, xq, net.param("q", {d, inner})), batch, c.dKv);
  TensorId k = toHeads(net, matmul(net, xkv, net.param("k", {d, inner})), batch, c.dKv);
  TensorId v = toHeads(net, matmul(net, xkv, net.param("v", {d, inner})), batch, c.dKv);
  TensorId ctx = attend(net, q, k, v, adder, false);
  return matmul(net, ctx, net.param("o", {inner, d}));
}

// One pre-norm residual sub-layer "layer_<index>": x + body(norm(x)).
template <class Body>
TensorId t5Sublayer(Net& net, int index, TensorId x, Body body) {
  Net::Scope ls(net, "layer", index);
  TensorId y = t5Norm(net, x);
  y = body(y);
  return binary(net, "Add", y, x);
}

TensorId t5Ffn(Net& net, const T5Config& c, TensorId x) {
  Net::Scope fs(net, "DenseReluDense");
  const int64_t d = net.dim(x, -1);
  TensorId y;
  if (c.gatedGelu) {
    TensorId g = unary(net, "Gelu", matmul(net, x, net.param("wi_0", {d, c.dFf})), 8);
    y = binary(net, "Mul", g, matmul(net, x, net.param("wi_1", {d, c.dFf})));
  } else {
    y = unary(net, "Relu", matmul(net, x, net.param("wi", {d, c.dFf})));
  }
  return matmul(net, y, net.param("wo", {c.dFf, d}));
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

Graph t5Model(const T5Config& c, int64_t batch, int64_t seqLen) {
  const int64_t d = c.dModel, heads = c.heads;
  const int64_t b = batch, s = seqLen, t = std::max<int64_t>(1, seqLen / 4);
  Net net(c.name);
  TensorId ids = net.input("input_ids", {b, s}, DType::I32);
  TensorId mask = net.input("attention_mask", {b, s}, DType::I32);
  TensorId encBuckets = net.input("encoder_position_buckets", {s, s}, DType::I32);
  TensorId decIds = net.input("decoder_input_ids", {b, t}, DType::I32);
  TensorId decBuckets = net.input("decoder_position_buckets", {t, t}, DType::I32);
  TensorId causalMask = net.input("causal_mask", {1, 1, t, t});
  TensorId table;
  {
    Net::Scope ss(net, "shared");
    table = net.param("weight", {c.vocab, d});
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
    for (int64_t l = 0; l < c.layers; ++l) {
      Net::Scope bs(net, "block", l);
      enc = t5Sublayer(net, 0, enc, [&](TensorId y) {
        Net::Scope as(net, "SelfAttention");
        if (l == 0) {
          bias = positionBias(net, encBuckets, heads, c.buckets);
          bias = net.op("Add", {bias, maskAdder}, {b, heads, s, s}, static_cast<double>(b * heads * s * s));
        }
        return t5Attention(net, c, y, y, b, bias);
      });
      enc = t5Sublayer(net, 1, enc, [&](TensorId y) { return t5Ffn(net, c, y); });
    }
    enc = t5FinalNorm(net, enc);
  }
  TensorId dec;
  {
    Net::Scope ds(net, "decoder");
    dec = t5Embed(net, table, decIds);
    TensorId bias = kNone;
    for (int64_t l = 0; l < c.decoderLayers; ++l) {
      Net::Scope bs(net, "block", l);
      dec = t5Sublayer(net, 0, dec, [&](TensorId y) {
        Net::Scope as(net, "SelfAttention");
        if (l == 0) bias = binary(net, "Add", positionBias(net, decBuckets, heads, c.buckets), causalMask);
        return t5Attention(net, c, y, y, b, bias);
      });
      dec = t5Sublayer(net, 1, dec, [&](TensorId y) {
        Net::Scope as(net, "EncDecAttention");
        return t5Attention(net, c, y, enc, b, maskAdder);
      });
      dec = t5Sublayer(net, 2, dec, [&](TensorId y) { return t5Ffn(net, c, y); });
    }
    dec = t5FinalNorm(net, dec);
  }
  Net::Scope hs(net, "lm_head");
  const double f = 2.0 * static_cast<double>(b * t) * static_cast<double>(d) * static_cast<double>(c.vocab);
  if (c.tiedEmbeddings) {
    dec = unary(net, "Mul", dec);                                 // * d_model^-0.5 (tied embedding)
    net.op("MatMul", {dec, table}, {b * t, c.vocab}, f);  // transpose_b
  } else {
    matmul(net, dec, net.param("weight", {d, c.vocab}));
  }
  return std::move(net).build();
}

Graph t5Base(const ModelArgs& a) {
  T5Config c;
  c.name = "t5_base";
  c.dModel = a.hidden;
  c.heads = a.hidden / c.dKv;
  c.dFf = 4 * a.hidden;
  c.layers = c.decoderLayers = a.layers;
  return t5Model(c, a.batch, a.seqLen);
}

}  // namespace gp::zoo

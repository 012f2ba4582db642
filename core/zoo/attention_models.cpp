// Attention workloads as TensorFlow graphs.
//   bert_base: BERT-base (Devlin et al. 2019) with its pre-training heads: 12 layers, hidden
//     768, 12 heads, FFN 3072, 30522 wordpieces, 512 positions; masked-LM head over 15% of
//     the positions (gathered, as google-research/bert does) and next-sentence head.
//   transformer_xl: Transformer-XL base for enwik8 (Dai et al. 2019, kimiyoung/transformer-xl
//     run_enwik8_base): 12 layers, d_model 512, 8 heads of 64, FFN 2048, 204 characters,
//     relative positional attention over [memory; segment] with mem_len = tgt_len, tied
//     input/output embedding.
// Both take their layer count and width from ModelArgs: heads of 64, FFN 4x the width.
#include <string>

#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {

Graph bertBase(const ModelArgs& args) {
  constexpr int64_t kVocab = 30522, kPositions = 512, kHeadDim = 64;
  const int64_t width = args.hidden, layers = args.layers, heads = width / kHeadDim, ffn = 4 * width;
  const int64_t b = args.batch, s = args.seqLen, tokens = b * s;
  const int64_t predictions = (s * 15 + 99) / 100;  // max_predictions_per_seq: 20 at 128
  Net net("bert_base");
  TensorId ids = net.input("input_ids", {b, s}, DType::I32);
  TensorId types = net.input("token_type_ids", {b, s}, DType::I32);
  TensorId mask = net.input("input_mask", {b, s}, DType::I32);
  TensorId mlmPositions = net.input("masked_lm_positions", {b * predictions}, DType::I32);

  TensorId x, wordTable, maskAdder;
  {
    Net::Scope es(net, "embeddings");
    wordTable = net.param("word_embeddings", {kVocab, width});
    TensorId typeTable = net.param("token_type_embeddings", {2, width});
    TensorId posTable = net.param("position_embeddings", {kPositions, width});
    TensorId e = gather(net, wordTable, ids);
    TensorId te = gather(net, typeTable, types);
    TensorId pe = net.op("Slice", {posTable}, {s, width}, 0, s * width * 4);
    e = binary(net, "Add", e, te);
    e = binary(net, "Add", e, pe);
    e = layerNorm(net, e);
    x = reshape(net, e, {tokens, width});
  }
  {
    Net::Scope ms(net, "attention_mask");  // (1 - mask) * -10000, broadcast over heads and queries
    maskAdder = net.op("Mul", {mask}, {b, 1, 1, s}, static_cast<double>(2 * b * s));
  }
  for (int64_t l = 0; l < layers; ++l) {
    Net::Scope ls(net, "encoder/layer", l);
    TensorId ctx;
    {
      Net::Scope as(net, "attention/self");
      TensorId qkv[3];
      const char* names[3] = {"query", "key", "value"};
      for (int i = 0; i < 3; ++i) {
        Net::Scope ns(net, names[i]);
        qkv[i] = dense(net, x, width);
        qkv[i] = net.op("Transpose", {qkv[i]}, {b, heads, s, kHeadDim}, 0);  // reshape + transpose
      }
      TensorId scores = batchMatmul(net, qkv[0], qkv[1], {b, heads, s, s}, kHeadDim);
      scores = unary(net, "Mul", scores);  // 1/sqrt(head dim)
      scores = binary(net, "Add", scores, maskAdder);
      TensorId probs = softmax(net, scores);
      ctx = batchMatmul(net, probs, qkv[2], {b, heads, s, kHeadDim}, s);
      ctx = net.op("Transpose", {ctx}, {tokens, width}, 0);
    }
    TensorId a;
    {
      Net::Scope os(net, "attention/output");
      a = dense(net, ctx, width);
      a = binary(net, "Add", a, x);
      a = layerNorm(net, a);
    }
    TensorId h;
    {
      Net::Scope is(net, "intermediate");
      h = dense(net, a, ffn);
      h = unary(net, "Gelu", h, 8);
    }
    Net::Scope os(net, "output");
    h = dense(net, h, width);
    h = binary(net, "Add", h, a);
    x = layerNorm(net, h);
  }
  TensorId pooled;
  {
    Net::Scope ps(net, "pooler");
    TensorId first = net.op("StridedSlice", {x}, {b, width}, 0, b * width * 4);
    pooled = dense(net, first, width);
    pooled = unary(net, "Tanh", pooled);
  }
  {
    Net::Scope ns(net, "cls/seq_relationship");
    dense(net, pooled, 2);
  }
  Net::Scope ps(net, "cls/predictions");
  TensorId m = gather(net, x, mlmPositions);
  {
    Net::Scope ts(net, "transform");
    m = dense(net, m, width);
    m = unary(net, "Gelu", m, 8);
    m = layerNorm(net, m);
  }
  const double f = 2.0 * static_cast<double>(b * predictions) * width * kVocab;
  TensorId logits = net.op("MatMul", {m, wordTable}, {b * predictions, kVocab}, f);  // tied, transpose_b
  TensorId outBias = net.param("output_bias", {kVocab});
  binary(net, "BiasAdd", logits, outBias);
  return std::move(net).build();
}

Graph transformerXl(const ModelArgs& args) {
  constexpr int64_t kHeadDim = 64, kVocab = 204;
  const int64_t dModel = args.hidden, layers = args.layers, numHeads = dModel / kHeadDim, inner = 4 * dModel;
  const int64_t b = args.batch, q = args.seqLen, m = args.seqLen, k = q + m;  // mem_len = tgt_len
  Net net("transformer_xl");
  TensorId ids = net.input("input_ids", {q, b}, DType::I32);
  TensorId attnMask = net.input("attn_mask", {q, k});
  TensorId table, h, r;
  {
    Net::Scope es(net, "embedding");
    table = net.param("lookup_table", {kVocab, dModel});
    h = gather(net, table, ids);
    h = unary(net, "Mul", h);  // * sqrt(d_model)
  }
  {
    Net::Scope ps(net, "pos_emb");
    TensorId posSeq = net.input("pos_seq", {k});
    TensorId invFreq = net.input("inv_freq", {dModel / 2});
    TensorId sinusoid = net.op("Einsum", {posSeq, invFreq}, {k, dModel / 2}, static_cast<double>(k * dModel / 2));
    TensorId sinT = unary(net, "Sin", sinusoid);
    TensorId cosT = unary(net, "Cos", sinusoid);
    r = concat(net, {sinT, cosT}, 1);
  }
  TensorId rwBias = net.param("r_w_bias", {numHeads, kHeadDim});
  TensorId rrBias = net.param("r_r_bias", {numHeads, kHeadDim});
  const int64_t hd = numHeads * kHeadDim;
  for (int64_t l = 0; l < layers; ++l) {
    Net::Scope ls(net, "layer", l);
    TensorId mem = net.input("mems", {m, b, dModel});
    TensorId out;
    {
      Net::Scope as(net, "rel_attn");
      TensorId cat = concat(net, {mem, h}, 0);
      TensorId heads, rHeadK;
      {
        Net::Scope qs(net, "qkv");
        heads = matmul(net, cat, net.param("kernel", {dModel, 3 * hd}));
      }
      {
        Net::Scope rs(net, "r");
        rHeadK = matmul(net, r, net.param("kernel", {dModel, hd}));
      }
      auto qkv = split(net, heads, 3, -1);
      TensorId query = net.op("StridedSlice", {qkv[0]}, {q, b, hd}, 0, q * b * hd * 4);  // last tgt_len rows
      TensorId rwQ = binary(net, "Add", query, rwBias);
      TensorId ac = batchMatmul(net, rwQ, qkv[1], {q, k, b, numHeads}, kHeadDim);
      TensorId rrQ = binary(net, "Add", query, rrBias);
      TensorId bd = batchMatmul(net, rrQ, rHeadK, {q, k, b, numHeads}, kHeadDim);
      {
        Net::Scope ss(net, "rel_shift");
        bd = net.op("Pad", {bd}, {q, k + 1, b, numHeads}, 0);
        bd = net.op("StridedSlice", {bd}, {q, k, b, numHeads}, 0);
      }
      TensorId score = binary(net, "Add", ac, bd);
      score = unary(net, "Mul", score);                // * 1/sqrt(d_head)
      score = binary(net, "Sub", score, attnMask, 2);  // * (1 - mask) - 1e30 * mask
      TensorId prob = softmax(net, score);
      TensorId vec = batchMatmul(net, prob, qkv[2], {q, b, numHeads, kHeadDim}, k);
      vec = reshape(net, vec, {q, b, hd});
      {
        Net::Scope os(net, "o");
        out = matmul(net, vec, net.param("kernel", {hd, dModel}));
      }
      out = binary(net, "Add", out, h);
      out = layerNorm(net, out);
    }
    Net::Scope fs(net, "ff");
    TensorId f;
    {
      Net::Scope s1(net, "layer_1");
      f = dense(net, out, inner);
      f = unary(net, "Relu", f);
    }
    {
      Net::Scope s2(net, "layer_2");
      f = dense(net, f, dModel);
    }
    f = binary(net, "Add", f, out);
    h = layerNorm(net, f);
  }
  Net::Scope ss(net, "adaptive_softmax");
  const double f = 2.0 * static_cast<double>(q * b) * dModel * kVocab;
  TensorId logits = net.op("MatMul", {h, table}, {q, b, kVocab}, f);  // tied embedding
  binary(net, "BiasAdd", logits, net.param("bias", {kVocab}));
  return std::move(net).build();
}

}  // namespace gp::zoo

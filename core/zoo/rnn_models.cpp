// Recurrent workloads, unrolled over time as static TensorFlow graphs: one BasicLSTMCell
// (14 ops) per layer and time step, scoped "<model>/<encoder|decoder>/layer_L/step_T/lstm/...".
//   rnnlm: 2-layer LSTM language model (Zaremba et al. 2014, "large": 1500 units, 10k vocab).
//   nmt:   2-layer LSTM encoder-decoder with Bahdanau attention and input feeding
//          (tensorflow/nmt "standard" architecture; 1024 units, 32k vocab).
//   gnmt:  GNMT (Wu et al. 2016) as tensorflow/nmt builds it (gnmt_v2): 8 encoder layers
//          (bottom one bidirectional) and 8 decoder layers of 1024 units, residual
//          connections from layer 3 on, normed Bahdanau attention computed from the bottom
//          decoder layer and fed to every decoder layer, 32k vocab.
// The layer count (per side) and the units come from ModelArgs; the embeddings are as wide
// as the LSTMs.
#include <string>

#include "zoo/layers.h"
#include "zoo/models.h"

namespace gp::zoo {
namespace {

// Token ids [batch, steps] -> per-step embeddings [batch, dim].
std::vector<TensorId> embedSteps(Net& net, TensorId ids, int64_t vocab, int64_t dim) {
  Net::Scope s(net, "embedding");
  TensorId table = net.param("table", {vocab, dim});
  TensorId e = gather(net, table, ids);
  return unstack(net, e, 1);
}

LstmState zeroState(Net& net, int64_t batch, int64_t hidden) {
  return {net.input("zero_state_h", {batch, hidden}), net.input("zero_state_c", {batch, hidden})};
}

// One unidirectional LSTM layer over all steps in the current scope; xs become its outputs
// (plus the layer input when `residual`). Steps run backwards when `reverse`.
LstmState lstmLayer(Net& net, std::vector<TensorId>& xs, LstmState st, const LstmWeights& w, bool residual,
                    bool reverse = false) {
  const auto n = static_cast<int64_t>(xs.size());
  for (int64_t i = 0; i < n; ++i) {
    const int64_t t = reverse ? n - 1 - i : i;
    Net::Scope s(net, "step", t);
    st = lstmStep(net, {xs[t]}, st, w);
    xs[t] = residual ? binary(net, "Add", st.h, xs[t]) : st.h;
  }
  return st;
}

struct Attention {
  TensorId memory = kNone, keys = kNone, queryKernel = kNone, v = kNone;
};

// Bahdanau scoring against precomputed keys: MatMul, Add, Tanh, Mul, Sum, Softmax and the
// context BatchMatMul. Returns the context vector [batch, memDim].
TensorId bahdanau(Net& net, const Attention& a, TensorId query) {
  const int64_t b = net.dim(a.memory, 0), t = net.dim(a.memory, 1), d = net.dim(a.memory, 2);
  TensorId q = matmul(net, query, a.queryKernel);
  TensorId s = binary(net, "Add", a.keys, q);
  s = unary(net, "Tanh", s);
  s = binary(net, "Mul", s, a.v);
  s = reduce(net, "Sum", s, {b, t});
  TensorId align = softmax(net, s);
  return batchMatmul(net, align, a.memory, {b, d}, t);
}

// Keys (memory_layer), query_layer kernel and v in scope "attention".
Attention attentionParams(Net& net, TensorId memory, int64_t units, bool normed) {
  Net::Scope s(net, "attention");
  Attention a;
  a.memory = memory;
  {
    Net::Scope ms(net, "memory_layer");
    a.keys = dense(net, memory, units, false);
  }
  a.queryKernel = net.param("query_layer/kernel", {net.dim(memory, -1), units});
  a.v = net.param("attention_v", {units});
  if (normed) {  // v * g / |v|, with the score bias b folded into the keys
    Net::Scope ns(net, "normed_v");
    TensorId g = net.param("attention_g", {1});
    TensorId bias = net.param("attention_b", {units});
    TensorId sq = unary(net, "Square", a.v);
    TensorId norm = reduce(net, "Sum", sq, {1});
    norm = unary(net, "Rsqrt", norm);
    norm = binary(net, "Mul", norm, g);
    a.v = binary(net, "Mul", a.v, norm);
    a.keys = binary(net, "Add", a.keys, bias);
  }
  return a;
}

TensorId projectOutputs(Net& net, const std::vector<TensorId>& outs, int64_t vocab, bool bias) {
  Net::Scope s(net, "output_projection");
  TensorId y = stack(net, outs, 1);
  return dense(net, y, vocab, bias);
}

}  // namespace

Graph rnnlm(const ModelArgs& args) {
  constexpr int64_t kVocab = 10000;
  const int64_t units = args.hidden, layers = args.layers;
  const int batch = args.batch, steps = args.seqLen;
  Net net("rnnlm");
  TensorId ids = net.input("input_ids", {batch, steps}, DType::I32);
  std::vector<TensorId> xs = embedSteps(net, ids, kVocab, units);
  for (int64_t l = 1; l <= layers; ++l) {
    Net::Scope s(net, "layer", l);
    LstmWeights w = lstmWeights(net, units, units);
    lstmLayer(net, xs, zeroState(net, batch, units), w, false);
  }
  Net::Scope s(net, "softmax");
  TensorId y = stack(net, xs, 1);
  dense(net, y, kVocab, true);
  return std::move(net).build();
}

Graph nmt(const ModelArgs& args) {
  constexpr int64_t kVocab = 32000;
  const int64_t units = args.hidden, layers = args.layers;
  const int batch = args.batch, steps = args.seqLen;
  Net net("nmt");
  TensorId src = net.input("source_ids", {batch, steps}, DType::I32);
  TensorId tgt = net.input("target_ids", {batch, steps}, DType::I32);
  std::vector<LstmState> finals;
  TensorId memory;
  {
    Net::Scope es(net, "encoder");
    std::vector<TensorId> xs = embedSteps(net, src, kVocab, units);
    for (int64_t l = 1; l <= layers; ++l) {
      Net::Scope s(net, "layer", l);
      LstmWeights w = lstmWeights(net, units, units);
      finals.push_back(lstmLayer(net, xs, zeroState(net, batch, units), w, false));
    }
    Net::Scope os(net, "output");
    memory = stack(net, xs, 1);
  }
  Net::Scope ds(net, "decoder");
  std::vector<TensorId> ys = embedSteps(net, tgt, kVocab, units);
  Attention att = attentionParams(net, memory, units, false);
  TensorId attnKernel = net.param("attention/attention_layer/kernel", {2 * units, units});
  TensorId attn = net.input("attention/zero_attention", {batch, units});
  std::vector<LstmWeights> w;
  for (int64_t l = 1; l <= layers; ++l) {
    Net::Scope s(net, "layer", l);
    w.push_back(lstmWeights(net, l == 1 ? 2 * units : units, units));  // input feeding
  }
  std::vector<LstmState> st = finals;  // pass the encoder state
  std::vector<TensorId> outs;
  for (int64_t t = 0; t < steps; ++t) {
    TensorId x = ys[t];
    for (int64_t l = 0; l < layers; ++l) {
      Net::Scope s(net, "layer", l + 1);
      Net::Scope ts(net, "step", t);
      st[l] = lstmStep(net, l == 0 ? std::vector<TensorId>{x, attn} : std::vector<TensorId>{x}, st[l], w[l]);
      x = st[l].h;
    }
    Net::Scope as(net, "attention");
    Net::Scope ts(net, "step", t);
    TensorId ctx = bahdanau(net, att, x);
    TensorId cat = concat(net, {ctx, x}, 1);
    attn = unary(net, "Tanh", matmul(net, cat, attnKernel));
    outs.push_back(attn);
  }
  projectOutputs(net, outs, kVocab, false);
  return std::move(net).build();
}

Graph gnmt(const ModelArgs& args) {
  constexpr int64_t kVocab = 32000, kFirstResidual = 3;
  const int64_t units = args.hidden, layers = args.layers;  // layers >= 2 (makeZooModel)
  const int batch = args.batch, steps = args.seqLen;
  Net net("gnmt");
  TensorId src = net.input("source_ids", {batch, steps}, DType::I32);
  TensorId tgt = net.input("target_ids", {batch, steps}, DType::I32);
  std::vector<LstmState> finals;
  TensorId memory;
  {
    Net::Scope es(net, "encoder");
    std::vector<TensorId> xs = embedSteps(net, src, kVocab, units);
    {
      Net::Scope s(net, "layer", 1);  // bidirectional
      std::vector<TensorId> fw = xs, bw = xs;
      {
        Net::Scope ds(net, "fw");
        LstmWeights w = lstmWeights(net, units, units);
        lstmLayer(net, fw, zeroState(net, batch, units), w, false);
      }
      {
        Net::Scope ds(net, "bw");
        LstmWeights w = lstmWeights(net, units, units);
        finals.push_back(lstmLayer(net, bw, zeroState(net, batch, units), w, false, true));
      }
      for (int64_t t = 0; t < steps; ++t) {
        Net::Scope ts(net, "step", t);
        xs[t] = concat(net, {fw[t], bw[t]}, 1);
      }
    }
    for (int64_t l = 2; l <= layers; ++l) {
      Net::Scope s(net, "layer", l);
      LstmWeights w = lstmWeights(net, l == 2 ? 2 * units : units, units);
      finals.push_back(lstmLayer(net, xs, zeroState(net, batch, units), w, l >= kFirstResidual));
    }
    Net::Scope os(net, "output");
    memory = stack(net, xs, 1);
  }
  Net::Scope ds(net, "decoder");
  std::vector<TensorId> ys = embedSteps(net, tgt, kVocab, units);
  Attention att = attentionParams(net, memory, units, true);
  TensorId attn = net.input("attention/zero_attention", {batch, units});
  std::vector<LstmWeights> w;
  for (int64_t l = 1; l <= layers; ++l) {
    Net::Scope s(net, "layer", l);
    w.push_back(lstmWeights(net, 2 * units, units));  // [input, attention]
  }
  std::vector<LstmState> st = finals;  // pass the encoder state, layer by layer
  std::vector<TensorId> outs;
  for (int64_t t = 0; t < steps; ++t) {
    TensorId x = ys[t];
    for (int64_t l = 0; l < layers; ++l) {
      TensorId in = x;
      {
        Net::Scope s(net, "layer", l + 1);
        Net::Scope ts(net, "step", t);
        // the bottom layer reads the previous step's attention, the others this step's
        st[l] = lstmStep(net, {in, attn}, st[l], w[l]);
        x = l + 1 >= kFirstResidual ? binary(net, "Add", st[l].h, in) : st[l].h;
      }
      if (l == 0) {
        Net::Scope as(net, "attention");
        Net::Scope ts(net, "step", t);
        attn = bahdanau(net, att, x);
      }
    }
    outs.push_back(x);
  }
  projectOutputs(net, outs, kVocab, false);
  return std::move(net).build();
}

}  // namespace gp::zoo

// Decoder-only transformers as Hugging Face's config.json files describe them (Llama, Mistral,
// Mixtral, Qwen2, GPT-2, GPT-NeoX, GPT-J, Falcon), as forward graphs with real shapes and FLOPs
// and no weights. The modules are named as Hugging Face's Llama modules are, whatever the
// family: "embed_tokens" (+ "embed_positions" for a learned position table), one scope
// "layers/layer_N" per decoder layer with "input_layernorm", "self_attn/{q,k,v,o}_proj",
// "rotary_q" / "rotary_k", "repeat_kv", "post_attention_layernorm" and "mlp/{gate,up,down}_proj"
// (a GELU MLP has no gate_proj) or "block_sparse_moe/{gate,dispatch,experts,combine}", then
// "norm" and "lm_head" (a tied head multiplies by embed_tokens' table). The parameter count is
// the published one for every family's configs (tests/unit/core/hf_config_test.cpp); rotary
// embeddings are applied over whole heads (GPT-NeoX and GPT-J rotate a part of each head: a
// difference of a few element-wise FLOPs).
#pragma once
#include <cstdint>
#include <string>

#include "graph/graph.h"

namespace gp::zoo {

enum class DecoderResidual : uint8_t {
  Sequential,         // x += attn(norm1(x)); x += mlp(norm2(x))            (Llama, GPT-2)
  ParallelOneNorm,    // y = norm(x); x += attn(y) + mlp(y)                  (GPT-J, Falcon-7B)
  ParallelTwoNorms,   // x += attn(norm1(x)) + mlp(norm2(x))                 (GPT-NeoX, Falcon-40B)
};

struct DecoderConfig {
  std::string name;  // the graph's name (its root scope)
  int64_t hidden = 0, layers = 0, heads = 0, kvHeads = 0, headDim = 0, intermediate = 0, vocab = 0;
  int64_t maxPositions = 0;   // rows of a learned position table (learned positions only)
  int64_t experts = 0, expertsPerToken = 0;  // a top-k mixture of experts in every layer when experts > 0
  bool rmsNorm = true;        // RMSNorm (weight only), else LayerNorm (weight + bias)
  bool rotary = true;         // rotary positions, else a learned position table added to the embedding
  bool gatedMlp = true;       // SwiGLU (gate, up, down), else GELU (up, down)
  bool qkvBias = false;       // biases on q, k, v
  bool outputBias = false;    // bias on o_proj
  bool mlpBias = false;       // biases on the MLP's products
  DecoderResidual residual = DecoderResidual::Sequential;
  bool tiedEmbeddings = false;  // lm_head is embed_tokens' table
  bool lmHeadBias = false;
};

// The causal-LM forward graph for `batch` sequences of `seqLen` tokens. The config must be
// valid (hf_config.h checks the files it reads).
Graph decoderModel(const DecoderConfig& c, int64_t batch, int64_t seqLen);

}  // namespace gp::zoo

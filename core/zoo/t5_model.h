// T5 encoder-decoders (Raffel et al. 2020) as Hugging Face's T5ForConditionalGeneration builds
// them, as forward graphs with real shapes and FLOPs and no weights: a shared token embedding
// ("shared"), "encoder/block_N" and "decoder/block_N" of pre-norm sub-layers "layer_K" (RMS
// norms without bias, bias-free projections, unscaled attention over heads of d_kv with a
// relative position bias computed in block 0 of each stack and shared by its blocks; the
// decoder's blocks also attend to the encoder's output), a ReLU feed-forward "DenseReluDense"
// (wi, wo) or a gated GELU one (wi_0, wi_1, wo: T5 v1.1, mT5), final norms, and an output
// projection tied to the embedding (scaled by d_model^-0.5) or its own "lm_head". The
// decoder runs a quarter of the source's tokens.
#pragma once
#include <cstdint>
#include <string>

#include "graph/graph.h"

namespace gp::zoo {

struct T5Config {
  std::string name = "t5";
  int64_t dModel = 768, dKv = 64, heads = 12, dFf = 3072, layers = 12, decoderLayers = 12, vocab = 32128;
  int64_t buckets = 32;       // relative_attention_num_buckets
  bool gatedGelu = false;     // feed_forward_proj "gated-gelu"
  bool tiedEmbeddings = true;
};

Graph t5Model(const T5Config& c, int64_t batch, int64_t seqLen);

}  // namespace gp::zoo

// Hugging Face model configurations (config.json) as models: `hf:PATH/config.json`.
//
// model_type llama, mistral, mixtral, qwen2, gpt2, gpt_neox, gptj and falcon become decoders
// (zoo/decoder_model.h) with the config's width, layers, heads, key / value heads, head size,
// MLP size, vocabulary, tied embeddings, experts and experts per token, positions (learned or
// rotary), biases and residual form, as each family's Hugging Face modelling code builds them;
// t5 and mt5 become encoder-decoders (zoo/t5_model.h). The graph holds `batch` sequences
// (default 1) of `seqLen` tokens (default the config's maximum positions, at most 8192; T5: 512,
// its decoder a quarter of that); `layers` > 0 replaces the config's layer count (T5: of each
// stack). A sequence longer than the config's positions is an error only where they are a learned
// table (rotary positions extend to any length, as long-context training runs them).
#pragma once
#include <optional>
#include <string>

#include "graph/graph.h"
#include "zoo/decoder_model.h"
#include "zoo/t5_model.h"
#include "zoo/zoo.h"

namespace gp {

inline constexpr const char* kHfPrefix = "hf:";
bool isHfSpec(const std::string& spec);
// The config file a model spec names: "hf:PATH", or a .json file whose start has a "model_type"
// and no "format" (ours: graphs, placements and clusters all say their format); "" otherwise.
std::string hfConfigPath(const std::string& spec);

struct HfModel {
  std::string modelType;  // the config's model_type
  zoo::DecoderConfig decoder;        // the decoder-only families
  std::optional<zoo::T5Config> t5;   // t5, mt5
  int64_t maxPositions = 0;  // max_position_embeddings / n_positions
};

// Throws gp::Error(source, problem) in one line naming the field: text that is not JSON, a
// model_type not listed above, a missing or non-positive size, heads that do not divide the
// width (without head_dim), key / value heads that do not divide the heads, more experts per
// token than experts.
HfModel parseHfConfig(const std::string& text, const std::string& source);

// The forward graph of `path`'s config under `params` (batch, seqLen, layers; hidden and seed
// are refused: the config sets the width).
Graph hfModel(const std::string& path, const ZooParams& params);

}  // namespace gp

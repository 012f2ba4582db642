// The zoo's generators (internal to core/zoo; use zoo/zoo.h). Arguments are validated by
// makeZooModel before these run, and every one is resolved (defaults applied).
#pragma once
#include <cstdint>
#include <string>

#include "graph/graph.h"

namespace gp::zoo {

struct ModelArgs {
  int batch = 0;
  int seqLen = 0;  // 0 for models without a sequence
  int layers = 0;  // 0 for models without the parameter
  int hidden = 0;
  uint64_t seed = 0;
  std::string name;  // the zoo name (for generators behind several entries: the GPT sizes)
};

Graph resnet50(const ModelArgs& a);  // layers = depth (26, 38, 50, 101, 152), hidden = base width
Graph inceptionV3(const ModelArgs& a);
Graph amoebanet(const ModelArgs& a);      // layers = N (normal cells per stack), hidden = F (filters)
Graph rnnlm(const ModelArgs& a);          // layers = LSTM layers, hidden = units
Graph nmt(const ModelArgs& a);            // layers = LSTM layers per side, hidden = units
Graph gnmt(const ModelArgs& a);           // layers = LSTM layers per side, hidden = units
Graph bertBase(const ModelArgs& a);       // layers = encoder layers, hidden = hidden size (64 per head)
Graph transformerXl(const ModelArgs& a);  // layers, hidden = d_model (64 per head)
Graph wavenet(const ModelArgs& a);        // layers = dilation layers per stack, hidden = residual channels
Graph randomDag(const ModelArgs& a);      // layers = depth, hidden = most parallel branches, seed
Graph gpt(const ModelArgs& a);            // GPT-3-style decoder named a.name; layers, hidden (128 per head)
Graph gptMoe(const ModelArgs& a);         // gpt with a 64-expert top-1 MoE in every other layer
Graph llamaDecoder(const ModelArgs& a);   // Llama 3 / Mixtral decoder named a.name; layers, hidden (128 per head)
Graph t5Base(const ModelArgs& a);         // layers = blocks per stack, hidden = d_model (64 per head)

}  // namespace gp::zoo

// Llama-family zoo decoders (decoder_model.h): Llama 3 8B / 70B / 405B and Mixtral 8x7B from
// their published config.json (cited in zoo.cpp's entries): pre-RMSNorm, bias-free grouped-query
// attention with heads of 128 and rotary positions, a SwiGLU MLP or (Mixtral) a top-2 mixture of
// 8 SwiGLU experts, an untied lm_head. A width other than the published one keeps heads of 128,
// the query heads per key / value head and the MLP's ratio to the width.
#include <string>

#include "base/error.h"
#include "zoo/decoder_model.h"
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

}  // namespace

Graph llamaDecoder(const ModelArgs& a) {
  const LlamaShape& shape = shapeOf(a.name);
  DecoderConfig c;
  c.name = a.name;
  c.hidden = a.hidden;
  c.layers = a.layers;
  c.headDim = kHeadDim;
  c.heads = a.hidden / kHeadDim;
  c.kvHeads = c.heads / (shape.heads / shape.kvHeads);
  c.intermediate = shape.intermediate * a.hidden / shape.hidden;
  c.vocab = shape.vocab;
  c.experts = shape.experts;
  c.expertsPerToken = shape.expertsPerToken;
  return decoderModel(c, a.batch, a.seqLen);
}

}  // namespace gp::zoo

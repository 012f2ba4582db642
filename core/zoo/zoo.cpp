#include "zoo/zoo.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/error.h"
#include "zoo/models.h"

namespace gp {
namespace {

// The values a size parameter (layers, hidden) may take besides 0 (the default).
struct Range {
  int min = 0, max = 0;      // max 0: the model does not take the parameter
  int multiple = 1;          // values must be multiples of it
  std::vector<int> choices;  // non-empty: only these values
  const char* meaning = "";  // what it sets, for messages: "the depth"
};

struct Model {
  ZooEntry entry;
  int maxSeqLen;  // 0 for models without a sequence
  Range layers, hidden;
  bool takesSeed;
  Graph (*make)(const zoo::ModelArgs&);
};

constexpr int kMaxBatch = 1 << 16;

const Range kLstmLayers{1, 64, 1, {}, "LSTM layers"};
const Range kLstmUnits{1, 8192, 1, {}, "LSTM units"};
const Range kAttentionLayers{1, 128, 1, {}, "Transformer layers"};
const Range kAttentionHidden{64, 8192, 64, {}, "the model width, 64 per attention head"};
const Range kGptHidden{128, 32768, 128, {}, "the model width, 128 per attention head"};
constexpr int kGptMaxSeqLen = 32768;

const std::vector<Model>& models() {
  static const std::vector<Model> m = {
      {{"rnnlm",
        "2-layer LSTM language model, 1500 units, 10k vocabulary (Zaremba et al. 2014 'large'); "
        "defaults: batch 64 (ColocRL, Mirhoseini et al. 2017), 35 unrolled steps",
        64, 35, 2, 1500},
       500,
       kLstmLayers,
       kLstmUnits,
       false,
       zoo::rnnlm},
      {{"nmt",
        "2-layer LSTM encoder-decoder with Bahdanau attention, 1024 units, 32k vocabulary (ColocRL, "
        "Mirhoseini et al. 2017); defaults: batch 64, 50 source and 50 target steps",
        64, 50, 2, 1024},
       500,
       {1, 64, 1, {}, "LSTM layers per side"},
       kLstmUnits,
       false,
       zoo::nmt},
      {{"gnmt",
        "GNMT (Wu et al. 2016): 8 encoder (bottom bidirectional) + 8 decoder LSTM layers of 1024, residual "
        "from layer 3, normed Bahdanau attention, 32k vocabulary, as placed by HDP/GDP; defaults: batch 128 "
        "(tensorflow/nmt GNMT), 90 source and 90 target steps, which gives the ~64k-op training step of the "
        "size HDP/GDP report for GNMT-8",
        128, 90, 8, 1024},
       500,
       {2, 64, 1, {}, "LSTM layers per side"},
       kLstmUnits,
       false,
       zoo::gnmt},
      {{"inception_v3",
        "Inception-V3 (Szegedy et al. 2016), 299x299, no auxiliary head; default batch 32 (ColocRL, "
        "Mirhoseini et al. 2017)",
        32, 0},
       0,
       {},
       {},
       false,
       zoo::inceptionV3},
      {{"amoebanet",
        "AmoebaNet-A (Real et al. 2019), N=6, F=190, 331x331, as in tensorflow/tpu amoeba_net, no auxiliary "
        "head; default batch 32",
        32, 0, 6, 190},
       0,
       {1, 32, 1, {}, "N, normal cells per stack"},
       {16, 1024, 1, {}, "F, the filters of the first stack"},
       false,
       zoo::amoebanet},
      {{"transformer_xl",
        "Transformer-XL base for enwik8 (Dai et al. 2019): 12 layers, d_model 512, 8 heads, FFN 2048, "
        "memory = segment length; defaults: batch 22, segment 512",
        22, 512, 12, 512},
       8192,
       kAttentionLayers,
       kAttentionHidden,
       false,
       zoo::transformerXl},
      {{"wavenet",
        "WaveNet (van den Oord et al. 2016), 2 stacks of 10 dilated causal conv layers (dilation 1..512), "
        "32 residual / 512 skip channels, 256-way output (GDP, Zhou et al. 2019; ibab/tensorflow-wavenet "
        "sizes); defaults: batch 1, 100000 samples",
        1, 100000, 10, 32},
       1 << 24,
       {1, 20, 1, {}, "dilation layers per stack"},
       {1, 1024, 1, {}, "residual channels"},
       false,
       zoo::wavenet},
      {{"resnet50", "ResNet-50 v1.5 (He et al. 2016), 224x224; default batch 32 (the paper's 256 over 8 GPUs)", 32, 0,
        50, 64},
       0,
       {26, 152, 1, {26, 38, 50, 101, 152}, "the depth"},
       {8, 1024, 1, {}, "the base width"},
       false,
       zoo::resnet50},
      {{"bert_base",
        "BERT-base (Devlin et al. 2019) with masked-LM and next-sentence heads: 12 layers, 768 hidden, 12 "
        "heads; defaults: batch 256, sequence 128 (the paper's pre-training phase 1)",
        256, 128, 12, 768},
       512,
       kAttentionLayers,
       kAttentionHidden,
       false,
       zoo::bertBase},
      {{"random_dag",
        "Random layered network (generated, not a paper's workload): an image, sequence or hybrid trunk of "
        "layers of 1..hidden parallel branches (conv/BN/ReLU, separable, pooling, gated, squeeze-excite, MLP, "
        "attention, LayerNorm blocks) merged by AddN or ConcatV2 + projection, with residual and skip Adds; "
        "defaults: batch 16, 40 layers, up to 4 branches, seed 1",
        16, 0, 40, 4, true},
       0,
       {1, 10000, 1, {}, "the depth"},
       {1, 32, 1, {}, "the most parallel branches per layer"},
       true,
       zoo::randomDag},
      {{"gpt_1_3b",
        "GPT-3 XL-sized decoder (Brown et al. 2020, Table 2.1): 24 layers, hidden 2048, 16 heads of 128, "
        "pre-LayerNorm, learned positions, GELU MLP 4h, causal self-attention, output tied to the embedding, "
        "vocabulary 50257 padded to 50304 (Megatron-LM); 1.32 B parameters; defaults: batch 512 (the paper's "
        "1M-token batch), sequence 2048",
        512, 2048, 24, 2048, false, true},
       kGptMaxSeqLen,
       kAttentionLayers,
       kGptHidden,
       false,
       zoo::gpt},
      {{"gpt_6_7b",
        "GPT-3 6.7B decoder (Brown et al. 2020, Table 2.1): 32 layers, hidden 4096, 32 heads of 128, otherwise "
        "as gpt_1_3b (vocabulary 50257 padded to 50304); 6.66 B parameters; defaults: batch 1024 (the paper's "
        "2M-token batch), sequence 2048",
        1024, 2048, 32, 4096, false, true},
       kGptMaxSeqLen,
       kAttentionLayers,
       kGptHidden,
       false,
       zoo::gpt},
      {{"gpt_13b",
        "GPT-3 13B decoder (Brown et al. 2020, Table 2.1): 40 layers, 40 heads of 128, hidden 5120 (the "
        "table's 5140 is not 40 x 128; OPT-13B and Megatron-LM use 5120), otherwise as gpt_1_3b (vocabulary "
        "50257 padded to 50304); 12.85 B parameters; defaults: batch 1024 (the paper's 2M-token batch), "
        "sequence 2048",
        1024, 2048, 40, 5120, false, true},
       kGptMaxSeqLen,
       kAttentionLayers,
       kGptHidden,
       false,
       zoo::gpt},
      {{"gpt_30b",
        "OPT-30B's shape (Zhang et al. 2022, Table 1: 48 layers, hidden 7168, 56 heads of 128) as a GPT-3-style "
        "decoder like gpt_1_3b (GELU, vocabulary 50257 padded to 50304; OPT itself uses ReLU and 50272); "
        "29.98 B parameters; defaults: batch 2048 (OPT's 4M-token batch), sequence 2048",
        2048, 2048, 48, 7168, false, true},
       kGptMaxSeqLen,
       kAttentionLayers,
       kGptHidden,
       false,
       zoo::gpt},
      {{"gpt_175b",
        "GPT-3 175B (Brown et al. 2020, Table 2.1): 96 layers, hidden 12288, 96 heads of 128, otherwise as "
        "gpt_1_3b (vocabulary 50257 padded to 50304); 174.6 B parameters; defaults: batch 1536 (the paper's "
        "3.2M-token batch as Megatron-LM runs it), sequence 2048",
        1536, 2048, 96, 12288, false, true},
       kGptMaxSeqLen,
       kAttentionLayers,
       kGptHidden,
       false,
       zoo::gpt},
      {{"t5_base",
        "T5 v1.0 base encoder-decoder (Raffel et al. 2020; Hugging Face t5-base config): 12 + 12 blocks, "
        "d_model 768, 12 heads of 64, d_ff 3072 with ReLU, RMS layer norms, relative position bias (32 "
        "buckets), vocabulary 32128, shared embedding tied to the output; 222.9 M parameters; defaults: batch "
        "128 (the paper's pre-training), encoder sequence 512, decoder sequence seq_len / 4 = 128",
        128, 512, 12, 768, false, true},
       8192,
       {1, 128, 1, {}, "blocks per stack, encoder and decoder"},
       kAttentionHidden,
       false,
       zoo::t5Base},
      {{"moe_1_3b_64e",
        "gpt_1_3b with a top-1 Switch-style mixture of 64 experts (capacity factor 1.0) in place of every "
        "other layer's MLP (DeepSpeed-MoE '1.3B+MoE', Rajbhandari et al. 2022, with 64 experts instead of "
        "128): 26.7 B parameters, 1.32 B active per token; defaults: batch 512, sequence 2048",
        512, 2048, 24, 2048, false, true},
       kGptMaxSeqLen,
       {2, 128, 1, {}, "decoder layers, every other one a mixture of experts"},
       kGptHidden,
       false,
       zoo::gptMoe},
      {{"llama3_8b",
        "Llama 3 8B (Meta 2024; meta-llama/Meta-Llama-3-8B config.json): 32 layers, hidden 4096, 32 query "
        "heads of 128 sharing 8 key / value heads (grouped-query attention), rotary positions, RMSNorm, "
        "SwiGLU MLP 14336, vocabulary 128256, output not tied to the embedding; 8.03 B parameters; "
        "defaults: batch 512, sequence 8192 (4M tokens)",
        512, 8192, 32, 4096, false, true},
       8192,
       {1, 256, 1, {}, "decoder layers"},
       {512, 32768, 512, {}, "the model width, heads of 128, 4 per key / value head"},
       false,
       zoo::llamaDecoder},
      {{"llama3_70b",
        "Llama 3 70B (Meta 2024; meta-llama/Meta-Llama-3-70B config.json): 80 layers, hidden 8192, 64 query "
        "heads of 128 sharing 8 key / value heads, SwiGLU MLP 28672, otherwise as llama3_8b; 70.55 B "
        "parameters; defaults: batch 512, sequence 8192 (4M tokens)",
        512, 8192, 80, 8192, false, true},
       8192,
       {1, 256, 1, {}, "decoder layers"},
       {1024, 32768, 1024, {}, "the model width, heads of 128, 8 per key / value head"},
       false,
       zoo::llamaDecoder},
      {{"llama3_405b",
        "Llama 3.1 405B (Llama 3 paper, Dubey et al. 2024, Table 3; meta-llama/Llama-3.1-405B config.json): "
        "126 layers, hidden 16384, 128 query heads of 128 sharing 8 key / value heads, SwiGLU MLP 53248, "
        "otherwise as llama3_8b; 405.85 B parameters; defaults: batch 2048, sequence 8192 (the paper's "
        "16M-token batch of its last pre-training stage)",
        2048, 8192, 126, 16384, false, true},
       131072,
       {1, 256, 1, {}, "decoder layers"},
       {2048, 32768, 2048, {}, "the model width, heads of 128, 16 per key / value head"},
       false,
       zoo::llamaDecoder},
      {{"mixtral_8x7b",
        "Mixtral 8x7B (Jiang et al. 2024; mistralai/Mixtral-8x7B-v0.1 config.json): 32 layers, hidden 4096, "
        "32 query heads of 128 sharing 8 key / value heads, rotary positions, RMSNorm, a top-2 mixture of 8 "
        "SwiGLU experts of 14336 in every layer (capacity factor 1.0), vocabulary 32000; 46.70 B parameters, "
        "12.9 B active per token; defaults: batch 1024, sequence 4096 (4M tokens)",
        1024, 4096, 32, 4096, false, true},
       32768,
       {1, 256, 1, {}, "decoder layers, each a mixture of experts"},
       {512, 32768, 512, {}, "the model width, heads of 128, 4 per key / value head"},
       false,
       zoo::llamaDecoder},
  };
  return m;
}

std::string rangeText(const Range& r) {
  std::string t;
  if (r.choices.empty()) {
    t = std::to_string(r.min) + ".." + std::to_string(r.max);
    if (r.multiple > 1) t += " in steps of " + std::to_string(r.multiple);
  } else {
    for (int c : r.choices) {
      if (!t.empty()) t += '/';
      t += std::to_string(c);
    }
  }
  return t;
}

// "batch, seq_len 1..500, layers 1..64 (LSTM layers), hidden 1..8192 (LSTM units)"
std::string parameterText(const Model& m) {
  std::string t = "batch";
  if (m.maxSeqLen > 0) t += ", seq_len 1.." + std::to_string(m.maxSeqLen);
  if (m.layers.max > 0) t += ", layers " + rangeText(m.layers) + " (" + m.layers.meaning + ")";
  if (m.hidden.max > 0) t += ", hidden " + rangeText(m.hidden) + " (" + m.hidden.meaning + ")";
  if (m.takesSeed) t += ", seed (any; 0 = 1)";
  return t;
}

// The names of the parameters a model takes, for the error about one it does not.
std::string parameterNames(const Model& m) {
  std::string t = "batch";
  if (m.maxSeqLen > 0) t += ", seq_len";
  if (m.layers.max > 0) t += ", layers";
  if (m.hidden.max > 0) t += ", hidden";
  if (m.takesSeed) t += ", seed";
  return t;
}

// A size parameter: 0 resolves to `fallback`; anything else must lie in `r`.
int resolve(const Model& m, const std::string& source, const char* what, int value, const Range& r, int fallback) {
  if (value == 0) return fallback;
  if (r.max == 0)
    throw Error(source, std::string(what) + " is not a parameter of " + m.entry.name +
                            " (it takes: " + parameterNames(m) + ")");
  const bool listed = r.choices.empty() || std::find(r.choices.begin(), r.choices.end(), value) != r.choices.end();
  if (value < r.min || value > r.max || value % r.multiple != 0 || !listed)
    throw Error(source, std::string(what) + " (" + r.meaning + ") must be " + (r.choices.empty() ? "" : "one of ") +
                            rangeText(r) + " (got " + std::to_string(value) + ")");
  return value;
}

}  // namespace

const std::vector<ZooEntry>& zooModels() {
  static const std::vector<ZooEntry> entries = [] {
    std::vector<ZooEntry> e;
    for (const Model& m : models()) {
      e.push_back(m.entry);
      e.back().parameters = parameterText(m);
    }
    return e;
  }();
  return entries;
}

Graph makeZooModel(const std::string& name, const ZooParams& params) {
  const std::string source = "zoo:" + name;
  const Model* model = nullptr;
  for (const Model& m : models())
    if (m.entry.name == name) model = &m;
  if (!model) {
    std::string known;
    for (const Model& m : models()) known += (known.empty() ? "" : ", ") + m.entry.name;
    throw Error(source, "unknown zoo model (known: " + known + ")");
  }
  if (params.batch < 0 || params.batch > kMaxBatch)
    throw Error(source, "batch size must be between 1 and " + std::to_string(kMaxBatch) + " (got " +
                            std::to_string(params.batch) + ")");
  if (params.seqLen < 0)
    throw Error(source, "sequence length must be positive (got " + std::to_string(params.seqLen) + ")");
  zoo::ModelArgs args;
  args.batch = params.batch ? params.batch : model->entry.defaultBatch;
  if (model->maxSeqLen > 0) {
    args.seqLen = params.seqLen ? params.seqLen : model->entry.defaultSeqLen;
    if (args.seqLen > model->maxSeqLen)
      throw Error(source, "sequence length must be at most " + std::to_string(model->maxSeqLen) + " (got " +
                              std::to_string(args.seqLen) + ")");
  }
  args.layers = resolve(*model, source, "layers", params.layers, model->layers, model->entry.defaultLayers);
  args.hidden = resolve(*model, source, "hidden", params.hidden, model->hidden, model->entry.defaultHidden);
  if (params.seed != 0 && !model->takesSeed)
    throw Error(source, "seed is not a parameter of " + name + " (it takes: " + parameterNames(*model) + ")");
  args.seed = params.seed ? params.seed : 1;
  args.name = name;
  return model->make(args);
}

}  // namespace gp

#include "zoo/zoo.h"

#include <string>

#include "graph/error.h"
#include "zoo/models.h"

namespace gp {
namespace {

struct Model {
  ZooEntry entry;
  int maxSeqLen;  // 0 for models without a sequence
  Graph (*make)(int batch, int seqLen);
};

constexpr int kMaxBatch = 1 << 16;

Graph resnet50(int b, int) {
  return zoo::resnet50(b);
}
Graph inceptionV3(int b, int) {
  return zoo::inceptionV3(b);
}
Graph amoebanet(int b, int) {
  return zoo::amoebanet(b);
}

const std::vector<Model>& models() {
  static const std::vector<Model> m = {
      {{"rnnlm",
        "2-layer LSTM language model, 1500 units, 10k vocabulary (Zaremba et al. 2014 'large'); "
        "defaults: batch 64 (ColocRL, Mirhoseini et al. 2017), 35 unrolled steps",
        64, 35},
       500,
       zoo::rnnlm},
      {{"nmt",
        "2-layer LSTM encoder-decoder with Bahdanau attention, 1024 units, 32k vocabulary (ColocRL, "
        "Mirhoseini et al. 2017); defaults: batch 64, 50 source and 50 target steps",
        64, 50},
       500,
       zoo::nmt},
      {{"gnmt",
        "GNMT (Wu et al. 2016): 8 encoder (bottom bidirectional) + 8 decoder LSTM layers of 1024, residual "
        "from layer 3, normed Bahdanau attention, 32k vocabulary, as placed by HDP/GDP; defaults: batch 128 "
        "(tensorflow/nmt GNMT), 90 source and 90 target steps, which gives the ~64k-op training step of the "
        "size HDP/GDP report for GNMT-8",
        128, 90},
       500,
       zoo::gnmt},
      {{"inception_v3",
        "Inception-V3 (Szegedy et al. 2016), 299x299, no auxiliary head; default batch 32 (ColocRL, "
        "Mirhoseini et al. 2017)",
        32, 0},
       0,
       inceptionV3},
      {{"amoebanet",
        "AmoebaNet-A (Real et al. 2019), N=6, F=190, 331x331, as in tensorflow/tpu amoeba_net, no auxiliary "
        "head; default batch 32",
        32, 0},
       0,
       amoebanet},
      {{"transformer_xl",
        "Transformer-XL base for enwik8 (Dai et al. 2019): 12 layers, d_model 512, 8 heads, FFN 2048, "
        "memory = segment length; defaults: batch 22, segment 512",
        22, 512},
       8192,
       zoo::transformerXl},
      {{"wavenet",
        "WaveNet (van den Oord et al. 2016), 2 stacks of 10 dilated causal conv layers (dilation 1..512), "
        "32 residual / 512 skip channels, 256-way output (GDP, Zhou et al. 2019; ibab/tensorflow-wavenet "
        "sizes); defaults: batch 1, 100000 samples",
        1, 100000},
       1 << 24,
       zoo::wavenet},
      {{"resnet50", "ResNet-50 v1.5 (He et al. 2016), 224x224; default batch 32 (the paper's 256 over 8 GPUs)", 32, 0},
       0,
       resnet50},
      {{"bert_base",
        "BERT-base (Devlin et al. 2019) with masked-LM and next-sentence heads: 12 layers, 768 hidden, 12 "
        "heads; defaults: batch 256, sequence 128 (the paper's pre-training phase 1)",
        256, 128},
       512,
       zoo::bertBase},
  };
  return m;
}

}  // namespace

const std::vector<ZooEntry>& zooModels() {
  static const std::vector<ZooEntry> entries = [] {
    std::vector<ZooEntry> e;
    for (const Model& m : models()) e.push_back(m.entry);
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
  const int batch = params.batch ? params.batch : model->entry.defaultBatch;
  int seqLen = 0;
  if (model->maxSeqLen > 0) {
    seqLen = params.seqLen ? params.seqLen : model->entry.defaultSeqLen;
    if (seqLen > model->maxSeqLen)
      throw Error(source, "sequence length must be at most " + std::to_string(model->maxSeqLen) + " (got " +
                              std::to_string(seqLen) + ")");
  }
  return model->make(batch, seqLen);
}

}  // namespace gp

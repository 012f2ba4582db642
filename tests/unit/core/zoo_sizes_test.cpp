// Zoo models at sizes other than the papers': layers and hidden resize each model as
// documented, every variant is well-formed, opens as a training step and places on a random
// cluster; the explicit defaults give the paper-sized graph; bad sizes fail with one line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cluster/random_cluster.h"
#include "base/error.h"
#include "io/json_io.h"
#include "io/model_loader.h"
#include "placement/placer.h"
#include "zoo/zoo.h"
#include "graph_shapes.h"
#include "zoo_checks.h"

using namespace gp;
using gptest::outputShape;

namespace {

struct Variant {
  const char* name;
  ZooParams params;
};

// Two sizes per model (inception_v3 takes none; one per LLM generator: gpt_*, t5_base,
// moe_1_3b_64e, the dense and the mixture Llama-family decoders), small enough to keep the test fast.
const Variant kVariants[] = {
    {"rnnlm", {.batch = 2, .seqLen = 4, .layers = 1, .hidden = 64}},
    {"rnnlm", {.batch = 2, .seqLen = 4, .layers = 4, .hidden = 200}},
    {"nmt", {.batch = 2, .seqLen = 4, .layers = 1, .hidden = 128}},
    {"nmt", {.batch = 2, .seqLen = 4, .layers = 3, .hidden = 64}},
    {"gnmt", {.batch = 2, .seqLen = 4, .layers = 2, .hidden = 128}},
    {"gnmt", {.batch = 2, .seqLen = 4, .layers = 5, .hidden = 64}},
    {"inception_v3", {.batch = 1}},
    {"amoebanet", {.batch = 1, .layers = 1, .hidden = 16}},
    {"amoebanet", {.batch = 1, .layers = 2, .hidden = 48}},
    {"transformer_xl", {.batch = 1, .seqLen = 16, .layers = 2, .hidden = 128}},
    {"transformer_xl", {.batch = 1, .seqLen = 16, .layers = 5, .hidden = 256}},
    {"wavenet", {.batch = 1, .seqLen = 1000, .layers = 3, .hidden = 16}},
    {"wavenet", {.batch = 1, .seqLen = 1000, .layers = 12, .hidden = 64}},
    {"resnet50", {.batch = 1, .layers = 26, .hidden = 16}},
    {"resnet50", {.batch = 1, .layers = 101, .hidden = 32}},
    {"bert_base", {.batch = 1, .seqLen = 16, .layers = 2, .hidden = 128}},
    {"bert_base", {.batch = 1, .seqLen = 16, .layers = 3, .hidden = 256}},
    {"random_dag", {.batch = 2, .layers = 8, .hidden = 2, .seed = 5}},
    {"random_dag", {.batch = 2, .layers = 30, .hidden = 5, .seed = 6}},
    {"gpt_1_3b", {.batch = 1, .seqLen = 16, .layers = 2, .hidden = 256}},
    {"t5_base", {.batch = 1, .seqLen = 16, .layers = 2, .hidden = 128}},
    {"moe_1_3b_64e", {.batch = 1, .seqLen = 16, .layers = 4, .hidden = 128}},
    {"llama3_8b", {.batch = 1, .seqLen = 16, .layers = 2, .hidden = 512}},
    {"mixtral_8x7b", {.batch = 1, .seqLen = 16, .layers = 2, .hidden = 512}},
};

int countType(const Graph& g, std::string_view type) {
  int n = 0;
  for (OpId op = 0; op < g.numOps(); ++op) n += g.opType(op) == type;
  return n;
}

std::string errorOf(const std::string& name, ZooParams p) {
  try {
    makeZooModel(name, p);
  } catch (const Error& e) {
    EXPECT_EQ(e.source(), "zoo:" + name);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return e.problem();
  }
  return "";
}

}  // namespace

class ZooSizeTest : public ::testing::TestWithParam<size_t> {};

TEST_P(ZooSizeTest, WellFormedTrainsAndPlacesOnARandomCluster) {
  const Variant& v = kVariants[GetParam()];
  const Graph forward = makeZooModel(v.name, v.params);
  gptest::expectWellFormedZooGraph(forward, v.name);

  LoadOptions options;
  options.zoo = v.params;
  const Graph g = loadModel(std::string("zoo:") + v.name, options);  // zoo models: the training step
  EXPECT_GT(g.numOps(), 2 * forward.numOps());

  const Cluster c = randomCluster(GetParam() + 1);
  const CostModel cost(g, c);
  Simulator sim(cost);
  const PlacementResult r = runPlacement("expert", cost, sim);
  ASSERT_EQ(r.plan.device.size(), static_cast<size_t>(g.numOps()));
  for (int d : r.plan.device) {
    EXPECT_GE(d, 0);
    EXPECT_LT(d, c.numDevices());
  }
  EXPECT_GT(r.measurement.stepTime, 0);
  EXPECT_GE(r.measurement.stepTime, r.measurement.lowerBound * (1 - 1e-9));
}

INSTANTIATE_TEST_SUITE_P(Zoo, ZooSizeTest, ::testing::Range(size_t{0}, std::size(kVariants)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return std::string(kVariants[p.param].name) + "_" + std::to_string(p.param);
                         });

TEST(ZooSizes, ExplicitDefaultsGiveThePaperSizedGraph) {
  for (const ZooEntry& e : zooModels()) {
    SCOPED_TRACE(e.name);
    const ZooParams small{.batch = 1, .seqLen = e.defaultSeqLen ? 4 : 0};
    ZooParams explicitDefaults = small;
    explicitDefaults.layers = e.defaultLayers;
    explicitDefaults.hidden = e.defaultHidden;
    if (e.synthetic) explicitDefaults.seed = 1;
    if (e.name == "amoebanet" || e.name == "inception_v3") continue;  // large at any batch; no new paths
    EXPECT_EQ(graphToJson(makeZooModel(e.name, small)), graphToJson(makeZooModel(e.name, explicitDefaults)));
  }
}

TEST(ZooSizes, LayersAndHiddenResizeEachModel) {
  // ResNet: 3 convolutions per bottleneck block + 4 projection shortcuts + the stem = depth + 3
  for (int depth : {26, 38, 101, 152}) {
    const Graph g = makeZooModel("resnet50", {.batch = 1, .layers = depth, .hidden = 32});
    EXPECT_EQ(countType(g, "Conv2D"), depth + 3) << depth;
    EXPECT_EQ(outputShape(g, "resnet50/stem/conv1/Conv2D"), (std::vector<int64_t>{1, 112, 112, 32}));
    EXPECT_EQ(outputShape(g, "resnet50/stage4/block1/conv3/Conv2D"), (std::vector<int64_t>{1, 7, 7, 32 * 8 * 4}));
  }
  // Attention models: heads of 64, FFN 4x the width
  const Graph bert = makeZooModel("bert_base", {.batch = 1, .seqLen = 16, .layers = 3, .hidden = 256});
  EXPECT_EQ(countType(bert, "Softmax"), 3);
  EXPECT_EQ(outputShape(bert, "bert_base/encoder/layer_2/attention/self/Softmax"),
            (std::vector<int64_t>{1, 4, 16, 16}));
  EXPECT_EQ(outputShape(bert, "bert_base/encoder/layer_2/intermediate/MatMul"), (std::vector<int64_t>{16, 1024}));
  const Graph txl = makeZooModel("transformer_xl", {.batch = 1, .seqLen = 16, .layers = 2, .hidden = 128});
  EXPECT_EQ(countType(txl, "Softmax"), 2);
  EXPECT_EQ(outputShape(txl, "transformer_xl/layer_1/rel_attn/Softmax"), (std::vector<int64_t>{16, 32, 1, 2}));
  // LSTMs: one 14-op cell per layer and step; GNMT keeps its bidirectional bottom layer and
  // its residual connections from layer 3
  const Graph rnnlm = makeZooModel("rnnlm", {.batch = 2, .seqLen = 5, .layers = 3, .hidden = 100});
  EXPECT_EQ(countType(rnnlm, "Split"), 3 * 5);
  EXPECT_EQ(outputShape(rnnlm, "rnnlm/layer_3/step_4/lstm/MatMul"), (std::vector<int64_t>{2, 400}));
  const Graph gnmt = makeZooModel("gnmt", {.batch = 2, .seqLen = 5, .layers = 4, .hidden = 64});
  EXPECT_EQ(countType(gnmt, "Split"), (4 + 1 + 4) * 5);
  EXPECT_NE(gnmt.findOp("gnmt/encoder/layer_1/bw/step_0/lstm/MatMul"), kNone);
  EXPECT_NE(gnmt.findOp("gnmt/encoder/layer_3/step_2/Add"), kNone);
  EXPECT_EQ(gnmt.findOp("gnmt/encoder/layer_2/step_2/Add"), kNone);
  EXPECT_EQ(gnmt.findOp("gnmt/decoder/layer_5/step_0/lstm/MatMul"), kNone);
  // WaveNet: dilations 1..2^(layers-1) in each of the 2 stacks
  const Graph wavenet = makeZooModel("wavenet", {.batch = 1, .seqLen = 100, .layers = 4, .hidden = 16});
  EXPECT_NE(wavenet.findOp("wavenet/stack_2/dilation_8/filter/Conv2D"), kNone);
  EXPECT_EQ(wavenet.findOp("wavenet/stack_1/dilation_16/filter/Conv2D"), kNone);
  EXPECT_EQ(outputShape(wavenet, "wavenet/stack_1/dilation_2/dense/Conv2D"), (std::vector<int64_t>{1, 100, 16}));
  // AmoebaNet: 2 stem cells, 3 stacks of N normal cells, 2 reduction cells; F filters
  const Graph amoeba = makeZooModel("amoebanet", {.batch = 1, .layers = 2, .hidden = 32});
  int cells = 0;
  for (ScopeId s = 0; s < amoeba.numScopes(); ++s)
    cells += amoeba.scopeDepth(s) == 2 && amoeba.scopeName(s).find("cell_") != std::string::npos;
  EXPECT_EQ(cells, 2 + 3 * 2 + 2);
  EXPECT_EQ(outputShape(amoeba, "amoebanet/cell_0/beginning/1x1/Conv2D").back(), 32);
}

TEST(ZooSizes, BadSizesFailWithOneLine) {
  EXPECT_EQ(errorOf("inception_v3", {.layers = 5}), "layers is not a parameter of inception_v3 (it takes: batch)");
  EXPECT_EQ(errorOf("inception_v3", {.hidden = 5}), "hidden is not a parameter of inception_v3 (it takes: batch)");
  EXPECT_EQ(errorOf("resnet50", {.seed = 3}), "seed is not a parameter of resnet50 (it takes: batch, layers, hidden)");
  EXPECT_EQ(errorOf("rnnlm", {.seed = 3}),
            "seed is not a parameter of rnnlm (it takes: batch, seq_len, layers, hidden)");
  EXPECT_EQ(errorOf("resnet50", {.layers = 34}), "layers (the depth) must be one of 26/38/50/101/152 (got 34)");
  EXPECT_EQ(errorOf("bert_base", {.hidden = 100}),
            "hidden (the model width, 64 per attention head) must be 64..8192 in steps of 64 (got 100)");
  EXPECT_EQ(errorOf("transformer_xl", {.hidden = 32}),
            "hidden (the model width, 64 per attention head) must be 64..8192 in steps of 64 (got 32)");
  EXPECT_EQ(errorOf("rnnlm", {.layers = -1}), "layers (LSTM layers) must be 1..64 (got -1)");
  EXPECT_EQ(errorOf("nmt", {.hidden = 1 << 20}), "hidden (LSTM units) must be 1..8192 (got 1048576)");
  EXPECT_EQ(errorOf("gnmt", {.layers = 1}), "layers (LSTM layers per side) must be 2..64 (got 1)");
  EXPECT_EQ(errorOf("wavenet", {.layers = 21}), "layers (dilation layers per stack) must be 1..20 (got 21)");
  EXPECT_EQ(errorOf("random_dag", {.hidden = 33}),
            "hidden (the most parallel branches per layer) must be 1..32 (got 33)");
  EXPECT_EQ(errorOf("random_dag", {.layers = 10001}), "layers (the depth) must be 1..10000 (got 10001)");
  // sizes within range whose graph would be too large
  EXPECT_EQ(errorOf("gnmt", {.batch = 1, .seqLen = 500, .layers = 64, .hidden = 8}),
            "the graph would have more than 200000 ops; use fewer layers or a shorter sequence");
}

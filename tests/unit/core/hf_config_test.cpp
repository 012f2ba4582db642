// Hugging Face config.json files as models (`hf:PATH`): every family's published parameter count,
// the layer stack the parallel planner sees, and one-line errors for bad configs.
#include <gtest/gtest.h>

#include <filesystem>
#include <algorithm>
#include <fstream>
#include <iterator>

#include "base/error.h"
#include "cli_runner.h"
#include "io/hf_config.h"
#include "io/model_loader.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "parallel/parallel_plan.h"
#include "parallel/pipeline_sim.h"
#include "parallel/stage_cost.h"
#include "test_paths.h"

using namespace gp;

namespace {

int64_t parameters(const Graph& g) {
  int64_t n = 0;
  for (TensorId t = 0; t < g.numTensors(); ++t)
    if (g.tensorKind(t) == TensorKind::Parameter) n += g.tensorBytes(t) / 4;
  return n;
}

std::string config(const std::string& name) { return gptest::dataPath("hf/" + name + "/config.json"); }

std::string errorOf(const std::string& text, const ZooParams& params = {}) {
  const std::string path = (std::filesystem::temp_directory_path() / "gp_hf_config.json").string();
  std::ofstream(path) << text;
  try {
    hfModel(path, params);
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
    return what.substr(path.size() + 2);
  }
  return "no error";
}

}  // namespace

// The counts the models' publishers give (model cards, papers; Mixtral's, Llama 2's and
// StarCoder2's from their Hugging Face checkpoints), from the configs' sizes alone.
TEST(HfConfig, EveryFamilyHasItsPublishedParameterCount) {
  struct Case {
    const char* name;
    int64_t parameters;
  };
  for (const Case& c : {Case{"llama-2-7b", 6'738'415'616}, Case{"mistral-7b", 7'241'732'096},
                        Case{"mixtral-8x7b", 46'702'792'704}, Case{"qwen2-0.5b", 494'032'768},
                        Case{"qwen2-7b", 7'615'616'512}, Case{"gpt2", 124'439'808}, Case{"gpt2-xl", 1'557'611'200},
                        Case{"pythia-160m", 162'322'944}, Case{"gpt-neox-20b", 20'554'567'680},
                        Case{"falcon-7b", 6'921'720'704}, Case{"falcon-40b", 41'303'293'952},
                        Case{"starcoder2-3b", 3'030'371'328},
                        Case{"t5-small", 60'506'624}, Case{"t5-large", 737'668'096}, Case{"t5-v1_1-base", 247'577'856}}) {
    LoadOptions o;
    o.mode = GraphMode::Inference;
    o.zoo.seqLen = 64;
    const Graph g = loadModel("hf:" + config(c.name), o);
    EXPECT_EQ(parameters(g), c.parameters) << c.name;
  }
}

TEST(HfConfig, FamiliesGetTheirPositionsNormsBiasesAndResiduals) {
  auto read = [](const std::string& name) {
    std::ifstream in(config(name));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parseHfConfig(text, name).decoder;
  };
  const zoo::DecoderConfig gpt2 = read("gpt2"), neox = read("pythia-160m"), gptj = read("gpt-j-6b"),
                           falcon = read("falcon-7b"), qwen = read("qwen2-0.5b"), mixtral = read("mixtral-8x7b");
  EXPECT_EQ(gpt2.name, "gpt2");
  EXPECT_FALSE(gpt2.rotary || gpt2.rmsNorm || gpt2.gatedMlp);
  EXPECT_TRUE(gpt2.tiedEmbeddings && gpt2.qkvBias && gpt2.mlpBias);
  EXPECT_EQ(gpt2.intermediate, 4 * 768);
  EXPECT_EQ(neox.residual, zoo::DecoderResidual::ParallelTwoNorms);
  EXPECT_EQ(gptj.residual, zoo::DecoderResidual::ParallelOneNorm);
  EXPECT_TRUE(gptj.lmHeadBias && !gptj.qkvBias);
  EXPECT_EQ(falcon.kvHeads, 1);  // multi-query
  EXPECT_EQ(falcon.headDim, 64);
  EXPECT_TRUE(qwen.qkvBias && !qwen.outputBias && qwen.tiedEmbeddings);
  EXPECT_EQ(qwen.kvHeads, 2);
  EXPECT_EQ(mixtral.experts, 8);
  EXPECT_EQ(mixtral.expertsPerToken, 2);
  EXPECT_EQ(mixtral.name, "Mixtral-8x7B-v0.1");
}

TEST(HfConfig, TheLayerStackIsWhatTheConfigSays) {
  LoadOptions o;
  o.mode = GraphMode::Inference;
  o.zoo.seqLen = 256;
  struct Case {
    const char* name;
    int layers, heads, kvHeads;
  };
  for (const Case& c : {Case{"mistral-7b", 32, 32, 8}, Case{"gpt2", 12, 12, 12}, Case{"pythia-160m", 12, 12, 12},
                        Case{"gpt-j-6b", 28, 16, 16}, Case{"falcon-7b", 32, 71, 1}, Case{"mixtral-8x7b", 32, 32, 8},
                        Case{"t5-small", 12, 8, 8}}) {
    const char* name = c.name;
    const Graph g = loadModel("hf:" + config(name), o);
    const LayerStack st = detectLayerStack(g, name, 1);
    EXPECT_EQ(st.numLayers(), c.layers) << name;
    EXPECT_EQ(st.heads, c.heads) << name;
    EXPECT_EQ(st.kvHeads, c.kvHeads) << name;
    EXPECT_EQ(st.seqLen, 256) << name;
    ASSERT_FALSE(st.layers.empty());
    size_t cores = 0, causal = 0;
    for (const StackPart& l : st.layers) {
      cores += l.attention.size();
      for (const StackAttention& a : l.attention) causal += a.causal;
    }
    // One causal self-attention per decoder layer; T5's encoder blocks attend both ways and its
    // decoder blocks attend to the encoder as well.
    const bool t5 = std::string(name) == "t5-small";
    EXPECT_EQ(cores, t5 ? 18u : static_cast<size_t>(c.layers)) << name;
    EXPECT_EQ(causal, t5 ? 6u : static_cast<size_t>(c.layers)) << name;
    // o_proj and down_proj (or the experts'); T5's decoder blocks: o, the cross-attention's o, wo.
    EXPECT_EQ(st.layers.back().tpAllReducesForward, t5 ? 3 : 2) << name;
  }
  // Tensor parallelism splits the key / value heads too (Megatron-LM asserts it).
  const Graph falcon = loadModel("hf:" + config("falcon-40b"), o);
  const LayerStack st = detectLayerStack(falcon, "falcon-40b", 1);
  EXPECT_EQ(st.kvHeads, 8);
  EXPECT_TRUE(st.tpDivides(8));
  EXPECT_FALSE(st.tpDivides(16));
  // The spec's options shape the graph and its identity; the file's bytes too.
  LoadOptions other = o;
  other.zoo.batch = 2;
  EXPECT_NE(modelSha256("hf:" + config("gpt2"), o), modelSha256("hf:" + config("gpt2"), other));
  EXPECT_EQ(modelSha256("hf:" + config("gpt2"), o), modelSha256("hf:" + config("gpt2"), o));
  // A config.json opened as a file is the same model; our own JSON files stay ours.
  EXPECT_EQ(hfConfigPath(config("gpt2")), config("gpt2"));
  EXPECT_EQ(modelSha256(config("gpt2"), o), modelSha256("hf:" + config("gpt2"), o));
  EXPECT_EQ(loadModel(config("gpt2"), o).numOps(), loadModel("hf:" + config("gpt2"), o).numOps());
  const std::string ours = (std::filesystem::temp_directory_path() / "gp_hf_ours.json").string();
  std::ofstream(ours) << R"({"format": "graphplace-graph", "version": 1, "model_type": "llama"})";
  EXPECT_EQ(hfConfigPath(ours), "");
  std::filesystem::remove(ours);
}

// GPT-2 ties its output layer to the word embedding: split over a pipeline, the last stage keeps
// its own copy (as Megatron-LM does), so the stages hold the model's weights and the copy.
// Mistral's output layer is its own.
TEST(HfConfig, ATiedEmbeddingIsCopiedToThePipelinesLastStage) {
  LoadOptions o;
  o.mode = GraphMode::Inference;
  o.zoo.seqLen = 256;
  o.precision = Precision::BF16;
  const Graph gpt2 = loadModel("hf:" + config("gpt2"), o);
  const LayerStack st = detectLayerStack(gpt2, "gpt2", 1);
  EXPECT_EQ(st.epilogue.tiedParams, 50257 * 768);
  EXPECT_EQ(detectLayerStack(loadModel("hf:" + config("mistral-7b"), o), "mistral-7b", 1).epilogue.tiedParams, 0);
  const Cluster c = loadCluster("8xH100-NVSwitch");
  const CostModel cost(gpt2, c);
  const StageCostModel model(st, cost);
  ParallelPlan one;
  one.dp = 8, one.microbatches = 2;
  one.stages = evenStages(st.numLayers(), 1);
  ParallelPlan two = one;
  two.dp = 4, two.pp = 2;
  two.stages = evenStages(st.numLayers(), 2);
  const ParallelMeasurement a = simulateParallel(model, 16, one), b = simulateParallel(model, 16, two);
  ASSERT_TRUE(a.feasible && b.feasible) << a.problem << b.problem;
  const double bytes = trainingBytesFor(DType::BF16).weight;
  EXPECT_DOUBLE_EQ(a.memory[0].statics.weights, bytes * static_cast<double>(st.totalParams()));
  EXPECT_DOUBLE_EQ(b.memory[0].statics.weights + b.memory[1].statics.weights,
                   bytes * static_cast<double>(st.totalParams() + st.epilogue.tiedParams));
}

TEST(HfConfig, BadConfigsAreOneLineNamingTheField) {
  EXPECT_NE(errorOf("{\"model_type\": ").find("JSON"), std::string::npos);
  EXPECT_EQ(errorOf("[1, 2]"), "not a Hugging Face config.json (a JSON object with \"model_type\")");
  EXPECT_EQ(errorOf("{\"hidden_size\": 8}"), "\"model_type\" is missing: not a Hugging Face model config");
  EXPECT_EQ(errorOf("{\"model_type\": \"bloom\"}"),
            "model_type 'bloom' is not supported (llama, mistral, mixtral, qwen2, gpt2, gpt_neox, gptj, falcon, starcoder2, t5, mt5)");
  EXPECT_EQ(errorOf(R"({"model_type": "t5", "d_model": 64, "d_kv": 8, "num_heads": 8, "d_ff": 128, "num_layers": 2, )"
                    R"("vocab_size": 100, "feed_forward_proj": "gated-silu"})"),
            "\"feed_forward_proj\" = \"gated-silu\" is not supported (relu, gated-gelu)");
  const std::string llama =
      R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 2, "num_attention_heads": 32, )"
      R"("num_key_value_heads": 8, "vocab_size": 32000, "max_position_embeddings": 4096)";
  EXPECT_EQ(errorOf(llama + "}"), "\"intermediate_size\" is missing (model_type llama)");
  EXPECT_EQ(errorOf(llama + R"(, "intermediate_size": -5})"), "\"intermediate_size\" must be a positive integer, got -5");
  EXPECT_EQ(errorOf(llama + R"(, "intermediate_size": "big"})"), "\"intermediate_size\" must be a positive integer, got \"big\"");
  EXPECT_EQ(errorOf(llama + R"(, "intermediate_size": 100000000000})"), "\"intermediate_size\" = 100000000000 is beyond 16777216");
  std::string kv = llama;
  kv.replace(kv.find("\"num_key_value_heads\": 8"), 24, "\"num_key_value_heads\": 5");
  EXPECT_EQ(errorOf(kv + R"(, "intermediate_size": 64})"), "the 5 key / value heads do not divide the 32 attention heads");
  std::string heads = llama;
  heads.replace(heads.find("\"num_attention_heads\": 32"), 25, "\"num_attention_heads\": 48");
  kv = heads;
  kv.replace(kv.find("\"num_key_value_heads\": 8"), 24, "\"num_key_value_heads\": 48");
  EXPECT_EQ(errorOf(kv + R"(, "intermediate_size": 64})"),
            "the 48 attention heads do not divide the hidden size 4096 (and there is no \"head_dim\")");
  EXPECT_EQ(errorOf(llama + R"(, "intermediate_size": 64, "tie_word_embeddings": "yes"})"),
            "\"tie_word_embeddings\" must be true or false, got \"yes\"");
  // A learned position table bounds the sequence; rotary positions do not (long-context runs).
  EXPECT_EQ(errorOf(R"({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100, )"
                    R"("n_positions": 1024})", {1, 2048, 0, 0, 0}),
            "sequence length 2048 exceeds the config's 1024 positions");
  EXPECT_EQ(errorOf(llama + R"(, "intermediate_size": 64})", {1, 8192, 2, 0, 0}), "no error");
  EXPECT_EQ(errorOf(llama + R"(, "intermediate_size": 64})", {1, 16, 0, 256, 0}),
            "--hidden does not apply to a Hugging Face config (it sets the width)");
  EXPECT_EQ(errorOf(R"({"model_type": "mixtral", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, )"
                    R"("intermediate_size": 64, "vocab_size": 100, "num_local_experts": 2, "num_experts_per_tok": 3})"),
            "\"num_experts_per_tok\" = 3 exceeds the 2 experts");
  EXPECT_EQ(errorOf(R"({"model_type": "falcon", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, )"
                    R"("vocab_size": 100, "alibi": true})"),
            "\"alibi\": true (ALiBi positions) is not supported; rotary positions are");
}

TEST(HfConfig, ParallelizeTakesAConfig) {
  const gptest::CliRun r = gptest::runCli("parallelize hf:" + config("mistral-7b") +
                                          " --cluster 8xH100-NVSwitch --global-batch 64 --seq-len 4096 --method megatron --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"parameters\":7241732096"), std::string::npos) << r.out.substr(0, 400);
  // --layers shrinks the model for a quick look.
  const gptest::CliRun small = gptest::runCli("info hf:" + config("mistral-7b") + " --layers 2 --seq-len 128 --json");
  ASSERT_EQ(small.code, 0) << small.err;
  const gptest::CliRun bad = gptest::runCli("parallelize hf:" + gptest::dataPath("hf/none/config.json") +
                                            " --cluster 8xH100-NVSwitch --global-batch 64");
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

TEST(HfConfig, PlansSplitTheKeyValueHeadsEvenly) {
  LoadOptions o;
  o.mode = GraphMode::Inference;
  o.zoo.seqLen = 128;
  o.zoo.layers = 2;
  const Graph g = loadModel("hf:" + config("falcon-40b"), o);
  const LayerStack st = detectLayerStack(g, "falcon-40b", 1);
  Cluster c = loadCluster("2x8xH100-IB");
  ParallelPlan p;
  p.tp = 16, p.stages = evenStages(2, 1);
  EXPECT_EQ(parallelPlanProblem(st, c, 16, p), "tp = 16 does not divide the 8 key / value heads");
}

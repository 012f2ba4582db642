// Parallel training runs in the published corpus: a row's plan is simulated as parallelize
// simulates it and its figure (step seconds, tokens/s/GPU, TFLOP/s/GPU by the source's FLOP
// formula) follows from the step time exactly; the formulas match their closed forms; bad rows get
// one-line errors; "<N>x<FILE>" scales a cluster file; the shipped LLM rows all fit and stay
// within the bounds docs/simulator-fidelity.md reports.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "base/error.h"
#include "cli_runner.h"
#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "fidelity/fidelity.h"
#include "io/hf_config.h"
#include "io/model_loader.h"
#include "parallel/layer_stack.h"
#include "parallel/pipeline_sim.h"
#include "parallel/plan_knobs.h"
#include "parallel/prediction_band.h"
#include "test_paths.h"

using namespace gp;

namespace {

// A small GPT (4 layers, hidden 256, 8 heads, vocabulary 1000) in a corpus folder beside its rows.
constexpr const char* kTinyGpt =
    R"({"model_type": "gpt2", "n_layer": 4, "n_embd": 256, "n_head": 8, "vocab_size": 1000, "n_positions": 512})";

std::string parallelRow(const std::string& name, const std::string& unit, const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", "source": "hand-made", "split": "check", "hardware": "two DGX H100",
      "cluster": "2x8xH100-IB", "framework": "pytorch-eager", "precision": "bf16",
      "workload": {"model": "hf:models/tiny.json", "seq_len": 512, "global_batch": 32, "micro_batch": 2,
                   "plan": {"dp": 2, "tp": 4, "pp": 2, "sequence_parallel": true, "recompute": "selective"}},
      "unit": ")" + unit + R"(", "published": 100)" + extra + "}";
}

struct Corpus {
  std::filesystem::path dir;
  explicit Corpus(const std::vector<std::string>& rows) {
    dir = std::filesystem::temp_directory_path() / ("gp_parallel_fidelity_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "models");
    std::ofstream(dir / "models" / "tiny.json") << kTinyGpt;
    std::string text = R"({"format": "graphplace-published", "version": 1, "rows": [)";
    for (size_t i = 0; i < rows.size(); ++i) text += (i ? "," : "") + rows[i];
    std::ofstream(dir / "rows.json") << text << "]}";
  }
  std::string file() const { return (dir / "rows.json").string(); }
  ~Corpus() { std::filesystem::remove_all(dir); }
};

// The step of the rows' plan, simulated directly.
double tinyStep(const std::string& config) {
  LoadOptions lo;
  lo.mode = GraphMode::Inference;
  lo.precision = Precision::BF16;
  lo.zoo.batch = 1;
  lo.zoo.seqLen = 512;
  const Graph g = loadModel("hf:" + config, lo);
  const LayerStack st = detectLayerStack(g, config, 1);
  Cluster c = loadCluster("2x8xH100-IB");
  c.setFramework(frameworkPreset("pytorch-eager"));
  const CostModel cost(g, c);
  const StageCostModel model(st, cost);
  ParallelPlan p;
  p.dp = 2, p.tp = 4, p.pp = 2, p.microbatches = 8, p.sequenceParallel = true;
  p.stages = evenStages(st.numLayers(), 2, Recompute::Selective);
  const ParallelMeasurement m = simulateParallel(model, 32, p);
  EXPECT_TRUE(m.feasible) << m.problem;
  return m.stepTime;
}

}  // namespace

TEST(ParallelFidelity, FiguresFollowFromTheSimulatedStep) {
  Corpus c({parallelRow("secs", "s"), parallelRow("tokens", "tokens/s/GPU", R"(, "published_peak_memory_GiB": 2)"),
            parallelRow("tflops", "TFLOP/s/GPU", R"(, "flops": "megatron-core")"),
            parallelRow("tflops21", "TFLOP/s/GPU", R"(, "flops": "megatron-2021")")});
  const std::vector<PublishedRow> rows = loadPublishedCorpus(c.file());
  ASSERT_EQ(rows.size(), 4u);
  ASSERT_TRUE(rows[0].parallel);
  EXPECT_EQ(rows[0].parallel->plan.microbatches, 8);  // 32 / (dp 2 x micro-batch 2)
  EXPECT_EQ(rows[0].parallel->recompute, Recompute::Selective);
  EXPECT_EQ(rows[0].parallel->plan.schedule, PipeSchedule::OneFOneB);
  const FidelityReport r = runFidelity(rows);
  const double step = tinyStep((c.dir / "models" / "tiny.json").string());
  EXPECT_NEAR(*r.rows[0].simulated, step, 1e-12);
  EXPECT_NEAR(*r.rows[1].simulated, 32.0 * 512 / (step * 16), 1e-6);
  // Megatron-Core's count for a GPT (MHA, MLP 4h): 72 B s l h^2 (1 + s/6h + V/12lh)
  const double B = 32, s = 512, l = 4, h = 256, V = 1000;
  const double core = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
  EXPECT_NEAR(*r.rows[2].simulated, core / (step * 16) / 1e12, 1e-9);
  const double eq3 = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
  EXPECT_NEAR(*r.rows[3].simulated, eq3 / (step * 16) / 1e12, 1e-9);
  EXPECT_NEAR(r.rows[2].ratio, *r.rows[2].simulated / 100, 1e-12);
  // memory: the largest GPU's peak against the published one
  EXPECT_GT(r.rows[1].simulatedPeakGiB, 0);
  EXPECT_NEAR(r.rows[1].memoryRatio, r.rows[1].simulatedPeakGiB / 2, 1e-12);
  EXPECT_EQ(r.memoryRows, 1);
  EXPECT_EQ(r.memoryWorstRow, "tokens");
  // parallel rows are summarised apart from the single-machine ones
  EXPECT_EQ(r.parallelCheck.rows, 4);
  EXPECT_EQ(r.check.rows, 0);
}

TEST(ParallelFidelity, TheExactSearchIsAtLeastAsFastAsTheRunsPlanAndSaysWhatChanged) {
  Corpus c({parallelRow("secs", "s")});
  FidelityOptions o;
  o.searchSeconds = 60;
  const FidelityReport r = runFidelity(loadPublishedCorpus(c.file()), o);
  ASSERT_TRUE(r.rows[0].searched);
  const SearchedPlan& s = *r.rows[0].searched;
  ASSERT_TRUE(s.found);
  EXPECT_TRUE(s.complete);
  // the run's plan is in the search's space: its best is no slower
  EXPECT_GE(s.speedup, 1 - 1e-12);
  EXPECT_NEAR(s.speedup, r.rows[0].stepTime / s.stepTime, 1e-12);
  EXPECT_EQ(s.changes, planChanges(r.rows[0].plan, s.plan, 32));
  // without the option no search runs
  EXPECT_FALSE(runFidelity(loadPublishedCorpus(c.file())).rows[0].searched);
  const auto cli = gptest::runCli("fidelity --corpus " + c.file() + " --search-seconds 60");
  ASSERT_EQ(cli.code, 0) << cli.err;
  EXPECT_NE(cli.out.find("secs: "), std::string::npos) << cli.out;
  EXPECT_NE(gptest::runCli("fidelity --corpus " + c.file() + " --search-seconds -1").code, 0);
}

TEST(ParallelFidelity, PlanChangesNameEachKnobThatDiffers) {
  ParallelPlan a;
  a.dp = 4, a.tp = 2, a.pp = 2, a.microbatches = 8;
  a.stages = evenStages(8, 2, Recompute::Full);
  ParallelPlan b = a;
  EXPECT_EQ(planChanges(a, b, 64), "the same plan");
  b.tp = 4, b.dp = 2, b.microbatches = 4, b.zero = 1, b.sequenceParallel = true;
  b.stages = evenStages(8, 2, Recompute::None);
  b.stages[1].recompute = Recompute::Selective;
  // micro-batch sizes at batch 64: 64 / (4 x 8) = 2 -> 64 / (2 x 4) = 8
  EXPECT_EQ(planChanges(a, b, 64),
            "dp 4 -> 2, tp 2 -> 4, micro-batch 2 -> 8, zero 0 -> 1, sequence_parallel off -> on, recompute full -> mixed");
}

TEST(ParallelFidelity, MegatronCoreFormulaForGroupedQueryAndGatedMlps) {
  zoo::DecoderConfig d;
  d.layers = 2, d.hidden = 64, d.heads = 8, d.kvHeads = 2, d.headDim = 16, d.intermediate = 96, d.vocab = 500;
  d.gatedMlp = true;
  ParallelRun run;
  run.globalBatch = 3, run.seqLen = 128;
  // 12 B s l h^2 ((1 + g/a + s/h) q/h + f/h x 3/2 + V/2lh), q = a x head size = 128 = 2h
  const double expected = 12.0 * 3 * 128 * 2 * 64 * 64 * ((1 + 2.0 / 8 + 128.0 / 64) * 2 + 96.0 / 64 * 1.5 + 500.0 / (2 * 2 * 64));
  EXPECT_NEAR(stepFlops(FlopsFormula::MegatronCore, d, run), expected, expected * 1e-12);
  d.experts = 8, d.expertsPerToken = 2;  // top-2 of 8: two experts' MLPs per token
  const double moe = 12.0 * 3 * 128 * 2 * 64 * 64 * ((1 + 2.0 / 8 + 128.0 / 64) * 2 + 96.0 / 64 * 2 * 1.5 + 500.0 / (2 * 2 * 64));
  EXPECT_NEAR(stepFlops(FlopsFormula::MegatronCore, d, run), moe, moe * 1e-12);
}

TEST(ParallelFidelity, BadParallelRowsGetOneLineErrors) {
  struct Case {
    std::string row, expected;
  };
  auto withPlan = [](const std::string& plan, const std::string& extra = "", const std::string& unit = "s") {
    return R"({"name": "p", "source": "s", "split": "set", "hardware": "h", "cluster": "2x8xH100-IB",
        "framework": "pytorch-eager", "workload": {"model": "hf:models/tiny.json", "seq_len": 512,
        "global_batch": 32, "micro_batch": 2, "plan": )" + plan + "}, \"unit\": \"" + unit + "\", \"published\": 1" + extra + "}";
  };
  const std::string ok = R"({"dp": 2, "tp": 4, "pp": 2})";
  const std::vector<Case> cases{
      {withPlan(R"({"dp": 2, "tp": 4, "pp": 2, "microbatches": 8})"), "field 'microbatches' is derived"},
      {withPlan(R"({"dp": 3, "tp": 4, "pp": 2})"), "global_batch 32 is not a multiple of dp x micro_batch"},
      {withPlan(R"({"dp": 2, "pp": 2})"), "\"tp\""},
      {withPlan(R"({"dp": 2, "tp": 4, "pp": 2, "recompute": "some"})"), "some"},
      {withPlan(R"({"dp": 2, "tp": 4, "pp": 2, "stages": []})"), "field 'stages' is not taken"},
      {withPlan(ok, "", "images/s"), "a parallel run's 'unit' must be"},
      {withPlan(ok, "", "TFLOP/s/GPU"), "field 'flops' (how the source counts FLOPs) goes with unit"},
      {withPlan(ok, R"(, "flops": "megatron-core")"), "field 'flops' (how the source counts FLOPs) goes with unit"},
      {withPlan(ok, R"(, "flops": "palm")", "TFLOP/s/GPU"), "field 'flops' must be"},
      {withPlan(ok, R"(, "published_peak_memory_GiB": -1)"), "field 'published_peak_memory_GiB' must be a positive"},
      {withPlan(ok, R"(, "items_per_step": 3)"), "field 'items_per_step' is not for parallel runs"},
  };
  const std::string head = R"({"format": "graphplace-published", "version": 1, "rows": [)";
  for (const Case& c : cases) {
    try {
      parsePublishedCorpus(head + c.row + "]}", "c.json");
      ADD_FAILURE() << "accepted: " << c.row;
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(c.expected), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      EXPECT_EQ(m.rfind("c.json", 0), 0u) << m;
    }
  }
  // single-machine rows keep their units; the parallel fields are refused there
  const std::string gemm = R"({"name": "g", "source": "s", "split": "set", "hardware": "h", "cluster": "2xK80",
      "framework": "cuda", "workload": {"kernel": "gemm", "m": 1, "n": 1, "k": 1}, "unit": ")";
  EXPECT_THROW(parsePublishedCorpus(head + gemm + R"(tokens/s/GPU", "published": 1}]})", "c.json"), Error);
  EXPECT_THROW(parsePublishedCorpus(head + gemm + R"(ms", "flops": "megatron-core", "published": 1}]})", "c.json"), Error);
  // a TFLOP/s row's formula reads the model's config: a zoo model cannot say its shape that way
  const std::string zoo = R"({"name": "z", "source": "s", "split": "set", "hardware": "h", "cluster": "2x8xH100-IB",
      "framework": "pytorch-eager", "workload": {"model": "zoo:gpt_1_3b", "seq_len": 512, "global_batch": 32,
      "micro_batch": 2, "plan": {"dp": 16, "tp": 1, "pp": 1}}, "unit": "TFLOP/s/GPU", "flops": "megatron-core", "published": 1})";
  try {
    parsePublishedCorpus(head + zoo + "]}", "c.json");
    ADD_FAILURE() << "a zoo model with a FLOP formula was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs an hf: model"), std::string::npos) << e.what();
  }
}

// A sweep: layouts of one model on one GPU set as one table. Kendall's tau follows the
// published order against the simulated one, the pick is the fastest simulated layout not called
// over memory and its regret is its published time over the best; an out-of-memory row called
// over counts as called, a "fits" row has no figure and ranks nowhere.
TEST(ParallelFidelity, SweepsAreRankedAndTheirOutOfMemoryCallsCounted) {
  auto row = [](const std::string& name, const std::string& plan, const std::string& published,
                const std::string& workload = R"("seq_len": 512, "global_batch": 32, "micro_batch": 2)") {
    return R"({"name": ")" + name + R"(", "source": "hand-made", "split": "check", "hardware": "two DGX H100",
        "cluster": "2x8xH100-IB", "framework": "pytorch-eager", "precision": "bf16", "table": "sweep",
        "workload": {"model": "hf:models/tiny.json", )" + workload + R"(, "plan": )" + plan + R"(},
        "unit": "s", "published": )" + published + "}";
  };
  Corpus c({row("a", R"({"dp": 2, "tp": 4, "pp": 2})", "1"), row("b", R"({"dp": 16, "tp": 1, "pp": 1})", "1"),
            row("c", R"({"dp": 1, "tp": 8, "pp": 2})", "1"),
            row("oom", R"({"dp": 16, "tp": 1, "pp": 1, "attention": "unfused"})", R"("OOM")",
                R"("seq_len": 512, "global_batch": 65536, "micro_batch": 4096)"),
            row("fits", R"({"dp": 16, "tp": 1, "pp": 1, "zero": 1})", R"("fits")")});
  std::vector<PublishedRow> rows = loadPublishedCorpus(c.file());
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_TRUE(rows[3].ranOutOfMemory());
  EXPECT_TRUE(rows[4].ranWithoutFigure && !rows[4].ranOutOfMemory());
  FidelityReport r = runFidelity(rows);
  ASSERT_EQ(r.tables.size(), 1u);
  std::vector<double> steps;
  for (int i = 0; i < 3; ++i) steps.push_back(r.rows[static_cast<size_t>(i)].stepTime);
  EXPECT_EQ(r.rows[3].verdict.fit, MemoryFit::Over) << r.rows[3].verdict.text;
  EXPECT_GT(r.rows[3].stepTime, 0);  // simulated all the same
  // Published as simulated: tau 1, no regret; in the reverse order: tau -1, and the simulator's
  // pick (its fastest) is the published slowest.
  for (bool reversed : {false, true}) {
    for (int i = 0; i < 3; ++i) rows[static_cast<size_t>(i)].published = reversed ? 1 / steps[static_cast<size_t>(i)] : steps[static_cast<size_t>(i)];
    r = runFidelity(rows);
    const TableOrder& t = r.tables[0];
    EXPECT_TRUE(t.sweep);
    ASSERT_TRUE(t.tau);
    EXPECT_NEAR(*t.tau, reversed ? -1 : 1, 1e-12);
    // the pick: the fastest simulated of the rows not over memory ("fits" among them, "oom" not)
    size_t pick = 4;
    for (size_t i = 0; i < 3; ++i)
      if (steps[i] < r.rows[pick].stepTime && (pick == 4 || steps[i] < steps[pick])) pick = i;
    EXPECT_EQ(t.pick, r.rows[pick].row.name);
    if (pick == 4) {
      EXPECT_FALSE(t.regret);  // no figure to regret
    } else {
      ASSERT_TRUE(t.regret);
      double best = 1e300;
      for (size_t i = 0; i < 3; ++i) best = std::min(best, *rows[i].published);
      EXPECT_NEAR(*t.regret, *rows[pick].published / best - 1, 1e-9);
      EXPECT_NEAR(*t.regret, 0, reversed ? 1e300 : 1e-12);
    }
    EXPECT_EQ(t.ranOutOfMemory, 1);
    EXPECT_EQ(t.outOfMemoryCalled, 1);
    EXPECT_EQ(t.ranCalledOver, 0);
    EXPECT_FALSE(t.pickRanOutOfMemory);
    EXPECT_EQ(r.sweepsCheck.sweeps, 1);
    EXPECT_EQ(r.sweepsCheck.outOfMemoryCalled, 1);
  }
  // A published peak of the last rank is the last stage's.
  rows[0].parallel->peakMemoryGiB = 1;
  rows[0].parallel->peakMemoryLastRank = true;
  r = runFidelity(rows);
  EXPECT_NEAR(r.rows[0].memoryRatio, r.rows[0].simulatedPeakGiB, 1e-12);
}

TEST(ParallelFidelity, KendallTauIsTauB) {
  EXPECT_NEAR(*kendallTau({1, 2, 3, 4}, {10, 20, 30, 40}), 1, 1e-12);
  EXPECT_NEAR(*kendallTau({1, 2, 3, 4}, {4, 3, 2, 1}), -1, 1e-12);
  // one discordant pair of six: (5 - 1) / 6
  EXPECT_NEAR(*kendallTau({1, 2, 3, 4}, {1, 2, 4, 3}), 4.0 / 6, 1e-12);
  // ties on one side: tau-b = (C - D) / sqrt((n0 - t_a)(n0 - t_b)) = (5 - 0) / sqrt(6 x 5)
  EXPECT_NEAR(*kendallTau({1, 2, 3, 4}, {1, 1, 3, 4}), 5 / std::sqrt(30.0), 1e-12);
  EXPECT_FALSE(kendallTau({1}, {1}));
  EXPECT_FALSE(kendallTau({1, 1}, {1, 2}));
}

TEST(ParallelFidelity, SweepFieldsAreCheckedInOneLine) {
  const std::string head = R"({"format": "graphplace-published", "version": 1, "rows": [)";
  auto row = [](const std::string& name, const std::string& split, const std::string& extra) {
    return R"({"name": ")" + name + R"(", "source": "s", "split": ")" + split + R"(", "hardware": "h",
        "cluster": "2x8xH100-IB", "framework": "pytorch-eager", "workload": {"model": "hf:models/tiny.json",
        "seq_len": 512, "global_batch": 32, "micro_batch": 2, "plan": {"dp": 2, "tp": 4, "pp": 2}}, "unit": "s")" +
           extra + "}";
  };
  struct Case {
    std::string rows, expected;
  };
  const std::vector<Case> cases{
      {row("a", "set", R"(, "table": "t", "published": 1)") + "," + row("b", "check", R"(, "table": "t", "published": 2)"),
       "table 't' is split \"set\" in row 'a': a table's rows share one split"},
      {row("a", "set", R"(, "published": "fits")"), "a \"fits\" row needs a 'table'"},
      {row("a", "set", R"(, "published": "ran")"), "must be a positive number, \"OOM\" or \"fits\""},
      {row("a", "set", R"(, "published": 1, "published_peak_memory": "reserved")"), "'published_peak_memory_GiB', which is missing"},
      {row("a", "set", R"(, "published": 1, "published_peak_memory_GiB": 3, "published_peak_memory": "peak")"),
       "must be \"allocated\" or \"reserved\", optionally followed by \" last rank\""},
  };
  for (const Case& c : cases) {
    try {
      parsePublishedCorpus(head + c.rows + "]}", "c.json");
      ADD_FAILURE() << "accepted: " << c.rows;
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(c.expected), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
  }
  // a table spanning two files keeps one split too
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("gp_sweep_split_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.json") << head + row("a", "set", R"(, "table": "t", "published": 1)") + "]}";
  std::ofstream(dir / "b.json") << head + row("b", "check", R"(, "table": "t", "published": 2)") + "]}";
  try {
    loadPublishedCorpus(dir.string());
    ADD_FAILURE() << "a table split across files was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("table 't' is split \"set\" in row 'a' of "), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
  const std::vector<PublishedRow> ok = parsePublishedCorpus(
      head + row("a", "set", R"(, "published": 1, "published_peak_memory_GiB": 3, "published_peak_memory": "reserved last rank")") + "]}",
      "c.json");
  EXPECT_TRUE(ok[0].parallel->peakMemoryReserved && ok[0].parallel->peakMemoryLastRank);
}

TEST(ParallelFidelity, ServersOfAClusterFileAreScaledLikeAPreset) {
  const auto dir = std::filesystem::temp_directory_path() / ("gp_scaled_file_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "two-servers.json").string();
  std::filesystem::copy_file(std::filesystem::path(clusterResourceDir()) / "2x8xH100-IB.json", file,
                             std::filesystem::copy_options::overwrite_existing);
  const Cluster two = loadCluster(file);
  const Cluster many = loadCluster("6x" + file);
  EXPECT_EQ(two.numDevices(), 16);
  EXPECT_EQ(many.numDevices(), 48);
  EXPECT_EQ(many.name(), "6x" + file);
  EXPECT_EQ(many.device(47).name, "node5/gpu7");
  EXPECT_EQ(many.device(47).kind, two.device(0).kind);
  EXPECT_EQ(many.device(0).memPhysical, two.device(0).memPhysical);
  EXPECT_EQ(many.routeBandwidth(0, 47), two.routeBandwidth(0, 15));  // across servers as in the file
  EXPECT_THROW(loadCluster("6x" + (dir / "absent.json").string()), Error);
  std::filesystem::remove_all(dir);
}

TEST(ParallelFidelity, ShippedLlmRunsFitAndStayWithinTheReportedBounds) {
  const std::vector<PublishedRow> rows = loadPublishedCorpus(gptest::dataPath("published/llm_training.json"));
  int set = 0, check = 0;
  for (const PublishedRow& r : rows) {
    ASSERT_TRUE(r.parallel) << r.name;
    EXPECT_GT(r.source.size(), 20u) << r.name;
    (r.split == RowSplit::Set ? set : check) += 1;
  }
  EXPECT_GE(set, 5);
  EXPECT_GT(check, 2 * set);
  const FidelityReport rep = runFidelity(rows);
  // The set rows chose the products' efficiency on A100 and H100 presets and on torchtitan's
  // power-limited H100s, and the share of TP communication torchtitan's async TP hides; the
  // check rows test them.
  EXPECT_EQ(rep.parallelSet.unmatchedOom, 0);
  EXPECT_LT(std::abs(std::log(rep.parallelSet.medianRatio)), std::log(1.05));
  EXPECT_LT(std::abs(std::log(rep.parallelCheck.medianRatio)), std::log(1.10));
  // The misses docs/simulator-fidelity.md names: Llama 3 405B's two runs simulated over their
  // memory (by 15 GiB); DeepSpeed's ZeRO-3 of 2021 (its gathers far slower than the links allow)
  // up to 1.95x; torchtitan's context-parallel runs at 128k tokens and more 1.2-1.4x.
  EXPECT_LE(rep.parallelCheck.unmatchedOom, 2);
  EXPECT_LT(rep.parallelCheck.worstFactor, 2.0) << rep.parallelCheck.worstRow;
  int within25 = 0, runs16k = 0, memoryWithin15 = 0;
  for (const FidelityRow& f : rep.rows) {
    if (f.counted && std::exp(std::abs(std::log(f.ratio))) < 1.25) ++within25;
    if (f.row.parallel->plan.devicesUsed() == 16384) ++runs16k;
    if (f.memoryRatio > 0 && std::exp(std::abs(std::log(f.memoryRatio))) <= 1 + kMemoryErrorShare) ++memoryWithin15;
  }
  // All but the four ZeRO-3 rows, three torchtitan context-parallel runs, one torchtitan A100 run
  // (x1.26) and the two over memory.
  EXPECT_GE(within25, 47);
  // Peak memory where published (torchtitan's H100 runs, the caching allocator's reserved peak,
  // simulated as caching_allocator.h reserves it): eight of eleven within 15 %, the simulated peak
  // never above the published one by more than 8 % (the 405B near a full GPU, where the allocator
  // gives cached blocks back), and at most 1.5x below it (70B at 131k tokens per GPU).
  EXPECT_EQ(rep.memoryRows, 11);
  EXPECT_GE(memoryWithin15, 8);
  EXPECT_LT(rep.memoryWorstFactor, 1.5) << rep.memoryWorstRow;
  for (const FidelityRow& f : rep.rows) {
    if (f.memoryRatio > 0) {
      EXPECT_LT(f.memoryRatio, 1.08) << f.row.name;
    }
  }
  EXPECT_EQ(runs16k, 1);    // Llama 3 405B on 16,384 H100s is simulated

  // The step band every figure is shown with (prediction_band.h) is the corpus's: four in five
  // check rows' steps within kStepErrorShare, and no wider than that needs (five points less
  // would hold fewer). The memory band is held to the peaks of 16 GiB and more (below).
  int checkRows = 0, inStepBand = 0, inTighterStepBand = 0;
  for (const FidelityRow& f : rep.rows) {
    if (!f.counted || f.row.split != RowSplit::Check) continue;
    ++checkRows;
    const double miss = std::exp(std::abs(std::log(f.ratio)));
    inStepBand += miss <= 1 + kStepErrorShare;
    inTighterStepBand += miss <= 1 + kStepErrorShare - 0.05;
  }
  EXPECT_GE(inStepBand, 0.8 * checkRows);
  EXPECT_LT(inTighterStepBand, 0.8 * checkRows);
}

// The published layout sweeps (llm_sweeps.json and the tables of llm_training.json): the figures
// docs/simulator-fidelity.md reports ("Layout sweeps"), and the memory band held to the peaks a
// fit depends on.
TEST(ParallelFidelity, ShippedSweepsRankAndCallMemoryAsReported) {
  std::vector<PublishedRow> rows = loadPublishedCorpus(gptest::dataPath("published/llm_training.json"));
  for (PublishedRow& r : loadPublishedCorpus(gptest::dataPath("published/llm_sweeps.json"))) rows.push_back(std::move(r));
  const FidelityReport rep = runFidelity(rows);
  EXPECT_EQ(rep.sweepsSet.sweeps + rep.sweepsCheck.sweeps, 11);
  const SweepSummary& s = rep.sweepsCheck;
  EXPECT_EQ(s.sweeps, 9);
  EXPECT_GE(s.medianTau, 0.85);
  EXPECT_LE(s.meanRegret, 0.04);
  EXPECT_EQ(s.picksOutOfMemory, 0);
  EXPECT_EQ(s.ranCalledOver, 0);  // no layout that ran is called over memory
  // Both layouts that ran out of memory are called at risk: DeepSpeed's plain data parallelism
  // of GPT-2 1.5B on 32 GB V100s (its fp16 optimizer's fp32 gradient copy at the step) and
  // torchtitan's FSDP over 128 GPUs for 405B.
  EXPECT_EQ(s.ranOutOfMemory, 2);
  EXPECT_EQ(s.outOfMemoryCalled, 2);
  // Peaks of 16 GiB and more: four in five within kMemoryErrorShare, fewer within five points
  // less (the band is no wider than the corpus needs).
  int big = 0, inBand = 0, inTighterBand = 0;
  for (const FidelityRow& f : rep.rows) {
    if (f.memoryRatio <= 0 || *f.row.parallel->peakMemoryGiB < 16) continue;
    ++big;
    inBand += std::exp(std::abs(std::log(f.memoryRatio))) <= 1 + kMemoryErrorShare;
    inTighterBand += std::exp(std::abs(std::log(f.memoryRatio))) <= 1 + kMemoryErrorShare - 0.05;
  }
  EXPECT_EQ(big, 15);
  EXPECT_GE(inBand, 0.8 * big);
  EXPECT_LT(inTighterBand, 0.8 * big);
}

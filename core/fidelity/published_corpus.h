// The corpus of published measurements the simulator is held against (tests/data/published,
// installed as share/graphplace/published): JSON files of rows, each a measured figure with
// its source, the exact workload, hardware, framework and precision. Format: docs/formats.md,
// "Published measurements".
//
//   std::vector<PublishedRow> rows = loadPublishedCorpus("tests/data/published");
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graph/precision.h"
#include "io/model_loader.h"
#include "parallel/parallel_plan.h"
#include "zoo/decoder_model.h"

namespace gp {

enum class RowSplit { Set, Check };  // chose the defaults / only tests them
const char* splitName(RowSplit s);    // "set", "check" (as in the corpus files)
enum class UnitKind {
  Milliseconds, Seconds, Throughput,
  TokensPerGpu,   // "tokens/s/GPU" (parallel runs): global batch x sequence / (step x GPUs)
  TflopsPerGpu,   // "TFLOP/s/GPU" (parallel runs): the row's FLOP count per step / (step x GPUs)
};

// How a source counts the FLOPs of a step of a decoder (its "TFLOP/s per GPU"), for B sequences
// of s tokens, l layers of width h, vocabulary V:
//   Megatron2021: 96 B s l h^2 (1 + s/6h + V/16lh), Narayanan et al. 2021 eq. 3 (GELU MLP of 4h,
//                 full recomputation counted: four passes per product);
//   MegatronCore: Megatron-LM's num_floating_point_operations (training.py), Korthikanti et al.
//                 2022 eq. 7 generalised: 12 B s l h^2 ((1 + g/a + s/h) q/h + f/h k m + V/2lh) for
//                 a heads, g key / value heads, q = a x head size, MLP size f, k experts per
//                 token, m = 3/2 for a gated MLP (else 1); recomputation not counted.
enum class FlopsFormula { None, Megatron2021, MegatronCore };

// A parallel training run (workload "parallel"): an LLM on many GPUs under the plan it ran.
struct ParallelRun {
  int64_t seqLen = 0, globalBatch = 0, microBatch = 1;
  ParallelPlan plan;            // its knobs; microbatches = global batch / (dp x micro-batch)
  Recompute recompute = Recompute::None;  // every chunk's (the chunks are even: evenStages)
  FlopsFormula flops = FlopsFormula::None;
  double flopsPerStep = 0;                // by `flops`, from the model's config
  std::optional<double> peakMemoryGiB;    // published peak memory per GPU
  // What that peak counts: the tensors allocated (torch.cuda.max_memory_allocated) or what the
  // caching allocator reserved (max_memory_reserved), and on which GPU: the largest of any
  // (false) or the last rank's (true: the last pipeline stage, as Megatron-LM logs it).
  bool peakMemoryReserved = false;
  bool peakMemoryLastRank = false;
};

struct PublishedRow {
  std::string file;       // the corpus file it came from
  std::string name;       // unique over the corpus
  std::string source;     // where the figure is printed: document, table or sheet, version
  RowSplit split = RowSplit::Check;
  std::string hardware;   // as the source describes it
  std::string cluster;    // preset or cluster file (relative to the corpus file) it is simulated on
  std::string framework;  // framework preset (cluster/cluster.h)
  Precision precision = Precision::FP32;
  // The workload: a single kernel (kernel = "gemm" with m n k; "conv" with n c h w k r s,
  // stride, pad), a model (model = "zoo:NAME" with batch, seq_len, layers, hidden, mode) or a
  // parallel training run (model = "zoo:NAME" or "hf:CONFIG", relative to the corpus file, with
  // `parallel`).
  std::string kernel;
  std::map<std::string, int64_t> dims;
  std::string model;
  std::optional<ParallelRun> parallel;
  GraphMode mode = GraphMode::Training;  // model rows: training or inference
  std::string placement = "single";  // a placement method (placement/placer.h)
  std::string table;      // rows of one table of placements share it; "" = none
  bool orderOnly = false; // the figure is kept for the order of its table, not for its value
  // "ms", "s", or a throughput "<items>/s" (images/s, sequences/s, ...); parallel runs: "s",
  // "tokens/s/GPU" or "TFLOP/s/GPU".
  std::string unit;
  UnitKind unitKind = UnitKind::Milliseconds;  // what `unit` is
  double itemsPerStep = 0;              // throughput rows: items one step processes
  std::optional<double> published;      // empty when the source reports the run out of memory, or
  bool ranWithoutFigure = false;        // ... that it ran without printing a figure ("fits")
  std::string note;

  bool ranOutOfMemory() const { return !published && !ranWithoutFigure; }
};

// A corpus file, or every *.json file of a folder (sorted by name). Throws gp::Error naming the
// file, the row and the problem for anything malformed or a name used twice.
std::vector<PublishedRow> loadPublishedCorpus(const std::string& fileOrDir);
std::vector<PublishedRow> parsePublishedCorpus(const std::string& text, const std::string& source);

// Whether the unit is a throughput (its simulated value is itemsPerStep / step time).
bool isThroughputUnit(const std::string& unit);

// FLOPs of one step of `run` on the decoder `d` (hf_config.h) under formula `f`.
double stepFlops(FlopsFormula f, const zoo::DecoderConfig& d, const ParallelRun& run);

// The corpus folder shipped with graphplace: $GP_RESOURCE_DIR/published, else
// <exe>/../share/graphplace/published, else tests/data/published in a folder above the
// executable; empty if none exists.
std::string publishedCorpusDir();

}  // namespace gp

// TpuGraphs' published collections (Phothilimthana et al. 2023, github
// google-research-datasets/tpu_graphs: README "Dataset File Description", baselines/tiles/data.py,
// baselines/layout/data.py, process_data/xla/graph_features.cc) read into our cost-model
// dataset (costmodel/cost_dataset.h). One .npz file is one graph:
//
//   tile  (npz/tile/xla/{train,valid,test}/*.npz) → CostTask::Kernel:
//     node_feat [N, 140] f32, node_opcode [N] u8, edge_index [E, 2] i64,
//     config_feat [C, 24] f32, config_runtime [C] i64 ns, config_runtime_normalizers [C] i64 ns
//   layout (npz/layout/{xla,nlp}/{default,random}/{train,valid,test}/*.npz) → CostTask::Plan:
//     node_feat, node_opcode, edge_index as above, node_config_ids [NC] i64,
//     node_config_feat [C, NC, 18] f32, config_runtime [C] i64 ns, node_splits (read, unused)
//
// Any integer dtype is accepted for the integer arrays and f32 / f64 for the features (the
// README and the generator disagree on some dtypes). Mapping:
//   - edge_index row (u, v) means "u consumes v's output" (README; graph_features.cc writes
//     (instruction, operand)), so the edge is (producer v, consumer u).
//   - opcodes are TpuGraphs' HLO opcode ids (process_data/xla/hlo_opcode.h): the dataset's
//     vocabulary is their names by id, 0 = "unknown" (97 "trace", 101 "tuple-select" are
//     retired), extended with "op<K>" for any id above 120.
//   - runtimes in seconds. Layout: config_runtime × 1e-9. Tile: TpuGraphs ranks by
//     config_runtime / config_runtime_normalizers (each configuration's runtime over the default
//     configuration's, measured on the same machine); we keep that ratio, scaled by the median
//     normalizer × 1e-9 so it stays in seconds (a constant per graph: the order is TpuGraphs').
//   - name: the file stem; family: tpuGraphsFamily(stem).
//
// Errors: gp::Error(path, problem), one line naming the file (and the array) — a missing or
// malformed array, arrays whose node or configuration counts disagree, an edge or configurable
// node out of range, a runtime or normalizer that is not finite and positive.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "costmodel/cost_dataset.h"

namespace gp {

struct TpuGraphsWidths {
  int32_t node = 0;    // node_feat's columns (140 in the published data)
  int32_t config = 0;  // config_feat's (24) or node_config_feat's (18) last dimension
};

// One file. maxConfigs > 0 keeps evenly spaced configurations (see loadTpuGraphsSplit);
// `widths`, when given, receives the file's feature widths.
CostGraph readTpuGraphsFile(const std::string& path, CostTask task, int64_t maxConfigs = 0,
                            TpuGraphsWidths* widths = nullptr);

// Every *.npz file of `dir` (not recursive), in sorted file-name order, as one dataset:
// collection as given ("tpugraphs:tile:xla", "tpugraphs:layout:nlp:random", ...), device kind
// "tpu-v3", repeats 0, the opcode vocabulary above. A graph with no configurations is left out
// (TpuGraphs' loaders skip graphs with too few too). maxConfigsPerGraph > 0: a graph with more
// configurations keeps K = maxConfigsPerGraph of them, those at indices floor(i * C / K),
// i = 0..K-1, in file order — deterministic and spread over the file (TpuGraphs' layout
// training samples 1,000 per graph at random, a third of them among the fastest, a third among
// the slowest; its validation uses fixed index lists). Throws gp::Error naming the directory
// (missing, no .npz files) or the first bad file — including one whose feature widths differ
// from the first file's.
CostDataset loadTpuGraphsSplit(const std::string& dir, CostTask task, const std::string& collection,
                               int64_t maxConfigsPerGraph = 0);

// The held-out unit of a TpuGraphs graph, from its file stem: a trailing tile fingerprint
// "_<16 hex>" or "_-<16 hex>" is dropped; a stem that is then all hex digits (the anonymized
// test graphs) is its own family; else the stem is cut into words at '_' and '.', words whose
// leading letters are empty or one of the prefixes "tf", "mlperf", "small" are skipped, and the
// family is the leading letters of the next word, lower case:
//   alexnet_train_batch_32 → alexnet, bert_classifier.2x2.fp32 → bert, resnet50.4x4.fp16 → resnet,
//   resnet_v1_50_official_batch_128_bf16 → resnet, tf2_bert_pretrain_dynamic_batch_size → bert,
//   mlperf_bert_batch_24_2x2 → bert, small_bert_bert_en_uncased_L-10_H-768_A-12_batch_size_32_test
//   → bert, unet_3d.4x4.bf16 → unet, inception_v3_batch_128_train → inception,
//   talking-heads_large_batch_size_16_train → talking.
// A stem with no word left is its own family.
std::string tpuGraphsFamily(const std::string& stem);

// TpuGraphs' HLO opcode names by id, 0..120 (hlo_opcode.h).
const std::vector<std::string>& tpuGraphsOpcodeNames();

}  // namespace gp

// LayerStack: a model as the sequence of its repeated layers, which is what data, tensor and
// pipeline parallelism split.
//
// detectLayerStack finds the layers from the graph's scopes: sibling scopes named
// `<prefix>_<N>` for N = 0, 1, 2, ... (the zoo's `layers/layer_3`, `encoder/block_5`; ONNX
// exporters' `/layers.3/`, `h.3` names become scopes the same way) with at least two members.
// Every such family counts (T5's encoder and decoder blocks both do), ordered by their data
// dependencies (a layer after every layer it reads from, through other ops too: T5's decoder
// blocks after the last encoder block), ties as the graph runs them. Parallel module lists, sibling families with the same indices whose members run
// interleaved (`norm1.3`, `attn.3`, `moe.3` all before any of index 4), are one layer per index. An op outside every layer belongs to the prologue when none of its inputs comes
// from a layer (embeddings, masks), else to the latest layer it reads from; what follows the
// last layer is the epilogue (final norm, LM head).
//
// Each part's ops are kept per sample (the graph's FLOPs and activation bytes divided by the
// samples it was built for), with the Megatron-LM tensor-parallel split of every op:
// - matrix products (MatMul class) split their FLOPs and parameters over the TP group: column-
//   parallel when the output is not hidden-sized, row-parallel when it is (its output is then
//   summed over the group: one all-reduce forward);
// - any other op whose output is hidden-sized (tokens x hidden: LayerNorm, residual Add, bias
//   of a row-parallel product) runs replicated on every rank;
// - the rest (attention scores, softmax, GELU over the 4h MLP) runs on its shard;
// - a gather from a parameter table of at least 8x the elements of one sample's hidden-sized
//   tensor (a word embedding; not position or token-type tables) is vocabulary-parallel: table
//   split, output all-reduced;
// - a column-parallel product reading a hidden-sized tensor costs one all-reduce of that
//   tensor's gradient in backward (once per distinct tensor).
// Ops under a scope component named `experts` are mixture-of-experts experts: their
// parameters are split over the expert-parallel group instead.
//
// What backward needs is kept per op as autograd keeps it (saved_tensors.h), each tensor once
// per part, split into bytes of TP-sharded and of whole tensors. Each attention core
// (attention_core.h) is kept apart as a StackAttention: a fused kernel replaces its ops, and
// selective recomputation drops what it saves inside.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/dtype.h"
#include "graph/graph.h"
#include "graph/op_class.h"

namespace gp {

enum class TpSplit : uint8_t {
  Replicated,  // every TP rank runs the whole op
  Sharded,     // FLOPs, bytes and parameters / tp
};

struct StackOp {
  OpClass cls = OpClass::Other;
  DType dtype = DType::F32;
  TpSplit split = TpSplit::Replicated;
  bool expert = false;        // under an `experts` scope
  bool metadata = false;      // no kernel (isMetadataOp)
  double flops = 0;           // per sample
  double activationBytes = 0; // read + written activation bytes per sample (parameters excluded)
  double paramBytesRead = 0;  // bytes of parameters the op reads (not per sample)
  double savedBytes = 0;      // bytes per sample of whole (not TP-sharded) tensors kept for backward
  double savedSplitBytes = 0; // bytes per sample of TP-sharded tensors kept for backward
  bool attentionCore = false; // one of an attention core's ops (its costs are in StackPart::attention)
  // A weight product's shape (0 where unknown): rows per sample (its tokens), output columns and
  // reduction, whole (before any TP split); row-parallel products split the reduction over TP,
  // column-parallel ones the columns.
  double gemmRows = 0;
  int64_t gemmCols = 0, gemmDepth = 0;
  bool rowParallel = false;
};

// An attention core of a part, per sample: what a fused kernel (FlashAttention) reads, writes
// and keeps, and what the unfused ops keep.
struct StackAttention {
  double flops = 0;       // the core's ops (Q K^T, scale, mask, softmax, P V)
  double ioBytes = 0;     // Q, K and V read + the output written
  double keptBytes = 0;   // Q, K, V: kept for backward however the core runs
  double innerBytes = 0;  // what the unfused ops keep besides (the probabilities, dropout masks)
  double outBytes = 0;    // the output: a fused kernel keeps it for its backward
  double outKeptAfter = 0; // of the output (or a view of it), what a later op keeps anyway
  double statBytes = 0;   // one f32 per softmax row: a fused kernel's log-sum-exp
  DType dtype = DType::F32;
  bool causal = false;    // a fused causal kernel skips the masked half of the products
  bool sharded = false;   // runs on its TP shard (its heads split)
};

// One layer (or the prologue / epilogue): its ops and what parallelism needs to know of it.
struct StackPart {
  std::string name;          // scope name ("layers/layer_3"), "prologue", "epilogue"
  std::string kind;          // the family ("layers/layer", "encoder/block"); "" for prologue/epilogue
  std::vector<StackOp> ops;
  double forwardFlops = 0;   // per sample
  int64_t params = 0;        // parameter elements
  int64_t shardedParams = 0; // of which split over TP
  int64_t expertParams = 0;  // of which experts (split over the expert-parallel group)
  int64_t tiedParams = 0;    // the epilogue: elements of the prologue's parameters it reads too (a
                             // tied word embedding), which a later pipeline stage keeps a copy of
  double outputBytes = 0;    // per sample: the activation handed to the next part (the epilogue:
                             // the model's outputs, which the loss reads)
  int tpAllReducesForward = 0;
  int tpAllReducesBackward = 0;
  double tpAllReduceBytes = 0;  // per sample, each (a hidden-sized tensor)
  bool moe = false;              // has experts: an all-to-all before and after them
  double moeDispatchBytes = 0;   // per sample, each all-to-all
  std::vector<StackAttention> attention;
};

struct LayerStack {
  std::string model;
  int64_t hidden = 0;  // width of the hidden-sized tensors (last dimension)
  int heads = 0;       // attention heads, 0 when no attention was found
  int kvHeads = 0;     // key / value heads (fewer than heads under grouped-query attention), 0 without attention
  int experts = 0;     // experts per MoE layer, 0 without
  int64_t seqLen = 0;  // tokens per sample: the hidden-sized tensor's elements / hidden
  double samplesInGraph = 1;
  DType activationType = DType::F32;  // of the layers' activations
  StackPart prologue, epilogue;
  std::vector<StackPart> layers;

  int numLayers() const { return static_cast<int>(layers.size()); }
  // Tensor parallelism of degree tp splits the heads, the key / value heads and the width evenly.
  bool tpDivides(int tp) const;
  // Sequence parallelism of degree tp splits the sequence evenly (an unknown length: assumed so).
  bool sequenceDivides(int tp) const { return seqLen <= 0 || seqLen % tp == 0; }
  int64_t totalParams() const;
  double forwardFlopsPerSample() const;
};

// Throws gp::Error(source, "no repeated layer structure: ...") when the families of at least
// two sibling scopes `<prefix>_<N>` together hold less than half of the forward FLOPs. `samplesInGraph`: the batch the graph
// was built with (its values are divided by it).
LayerStack detectLayerStack(const Graph& g, const std::string& source, double samplesInGraph = 1);

}  // namespace gp

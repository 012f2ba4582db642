// Graph Segment Training (GST; Cao et al. 2023, the TpuGraphs paper) for the GDP policy on large
// graphs, and the segment layout of its attention.
//
// The ops in topological order are cut into GST segments of `length` ranks. An update
// back-propagates through a few sampled segments only: their states are recomputed with
// autograd, every other op's states come from a historical embedding table — the detached
// per-layer states of the last full pass (GdpPolicy::forward with a table to record). A GraphSAGE
// layer of a sampled op reads its neighbours' previous-layer states from the table when they lie
// outside the sample; attention reads its memory from the table (detached in the full pass too).
// Stale-embedding dropout: where states are pooled over the whole graph (the FiLM context and
// the value), each unsampled segment's table rows are kept with probability `keep` (0.5 in the
// paper) and dropped otherwise, so the pooled mean leans less on stale rows. With every segment
// sampled the pass is the full forward pass and its gradient the full gradient.
#pragma once
#include <torch/torch.h>

#include <functional>
#include <vector>

namespace gp::rl {

// The detached states of one full pass, per op.
struct HistoryTable {
  std::vector<torch::Tensor> layers;  // [N, H] op order: the input projection, then each GraphSAGE layer
  torch::Tensor placed;               // [N, H] topological order: the placement stack's output
  torch::Tensor scheduleState, fusionState;  // [N, H] op order, when the pass ran those stacks
  bool filled() const { return !layers.empty() && placed.defined(); }
};

struct SegmentSample {
  torch::Tensor ranks;      // [M] int64, sorted: topological ranks of the sampled segments' ops
  torch::Tensor keepRanks;  // [N] float: 1 for sampled ranks and for kept stale ones, 0 for dropped ones
  int64_t sampled = 0, segments = 0;
};

// `count` of the ceil(N / length) segments drawn without replacement (all when count covers
// them); each other segment kept for pooling with probability `keep`.
SegmentSample sampleSegments(int64_t numOps, int64_t length, int64_t count, double keep, at::Generator& gen);
// Every segment sampled: the full pass.
SegmentSample allSegments(int64_t numOps);

// Attention segments of `length` ops over the topological order, without padding: segment b
// covers ranks [start_b, start_b + S) with start_b = min(b * S, N - S) (the last one is shifted
// back to end at N; its queries already covered by the previous segment are dropped through
// `take`). Its memory is the S ranks before start_b, or — for the first segment, or when fewer
// than S ranks precede it — the segment itself: attending to every key twice is the same softmax
// as attending to it once, so no mask is needed. With `wanted` (sorted ranks) only the segments
// holding them are laid out, and `take` has a row per wanted rank.
struct SegmentLayout {
  int64_t count = 0, length = 0;
  torch::Tensor query;   // [B * S] ranks of each segment's ops
  torch::Tensor memory;  // [B * S] ranks of each segment's memory
  torch::Tensor take;    // [N] (or [wanted]) for each rank, its row in the [B * S] output
};
SegmentLayout segmentLayout(int64_t n, int64_t segment, const torch::Tensor& wanted = {});

// xs: [N, H] in topological order -> queries [S, B, H] and keys/values [2S, B, H] (memory
// detached: the previous segment's cached states, Transformer-XL style).
std::pair<torch::Tensor, torch::Tensor> segmentInputs(const torch::Tensor& xs, const SegmentLayout& layout);
// [S, B, H] -> [N, H] (or [wanted, H]) in topological order.
torch::Tensor unsegment(const torch::Tensor& y, const SegmentLayout& layout);
// block(queries [S, b, H], keys/values [2S, b, H]) -> [S, b, H] over every segment of `layout`,
// returned as unsegment() does. Without autograd (a pass whose activations are not kept) the
// segments go through in chunks of `chunk`, so a 100k-op graph needs no gigabyte of attention
// scores at once; with autograd as one batch.
torch::Tensor overSegments(const torch::Tensor& xs, const SegmentLayout& layout,
                           const std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>& block,
                           int64_t chunk = 32);

}  // namespace gp::rl

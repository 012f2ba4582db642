// Graph Segment Training's sampling and the attention's segment layout. See segment_training.h.
#include "rl/segment_training.h"

#include <algorithm>

namespace gp::rl {

namespace {

torch::Tensor int64Tensor(const std::vector<int64_t>& v) {
  return torch::from_blob(const_cast<int64_t*>(v.data()), {static_cast<int64_t>(v.size())}, torch::kInt64).clone();
}

}  // namespace

SegmentSample sampleSegments(int64_t numOps, int64_t length, int64_t count, double keep, at::Generator& gen) {
  TORCH_CHECK(numOps > 0 && length > 0 && count > 0, "sampleSegments: empty graph, segment or sample");
  SegmentSample s;
  s.segments = (numOps + length - 1) / length;
  s.sampled = std::min(count, s.segments);
  auto order = torch::randperm(s.segments, gen, torch::kInt64);
  auto chosen = std::get<0>(order.slice(0, 0, s.sampled).sort());
  auto isSampled = torch::zeros({s.segments}, torch::kBool).index_fill(0, chosen, true);
  auto keptStale = torch::rand({s.segments}, gen) < keep;
  auto segmentKeep = (isSampled | keptStale).to(torch::kFloat32);
  auto segmentOfRank = torch::arange(numOps, torch::kInt64).div(length, "floor");
  s.keepRanks = segmentKeep.index_select(0, segmentOfRank);
  s.ranks = isSampled.index_select(0, segmentOfRank).nonzero().squeeze(1);
  return s;
}

SegmentSample allSegments(int64_t numOps) {
  SegmentSample s;
  s.segments = s.sampled = 1;
  s.ranks = torch::arange(numOps, torch::kInt64);
  s.keepRanks = torch::ones({numOps});
  return s;
}

SegmentLayout segmentLayout(int64_t n, int64_t segment, const torch::Tensor& wanted) {
  SegmentLayout l;
  l.length = std::min(segment, n);
  const int64_t s = l.length;
  const int64_t all = (n + s - 1) / s;
  const int64_t lastStart = n - s;
  auto rowOf = [&](int64_t r) { return r < (all - 1) * s ? r : (all - 1) * s + (r - lastStart); };
  std::vector<int64_t> ranks;
  if (wanted.defined()) {
    auto w = wanted.to(torch::kInt64).contiguous();
    ranks.assign(w.data_ptr<int64_t>(), w.data_ptr<int64_t>() + w.numel());
  } else {
    ranks.resize(static_cast<size_t>(n));
    for (int64_t r = 0; r < n; ++r) ranks[static_cast<size_t>(r)] = r;
  }
  // the segments holding the wanted ranks (ranks sorted: segment numbers never decrease)
  std::vector<int64_t> segs, position(static_cast<size_t>(all), -1);
  for (int64_t r : ranks) {
    TORCH_CHECK(r >= 0 && r < n, "segmentLayout: rank ", r, " outside [0, ", n, ")");
    const int64_t b = rowOf(r) / s;
    if (position[static_cast<size_t>(b)] < 0) {
      position[static_cast<size_t>(b)] = static_cast<int64_t>(segs.size());
      segs.push_back(b);
    }
  }
  l.count = static_cast<int64_t>(segs.size());
  std::vector<int64_t> query(static_cast<size_t>(l.count * s)), memory(query.size()), take(ranks.size());
  for (int64_t i = 0; i < l.count; ++i) {
    const int64_t start = std::min(segs[static_cast<size_t>(i)] * s, n - s);
    const int64_t memStart = start >= s ? start - s : start;
    for (int64_t j = 0; j < s; ++j) {
      query[static_cast<size_t>(i * s + j)] = start + j;
      memory[static_cast<size_t>(i * s + j)] = memStart + j;
    }
  }
  for (size_t k = 0; k < ranks.size(); ++k) {
    const int64_t row = rowOf(ranks[k]);
    take[k] = position[static_cast<size_t>(row / s)] * s + row % s;
  }
  l.query = int64Tensor(query);
  l.memory = int64Tensor(memory);
  l.take = int64Tensor(take);
  return l;
}

std::pair<torch::Tensor, torch::Tensor> segmentInputs(const torch::Tensor& xs, const SegmentLayout& layout) {
  const int64_t h = xs.size(1);
  auto segs = xs.index_select(0, layout.query).view({layout.count, layout.length, h});  // [B, S, H]
  auto memory = xs.index_select(0, layout.memory).view({layout.count, layout.length, h}).detach();
  return {segs.transpose(0, 1), torch::cat({memory, segs}, 1).transpose(0, 1)};
}

torch::Tensor unsegment(const torch::Tensor& y, const SegmentLayout& layout) {
  return y.transpose(0, 1).reshape({layout.count * layout.length, y.size(2)}).index_select(0, layout.take);
}

torch::Tensor overSegments(const torch::Tensor& xs, const SegmentLayout& layout,
                           const std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>& block,
                           int64_t chunk) {
  if (torch::GradMode::is_enabled() || layout.count <= chunk) {
    auto [query, kv] = segmentInputs(xs, layout);
    return unsegment(block(query, kv), layout);
  }
  const int64_t s = layout.length, h = xs.size(1);
  std::vector<torch::Tensor> rows;  // [b * S, H] per chunk, in segment order
  for (int64_t first = 0; first < layout.count; first += chunk) {
    SegmentLayout part;
    part.length = s;
    part.count = std::min(chunk, layout.count - first);
    part.query = layout.query.slice(0, first * s, (first + part.count) * s);
    part.memory = layout.memory.slice(0, first * s, (first + part.count) * s);
    auto [query, kv] = segmentInputs(xs, part);
    rows.push_back(block(query, kv).transpose(0, 1).reshape({part.count * s, h}));
  }
  return torch::cat(rows).index_select(0, layout.take);
}

}  // namespace gp::rl

#include "rl/cost_training.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "base/error.h"
#include "rl/segment_training.h"

namespace gp::rl {
namespace {

// One graph's tensors in the model's vocabulary. Segments: `segment` consecutive nodes each
// (the whole graph when segmentNodes is 0), edges kept inside a segment only.
struct Prepared {
  int64_t n = 0, c = 0, segment = 0, segments = 1;
  torch::Tensor opcode, nodeFeat;   // [N], [N, Fn]
  torch::Tensor src, dst, segOfEdge, invDegree;  // intra-segment edges both ways, [N]
  torch::Tensor configRows;         // [C, rows, Fc]
  torch::Tensor configNodes;        // [NC] (plan task)
  torch::Tensor target;             // [C] log microseconds
  torch::Tensor runtime;            // [C] seconds (ranking order)
};

std::vector<Prepared> prepare(const CostDataset& d, const std::vector<std::string>& vocab, int64_t segmentNodes) {
  std::map<std::string, int64_t> index;
  for (size_t i = 0; i < vocab.size(); ++i) index.emplace(vocab[i], static_cast<int64_t>(i));
  std::vector<int64_t> remap;
  for (const std::string& o : d.opcodes) {
    auto it = index.find(o);
    remap.push_back(it == index.end() ? 0 : it->second);
  }
  std::vector<Prepared> out;
  for (const CostGraph& g : d.graphs) {
    Prepared p;
    p.n = g.numNodes();
    p.c = g.numConfigs();
    p.segment = segmentNodes > 0 ? std::min(segmentNodes, p.n) : p.n;
    p.segments = (p.n + p.segment - 1) / p.segment;
    std::vector<int64_t> op;
    for (int32_t o : g.opcode) op.push_back(remap[static_cast<size_t>(o)]);
    p.opcode = torch::tensor(op, torch::kInt64);
    p.nodeFeat = torch::from_blob(const_cast<float*>(g.nodeFeatures.data()), {p.n, d.nodeWidth}, torch::kFloat32).clone();
    std::vector<int64_t> s, t, seg;
    std::vector<float> degree(static_cast<size_t>(p.n), 0);
    for (const auto& e : g.edges) {
      if (e[0] == e[1] || e[0] / p.segment != e[1] / p.segment) continue;
      s.push_back(e[0]), t.push_back(e[1]), s.push_back(e[1]), t.push_back(e[0]);
      seg.push_back(e[0] / p.segment), seg.push_back(e[0] / p.segment);
      ++degree[static_cast<size_t>(e[0])], ++degree[static_cast<size_t>(e[1])];
    }
    p.src = torch::tensor(s, torch::kInt64);
    p.dst = torch::tensor(t, torch::kInt64);
    p.segOfEdge = torch::tensor(seg, torch::kInt64);
    p.invDegree = 1.0 / torch::tensor(degree).clamp_min(1);
    p.configRows = torch::from_blob(const_cast<float*>(g.configFeatures.data()), {p.c, g.configRows(), d.configWidth},
                                    torch::kFloat32)
                       .clone();
    if (!g.configNodes.empty()) p.configNodes = torch::tensor(std::vector<int64_t>(g.configNodes.begin(), g.configNodes.end()));
    p.runtime = torch::tensor(g.runtime, torch::kFloat64).to(torch::kFloat32);
    p.target = torch::log(torch::tensor(g.runtime, torch::kFloat64) * 1e6).to(torch::kFloat32);
    out.push_back(std::move(p));
  }
  return out;
}

// The batch of graph p's configurations `configs` over its segments `segs` (sorted): part
// b * segs.size() + j holds segment segs[j] of configuration configs[b].
CostBatch segmentBatch(const Prepared& p, const torch::Tensor& configs, const std::vector<int64_t>& segs) {
  std::vector<int64_t> nodes, local;
  for (size_t j = 0; j < segs.size(); ++j)
    for (int64_t v = segs[j] * p.segment; v < std::min(p.n, (segs[j] + 1) * p.segment); ++v) {
      nodes.push_back(v);
      local.push_back(static_cast<int64_t>(j));
    }
  const auto k = static_cast<int64_t>(segs.size());
  const int64_t len = static_cast<int64_t>(nodes.size()), b = configs.size(0);
  const torch::Tensor idx = torch::tensor(nodes, torch::kInt64);
  CostBatch out;
  out.parts = b * k;
  out.opcode = p.opcode.index_select(0, idx).repeat({b});
  out.nodeFeat = p.nodeFeat.index_select(0, idx).repeat({b, 1});
  const torch::Tensor rows = p.configRows.index_select(0, configs);  // [B, rows, Fc]
  const int64_t fc = rows.size(2);
  if (p.configNodes.defined()) {
    torch::Tensor full = torch::zeros({b, p.n, fc}).index_copy(1, p.configNodes, rows);
    out.configFeat = full.index_select(1, idx).reshape({b * len, fc});
  } else {
    out.configFeat = rows.expand({b, len, fc}).reshape({b * len, fc});
  }
  const torch::Tensor part = torch::tensor(local, torch::kInt64);
  out.partOf = (part.unsqueeze(0) + torch::arange(b, torch::kInt64).unsqueeze(1) * k).reshape({b * len});
  out.invDegree = p.invDegree.index_select(0, idx).repeat({b});
  torch::Tensor keepEdge = torch::zeros({p.segments}, torch::kBool);
  keepEdge.index_fill_(0, torch::tensor(segs, torch::kInt64), true);
  const torch::Tensor e = keepEdge.index_select(0, p.segOfEdge).nonzero().squeeze(1);
  torch::Tensor pos = torch::full({p.n}, -1, torch::kInt64).index_copy(0, idx, torch::arange(len, torch::kInt64));
  const torch::Tensor s = pos.index_select(0, p.src.index_select(0, e)), t = pos.index_select(0, p.dst.index_select(0, e));
  const torch::Tensor offsets = torch::arange(b, torch::kInt64).unsqueeze(1) * len;
  out.src = (s.unsqueeze(0) + offsets).reshape({-1});
  out.dst = (t.unsqueeze(0) + offsets).reshape({-1});
  return out;
}

CostBatch concat(const std::vector<CostBatch>& bs) {
  CostBatch out;
  std::vector<torch::Tensor> op, nf, cf, src, dst, deg, part;
  int64_t nodes = 0;
  for (const CostBatch& b : bs) {
    op.push_back(b.opcode), nf.push_back(b.nodeFeat), cf.push_back(b.configFeat), deg.push_back(b.invDegree);
    src.push_back(b.src + nodes), dst.push_back(b.dst + nodes), part.push_back(b.partOf + out.parts);
    nodes += b.opcode.size(0);
    out.parts += b.parts;
  }
  out.opcode = torch::cat(op), out.nodeFeat = torch::cat(nf), out.configFeat = torch::cat(cf);
  out.src = torch::cat(src), out.dst = torch::cat(dst), out.invDegree = torch::cat(deg), out.partOf = torch::cat(part);
  return out;
}

std::vector<int64_t> allSegmentsOf(const Prepared& p) {
  std::vector<int64_t> s(static_cast<size_t>(p.segments));
  std::iota(s.begin(), s.end(), 0);
  return s;
}

torch::Tensor rankingLoss(RankingLoss kind, const torch::Tensor& logPred, const torch::Tensor& runtime) {
  if (kind == RankingLoss::None || logPred.size(0) < 2) return torch::zeros({});
  return kind == RankingLoss::ListMle ? listMleLoss(-logPred, runtime) : pairwiseHingeLoss(-logPred, runtime);
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The historical embedding table of GST for one graph: per configuration and segment, the
// detached sums of the last pass.
struct History {
  torch::Tensor cost;   // [C, K]
  torch::Tensor state;  // [C, K, H]
};

// Log runtimes of `configs` of p from a full pass over every segment (no autograd), and the
// per-segment sums when `history` is given.
torch::Tensor fullPass(CostGnn& net, const Prepared& p, const torch::Tensor& configs, History* history) {
  torch::NoGradGuard g;
  const auto segs = allSegmentsOf(p);
  // configurations per chunk: about 256k nodes at once (64 MiB per [nodes, 64] tensor), so a
  // pass over a 64k-node graph holds a few configurations' activations, not every one's
  const int64_t chunk = std::max<int64_t>(1, (int64_t{1} << 18) / std::max<int64_t>(1, p.n));
  std::vector<torch::Tensor> preds;
  for (int64_t start = 0; start < configs.size(0); start += chunk) {
    const torch::Tensor cs = configs.slice(0, start, std::min(configs.size(0), start + chunk));
    const PartSums s = net->parts(segmentBatch(p, cs, segs));
    const int64_t b = cs.size(0);
    const torch::Tensor cost = s.cost.reshape({b, p.segments}), state = s.state.reshape({b, p.segments, net->hidden});
    if (history) {
      history->cost.index_copy_(0, cs, cost);
      history->state.index_copy_(0, cs, state);
    }
    preds.push_back(net->head(cost.sum(1), state.sum(1), torch::full({b}, static_cast<float>(p.n))));
  }
  return torch::cat(preds);
}

}  // namespace

torch::Tensor listMleLoss(const torch::Tensor& scores, const torch::Tensor& runtimes) {
  const torch::Tensor order = runtimes.argsort();  // fastest first
  const torch::Tensor s = scores.index_select(0, order);
  const torch::Tensor tail = torch::logcumsumexp(s.flip(0), 0).flip(0);
  return (tail - s).mean();
}

torch::Tensor pairwiseHingeLoss(const torch::Tensor& scores, const torch::Tensor& runtimes, double margin) {
  const torch::Tensor faster = runtimes.unsqueeze(1) < runtimes.unsqueeze(0);  // [i, j]: i faster than j
  const torch::Tensor gap = scores.unsqueeze(1) - scores.unsqueeze(0);
  const torch::Tensor loss = torch::relu(margin - gap) * faster.to(scores.dtype());
  return loss.sum() / faster.sum().clamp_min(1).to(scores.dtype());
}

LearnedCostModel trainCostModel(const CostDataset& train, const CostTrainOptions& o, const CostTrainFn& onEpoch,
                                const std::atomic<bool>* cancel, CostTrainResult& result) {
  if (train.graphs.empty()) throw Error("costmodel", "the training set has no graphs");
  torch::manual_seed(o.seed);
  LearnedCostModel m;
  m.task = train.task;
  m.deviceKind = train.deviceKind;
  m.segmentNodes = train.task == CostTask::Plan ? o.segmentNodes : 0;
  m.opcodes.push_back("<unknown>");
  m.opcodes.insert(m.opcodes.end(), train.opcodes.begin(), train.opcodes.end());
  m.net = CostGnn(static_cast<int64_t>(m.opcodes.size()), train.nodeWidth, train.configWidth, o.hidden, o.layers);
  std::vector<std::string> vocab(m.opcodes.begin(), m.opcodes.end());
  const std::vector<Prepared> data = prepare(train, vocab, m.segmentNodes);
  torch::optim::Adam opt(m.net->parameters(), torch::optim::AdamOptions(o.learningRate));
  std::mt19937_64 rng(o.seed);
  auto gen = at::detail::createCPUGenerator(o.seed);
  const double mseWeight = train.task == CostTask::Kernel ? 1.0 : 0.1;
  std::vector<History> history(data.size());
  const auto t0 = std::chrono::steady_clock::now();
  double stepSeconds = 0;
  // an update: forward (timed by the caller from its start), backward, optimizer step
  auto step = [&](const torch::Tensor& loss, std::chrono::steady_clock::time_point s0) {
    opt.zero_grad();
    loss.backward();
    opt.step();
    stepSeconds += secondsSince(s0);
    ++result.steps;
  };
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    double lossSum = 0;
    int64_t lossCount = 0;
    std::vector<size_t> order(data.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    if (train.task == CostTask::Kernel) {
      for (size_t start = 0; start < order.size(); start += static_cast<size_t>(std::max(1, o.graphsPerStep))) {
        if (cancel && cancel->load()) break;
        const auto s0 = std::chrono::steady_clock::now();
        std::vector<CostBatch> parts;
        std::vector<size_t> members;
        for (size_t i = start; i < std::min(order.size(), start + static_cast<size_t>(std::max(1, o.graphsPerStep))); ++i) {
          const Prepared& p = data[order[i]];
          parts.push_back(segmentBatch(p, torch::arange(p.c, torch::kInt64), allSegmentsOf(p)));
          members.push_back(order[i]);
        }
        const CostBatch b = concat(parts);
        const PartSums s = m.net->parts(b);
        // each kernel graph is one segment: parts are samples
        std::vector<torch::Tensor> nodes;
        for (size_t i : members) nodes.push_back(torch::full({data[i].c}, static_cast<float>(data[i].n)));
        const torch::Tensor pred = m.net->head(s.cost, s.state, torch::cat(nodes));
        torch::Tensor loss = torch::zeros({});
        int64_t at = 0;
        std::vector<torch::Tensor> targets;
        for (size_t i : members) {
          loss = loss + rankingLoss(o.loss, pred.slice(0, at, at + data[i].c), data[i].runtime) / static_cast<double>(members.size());
          targets.push_back(data[i].target);
          at += data[i].c;
        }
        loss = loss + mseWeight * torch::mse_loss(pred, torch::cat(targets));
        step(loss, s0);
        lossSum += loss.item<double>();
        ++lossCount;
      }
    } else {
      for (size_t gi : order) {
        const Prepared& p = data[gi];
        History& h = history[gi];
        const bool gst = p.segments > 1 && o.segmentsPerStep < p.segments;
        if (gst) {  // the table: this epoch's full pass (no autograd), as the policy's GST keeps it
          if (!h.cost.defined()) {
            h.cost = torch::zeros({p.c, p.segments});
            h.state = torch::zeros({p.c, p.segments, m.net->hidden});
          }
          fullPass(m.net, p, torch::arange(p.c, torch::kInt64), &h);
        }
        const torch::Tensor perm = torch::randperm(p.c, gen, torch::kInt64);
        for (int64_t start = 0; start < p.c; start += std::max(1, o.configsPerStep)) {
          if (cancel && cancel->load()) break;
          const auto s0 = std::chrono::steady_clock::now();
          const torch::Tensor configs = perm.slice(0, start, std::min(p.c, start + std::max(1, o.configsPerStep)));
          const int64_t b = configs.size(0);
          std::vector<int64_t> segs;
          torch::Tensor keep;  // [K] 1 for sampled and kept stale segments
          if (gst) {
            const SegmentSample ss = sampleSegments(p.n, p.segment, o.segmentsPerStep, o.keep, gen);
            const torch::Tensor sampled = std::get<0>(torch::unique_consecutive(ss.ranks.div(p.segment, "floor")));
            segs.assign(sampled.data_ptr<int64_t>(), sampled.data_ptr<int64_t>() + sampled.numel());
            keep = ss.keepRanks.index_select(0, torch::arange(p.segments, torch::kInt64) * p.segment);
          } else {
            segs = allSegmentsOf(p);
          }
          const PartSums s = m.net->parts(segmentBatch(p, configs, segs));
          const auto k = static_cast<int64_t>(segs.size());
          torch::Tensor cost = s.cost.reshape({b, k}), state = s.state.reshape({b, k, m.net->hidden});
          torch::Tensor costSum = cost.sum(1), stateSum = state.sum(1);
          if (gst) {
            // stale segments: the table's rows, dropped with probability 1 - keep, the kept
            // ones scaled by 1 / keep; the sampled segments' rows replaced by this pass
            const torch::Tensor segT = torch::tensor(segs, torch::kInt64);
            torch::Tensor stale = keep.clone().index_fill_(0, segT, 0) / o.keep;
            costSum = costSum + (h.cost.index_select(0, configs) * stale).sum(1);
            stateSum = stateSum + (h.state.index_select(0, configs) * stale.unsqueeze(1)).sum(1);
            torch::NoGradGuard ng;
            torch::Tensor rowsCost = h.cost.index_select(0, configs);
            rowsCost.index_copy_(1, segT, cost.detach());
            h.cost.index_copy_(0, configs, rowsCost);
            torch::Tensor rowsState = h.state.index_select(0, configs);
            rowsState.index_copy_(1, segT, state.detach());
            h.state.index_copy_(0, configs, rowsState);
          }
          const torch::Tensor pred = m.net->head(costSum, stateSum, torch::full({b}, static_cast<float>(p.n)));
          const torch::Tensor target = p.target.index_select(0, configs), runtime = p.runtime.index_select(0, configs);
          const torch::Tensor loss = rankingLoss(o.loss, pred, runtime) + mseWeight * torch::mse_loss(pred, target);
          step(loss, s0);
          lossSum += loss.item<double>();
          ++lossCount;
        }
      }
    }
    if (cancel && cancel->load()) {
      if (epoch == 1 && lossCount == 0) throw Error("costmodel", "cancelled before the first update");
      break;
    }
    result.epochs = epoch;
    result.finalLoss = lossCount ? lossSum / static_cast<double>(lossCount) : 0;
    result.seconds = secondsSince(t0);
    if (onEpoch) onEpoch({epoch, result.finalLoss, result.seconds});
    if (o.budgetSeconds > 0 && result.seconds >= o.budgetSeconds) break;
  }
  result.seconds = secondsSince(t0);
  result.secondsPerStep = result.steps ? stepSeconds / static_cast<double>(result.steps) : 0;
  m.net->eval();
  return m;
}

std::vector<std::vector<double>> predictCosts(const LearnedCostModel& m, const CostDataset& d) {
  if (d.task != m.task)
    throw Error("costmodel", std::string("the model was trained on the ") + costTaskName(m.task) + " task, the data is " +
                                 costTaskName(d.task) + "-task data");
  if (d.nodeWidth != m.net->nodeWidth || d.configWidth != m.net->configWidth)
    throw Error("costmodel", "the data's feature widths (" + std::to_string(d.nodeWidth) + " node, " +
                                 std::to_string(d.configWidth) + " config) are not the model's (" +
                                 std::to_string(m.net->nodeWidth) + ", " + std::to_string(m.net->configWidth) + ")");
  CostGnn net = m.net;
  const std::vector<Prepared> data = prepare(d, m.opcodes, m.segmentNodes);
  std::vector<std::vector<double>> out;
  for (const Prepared& p : data) {
    const torch::Tensor logPred = fullPass(net, p, torch::arange(p.c, torch::kInt64), nullptr).to(torch::kFloat64);
    const torch::Tensor sec = (torch::exp(logPred) * 1e-6).contiguous();
    out.emplace_back(sec.data_ptr<double>(), sec.data_ptr<double>() + sec.numel());
  }
  return out;
}

}  // namespace gp::rl

// The GDP/GO placement policy: GraphSAGE encoder, FiLM "superposition", segment-recurrent
// attention placer, per-unit device logits and a value head. See gdp_policy.h.
//
// Shapes: N ops, U units, H hidden, D = maxDevices, S segment length, B = ceil(N / S) segments.
// Every segment attends to [previous segment (detached), itself]; as the memory is the layer's
// input, all B segments run as one batch (no loop over segments), so a 100k-op graph is one
// attention call of batch B. No padding (see SegmentLayout), so no attention mask.
// One implementation (run) serves the full pass and Graph Segment Training: with a table and a
// sample, the per-op layers compute the sampled ops' rows only ("fresh", M of N) and merge them
// into the table's rows; the per-graph parts (FiLM context, value, device logits) see all N.
#include "rl/gdp_policy.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

namespace gp::rl {

namespace {

constexpr double kMaskedLogit = -1e9;  // "minus infinity" that keeps softmax/entropy finite
constexpr int64_t kContextExtra = 2;   // device-count features appended to the graph embedding

// Mean of `values` rows gathered at `from` and summed into rows `to` of a [rows, H] result;
// rows with no incoming entries stay 0. `invCount` is [rows, 1] (1 / max(count, 1)).
torch::Tensor meanAggregate(const torch::Tensor& values, const torch::Tensor& from, const torch::Tensor& to,
                            const torch::Tensor& invCount) {
  auto sum = torch::zeros({invCount.size(0), values.size(1)}, values.options())
                 .index_add(0, to, values.index_select(0, from));
  return sum * invCount;
}

torch::Tensor inverseCount(const torch::Tensor& index, int64_t n) {
  auto count =
      index.numel() > 0 ? torch::bincount(index, {}, n).to(torch::kFloat32) : torch::zeros({n}, torch::kFloat32);
  return (1.0 / count.clamp_min(1.0)).unsqueeze(1);
}

// The edges a pass aggregates over: all of them, or (GST) those into and out of the sampled ops
// `ops`, renumbered to the sampled ops' rows; the degrees are the whole graph's.
struct Aggregation {
  torch::Tensor inFrom, inTo, invIn;     // fan-in: source op, row of the destination
  torch::Tensor outFrom, outTo, invOut;  // fan-out: destination op, row of the source
};

Aggregation aggregation(const PolicyInput& in, const torch::Tensor& ops) {
  const int64_t n = in.numOps;
  Aggregation a;
  a.invIn = inverseCount(in.edgeDst, n);
  a.invOut = inverseCount(in.edgeSrc, n);
  if (!ops.defined()) {
    a.inFrom = in.edgeSrc, a.inTo = in.edgeDst;
    a.outFrom = in.edgeDst, a.outTo = in.edgeSrc;
    return a;
  }
  auto rowOf = torch::full({n}, -1, torch::kInt64).index_copy(0, ops, torch::arange(ops.size(0), torch::kInt64));
  auto into = rowOf.index_select(0, in.edgeDst), outOf = rowOf.index_select(0, in.edgeSrc);
  auto keepIn = into.ge(0), keepOut = outOf.ge(0);
  a.inFrom = in.edgeSrc.masked_select(keepIn), a.inTo = into.masked_select(keepIn);
  a.outFrom = in.edgeDst.masked_select(keepOut), a.outTo = outOf.masked_select(keepOut);
  a.invIn = a.invIn.index_select(0, ops), a.invOut = a.invOut.index_select(0, ops);
  return a;
}

// Mean over the rows of `full` [N, H] whose `keep` [N] is 1 (every row when undefined).
torch::Tensor pooledMean(const torch::Tensor& full, const torch::Tensor& keep) {
  if (!keep.defined()) return full.mean(0);
  return (full * keep.unsqueeze(1)).sum(0) / keep.sum().clamp_min(1.0);
}

// A head over K samples of N ops whose input at (k, n) reads only sample k's decisions at op n:
// `base` [N, L] is the head on the reference decisions, `at(k, n)` the rows where `differs`
// [K, N]. The same values as computing every (k, n), with work only where samples differ.
torch::Tensor sparseOverSamples(const torch::Tensor& base, const torch::Tensor& differs,
                                const std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>& at) {
  const int64_t k = differs.size(0), n = differs.size(1), l = base.size(1);
  auto flat = base.unsqueeze(0).expand({k, n, l}).reshape({k * n, l});
  auto where = differs.nonzero();  // [M, 2]
  if (where.size(0) == 0) return flat.view({k, n, l});
  auto ks = where.select(1, 0), ns = where.select(1, 1);
  return flat.index_copy(0, ks * n + ns, at(ks, ns)).view({k, n, l});
}

// Per sample and op, the fractions of its producers and of its consumers on another device:
// opDevice [K, N] -> [K, N, 2].
torch::Tensor crossDeviceFractions(const PolicyInput& in, const torch::Tensor& opDevice) {
  const int64_t n = in.numOps;
  auto diff = opDevice.index_select(1, in.edgeSrc).ne(opDevice.index_select(1, in.edgeDst)).to(torch::kFloat32);
  auto zeros = torch::zeros({opDevice.size(0), n});
  auto fromProducers = zeros.index_add(1, in.edgeDst, diff) * inverseCount(in.edgeDst, n).t();
  auto toConsumers = zeros.index_add(1, in.edgeSrc, diff) * inverseCount(in.edgeSrc, n).t();
  return torch::stack({fromProducers, toConsumers}, 2);
}

// Per unit and device, from the current plan (one-hot in x): the share of the unit's ops on the
// device, and the shares of the bytes the unit's inputs bring from it and its outputs send to it
// (edges inside the unit not counted): [U, D, kPairFeatures]. Zero without a current plan.
constexpr int64_t kPairFeatures = 3;
torch::Tensor unitDevicePairs(const PolicyInput& in, int64_t maxDevices) {
  const int64_t col = currentDeviceColumn(), u = in.numUnits;
  auto current = in.x.slice(1, col, col + maxDevices);  // [N, D]
  auto share = torch::zeros({u, maxDevices}).index_add(0, in.unitOf, current) * inverseCount(in.unitOf, u);
  auto srcUnit = in.unitOf.index_select(0, in.edgeSrc), dstUnit = in.unitOf.index_select(0, in.edgeDst);
  auto bytes = in.edgeBytes.defined() ? in.edgeBytes : torch::ones({in.edgeSrc.size(0)});
  auto cut = (srcUnit != dstUnit).to(torch::kFloat32) * bytes;  // [E]
  auto rowShares = [](const torch::Tensor& t) { return t / t.sum(1, true).clamp_min(1.0); };
  auto from = rowShares(torch::zeros({u, maxDevices}).index_add(0, dstUnit, current.index_select(0, in.edgeSrc) * cut.unsqueeze(1)));
  auto to = rowShares(torch::zeros({u, maxDevices}).index_add(0, srcUnit, current.index_select(0, in.edgeDst) * cut.unsqueeze(1)));
  return torch::stack({share, from, to}, 2);
}

}  // namespace

AttentionStackImpl::AttentionStackImpl(int64_t hidden, int64_t heads) {
  attention_ = register_module("attention", torch::nn::MultiheadAttention(hidden, heads));
  attnNorm_ = register_module("attnNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})));
  feedForward_ = register_module("feedForward", torch::nn::Sequential(torch::nn::Linear(hidden, 2 * hidden),
                                                                      torch::nn::ReLU(),
                                                                      torch::nn::Linear(2 * hidden, hidden)));
  ffNorm_ = register_module("ffNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})));
}

torch::Tensor AttentionStackImpl::forward(const torch::Tensor& x, int64_t segment, const torch::Tensor& wanted) {
  return overSegments(x, segmentLayout(x.size(0), segment, wanted), [&](const torch::Tensor& query, const torch::Tensor& kv) {
    auto attended = std::get<0>(attention_->forward(query, kv, kv, torch::Tensor(), /*need_weights=*/false));
    auto y = attnNorm_(query + attended);
    return ffNorm_(y + feedForward_->forward(y));
  });
}

GdpPolicyImpl::GdpPolicyImpl(int64_t featureDim, PolicyConfig config) : config_(config), featureDim_(featureDim) {
  TORCH_CHECK(featureDim > 0, "GdpPolicy: featureDim must be positive");
  TORCH_CHECK(config_.hidden > 0 && config_.hidden % config_.heads == 0,
              "GdpPolicy: hidden must be a positive multiple of heads");
  TORCH_CHECK(config_.segment > 0 && config_.sageLayers >= 0, "GdpPolicy: bad segment or sageLayers");
  TORCH_CHECK(config_.maxDevices > 0, "GdpPolicy: maxDevices must be positive");
  const int64_t h = config_.hidden;
  typeEmbed_ = register_module("typeEmbed", torch::nn::Embedding(kOpTypeVocab, config_.typeEmbedding));
  inputProj_ = register_module("inputProj", torch::nn::Linear(featureDim + config_.typeEmbedding, h));
  for (int64_t l = 0; l < config_.sageLayers; ++l) {
    sage_.push_back(register_module("sage" + std::to_string(l), torch::nn::Linear(3 * h, h)));
    sageNorm_.push_back(
        register_module("sageNorm" + std::to_string(l), torch::nn::LayerNorm(torch::nn::LayerNormOptions({h}))));
  }
  if (config_.film) {
    film_ = register_module("film", torch::nn::Linear(h + kContextExtra, 2 * h * numFilmLayers()));
    // Start as the identity modulation (scale 1 + 0, shift 0), small random slope.
    torch::NoGradGuard noGrad;
    film_->weight.normal_(0.0, 0.01);
    film_->bias.zero_();
  }
  attention_ = register_module("attention", torch::nn::MultiheadAttention(h, config_.heads));
  attnNorm_ = register_module("attnNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({h})));
  feedForward_ = register_module("feedForward", torch::nn::Sequential(torch::nn::Linear(h, 2 * h), torch::nn::ReLU(),
                                                                      torch::nn::Linear(2 * h, h)));
  ffNorm_ = register_module("ffNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({h})));
  if (config_.relativeDevices)
    pairHead_ = register_module("pairHead", torch::nn::Sequential(torch::nn::Linear(kPairFeatures, 16), torch::nn::ReLU(),
                                                                  torch::nn::Linear(16, 1)));
  else
    deviceHead_ = register_module("deviceHead", torch::nn::Linear(h, config_.maxDevices));
  deviceQuery_ = register_module("deviceQuery", torch::nn::Linear(h, h));
  deviceEmbed_ = register_module("deviceEmbed", torch::nn::Sequential(torch::nn::Linear(kDeviceFeatures, h),
                                                                      torch::nn::ReLU(), torch::nn::Linear(h, h)));
  valueHead_ = register_module("valueHead", torch::nn::Sequential(torch::nn::Linear(h + kContextExtra, h),
                                                                  torch::nn::ReLU(), torch::nn::Linear(h, 1)));
  if (config_.keepPrior) keep_ = register_parameter("keep", torch::full({1}, kKeepPriorInit));
  if (!config_.multiTask) return;
  TORCH_CHECK(config_.scheduleLevels >= 2 && config_.fusionLevels >= 2, "GdpPolicy: at least two levels per task");
  scheduleStack_ = register_module("scheduleStack", AttentionStack(h, config_.heads));
  fusionStack_ = register_module("fusionStack", AttentionStack(h, config_.heads));
  scheduleDevice_ = register_module("scheduleDevice", torch::nn::Embedding(config_.maxDevices, h));
  fusionDevice_ = register_module("fusionDevice", torch::nn::Embedding(config_.maxDevices, h));
  fusionLevel_ = register_module("fusionLevel", torch::nn::Embedding(config_.scheduleLevels, h));
  scheduleCross_ = register_module("scheduleCross", torch::nn::Linear(2, h));
  fusionCross_ = register_module("fusionCross", torch::nn::Linear(2, h));
  scheduleHead_ = register_module("scheduleHead", torch::nn::Linear(h, config_.scheduleLevels));
  fusionHead_ = register_module("fusionHead", torch::nn::Linear(h, config_.fusionLevels));
}

int64_t GdpPolicyImpl::numFilmLayers() const {
  return config_.sageLayers + 2;
}

PolicyOutput GdpPolicyImpl::forward(const PolicyInput& in, int64_t numDevices, PolicyHeads heads,
                                    HistoryTable* record) {
  return run(in, numDevices, heads, nullptr, nullptr, record);
}

PolicyOutput GdpPolicyImpl::forwardSegments(const PolicyInput& in, int64_t numDevices, PolicyHeads heads,
                                            const HistoryTable& table, const SegmentSample& sample) {
  return run(in, numDevices, heads, &table, &sample, nullptr);
}

PolicyOutput GdpPolicyImpl::run(const PolicyInput& in, int64_t numDevices, PolicyHeads heads,
                                const HistoryTable* table, const SegmentSample* sample, HistoryTable* record) {
  const int64_t n = in.numOps;
  const int64_t h = config_.hidden;
  TORCH_CHECK(n > 0 && in.numUnits > 0, "GdpPolicy: empty graph");
  TORCH_CHECK(numDevices >= 1 && numDevices <= config_.maxDevices, "GdpPolicy: numDevices ", numDevices,
              " outside [1, ", config_.maxDevices, "]");
  TORCH_CHECK(in.x.dim() == 2 && in.x.size(0) == n && in.x.size(1) == featureDim_, "GdpPolicy: x must be [", n, ", ",
              featureDim_, "]");
  TORCH_CHECK(config_.multiTask || (!heads.schedule && !heads.fusion),
              "GdpPolicy: a placement-only policy has no scheduling or fusion heads");

  // GST: the sampled ranks and their ops; fresh rows merge into the table's (op or topo order)
  const bool part = table != nullptr;
  torch::Tensor ranks, ops, keepOps, keepRanks;
  if (part) {
    TORCH_CHECK(table->filled() && static_cast<int64_t>(table->layers.size()) == config_.sageLayers + 1 &&
                    table->placed.size(0) == n,
                "GdpPolicy: the history table is not of this graph and policy");
    TORCH_CHECK((!heads.schedule || table->scheduleState.defined()) && (!heads.fusion || table->fusionState.defined()),
                "GdpPolicy: the history table was recorded without the scheduling or fusion stack");
    ranks = sample->ranks;
    ops = in.topo.index_select(0, ranks);
    keepRanks = sample->keepRanks;
    keepOps = torch::zeros({n}).index_copy(0, in.topo, keepRanks);
  }
  auto rows = [&](const torch::Tensor& t) { return part ? t.index_select(0, ops) : t; };
  auto merge = [&](const torch::Tensor& stale, const torch::Tensor& fresh, const torch::Tensor& at) {
    return part ? stale.index_copy(0, at, fresh) : fresh;
  };
  if (record) *record = HistoryTable{};
  auto keep = [&](std::vector<torch::Tensor>& to, const torch::Tensor& t) {
    if (record) to.push_back(t.detach());
  };

  // Device-count context (the same graph is placed differently on 2 and on 16 devices).
  const auto nd = static_cast<double>(numDevices);
  auto deviceContext = torch::tensor(
      {static_cast<float>(nd / static_cast<double>(kMaxDevices)), static_cast<float>(std::log2(nd) / 4.0)});

  // ---- input: node features + op-type embedding ----
  // Relative devices: the current plan's device ids stay out of the op features (the pair
  // features below carry the plan instead).
  auto features = config_.relativeDevices
                      ? in.x.index_fill(1, torch::arange(currentDeviceColumn(), currentDeviceColumn() + kMaxDevices), 0.0)
                      : in.x;
  auto fresh = torch::relu(inputProj_(torch::cat({rows(features), typeEmbed_(rows(in.opType))}, 1)));  // [M, H]
  auto x = merge(part ? table->layers[0] : torch::Tensor(), fresh, ops);                            // [N, H]
  if (record) keep(record->layers, x);

  // ---- superposition: graph embedding -> per-layer (scale, shift) ----
  std::vector<torch::Tensor> gammas, betas;
  if (config_.film) {
    auto context = torch::cat({pooledMean(x, keepOps), deviceContext});
    auto mod = film_(context).view({numFilmLayers(), 2, h});
    for (int64_t l = 0; l < numFilmLayers(); ++l) {
      gammas.push_back(mod[l][0]);
      betas.push_back(mod[l][1]);
    }
  }
  auto modulate = [&](torch::Tensor t, int64_t layer) {
    if (!config_.film) return t;
    return t * (1 + gammas[static_cast<size_t>(layer)]) + betas[static_cast<size_t>(layer)];
  };

  // ---- GraphSAGE: mean over fan-in and over fan-out, separately ----
  const Aggregation agg = aggregation(in, ops);
  for (size_t l = 0; l < sage_.size(); ++l) {
    auto fromInputs = meanAggregate(x, agg.inFrom, agg.inTo, agg.invIn);
    auto fromOutputs = meanAggregate(x, agg.outFrom, agg.outTo, agg.invOut);
    auto update = torch::relu(sage_[l](torch::cat({fresh, fromInputs, fromOutputs}, 1)));
    fresh = modulate(sageNorm_[l](fresh + update), static_cast<int64_t>(l));
    x = merge(part ? table->layers[l + 1] : torch::Tensor(), fresh, ops);
    if (record) keep(record->layers, x);
  }

  // ---- segment-recurrent attention over ops in topological order ----
  auto xs = x.index_select(0, in.topo);  // [N, H], topo order
  auto placed = overSegments(xs, segmentLayout(n, config_.segment, ranks),
                             [&](const torch::Tensor& query, const torch::Tensor& kv) {
                               auto attended = std::get<0>(attention_->forward(
                                   query, kv, kv, /*key_padding_mask=*/torch::Tensor(), /*need_weights=*/false));
                               auto y = modulate(attnNorm_(query + attended), config_.sageLayers);
                               return modulate(ffNorm_(y + feedForward_->forward(y)), config_.sageLayers + 1);
                             });
  auto y = merge(part ? table->placed : torch::Tensor(), placed, ranks);  // [N, H], topo order
  if (record) record->placed = y.detach();

  // ---- per-op logits -> per-unit mean -> device mask ----
  torch::Tensor opLogits;  // [N, D], topo order
  {
    // [D, H] device embeddings; rows beyond maxDevices in the input are ignored
    auto devices = in.deviceX.defined() ? in.deviceX.slice(0, 0, config_.maxDevices)
                                        : torch::zeros({config_.maxDevices, kDeviceFeatures});
    if (devices.size(0) < config_.maxDevices)
      devices = torch::cat({devices, torch::zeros({config_.maxDevices - devices.size(0), kDeviceFeatures})});
    opLogits = deviceQuery_(y).matmul(deviceEmbed_->forward(devices).t()) / std::sqrt(static_cast<double>(h));
    if (!config_.relativeDevices) opLogits = opLogits + deviceHead_(y);
  }
  auto unitOfTopo = in.unitOf.index_select(0, in.topo);
  auto unitSum = torch::zeros({in.numUnits, config_.maxDevices}, opLogits.options()).index_add(0, unitOfTopo, opLogits);
  auto unitLogits = unitSum * inverseCount(in.unitOf, in.numUnits);
  if (config_.relativeDevices)  // + a learned function of each (unit, device) pair's relation in the current plan
    unitLogits = unitLogits + pairHead_->forward(unitDevicePairs(in, config_.maxDevices)).squeeze(2);
  if (config_.keepPrior) {  // + keep x each unit's share of ops on each device in the current plan
    const int64_t col = currentDeviceColumn();
    auto current = in.x.slice(1, col, col + config_.maxDevices);  // [N, D] one-hot, op order
    auto unitCurrent = torch::zeros({in.numUnits, config_.maxDevices}, current.options()).index_add(0, in.unitOf, current);
    unitLogits = unitLogits + keep_ * unitCurrent * inverseCount(in.unitOf, in.numUnits);
  }
  auto masked = torch::arange(config_.maxDevices, torch::kInt64) >= numDevices;  // [D]
  unitLogits = unitLogits.masked_fill(masked, kMaskedLogit);

  // ---- value: pooled final states + device-count context ----
  auto value = valueHead_->forward(torch::cat({pooledMean(y, keepRanks), deviceContext}).unsqueeze(0)).squeeze();
  PolicyOutput out{unitLogits, value, {}, {}};

  // ---- scheduling and fusion stacks: shared states + the placement stack's (topo order) ----
  const torch::Tensor toOps = part ? ops : in.topo;  // the rows a stack's output fills, in op order
  auto stackState = [&](AttentionStack& stack, const torch::Tensor& stale, const torch::Tensor& shared) {
    auto computed = stack->forward(shared, config_.segment, ranks);
    return (part ? stale : torch::zeros({n, h})).index_copy(0, toOps, computed);
  };
  if (heads.schedule || heads.fusion) {
    auto shared = xs + y;
    if (heads.schedule) out.scheduleState = stackState(scheduleStack_, part ? table->scheduleState : torch::Tensor(), shared);
    if (heads.fusion) out.fusionState = stackState(fusionStack_, part ? table->fusionState : torch::Tensor(), shared);
    if (record) {
      if (heads.schedule) record->scheduleState = out.scheduleState.detach();
      if (heads.fusion) record->fusionState = out.fusionState.detach();
    }
  }
  return out;
}

torch::Tensor GdpPolicyImpl::scheduleLogits(const PolicyOutput& out, const PolicyInput& in,
                                            const torch::Tensor& opDevice, const torch::Tensor& refDevice) {
  TORCH_CHECK(out.scheduleState.defined(), "GdpPolicy: the forward pass ran without the scheduling stack");
  const torch::Tensor& state = out.scheduleState;
  auto head = [&](const torch::Tensor& st, const torch::Tensor& device, const torch::Tensor& cross) {
    return scheduleHead_(torch::relu(st + scheduleDevice_(device) + scheduleCross_(cross)));
  };
  auto cross = crossDeviceFractions(in, opDevice);  // [K, N, 2]
  if (!refDevice.defined()) return head(state.unsqueeze(0), opDevice, cross);
  auto refCross = crossDeviceFractions(in, refDevice.unsqueeze(0)).squeeze(0);
  auto differs = opDevice.ne(refDevice.unsqueeze(0)) | cross.ne(refCross.unsqueeze(0)).any(2);
  return sparseOverSamples(head(state, refDevice, refCross), differs, [&](const torch::Tensor& k, const torch::Tensor& i) {
    return head(state.index_select(0, i), opDevice.index({k, i}), cross.index({k, i}));
  });
}

torch::Tensor GdpPolicyImpl::fusionLogits(const PolicyOutput& out, const PolicyInput& in, const torch::Tensor& opDevice,
                                          const torch::Tensor& scheduleLevel, const torch::Tensor& refDevice,
                                          const torch::Tensor& refLevel) {
  TORCH_CHECK(out.fusionState.defined(), "GdpPolicy: the forward pass ran without the fusion stack");
  const torch::Tensor& state = out.fusionState;
  auto head = [&](const torch::Tensor& st, const torch::Tensor& device, const torch::Tensor& cross,
                  const torch::Tensor& level) {
    return fusionHead_(torch::relu(st + fusionDevice_(device) + fusionCross_(cross) + fusionLevel_(level)));
  };
  auto cross = crossDeviceFractions(in, opDevice);  // [K, N, 2]
  if (!refDevice.defined() || !refLevel.defined()) return head(state.unsqueeze(0), opDevice, cross, scheduleLevel);
  auto refCross = crossDeviceFractions(in, refDevice.unsqueeze(0)).squeeze(0);
  auto differs = opDevice.ne(refDevice.unsqueeze(0)) | scheduleLevel.ne(refLevel.unsqueeze(0)) |
                 cross.ne(refCross.unsqueeze(0)).any(2);
  return sparseOverSamples(head(state, refDevice, refCross, refLevel), differs,
                           [&](const torch::Tensor& k, const torch::Tensor& i) {
                             return head(state.index_select(0, i), opDevice.index({k, i}), cross.index({k, i}),
                                         scheduleLevel.index({k, i}));
                           });
}

}  // namespace gp::rl

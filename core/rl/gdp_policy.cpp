// The GDP/GO placement policy: GraphSAGE encoder, FiLM "superposition", segment-recurrent
// attention placer, per-unit device logits and a value head. See gdp_policy.h.
//
// Shapes: N ops, U units, H hidden, D = maxDevices, S segment length, B = ceil(N / S) segments.
// Every segment attends to [previous segment (detached), itself]; as the memory is the layer's
// input, all B segments run as one batch (no loop over segments), so a 100k-op graph is one
// attention call of batch B. No padding (see SegmentLayout), so no attention mask.
#include "rl/gdp_policy.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace gp::rl {

namespace {

constexpr double kMaskedLogit = -1e9;  // "minus infinity" that keeps softmax/entropy finite
constexpr int64_t kContextExtra = 2;   // device-count features appended to the graph embedding

// Mean of `values` rows gathered at `from` and summed into rows `to` of an [n, H] result;
// rows with no incoming entries stay 0. `invCount` is [n, 1] (1 / max(count, 1)).
torch::Tensor meanAggregate(const torch::Tensor& values, const torch::Tensor& from, const torch::Tensor& to,
                            const torch::Tensor& invCount) {
  auto sum = torch::zeros_like(values).index_add(0, to, values.index_select(0, from));
  return sum * invCount;
}

// Segments of `length` ops over the topological order, without padding: segment b covers ranks
// [start_b, start_b + S) with start_b = min(b * S, N - S) (the last one is shifted back to end
// at N; its queries already covered by the previous segment are dropped through `take`). Its
// memory is the S ranks before start_b, or — for the first segment, or when fewer than S ranks
// precede it — the segment itself: attending to every key twice is the same softmax as
// attending to it once, so no mask is needed.
struct SegmentLayout {
  int64_t count = 0, length = 0;
  torch::Tensor query;   // [B * S] ranks of each segment's ops
  torch::Tensor memory;  // [B * S] ranks of each segment's memory
  torch::Tensor take;    // [N] for each rank, its row in the [B * S] output
};

SegmentLayout segmentLayout(int64_t n, int64_t segment) {
  SegmentLayout l;
  l.length = std::min(segment, n);
  l.count = (n + l.length - 1) / l.length;
  const int64_t s = l.length;
  std::vector<int64_t> query(static_cast<size_t>(l.count * s)), memory(query.size()), take(static_cast<size_t>(n));
  for (int64_t b = 0; b < l.count; ++b) {
    const int64_t start = std::min(b * s, n - s);
    const int64_t memStart = start >= s ? start - s : start;
    for (int64_t j = 0; j < s; ++j) {
      query[static_cast<size_t>(b * s + j)] = start + j;
      memory[static_cast<size_t>(b * s + j)] = memStart + j;
    }
  }
  const int64_t lastStart = n - s;
  for (int64_t r = 0; r < n; ++r)
    take[static_cast<size_t>(r)] = r < (l.count - 1) * s ? r : (l.count - 1) * s + (r - lastStart);
  auto tensor = [](const std::vector<int64_t>& v) {
    return torch::from_blob(const_cast<int64_t*>(v.data()), {static_cast<int64_t>(v.size())}, torch::kInt64).clone();
  };
  l.query = tensor(query);
  l.memory = tensor(memory);
  l.take = tensor(take);
  return l;
}

torch::Tensor inverseCount(const torch::Tensor& index, int64_t n) {
  auto count =
      index.numel() > 0 ? torch::bincount(index, {}, n).to(torch::kFloat32) : torch::zeros({n}, torch::kFloat32);
  return (1.0 / count.clamp_min(1.0)).unsqueeze(1);
}

// xs: [N, H] in topological order -> queries [S, B, H] and keys/values [2S, B, H] (memory
// detached: the previous segment's cached states, Transformer-XL style).
std::pair<torch::Tensor, torch::Tensor> segmentInputs(const torch::Tensor& xs, const SegmentLayout& layout) {
  const int64_t h = xs.size(1);
  auto segs = xs.index_select(0, layout.query).view({layout.count, layout.length, h});  // [B, S, H]
  auto memory = xs.index_select(0, layout.memory).view({layout.count, layout.length, h}).detach();
  return {segs.transpose(0, 1), torch::cat({memory, segs}, 1).transpose(0, 1)};
}

// [S, B, H] -> [N, H] in topological order.
torch::Tensor unsegment(const torch::Tensor& y, const SegmentLayout& layout) {
  return y.transpose(0, 1).reshape({layout.count * layout.length, y.size(2)}).index_select(0, layout.take);
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

}  // namespace

AttentionStackImpl::AttentionStackImpl(int64_t hidden, int64_t heads) {
  attention_ = register_module("attention", torch::nn::MultiheadAttention(hidden, heads));
  attnNorm_ = register_module("attnNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})));
  feedForward_ = register_module("feedForward", torch::nn::Sequential(torch::nn::Linear(hidden, 2 * hidden),
                                                                      torch::nn::ReLU(),
                                                                      torch::nn::Linear(2 * hidden, hidden)));
  ffNorm_ = register_module("ffNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})));
}

torch::Tensor AttentionStackImpl::forward(const torch::Tensor& x, int64_t segment) {
  const SegmentLayout layout = segmentLayout(x.size(0), segment);
  auto [query, kv] = segmentInputs(x, layout);
  auto attended = std::get<0>(attention_->forward(query, kv, kv, torch::Tensor(), /*need_weights=*/false));
  auto y = attnNorm_(query + attended);
  y = ffNorm_(y + feedForward_->forward(y));
  return unsegment(y, layout);
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
  deviceHead_ = register_module("deviceHead", torch::nn::Linear(h, config_.maxDevices));
  deviceQuery_ = register_module("deviceQuery", torch::nn::Linear(h, h));
  deviceEmbed_ = register_module("deviceEmbed", torch::nn::Sequential(torch::nn::Linear(kDeviceFeatures, h),
                                                                      torch::nn::ReLU(), torch::nn::Linear(h, h)));
  valueHead_ = register_module("valueHead", torch::nn::Sequential(torch::nn::Linear(h + kContextExtra, h),
                                                                  torch::nn::ReLU(), torch::nn::Linear(h, 1)));
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

PolicyOutput GdpPolicyImpl::forward(const PolicyInput& in, int64_t numDevices, PolicyHeads heads) {
  const int64_t n = in.numOps;
  const int64_t h = config_.hidden;
  TORCH_CHECK(n > 0 && in.numUnits > 0, "GdpPolicy: empty graph");
  TORCH_CHECK(numDevices >= 1 && numDevices <= config_.maxDevices, "GdpPolicy: numDevices ", numDevices,
              " outside [1, ", config_.maxDevices, "]");
  TORCH_CHECK(in.x.dim() == 2 && in.x.size(0) == n && in.x.size(1) == featureDim_, "GdpPolicy: x must be [", n, ", ",
              featureDim_, "]");
  TORCH_CHECK(config_.multiTask || (!heads.schedule && !heads.fusion),
              "GdpPolicy: a placement-only policy has no scheduling or fusion heads");

  // Device-count context (the same graph is placed differently on 2 and on 16 devices).
  const auto nd = static_cast<double>(numDevices);
  auto deviceContext = torch::tensor(
      {static_cast<float>(nd / static_cast<double>(kMaxDevices)), static_cast<float>(std::log2(nd) / 4.0)});

  // ---- input: node features + op-type embedding ----
  auto x = torch::relu(inputProj_(torch::cat({in.x, typeEmbed_(in.opType)}, 1)));  // [N, H]

  // ---- superposition: graph embedding -> per-layer (scale, shift) ----
  std::vector<torch::Tensor> gammas, betas;
  if (config_.film) {
    auto context = torch::cat({x.mean(0), deviceContext});
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
  const auto invIn = inverseCount(in.edgeDst, n);   // in-degree
  const auto invOut = inverseCount(in.edgeSrc, n);  // out-degree
  for (size_t l = 0; l < sage_.size(); ++l) {
    auto fromInputs = meanAggregate(x, in.edgeSrc, in.edgeDst, invIn);
    auto fromOutputs = meanAggregate(x, in.edgeDst, in.edgeSrc, invOut);
    auto update = torch::relu(sage_[l](torch::cat({x, fromInputs, fromOutputs}, 1)));
    x = modulate(sageNorm_[l](x + update), static_cast<int64_t>(l));
  }

  // ---- segment-recurrent attention over ops in topological order ----
  const SegmentLayout layout = segmentLayout(n, config_.segment);
  auto xs = x.index_select(0, in.topo);  // [N, H], topo order
  auto [query, kv] = segmentInputs(xs, layout);
  auto attended = std::get<0>(attention_->forward(query, kv, kv, /*key_padding_mask=*/torch::Tensor(),
                                                  /*need_weights=*/false));
  auto y = modulate(attnNorm_(query + attended), config_.sageLayers);
  y = modulate(ffNorm_(y + feedForward_->forward(y)), config_.sageLayers + 1);
  y = unsegment(y, layout);  // [N, H], topo order

  // ---- per-op logits -> per-unit mean -> device mask ----
  auto opLogits = deviceHead_(y);  // [N, D], topo order
  {
    // [D, H] device embeddings; rows beyond maxDevices in the input are ignored
    auto devices = in.deviceX.defined() ? in.deviceX.slice(0, 0, config_.maxDevices)
                                        : torch::zeros({config_.maxDevices, kDeviceFeatures});
    if (devices.size(0) < config_.maxDevices)
      devices = torch::cat({devices, torch::zeros({config_.maxDevices - devices.size(0), kDeviceFeatures})});
    opLogits = opLogits + deviceQuery_(y).matmul(deviceEmbed_->forward(devices).t()) / std::sqrt(static_cast<double>(h));
  }
  auto unitOfTopo = in.unitOf.index_select(0, in.topo);
  auto unitSum = torch::zeros({in.numUnits, config_.maxDevices}, opLogits.options()).index_add(0, unitOfTopo, opLogits);
  auto unitLogits = unitSum * inverseCount(in.unitOf, in.numUnits);
  auto masked = torch::arange(config_.maxDevices, torch::kInt64) >= numDevices;  // [D]
  unitLogits = unitLogits.masked_fill(masked, kMaskedLogit);

  // ---- value: pooled final states + device-count context ----
  auto value = valueHead_->forward(torch::cat({y.mean(0), deviceContext}).unsqueeze(0)).squeeze();
  PolicyOutput out{unitLogits, value, {}, {}};

  // ---- scheduling and fusion stacks: shared states + the placement stack's (topo order) ----
  auto toOpOrder = [&](const torch::Tensor& topoRows) { return torch::zeros_like(topoRows).index_copy(0, in.topo, topoRows); };
  if (heads.schedule || heads.fusion) {
    auto shared = xs + y;
    if (heads.schedule) out.scheduleState = toOpOrder(scheduleStack_->forward(shared, config_.segment));
    if (heads.fusion) out.fusionState = toOpOrder(fusionStack_->forward(shared, config_.segment));
  }
  return out;
}

torch::Tensor GdpPolicyImpl::scheduleLogits(const PolicyOutput& out, const PolicyInput& in,
                                            const torch::Tensor& opDevice) {
  TORCH_CHECK(out.scheduleState.defined(), "GdpPolicy: the forward pass ran without the scheduling stack");
  auto r = out.scheduleState.unsqueeze(0) + scheduleDevice_(opDevice) + scheduleCross_(crossDeviceFractions(in, opDevice));
  return scheduleHead_(torch::relu(r));
}

torch::Tensor GdpPolicyImpl::fusionLogits(const PolicyOutput& out, const PolicyInput& in, const torch::Tensor& opDevice,
                                          const torch::Tensor& scheduleLevel) {
  TORCH_CHECK(out.fusionState.defined(), "GdpPolicy: the forward pass ran without the fusion stack");
  auto r = out.fusionState.unsqueeze(0) + fusionDevice_(opDevice) + fusionCross_(crossDeviceFractions(in, opDevice)) +
           fusionLevel_(scheduleLevel);
  return fusionHead_(torch::relu(r));
}

}  // namespace gp::rl

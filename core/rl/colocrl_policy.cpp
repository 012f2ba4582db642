// ColocRL co-location chunks, their token features, and the attentional seq2seq policy.
// See colocrl_policy.h.
#include "rl/colocrl_policy.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>

#include "base/error.h"
#include "rl/cancellable.h"

namespace gp::rl {

namespace {

constexpr double kMaskedLogit = -1e9;  // as gdp_policy.cpp

// Column layout of ColocGroups::tokens.
enum TokenColumn : int {
  kFlops,
  kOpTime,
  kOutputBytes,
  kParamBytes,
  kOpCount,
  kBytesSent,
  kBytesReceived,
  kEdgesEarlier,
  kEdgesLater,
  kForward,
  kBackward,
  kUpdate,
  kPosition,
  kNumTokenColumns,
};
static_assert(kNumTokenColumns == kColocTokenDim);

float logScaled(double v, double scale) {
  return static_cast<float>(std::log1p(std::max(0.0, v)) / scale);
}

// Chunk of every move group (see the header): contiguous, in move-group order.
std::vector<int32_t> chunkMoveGroups(const std::vector<double>& weight, int32_t maxGroups) {
  const auto n = static_cast<int32_t>(weight.size());
  std::vector<int32_t> chunk(static_cast<size_t>(n));
  if (n <= maxGroups) {
    for (int32_t i = 0; i < n; ++i) chunk[static_cast<size_t>(i)] = i;
    return chunk;
  }
  double total = 0;
  for (double w : weight) total += w;
  double placed = 0, current = 0, target = total / maxGroups;
  int32_t c = 0;
  for (int32_t i = 0; i < n; ++i) {
    const double w = weight[static_cast<size_t>(i)];
    // close the chunk when the group would take it past the target, or when every group left
    // can have a chunk of its own
    if (current > 0 && c + 1 < maxGroups && (current + w / 2 > target || n - i <= maxGroups - c - 1)) {
      placed += current;
      current = 0;
      ++c;
      target = (total - placed) / (maxGroups - c);
    }
    chunk[static_cast<size_t>(i)] = c;
    current += w;
  }
  return chunk;
}

torch::Tensor fromVector(const std::vector<float>& v, int64_t rows, int64_t cols) {
  return torch::from_blob(const_cast<float*>(v.data()), {rows, cols}, torch::kFloat32).clone();
}

}  // namespace

ColocGroups buildColocGroups(const Graph& g, const CostModel& cost, const GraphFeatures& f, int32_t maxGroups) {
  if (maxGroups < 1) throw Error("colocrl", "at most " + std::to_string(maxGroups) + " co-location groups: need >= 1");
  if (f.numOps != g.numOps() || static_cast<int32_t>(f.unitOf.size()) != g.numOps() ||
      static_cast<int32_t>(f.groupOf.size()) != f.numUnits)
    throw Error("colocrl", "the graph features do not belong to graph " + g.name());
  const int32_t n = g.numOps();

  // weight per move group: 0.9 * share of op time + 0.1 * share of ops
  std::vector<double> time(static_cast<size_t>(f.numGroups), 0.0), ops(time.size(), 0.0);
  double totalTime = 0;
  for (OpId op = 0; op < n; ++op) {
    const auto mg = static_cast<size_t>(f.groupOf[static_cast<size_t>(f.unitOf[op])]);
    time[mg] += cost.fastestOpTime(op);
    ops[mg] += 1;
    totalTime += cost.fastestOpTime(op);
  }
  std::vector<double> weight(time.size());
  for (size_t i = 0; i < weight.size(); ++i)
    weight[i] = (totalTime > 0 ? 0.9 * time[i] / totalTime : 0.0) + 0.1 * ops[i] / std::max(1, n);
  const std::vector<int32_t> chunkOfMoveGroup = chunkMoveGroups(weight, maxGroups);

  ColocGroups out;
  out.numGroups = chunkOfMoveGroup.empty() ? 0 : chunkOfMoveGroup.back() + 1;
  out.groupOfUnit.resize(static_cast<size_t>(f.numUnits));
  for (int32_t u = 0; u < f.numUnits; ++u)
    out.groupOfUnit[static_cast<size_t>(u)] = chunkOfMoveGroup[static_cast<size_t>(f.groupOf[static_cast<size_t>(u)])];
  const int32_t C = out.numGroups;
  std::vector<int32_t> chunkOfOp(static_cast<size_t>(n));
  for (OpId op = 0; op < n; ++op) chunkOfOp[op] = out.groupOfUnit[static_cast<size_t>(f.unitOf[op])];

  // sums per chunk
  std::vector<double> flops(C, 0.0), opTime(C, 0.0), outBytes(C, 0.0), params(C, 0.0), count(C, 0.0);
  std::vector<double> sent(C, 0.0), received(C, 0.0), edges(C, 0.0), earlier(C, 0.0), later(C, 0.0);
  std::vector<double> role(static_cast<size_t>(C) * 3, 0.0);
  out.typeMix.assign(static_cast<size_t>(C) * kOpTypeVocab, 0.0f);
  std::vector<int32_t> dest;
  for (OpId op = 0; op < n; ++op) {
    const int32_t c = chunkOfOp[op];
    flops[c] += g.flops(op);
    opTime[c] += cost.fastestOpTime(op);
    outBytes[c] += static_cast<double>(g.bytesWritten(op));
    params[c] += static_cast<double>(g.paramBytes(op));
    count[c] += 1;
    role[static_cast<size_t>(c) * 3 + static_cast<size_t>(g.role(op))] += 1;
    out.typeMix[static_cast<size_t>(c) * kOpTypeVocab + static_cast<size_t>(f.opType[op])] += 1;
    for (TensorId t : g.outputs(op)) {  // a tensor goes once to each other chunk that reads it
      dest.clear();
      for (OpId consumer : g.consumers(t))
        if (chunkOfOp[consumer] != c) dest.push_back(chunkOfOp[consumer]);
      std::sort(dest.begin(), dest.end());
      dest.erase(std::unique(dest.begin(), dest.end()), dest.end());
      const auto bytes = static_cast<double>(g.tensorBytes(t));
      for (int32_t d : dest) {
        sent[c] += bytes;
        received[d] += bytes;
      }
    }
    for (OpId p : g.fanIn(op)) {  // edge p -> op
      const int32_t a = chunkOfOp[p];
      edges[c] += 1;
      if (a == c) continue;
      edges[a] += 1;
      (a < c ? earlier[c] : later[c]) += 1;
      (c < a ? earlier[a] : later[a]) += 1;
    }
  }

  out.tokens.assign(static_cast<size_t>(C) * kColocTokenDim, 0.0f);
  for (int32_t c = 0; c < C; ++c) {
    float* row = out.tokens.data() + static_cast<size_t>(c) * kColocTokenDim;
    row[kFlops] = logScaled(flops[c], 30.0);
    row[kOpTime] = logScaled(opTime[c] * 1e6, 14.0);
    row[kOutputBytes] = logScaled(outBytes[c], 23.0);
    row[kParamBytes] = logScaled(params[c], 23.0);
    row[kOpCount] = logScaled(count[c], 12.0);
    row[kBytesSent] = logScaled(sent[c], 23.0);
    row[kBytesReceived] = logScaled(received[c], 23.0);
    if (edges[c] > 0) {
      row[kEdgesEarlier] = static_cast<float>(earlier[c] / edges[c]);
      row[kEdgesLater] = static_cast<float>(later[c] / edges[c]);
    }
    const double k = std::max(1.0, count[c]);
    for (int r = 0; r < 3; ++r) row[kForward + r] = static_cast<float>(role[static_cast<size_t>(c) * 3 + r] / k);
    row[kPosition] = C > 1 ? static_cast<float>(c) / static_cast<float>(C - 1) : 0.0f;
    float* mix = out.typeMix.data() + static_cast<size_t>(c) * kOpTypeVocab;
    for (int v = 0; v < kOpTypeVocab; ++v) mix[v] = static_cast<float>(mix[v] / k);
  }
  return out;
}

std::vector<int32_t> unitsFromGroups(const ColocGroups& groups, const std::vector<int32_t>& groupDevice) {
  if (static_cast<int32_t>(groupDevice.size()) != groups.numGroups)
    throw Error("colocrl", std::to_string(groupDevice.size()) + " devices for " + std::to_string(groups.numGroups) +
                               " co-location groups");
  std::vector<int32_t> units(groups.groupOfUnit.size());
  for (size_t u = 0; u < units.size(); ++u) units[u] = groupDevice[static_cast<size_t>(groups.groupOfUnit[u])];
  return units;
}

ColocInput toColocInput(const ColocGroups& groups) {
  ColocInput in;
  in.numGroups = groups.numGroups;
  in.tokens = fromVector(groups.tokens, groups.numGroups, kColocTokenDim);
  in.typeMix = fromVector(groups.typeMix, groups.numGroups, kOpTypeVocab);
  return in;
}

ColocRlPolicyImpl::ColocRlPolicyImpl(ColocRlConfig config) : config_(config) {
  const ColocRlConfig& c = config_;
  if (c.hidden < 2 || c.hidden % 2 != 0 || c.typeEmbedding < 1 || c.deviceEmbedding < 1 || c.maxDevices < 1 ||
      c.maxDevices > kMaxDevices)
    throw Error("colocrl", "bad policy configuration (hidden must be even, sizes positive, devices <= " +
                               std::to_string(kMaxDevices) + ")");
  const int64_t H = c.hidden;
  typeEmbed_ = register_module("type_embed", torch::nn::Embedding(kOpTypeVocab, c.typeEmbedding));
  deviceEmbed_ = register_module("device_embed", torch::nn::Embedding(c.maxDevices + 1, c.deviceEmbedding));
  tokenProj_ = register_module("token_proj", torch::nn::Linear(c.typeEmbedding + kColocTokenDim, H));
  encoder_ = register_module("encoder", torch::nn::LSTM(torch::nn::LSTMOptions(H, H / 2).bidirectional(true)));
  initState_ = register_module("init_state", torch::nn::Linear(H, H));
  decoder_ = register_module("decoder", torch::nn::LSTMCell(c.deviceEmbedding + H, H));
  attnKey_ = register_module("attn_key", torch::nn::Linear(torch::nn::LinearOptions(H, H).bias(false)));
  combine_ = register_module("combine", torch::nn::Linear(2 * H, H));
  deviceHead_ = register_module("device_head", torch::nn::Linear(H, c.maxDevices));
}

std::optional<ColocDecode> ColocRlPolicyImpl::decode(const ColocInput& in, int64_t numDevices, int64_t samples,
                                                     at::Generator* generator, const std::function<bool()>& stop,
                                                     const std::atomic<bool>* abandon) {
  const int64_t D = config_.maxDevices, C = in.numGroups, K = samples;
  if (numDevices < 1 || numDevices > D)
    throw Error("colocrl",
                "the policy places on 1 to " + std::to_string(D) + " devices, asked for " + std::to_string(numDevices));
  if (C < 1 || in.tokens.size(0) != C) throw Error("colocrl", "no co-location groups to place");
  if (K < 1) throw Error("colocrl", "no samples asked for");

  // encoder
  const torch::Tensor bag = in.typeMix.mm(typeEmbed_->weight);                                    // [C, E]
  const torch::Tensor token = torch::tanh(tokenProj_->forward(torch::cat({bag, in.tokens}, 1)));  // [C, H]
  const torch::Tensor enc = std::get<0>(encoder_->forward(token.unsqueeze(1))).squeeze(1);        // [C, H]
  const torch::Tensor keysT = attnKey_->forward(enc).t();                                         // [H, C]

  // decoder
  torch::Tensor h =
      torch::tanh(initState_->forward(enc.mean(0, /*keepdim=*/true))).expand({K, enc.size(1)}).contiguous();
  torch::Tensor cell = torch::zeros_like(h);
  torch::Tensor prev = torch::full({K}, D, torch::kInt64);  // the "go" symbol
  const torch::Tensor mask = torch::arange(D, torch::kInt64) >= numDevices;
  std::vector<torch::Tensor> logitsPerStep, devicesPerStep;
  logitsPerStep.reserve(static_cast<size_t>(C));
  devicesPerStep.reserve(static_cast<size_t>(C));
  const bool hooks = abandon != nullptr && torch::GradMode::is_enabled();
  for (int64_t t = 0; t < C; ++t) {
    if (stop && stop()) {  // the partial graph is freed on a reaped thread, off the cancel latency
      destroyLater(std::move(logitsPerStep));
      return std::nullopt;
    }
    const torch::Tensor input = torch::cat({deviceEmbed_->forward(prev), enc[t].unsqueeze(0).expand({K, -1})}, 1);
    std::tie(h, cell) = decoder_->forward(input, std::make_tuple(h, cell));
    if (hooks)
      h.register_hook([abandon](const torch::Tensor&) {
        if (abandon->load(std::memory_order_relaxed)) throw ColocBackwardAbandoned();
      });
    const torch::Tensor context = torch::softmax(h.mm(keysT), 1).mm(enc);  // Luong "general": [K, H]
    const torch::Tensor logits = deviceHead_->forward(torch::tanh(combine_->forward(torch::cat({h, context}, 1))))
                                     .masked_fill(mask, kMaskedLogit);
    {
      torch::NoGradGuard noGrad;
      prev = generator != nullptr
                 ? torch::multinomial(torch::softmax(logits, 1), 1, /*replacement=*/false, *generator).squeeze(1)
                 : logits.argmax(1);
    }
    logitsPerStep.push_back(logits);
    devicesPerStep.push_back(prev);
  }
  // log-probabilities and entropies of all steps at once (fewer autograd nodes per step)
  ColocDecode out;
  out.devices = torch::stack(devicesPerStep, 1);  // [K, C]
  out.logits = torch::stack(logitsPerStep, 1);    // [K, C, D]
  const torch::Tensor logp = torch::log_softmax(out.logits, 2);
  out.logProb = logp.gather(2, out.devices.unsqueeze(2)).squeeze(2).sum(1);
  out.entropy = -(logp.exp() * logp).sum(2).mean();
  return out;
}

}  // namespace gp::rl

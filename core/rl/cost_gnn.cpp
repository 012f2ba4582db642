#include "rl/cost_gnn.h"

#include <cmath>
#include <filesystem>

#include "base/error.h"
#include "rl/archive_file.h"

namespace gp::rl {
namespace {

constexpr int64_t kFormat = 1;
constexpr int64_t kEmbed = 16;

}  // namespace

CostGnnImpl::CostGnnImpl(int64_t vocab_, int64_t nodeWidth_, int64_t configWidth_, int64_t hidden_, int64_t layers_)
    : vocab(vocab_), nodeWidth(nodeWidth_), configWidth(configWidth_), hidden(hidden_), layers(layers_) {
  embed = register_module("embed", torch::nn::Embedding(vocab, kEmbed));
  input = register_module("input", torch::nn::Linear(kEmbed + nodeWidth + configWidth, hidden));
  sage = register_module("sage", torch::nn::ModuleList());
  norms = register_module("norms", torch::nn::ModuleList());
  for (int64_t l = 0; l < layers; ++l) {
    sage->push_back(torch::nn::Linear(2 * hidden, hidden));
    norms->push_back(torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})));
  }
  cost = register_module("cost", torch::nn::Sequential(torch::nn::Linear(hidden, hidden), torch::nn::ReLU(),
                                                       torch::nn::Linear(hidden, 1)));
  // per-node costs start near 10 us
  cost[2]->as<torch::nn::Linear>()->bias.data().fill_(std::log(10.0));
  correction = register_module("correction", torch::nn::Sequential(torch::nn::Linear(hidden, hidden), torch::nn::ReLU(),
                                                                   torch::nn::Linear(hidden, 1)));
}

PartSums CostGnnImpl::parts(const CostBatch& b) {
  torch::Tensor h = torch::relu(input(torch::cat({embed(b.opcode), b.nodeFeat, b.configFeat}, 1)));
  for (int64_t l = 0; l < layers; ++l) {
    torch::Tensor neigh = torch::zeros_like(h);
    if (b.src.numel() > 0) neigh = neigh.index_add(0, b.dst, h.index_select(0, b.src));
    neigh = neigh * b.invDegree.unsqueeze(1);
    auto lin = sage[static_cast<size_t>(l)]->as<torch::nn::Linear>();
    auto norm = norms[static_cast<size_t>(l)]->as<torch::nn::LayerNorm>();
    h = norm->forward(h + torch::relu(lin->forward(torch::cat({h, neigh}, 1))));
  }
  // per-node cost exp(l) microseconds: the log of a part's sum is a log-sum-exp of the l
  const torch::Tensor c = torch::exp(cost->forward(h).squeeze(1).clamp_max(60));
  PartSums s;
  s.cost = torch::zeros({b.parts}, c.options()).index_add(0, b.partOf, c);
  s.state = torch::zeros({b.parts, hidden}, h.options()).index_add(0, b.partOf, h);
  return s;
}

torch::Tensor CostGnnImpl::head(const torch::Tensor& costSum, const torch::Tensor& stateSum, const torch::Tensor& nodes) {
  const torch::Tensor mean = stateSum / nodes.clamp_min(1).unsqueeze(1);
  return torch::log(costSum + 1e-3) + correction->forward(mean).squeeze(1);
}

void saveLearnedCostModel(const LearnedCostModel& m, const std::string& path) {
  torch::serialize::OutputArchive archive;
  try {
    archive.write("gp_cost_model_format", torch::tensor({kFormat}));
    archive.write("sizes", torch::tensor({m.net->vocab, m.net->nodeWidth, m.net->configWidth, m.net->hidden,
                                          m.net->layers, static_cast<int64_t>(m.task), m.segmentNodes}));
    auto text = [](const std::string& s) {
      return torch::from_blob(const_cast<char*>(s.data()), {static_cast<int64_t>(s.size())}, torch::kUInt8).clone();
    };
    std::string vocab;
    for (const std::string& o : m.opcodes) vocab += o + "\n";
    archive.write("opcodes", text(vocab));
    archive.write("device_kind", text(m.deviceKind));
    torch::serialize::OutputArchive weights;
    m.net->save(weights);
    archive.write("net", weights);
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot write the cost model: ") + e.what_without_backtrace());
  }
  saveArchiveAtomically(archive, path, "the cost model");
}

LearnedCostModel loadLearnedCostModel(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(path, "no such cost-model file");
  try {
    torch::serialize::InputArchive archive;
    loadArchiveChecked(archive, path);
    torch::Tensor format, sizes, vocab, kind;
    if (!archive.try_read("gp_cost_model_format", format) || format.numel() != 1 || format.item<int64_t>() != kFormat)
      throw Error(path, "not a graphplace cost model (format 1)");
    if (!archive.try_read("sizes", sizes) || sizes.numel() != 7) throw Error(path, "the cost-model file has no sizes");
    sizes = sizes.to(torch::kInt64).contiguous();
    const int64_t* v = sizes.data_ptr<int64_t>();
    auto inRange = [](int64_t x, int64_t lo, int64_t hi) { return x >= lo && x <= hi; };
    if (!inRange(v[0], 1, 1 << 20) || !inRange(v[1], 1, 4096) || !inRange(v[2], 1, 4096) || !inRange(v[3], 1, 4096) ||
        !inRange(v[4], 0, 64) || !inRange(v[5], 0, 1) || !inRange(v[6], 0, int64_t{1} << 30))
      throw Error(path, "the cost-model file's sizes are out of range");
    auto text = [&](const char* key, torch::Tensor& t) {
      if (!archive.try_read(key, t) || t.scalar_type() != torch::kUInt8 || t.dim() != 1)
        throw Error(path, std::string("the cost-model file has no ") + key);
      t = t.contiguous();
      return std::string(reinterpret_cast<const char*>(t.data_ptr<uint8_t>()), static_cast<size_t>(t.numel()));
    };
    LearnedCostModel m;
    const std::string words = text("opcodes", vocab);
    for (size_t start = 0; start < words.size();) {
      const size_t end = words.find('\n', start);
      if (end == std::string::npos) break;
      m.opcodes.push_back(words.substr(start, end - start));
      start = end + 1;
    }
    if (static_cast<int64_t>(m.opcodes.size()) != v[0]) throw Error(path, "the cost-model file's vocabulary has the wrong size");
    m.deviceKind = text("device_kind", kind);
    m.task = static_cast<CostTask>(v[5]);
    m.segmentNodes = v[6];
    m.net = CostGnn(v[0], v[1], v[2], v[3], v[4]);
    torch::serialize::InputArchive weights;
    archive.read("net", weights);
    m.net->load(weights);
    m.net->eval();
    return m;
  } catch (const c10::Error& e) {
    throw Error(path, std::string("cannot read the cost model: ") + e.what_without_backtrace());
  }
}

}  // namespace gp::rl

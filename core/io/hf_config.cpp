#include "io/hf_config.h"

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <string_view>

#include "base/error.h"
#include "base/file_text.h"
#include "base/json_text.h"

namespace gp {
namespace {

constexpr int64_t kMaxDefaultSeq = 8192;
constexpr int64_t kMaxSize = int64_t{1} << 24;  // any width, head or vocabulary beyond this is not a real model
constexpr int64_t kMaxLayers = 4096;

class Fields {
 public:
  Fields(const nlohmann::json& j, const std::string& source, std::string type) : j_(j), source_(source), type_(std::move(type)) {}

  // The first of `keys` present and not null, as a positive integer up to `max`; else `fallback`
  // (< 0: the field is required).
  int64_t size(std::initializer_list<const char*> keys, int64_t fallback = -1, int64_t max = kMaxSize) const {
    for (const char* k : keys) {
      if (!j_.contains(k) || j_[k].is_null()) continue;
      const nlohmann::json& v = j_[k];
      if (!v.is_number_integer() || v.get<int64_t>() < 1)
        throw Error(source_, std::string("\"") + k + "\" must be a positive integer, got " + v.dump());
      if (v.get<int64_t>() > max)
        throw Error(source_, std::string("\"") + k + "\" = " + v.dump() + " is beyond " + std::to_string(max));
      return v.get<int64_t>();
    }
    if (fallback >= 0) return fallback;
    throw Error(source_, std::string("\"") + *keys.begin() + "\" is missing (model_type " + type_ + ")");
  }
  bool flag(const char* key, bool fallback) const {
    if (!j_.contains(key) || j_[key].is_null()) return fallback;
    if (!j_[key].is_boolean()) throw Error(source_, std::string("\"") + key + "\" must be true or false, got " + j_[key].dump());
    return j_[key].get<bool>();
  }

 private:
  const nlohmann::json& j_;
  const std::string& source_;
  std::string type_;
};

// A graph name from "_name_or_path" ("meta-llama/Meta-Llama-3-8B" -> "Meta-Llama-3-8B"), else the type.
std::string graphName(const nlohmann::json& j, const std::string& type) {
  std::string name;
  if (j.contains("_name_or_path") && j["_name_or_path"].is_string()) name = j["_name_or_path"].get<std::string>();
  if (const size_t slash = name.find_last_of("/\\"); slash != std::string::npos) name = name.substr(slash + 1);
  std::string clean;
  for (char c : name)
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.') clean += c;
  return clean.empty() || clean.size() > 64 ? type : clean;
}

}  // namespace

bool isHfSpec(const std::string& spec) { return spec.rfind(kHfPrefix, 0) == 0; }

std::string hfConfigPath(const std::string& spec) {
  if (isHfSpec(spec)) return spec.substr(std::string_view(kHfPrefix).size());
  if (spec.size() < 5 || spec.compare(spec.size() - 5, 5, ".json") != 0) return {};
  std::ifstream in(spec, std::ios::binary);
  if (!in) return {};
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const bool config = head.find("\"model_type\"") != std::string::npos && head.find("\"format\"") == std::string::npos;
  return config ? spec : std::string();
}

HfModel parseHfConfig(const std::string& text, const std::string& source) {
  const nlohmann::json j = parseJsonText(text, source);
  if (!j.is_object()) throw Error(source, "not a Hugging Face config.json (a JSON object with \"model_type\")");
  if (!j.contains("model_type") || !j["model_type"].is_string())
    throw Error(source, "\"model_type\" is missing: not a Hugging Face model config");
  HfModel m;
  m.modelType = j["model_type"].get<std::string>();
  const std::string& type = m.modelType;
  const Fields f(j, source, type);
  zoo::DecoderConfig& c = m.decoder;
  c.name = graphName(j, type);
  if (type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2") {
    c.hidden = f.size({"hidden_size"});
    c.layers = f.size({"num_hidden_layers"}, -1, kMaxLayers);
    c.heads = f.size({"num_attention_heads"});
    c.kvHeads = f.size({"num_key_value_heads"}, c.heads);
    c.headDim = f.size({"head_dim"}, 0);
    c.intermediate = f.size({"intermediate_size"});
    c.vocab = f.size({"vocab_size"});
    m.maxPositions = f.size({"max_position_embeddings"}, 2048, int64_t{1} << 30);
    c.tiedEmbeddings = f.flag("tie_word_embeddings", false);
    c.qkvBias = type == "qwen2";
    if (type == "llama") c.qkvBias = c.outputBias = f.flag("attention_bias", false);
    if (type == "llama") c.mlpBias = f.flag("mlp_bias", false);
    if (type == "mixtral") {
      c.experts = f.size({"num_local_experts"}, -1, 4096);
      c.expertsPerToken = f.size({"num_experts_per_tok"}, 2, 4096);
    }
  } else if (type == "gpt2") {
    c.hidden = f.size({"n_embd"});
    c.layers = f.size({"n_layer"}, -1, kMaxLayers);
    c.heads = f.size({"n_head"});
    c.intermediate = f.size({"n_inner"}, 4 * c.hidden);
    c.vocab = f.size({"vocab_size"});
    m.maxPositions = f.size({"n_positions"}, 1024, int64_t{1} << 30);
    c.maxPositions = m.maxPositions;
    c.rmsNorm = c.rotary = c.gatedMlp = false;
    c.qkvBias = c.outputBias = c.mlpBias = true;
    c.tiedEmbeddings = f.flag("tie_word_embeddings", true);
  } else if (type == "gpt_neox") {
    c.hidden = f.size({"hidden_size"});
    c.layers = f.size({"num_hidden_layers"}, -1, kMaxLayers);
    c.heads = f.size({"num_attention_heads"});
    c.intermediate = f.size({"intermediate_size"}, 4 * c.hidden);
    c.vocab = f.size({"vocab_size"});
    m.maxPositions = f.size({"max_position_embeddings"}, 2048, int64_t{1} << 30);
    c.rmsNorm = c.gatedMlp = false;
    c.qkvBias = c.outputBias = c.mlpBias = f.flag("attention_bias", true);
    c.mlpBias = true;
    c.residual = f.flag("use_parallel_residual", true) ? zoo::DecoderResidual::ParallelTwoNorms : zoo::DecoderResidual::Sequential;
    c.tiedEmbeddings = f.flag("tie_word_embeddings", false);
  } else if (type == "gptj") {
    c.hidden = f.size({"n_embd"});
    c.layers = f.size({"n_layer"}, -1, kMaxLayers);
    c.heads = f.size({"n_head"});
    c.intermediate = f.size({"n_inner"}, 4 * c.hidden);
    c.vocab = f.size({"vocab_size"});
    m.maxPositions = f.size({"n_positions"}, 2048, int64_t{1} << 30);
    c.rmsNorm = c.gatedMlp = false;
    c.mlpBias = c.lmHeadBias = true;
    c.residual = zoo::DecoderResidual::ParallelOneNorm;
    c.tiedEmbeddings = f.flag("tie_word_embeddings", false);
  } else if (type == "falcon" || type == "RefinedWeb" || type == "RefinedWebModel") {
    c.hidden = f.size({"hidden_size", "n_embed"});
    c.layers = f.size({"num_hidden_layers", "n_layer"}, -1, kMaxLayers);
    c.heads = f.size({"num_attention_heads", "n_head"});
    c.vocab = f.size({"vocab_size"});
    c.intermediate = f.size({"ffn_hidden_size"}, 4 * c.hidden);
    m.maxPositions = f.size({"max_position_embeddings"}, 2048, int64_t{1} << 30);
    const bool newArchitecture = f.flag("new_decoder_architecture", false);
    c.kvHeads = newArchitecture ? f.size({"num_kv_heads", "n_head_kv"}, c.heads) : f.flag("multi_query", true) ? 1 : c.heads;
    if (f.flag("alibi", false)) throw Error(source, "\"alibi\": true (ALiBi positions) is not supported; rotary positions are");
    c.rmsNorm = c.gatedMlp = false;
    c.qkvBias = c.outputBias = c.mlpBias = f.flag("bias", false);
    c.residual = newArchitecture                     ? zoo::DecoderResidual::ParallelTwoNorms
                 : f.flag("parallel_attn", true)    ? zoo::DecoderResidual::ParallelOneNorm
                                                    : zoo::DecoderResidual::Sequential;
    c.tiedEmbeddings = f.flag("tie_word_embeddings", true);
  } else if (type == "starcoder2") {
    // StarCoder2: grouped-query attention, LayerNorm, rotary positions, a GELU MLP of two
    // products, biases throughout (use_bias), the output tied to the embedding by default.
    c.hidden = f.size({"hidden_size"});
    c.layers = f.size({"num_hidden_layers"}, -1, kMaxLayers);
    c.heads = f.size({"num_attention_heads"});
    c.kvHeads = f.size({"num_key_value_heads"}, c.heads);
    c.intermediate = f.size({"intermediate_size"}, 4 * c.hidden);
    c.vocab = f.size({"vocab_size"});
    m.maxPositions = f.size({"max_position_embeddings"}, 4096, int64_t{1} << 30);
    c.rmsNorm = c.gatedMlp = false;
    c.qkvBias = c.outputBias = c.mlpBias = f.flag("use_bias", true);
    c.tiedEmbeddings = f.flag("tie_word_embeddings", true);
  } else if (type == "t5" || type == "mt5") {
    zoo::T5Config t;
    t.name = c.name;
    t.dModel = f.size({"d_model"});
    t.dKv = f.size({"d_kv"});
    t.heads = f.size({"num_heads"});
    t.dFf = f.size({"d_ff"});
    t.layers = f.size({"num_layers"}, -1, kMaxLayers);
    t.decoderLayers = f.size({"num_decoder_layers"}, t.layers, kMaxLayers);
    t.vocab = f.size({"vocab_size"});
    t.buckets = f.size({"relative_attention_num_buckets"}, 32, 4096);
    std::string ff = "relu";
    if (j.contains("feed_forward_proj") && !j["feed_forward_proj"].is_null()) {
      if (!j["feed_forward_proj"].is_string()) throw Error(source, "\"feed_forward_proj\" must be a string");
      ff = j["feed_forward_proj"].get<std::string>();
    }
    if (ff != "relu" && ff != "gated-gelu")
      throw Error(source, "\"feed_forward_proj\" = \"" + ff + "\" is not supported (relu, gated-gelu)");
    t.gatedGelu = ff == "gated-gelu";
    t.tiedEmbeddings = f.flag("tie_word_embeddings", true);
    m.maxPositions = f.size({"n_positions"}, 512, int64_t{1} << 30);
    m.t5 = t;
    return m;
  } else {
    throw Error(source, "model_type '" + type +
                            "' is not supported (llama, mistral, mixtral, qwen2, gpt2, gpt_neox, gptj, falcon, starcoder2, t5, mt5)");
  }
  if (c.kvHeads == 0) c.kvHeads = c.heads;
  if (c.headDim == 0) {
    if (c.hidden % c.heads != 0)
      throw Error(source, "the " + std::to_string(c.heads) + " attention heads do not divide the hidden size " +
                              std::to_string(c.hidden) + " (and there is no \"head_dim\")");
    c.headDim = c.hidden / c.heads;
  }
  if (c.heads % c.kvHeads != 0)
    throw Error(source, "the " + std::to_string(c.kvHeads) + " key / value heads do not divide the " + std::to_string(c.heads) +
                            " attention heads");
  if (c.expertsPerToken > c.experts && c.experts > 0)
    throw Error(source, "\"num_experts_per_tok\" = " + std::to_string(c.expertsPerToken) + " exceeds the " +
                            std::to_string(c.experts) + " experts");
  return m;
}

Graph hfModel(const std::string& path, const ZooParams& params) {
  HfModel m = parseHfConfig(readFileText(path, "Hugging Face config"), path);
  if (params.hidden != 0) throw Error(path, "--hidden does not apply to a Hugging Face config (it sets the width)");
  if (params.seed != 0) throw Error(path, "--graph-seed does not apply to a Hugging Face config");
  if (params.batch < 0 || params.seqLen < 0 || params.layers < 0)
    throw Error(path, "batch, sequence length and layers must be positive");
  if (params.layers > kMaxLayers) throw Error(path, "layers must be at most " + std::to_string(kMaxLayers));
  const int64_t batch = params.batch > 0 ? params.batch : 1;
  if (m.t5) {  // relative positions: any length
    if (params.layers > 0) m.t5->layers = m.t5->decoderLayers = params.layers;
    return zoo::t5Model(*m.t5, batch, params.seqLen > 0 ? params.seqLen : m.maxPositions);
  }
  if (params.layers > 0) m.decoder.layers = params.layers;
  const int64_t seq = params.seqLen > 0 ? params.seqLen : std::min(m.maxPositions, kMaxDefaultSeq);
  // A learned position table has rows for max_position_embeddings positions; rotary positions
  // are computed for any length (long-context runs train past the config's value).
  if (seq > m.maxPositions && !m.decoder.rotary)
    throw Error(path, "sequence length " + std::to_string(seq) + " exceeds the config's " + std::to_string(m.maxPositions) +
                          " positions");
  return zoo::decoderModel(m.decoder, batch, seq);
}

}  // namespace gp

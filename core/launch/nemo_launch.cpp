#include "launch/nemo_launch.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "base/error.h"
#include "launch/megatron_launch.h"

namespace gp {
namespace {

using Flags = std::map<std::string, std::string>;

// The Megatron settings by flag, and the file they start: its inexact parts.
struct Settings {
  Flags f;
  LaunchFile out;
};
Settings settingsFor(const ParallelPlan& p, const LaunchContext& ctx, const char* target) {
  MegatronArgs a = megatronArgs(p, ctx, target);
  Settings s;
  for (const auto& [flag, value] : a.list) s.f[flag] = value;
  s.out.inexact = std::move(a.inexact);
  return s;
}

std::string num(int64_t v) { return std::to_string(v); }

int nodes(const ParallelPlan& p, int perNode) { return (p.devicesUsed() + perNode - 1) / perNode; }

int perNodeOf(const ParallelPlan& p, const LaunchContext& ctx) {
  return std::max(1, std::min(ctx.devicesPerServer, p.devicesUsed()));
}

}  // namespace

LaunchFile exportNemo(const ParallelPlan& p, const LaunchContext& ctx) {
  Settings s = settingsFor(p, ctx, "nemo");
  const Flags& f = s.f;
  auto has = [&](const char* flag) { return f.count(flag) > 0; };
  LaunchFile& out = s.out;
  if (!has("--bf16") && !has("--fp16"))
    out.inexact.push_back("fp32: the recipe's own precision plugin is left as it is (NeMo 2.0's recipes train in bf16_mixed)");
  std::string& t = out.text;
  t = launchHeader(p, ctx, "NeMo 2.0 recipe overrides", "Names as in NeMo v2.4.0 (nemo/collections/llm/recipes, MegatronStrategy).",
                   "NeMo", out.inexact);
  t += "# Apply to a recipe of nemo.collections.llm, e.g. recipe = llm.llama3_8b.pretrain_recipe(...):\n"
       "#   recipe = apply_graphplace_plan(recipe)\n"
       "import nemo_run as run\n"
       "from megatron.core.transformer.enums import AttnBackend\n"
       "from nemo.collections.llm.recipes.precision.mixed_precision import (bf16_mixed, bf16_with_fp8_mixed, fp16_mixed,\n"
       "                                                              fp16_with_fp8_mixed)\n"
       "from nemo.lightning.pytorch.callbacks.megatron_comm_overlap import MegatronCommOverlapCallback\n\n\n"
       "def apply_graphplace_plan(recipe):\n";
  auto set = [&](const std::string& key, const std::string& value) { t += "    recipe." + key + " = " + value + "\n"; };
  const int perNode = perNodeOf(p, ctx);
  set("trainer.devices", num(perNode));
  set("trainer.num_nodes", num(nodes(p, perNode)));
  set("model.config.num_layers", f.at("--num-layers"));
  set("model.config.hidden_size", f.at("--hidden-size"));
  if (has("--num-attention-heads")) set("model.config.num_attention_heads", f.at("--num-attention-heads"));
  if (has("--num-query-groups")) set("model.config.num_query_groups", f.at("--num-query-groups"));
  if (has("--num-experts")) set("model.config.num_moe_experts", f.at("--num-experts"));
  if (has("--seq-length")) set("data.seq_length", f.at("--seq-length")), set("model.config.seq_length", f.at("--seq-length"));
  set("data.micro_batch_size", f.at("--micro-batch-size"));
  set("data.global_batch_size", f.at("--global-batch-size"));
  set("trainer.strategy.tensor_model_parallel_size", f.at("--tensor-model-parallel-size"));
  set("trainer.strategy.pipeline_model_parallel_size", f.at("--pipeline-model-parallel-size"));
  set("trainer.strategy.virtual_pipeline_model_parallel_size", p.virtualStages > 1 ? num(p.virtualStages) : "None");
  set("trainer.strategy.context_parallel_size", has("--context-parallel-size") ? f.at("--context-parallel-size") : "1");
  if (has("--expert-model-parallel-size")) set("trainer.strategy.expert_model_parallel_size", f.at("--expert-model-parallel-size"));
  set("trainer.strategy.sequence_parallel", has("--sequence-parallel") ? "True" : "False");
  if (has("--decoder-first-pipeline-num-layers"))
    set("trainer.strategy.num_layers_in_first_pipeline_stage", f.at("--decoder-first-pipeline-num-layers"));
  if (has("--decoder-last-pipeline-num-layers"))
    set("trainer.strategy.num_layers_in_last_pipeline_stage", f.at("--decoder-last-pipeline-num-layers"));
  if (has("--recompute-granularity")) {
    set("model.config.recompute_granularity", "\"" + f.at("--recompute-granularity") + "\"");
    if (has("--recompute-method")) set("model.config.recompute_method", "\"" + f.at("--recompute-method") + "\"");
    if (has("--recompute-num-layers")) set("model.config.recompute_num_layers", f.at("--recompute-num-layers"));
  } else {
    set("model.config.recompute_granularity", "None");
  }
  set("optim.config.use_distributed_optimizer", has("--use-distributed-optimizer") ? "True" : "False");
  if (has("--num-distributed-optimizer-instances"))
    set("trainer.strategy.ddp.num_distributed_optimizer_instances", f.at("--num-distributed-optimizer-instances"));
  set("trainer.strategy.ddp.overlap_grad_reduce", has("--overlap-grad-reduce") ? "True" : "False");
  set("trainer.strategy.ddp.overlap_param_gather", has("--overlap-param-gather") ? "True" : "False");
  if (has("--use-torch-fsdp2")) {  // Megatron FSDP, sharding optimizer state, gradients and parameters
    set("trainer.strategy.fsdp", "\"megatron\"");
    set("trainer.strategy.ddp.data_parallel_sharding_strategy", "\"optim_grads_params\"");
    set("trainer.strategy.ddp.average_in_collective", "False");
  }
  if (has("--bf16")) set("trainer.plugins", has("--fp8-format") ? "bf16_with_fp8_mixed()" : "bf16_mixed()");
  else if (has("--fp16")) set("trainer.plugins", has("--fp8-format") ? "fp16_with_fp8_mixed()" : "fp16_mixed()");
  if (has("--grad-reduce-in-bf16")) {  // as NeMo's performance recipes set it
    set("trainer.plugins.grad_reduce_in_fp32", "False");
    set("trainer.strategy.ddp.grad_reduce_in_fp32", "False");
  }
  const std::string backend = f.at("--attention-backend");
  set("model.config.attention_backend", "AttnBackend." + backend);
  if (has("--tp-comm-overlap") || has("--overlap-p2p-comm"))
    t += std::string("    recipe.trainer.callbacks.append(run.Config(MegatronCommOverlapCallback") +
         (has("--tp-comm-overlap") ? ", tp_comm_overlap=True" : "") + (has("--overlap-p2p-comm") ? ", overlap_p2p_comm=True" : "") +
         "))\n";
  t += "    return recipe\n";
  return out;
}

LaunchFile exportNemo1(const ParallelPlan& p, const LaunchContext& ctx) {
  Settings s = settingsFor(p, ctx, "nemo1");
  const Flags& f = s.f;
  auto has = [&](const char* flag) { return f.count(flag) > 0; };
  LaunchFile& out = s.out;
  if (has("--decoder-first-pipeline-num-layers") || has("--decoder-last-pipeline-num-layers")) {
    if (ctx.stack && ctx.stack->numLayers() % p.pp != 0)
      throw Error("nemo1", "number of layers (" + num(ctx.stack->numLayers()) +
                               ") should be divisible by the pipeline-model-parallel size: NeMo 1.x's megatron_gpt_config.yaml "
                               "has no uneven first / last stages (Megatron-LM core_r0.11.0, megatron/training/arguments.py)");
    out.inexact.push_back("uneven first / last stages: megatron_gpt_config.yaml splits the layers evenly");
  }
  if (has("--use-torch-fsdp2")) out.inexact.push_back("ZeRO-3: written as NeMo 1.x's torch FSDP (fsdp_sharding_strategy full)");
  if (has("--num-distributed-optimizer-instances"))
    out.inexact.push_back("the sharding group: NeMo 1.x's distributed_fused_adam shards over the whole data-parallel group");
  if (p.attention != AttentionImpl::Flash)
    out.inexact.push_back("the attention kernel: with Transformer Engine, NeMo 1.x leaves it to TE's backend choice "
                          "(NVTE_FLASH_ATTN, NVTE_FUSED_ATTN)");
  std::string& t = out.text;
  t = launchHeader(p, ctx, "NeMo 1.x config", "Keys as in NeMo v2.4.0's examples/nlp/language_modeling/conf/megatron_gpt_config.yaml.",
                   "NeMo 1.x", out.inexact);
  auto yesNo = [&](bool v) { return std::string(v ? "true" : "false"); };
  const int perNode = perNodeOf(p, ctx);
  t += "trainer:\n";
  t += "  devices: " + num(perNode) + "\n";
  t += "  num_nodes: " + num(nodes(p, perNode)) + "\n";
  t += std::string("  precision: ") + (has("--bf16") ? "bf16" : has("--fp16") ? "16" : "32") + "\n";
  t += "model:\n";
  t += "  micro_batch_size: " + f.at("--micro-batch-size") + "\n";
  t += "  global_batch_size: " + f.at("--global-batch-size") + "\n";
  t += "  tensor_model_parallel_size: " + f.at("--tensor-model-parallel-size") + "\n";
  t += "  pipeline_model_parallel_size: " + f.at("--pipeline-model-parallel-size") + "\n";
  t += "  virtual_pipeline_model_parallel_size: " + (p.virtualStages > 1 ? num(p.virtualStages) : std::string("null")) + "\n";
  t += "  context_parallel_size: " + (has("--context-parallel-size") ? f.at("--context-parallel-size") : std::string("1")) + "\n";
  if (has("--expert-model-parallel-size")) t += "  expert_model_parallel_size: " + f.at("--expert-model-parallel-size") + "\n";
  t += "  sequence_parallel: " + yesNo(has("--sequence-parallel")) + "\n";
  t += "  overlap_p2p_comm: " + yesNo(has("--overlap-p2p-comm")) + "\n";
  if (has("--seq-length")) t += "  encoder_seq_length: " + f.at("--seq-length") + "\n";
  t += "  num_layers: " + f.at("--num-layers") + "\n";
  t += "  hidden_size: " + f.at("--hidden-size") + "\n";
  if (has("--num-attention-heads")) t += "  num_attention_heads: " + f.at("--num-attention-heads") + "\n";
  if (has("--num-query-groups")) t += "  num_query_groups: " + f.at("--num-query-groups") + "\n";
  const bool rec = has("--recompute-granularity");
  t += "  activations_checkpoint_granularity: " + (rec ? f.at("--recompute-granularity") : std::string("null")) + "\n";
  t += "  activations_checkpoint_method: " + (has("--recompute-method") ? f.at("--recompute-method") : std::string("null")) + "\n";
  t += "  activations_checkpoint_num_layers: " + (has("--recompute-num-layers") ? f.at("--recompute-num-layers") : std::string("null")) +
       "\n";
  t += "  transformer_engine: true\n";
  t += "  fp8: " + yesNo(has("--fp8-format")) + "\n";
  if (has("--fp8-format")) t += "  fp8_hybrid: true\n";
  t += "  ub_tp_comm_overlap: " + yesNo(has("--tp-comm-overlap")) + "\n";
  if (has("--use-torch-fsdp2")) t += "  fsdp: true\n  fsdp_sharding_strategy: full\n";
  t += "  optim:\n";
  t += std::string("    name: ") + (has("--use-distributed-optimizer") ? "distributed_fused_adam" : "fused_adam") + "\n";
  if (has("--use-distributed-optimizer")) {
    t += "    overlap_grad_sync: " + yesNo(has("--overlap-grad-reduce")) + "\n";
    t += "    overlap_param_sync: " + yesNo(has("--overlap-param-gather")) + "\n";
  }
  return out;
}

bool isNemoRecipe(const std::string& text) { return !pythonAssignments(text, "recipe.").empty(); }

LaunchImport importNemo(const std::string& text, const std::string& source, const LayerStack& st, int devices) {
  const auto v = pythonAssignments(text, "recipe.");
  if (!v.count("trainer.strategy.tensor_model_parallel_size") && !v.count("trainer.strategy.pipeline_model_parallel_size") &&
      !v.count("data.global_batch_size"))
    throw Error(source, "no NeMo recipe settings (recipe.trainer.strategy..., recipe.data...) found");
  std::string args;
  auto literal = [&](const std::string& key) {
    std::string value = v.at(key);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    if (value.empty() || value.find_first_of(" \t()[]{},") != std::string::npos)
      throw Error(source, "recipe." + key + " must be a literal, got '" + v.at(key) + "'");
    return value;
  };
  auto valueFlag = [&](const std::string& key, const std::string& flag) {
    if (v.count(key) && v.at(key) != "None") args += flag + " " + literal(key) + "\n";
  };
  auto switchFlag = [&](const std::string& key, const std::string& flag) {
    if (!v.count(key)) return;
    const std::string& value = v.at(key);
    if (value != "True" && value != "False") throw Error(source, "recipe." + key + " must be True or False, got '" + value + "'");
    if (value == "True") args += flag + "\n";
  };
  valueFlag("model.config.num_layers", "--num-layers");
  valueFlag("model.config.hidden_size", "--hidden-size");
  valueFlag("model.config.num_attention_heads", "--num-attention-heads");
  if (v.count("model.config.num_query_groups") && v.at("model.config.num_query_groups") != "None") {
    args += "--group-query-attention\n";
    valueFlag("model.config.num_query_groups", "--num-query-groups");
  }
  valueFlag("model.config.num_moe_experts", "--num-experts");
  valueFlag(v.count("data.seq_length") ? "data.seq_length" : "model.config.seq_length", "--seq-length");
  valueFlag("data.micro_batch_size", "--micro-batch-size");
  valueFlag("data.global_batch_size", "--global-batch-size");
  valueFlag("trainer.strategy.tensor_model_parallel_size", "--tensor-model-parallel-size");
  valueFlag("trainer.strategy.pipeline_model_parallel_size", "--pipeline-model-parallel-size");
  valueFlag("trainer.strategy.virtual_pipeline_model_parallel_size", "--num-virtual-stages-per-pipeline-rank");
  valueFlag("trainer.strategy.context_parallel_size", "--context-parallel-size");
  valueFlag("trainer.strategy.expert_model_parallel_size", "--expert-model-parallel-size");
  switchFlag("trainer.strategy.sequence_parallel", "--sequence-parallel");
  valueFlag("trainer.strategy.num_layers_in_first_pipeline_stage", "--decoder-first-pipeline-num-layers");
  valueFlag("trainer.strategy.num_layers_in_last_pipeline_stage", "--decoder-last-pipeline-num-layers");
  // The embedding and the loss counted as a layer each in the pipeline split (Megatron-Core's
  // account_for_embedding / loss_in_pipeline_split): the first and last stages get one layer less.
  auto on = [&](const char* key) { return v.count(key) && v.at(key) == "True"; };
  const bool embedding = on("trainer.strategy.account_for_embedding_in_pipeline_split");
  const bool loss = on("trainer.strategy.account_for_loss_in_pipeline_split");
  const int64_t pp = v.count("trainer.strategy.pipeline_model_parallel_size")
                         ? std::max<int64_t>(1, std::atoll(literal("trainer.strategy.pipeline_model_parallel_size").c_str()))
                         : 1;
  if ((embedding || loss) && pp > 1 && !v.count("trainer.strategy.num_layers_in_first_pipeline_stage") &&
      !v.count("trainer.strategy.num_layers_in_last_pipeline_stage")) {
    const int64_t total = st.numLayers() + embedding + loss;
    if (total % pp != 0)
      throw Error(source, "the layers with the embedding and loss counted (" + std::to_string(total) +
                              ") do not split evenly over pipeline_model_parallel_size " + std::to_string(pp));
    if (embedding) args += "--decoder-first-pipeline-num-layers " + std::to_string(total / pp - 1) + "\n";
    if (loss) args += "--decoder-last-pipeline-num-layers " + std::to_string(total / pp - 1) + "\n";
  }
  valueFlag("model.config.recompute_granularity", "--recompute-granularity");
  valueFlag("model.config.recompute_method", "--recompute-method");
  valueFlag("model.config.recompute_num_layers", "--recompute-num-layers");
  switchFlag("optim.config.use_distributed_optimizer", "--use-distributed-optimizer");
  valueFlag("trainer.strategy.ddp.num_distributed_optimizer_instances", "--num-distributed-optimizer-instances");
  switchFlag("trainer.strategy.ddp.overlap_grad_reduce", "--overlap-grad-reduce");
  switchFlag("trainer.strategy.ddp.overlap_param_gather", "--overlap-param-gather");
  if (v.count("trainer.strategy.fsdp") && literal("trainer.strategy.fsdp") == "megatron") args += "--use-torch-fsdp2\n";
  if (v.count("trainer.plugins")) {
    const std::string& plugins = v.at("trainer.plugins");
    if (plugins.find("fp8") != std::string::npos) args += "--fp8-format hybrid\n";
    if (plugins.find("bf16") != std::string::npos) args += "--bf16\n";
    else if (plugins.find("fp16") != std::string::npos) args += "--fp16\n";
  }
  // MegatronMixedPrecision reduces (and accumulates) gradients in fp32 unless told otherwise.
  for (const char* key : {"trainer.plugins.grad_reduce_in_fp32", "trainer.strategy.ddp.grad_reduce_in_fp32"})
    if (v.count(key) && v.at(key) != "True" && v.at(key) != "False")
      throw Error(source, std::string("recipe.") + key + " must be True or False, got '" + v.at(key) + "'");
  if ((v.count("trainer.plugins.grad_reduce_in_fp32") && v.at("trainer.plugins.grad_reduce_in_fp32") == "False") ||
      (v.count("trainer.strategy.ddp.grad_reduce_in_fp32") && v.at("trainer.strategy.ddp.grad_reduce_in_fp32") == "False"))
    args += "--grad-reduce-in-bf16\n";
  if (v.count("model.config.attention_backend")) {
    const std::string& backend = v.at("model.config.attention_backend");
    if (!backend.starts_with("AttnBackend.")) throw Error(source, "recipe.model.config.attention_backend must be AttnBackend.<name>");
    args += "--attention-backend " + backend.substr(12) + "\n";
  }
  // recipe.trainer.callbacks.append(run.Config(MegatronCommOverlapCallback, tp_comm_overlap=True, ...))
  if (text.find("tp_comm_overlap=True") != std::string::npos) args += "--tp-comm-overlap\n";
  if (text.find("overlap_p2p_comm=True") != std::string::npos) args += "--overlap-p2p-comm\n";
  // The recipe's GPUs, as a torchrun line states them for Megatron-LM.
  if (v.count("trainer.devices") && v.count("trainer.num_nodes")) {
    auto count = [&](const std::string& key) { return launchCount(literal(key), source, "recipe." + key); };
    const int64_t world = count("trainer.devices") * count("trainer.num_nodes");
    if (world > devices)
      throw Error(source, "the recipe runs on " + std::to_string(world) + " GPUs (trainer.devices x trainer.num_nodes), the cluster has " +
                              std::to_string(devices));
    devices = static_cast<int>(world);
  }
  return importMegatron(args, source, st, devices);
}

bool isNemo1Yaml(const std::string& text) {
  return (text.starts_with("model:") || text.find("\nmodel:") != std::string::npos) &&
         text.find("tensor_model_parallel_size:") != std::string::npos;
}

LaunchImport importNemo1(const std::string& text, const std::string& source, const LayerStack& st, int devices) {
  // yaml-cpp's parser recurses per level: refuse what nests deeper than any configuration does.
  int depth = 0;
  size_t indent = 0;
  bool lineStart = true;
  for (char c : text) {
    if (c == '[' || c == '{') depth++;
    if ((c == ']' || c == '}') && depth > 0) depth--;
    if (c == '\n') lineStart = true, indent = 0;
    else if (lineStart && c == ' ') ++indent;
    else lineStart = false;
    if (depth > 64 || indent > 256) throw Error(source, "the YAML nests deeper than a NeMo configuration does");
  }
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(source, "line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsMap() || !root["model"] || !root["model"].IsMap())
    throw Error(source, "no NeMo 1.x model: section with parallel sizes found");
  const YAML::Node model = root["model"];
  const YAML::Node trainer = root["trainer"];
  std::set<std::string> read;
  auto scalar = [&](const YAML::Node& section, const char* sectionName, const char* key) -> std::optional<std::string> {
    read.insert(std::string(sectionName) + "." + key);
    if (!section || !section.IsMap() || !section[key]) return std::nullopt;
    const YAML::Node v = section[key];
    if (v.IsNull()) return std::nullopt;
    if (!v.IsScalar()) throw Error(source, std::string(sectionName) + "." + key + " must be a single value");
    return v.Scalar();
  };
  std::string args;
  auto valueFlag = [&](const char* key, const std::string& flag) {
    if (auto v = scalar(model, "model", key)) args += flag + " " + *v + "\n";
  };
  auto switchFlag = [&](const YAML::Node& section, const char* sectionName, const char* key, const std::string& flag) {
    const auto v = scalar(section, sectionName, key);
    if (!v) return;
    if (*v != "true" && *v != "false" && *v != "True" && *v != "False")
      throw Error(source, std::string(sectionName) + "." + key + " must be true or false, got '" + *v + "'");
    if (*v == "true" || *v == "True") args += flag + "\n";
  };
  valueFlag("num_layers", "--num-layers");
  valueFlag("hidden_size", "--hidden-size");
  valueFlag("num_attention_heads", "--num-attention-heads");
  if (auto groups = scalar(model, "model", "num_query_groups")) args += "--group-query-attention\n--num-query-groups " + *groups + "\n";
  valueFlag("encoder_seq_length", "--seq-length");
  valueFlag("micro_batch_size", "--micro-batch-size");
  valueFlag("global_batch_size", "--global-batch-size");
  valueFlag("tensor_model_parallel_size", "--tensor-model-parallel-size");
  valueFlag("pipeline_model_parallel_size", "--pipeline-model-parallel-size");
  valueFlag("virtual_pipeline_model_parallel_size", "--num-virtual-stages-per-pipeline-rank");
  valueFlag("context_parallel_size", "--context-parallel-size");
  valueFlag("expert_model_parallel_size", "--expert-model-parallel-size");
  switchFlag(model, "model", "sequence_parallel", "--sequence-parallel");
  switchFlag(model, "model", "overlap_p2p_comm", "--overlap-p2p-comm");
  valueFlag("activations_checkpoint_granularity", "--recompute-granularity");
  valueFlag("activations_checkpoint_method", "--recompute-method");
  valueFlag("activations_checkpoint_num_layers", "--recompute-num-layers");
  switchFlag(model, "model", "fp8", "--fp8-format hybrid");
  switchFlag(model, "model", "ub_tp_comm_overlap", "--tp-comm-overlap");
  switchFlag(model, "model", "fsdp", "--use-torch-fsdp2");
  for (const char* key : {"transformer_engine", "fp8_hybrid", "fsdp_sharding_strategy"}) read.insert(std::string("model.") + key);
  const YAML::Node optim = model["optim"];
  read.insert("model.optim");
  if (auto name = scalar(optim, "model.optim", "name"); name && *name == "distributed_fused_adam") {
    args += "--use-distributed-optimizer\n";
    switchFlag(optim, "model.optim", "overlap_grad_sync", "--overlap-grad-reduce");
    switchFlag(optim, "model.optim", "overlap_param_sync", "--overlap-param-gather");
  }
  if (auto precision = scalar(trainer, "trainer", "precision")) {
    if (precision->starts_with("bf16")) args += "--bf16\n";
    else if (precision->starts_with("16")) args += "--fp16\n";
  }
  // The configuration's GPUs.
  const auto perNode = scalar(trainer, "trainer", "devices"), nodesCount = scalar(trainer, "trainer", "num_nodes");
  if (perNode && nodesCount) {
    auto count = [&](const std::string& key, const std::string& v) { return launchCount(v, source, "trainer." + key); };
    const int64_t world = count("devices", *perNode) * count("num_nodes", *nodesCount);
    if (world > devices)
      throw Error(source, "the configuration runs on " + std::to_string(world) +
                              " GPUs (trainer.devices x trainer.num_nodes), the cluster has " + std::to_string(devices));
    devices = static_cast<int>(world);
  }
  LaunchImport r = importMegatron(args, source, st, devices);
  std::string unread;
  int more = 0, listed = 0;
  for (const auto& [section, node] : {std::pair<const char*, YAML::Node>{"trainer", trainer}, {"model", model}}) {
    if (!node || !node.IsMap()) continue;
    for (const auto& kv : node) {
      const std::string key = std::string(section) + "." + kv.first.as<std::string>("?");
      if (read.count(key)) continue;
      if (listed++ < 12) unread += (unread.empty() ? "" : ", ") + key;
      else ++more;
    }
  }
  if (!unread.empty())
    r.approximated.push_back("not read (nothing the simulator models): " + unread + (more ? " and " + std::to_string(more) + " more" : ""));
  return r;
}

int64_t nemoSeqLength(const std::string& text) {
  const auto v = pythonAssignments(text, "recipe.");
  const auto it = v.find("data.seq_length");
  return it == v.end() ? 0 : positiveOrZero(it->second);
}

int64_t nemo1SeqLength(const std::string& text) {
  const size_t at = text.find("encoder_seq_length:");
  if (at == std::string::npos) return 0;
  std::string v = text.substr(at + 19, text.find_first_of("\n#", at) - at - 19);
  v.erase(0, v.find_first_not_of(" \t"));
  v.erase(v.find_last_not_of(" \t\r") + 1);
  return positiveOrZero(v);
}

}  // namespace gp

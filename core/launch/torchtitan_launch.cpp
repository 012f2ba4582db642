#include "launch/torchtitan_launch.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <toml++/toml.h>

#include "base/error.h"
#include "launch/torchtitan_layout.h"

namespace gp {
namespace {

constexpr const char* kTarget = "torchtitan";

std::string num(int64_t v) { return std::to_string(v); }

}  // namespace

LaunchFile exportTorchtitan(const ParallelPlan& p, const LaunchContext& ctx) {
  if (!ctx.stack) throw Error(kTarget, "no model to export for");
  const LayerStack& st = *ctx.stack;
  const TorchtitanLayout layout = torchtitanLayout(p, ctx.globalBatch, /*current=*/false);
  LaunchFile f;
  f.inexact = layout.inexact;
  if (st.activationType == DType::F16)
    f.inexact.push_back("fp16: torchtitan trains in bfloat16 or float32 (mixed_precision_param), bfloat16 written");
  const int replicate = layout.replicate, shard = layout.shard;
  const Recompute rec = layout.recompute;
  const int64_t mbs = p.microbatchSize(ctx.globalBatch);

  char line[512];
  std::string& t = f.text;
  std::snprintf(line, sizeof line, "Keys as in torchtitan 9dec370 (torchtitan/config_manager.py); run it with\n"
                "#   NGPU=%d CONFIG_FILE=<this file> ./run_llama_train.sh   (torchrun --nnodes for more servers)",
                std::min(p.devicesUsed(), std::max(1, ctx.devicesPerServer)));
  t = launchHeader(p, ctx, "torchtitan train config", line, "torchtitan", f.inexact);
  t += "# Add [job], [optimizer], [checkpoint] and the dataset as your run has them.\n\n[model]\nname = \"llama3\"\n";
  std::snprintf(line, sizeof line, "flavor = \"\"  # your model's: %d layers, hidden %lld, %d heads, %d key / value heads\n",
                st.numLayers(), static_cast<long long>(st.hidden), st.heads, st.kvHeads);
  t += line;
  t += "\n[training]\n";
  t += "batch_size = " + num(mbs * p.microbatches) + "\n";
  if (st.seqLen > 0) t += "seq_len = " + num(st.seqLen) + "\n";
  t += "data_parallel_replicate_degree = " + num(replicate) + "\n";
  t += "data_parallel_shard_degree = " + num(shard) + "\n";
  t += "tensor_parallel_degree = " + num(p.tp) + "\n";
  t += std::string("compile = ") + (p.overlapTpComm ? "true" : "false") + "\n";
  t += std::string("mixed_precision_param = \"") + (st.activationType == DType::F32 ? "float32" : "bfloat16") + "\"\n";
  t += std::string("mixed_precision_reduce = \"") + layout.reduce + "\"\n";
  if (layout.cpuOffload) t += "enable_cpu_offload = true\n";
  t += "\n[experimental]\n";
  t += "context_parallel_degree = " + num(p.cp) + "\n";
  t += "pipeline_parallel_degree = " + num(p.pp) + "\n";
  if (p.pp > 1) {
    std::string points;
    for (size_t k = 1; k < p.stages.size(); ++k)
      points += std::string(points.empty() ? "" : ", ") + "\"layers." + num(p.stages[k].first) + "\"";
    t += "pipeline_parallel_split_points = [" + points + "]\n";
    t += std::string("pipeline_parallel_schedule = \"") +
         (p.virtualStages > 1 ? "Interleaved1F1B" : p.schedule == PipeSchedule::GPipe ? "GPipe" : "1F1B") + "\"\n";
    t += "pipeline_parallel_microbatches = " + num(p.microbatches) + "\n";
  }
  t += std::string("enable_async_tensor_parallel = ") + (p.overlapTpComm ? "true" : "false") + "\n";
  t += "\n[activation_checkpoint]\n";
  t += std::string("mode = \"") + (rec == Recompute::Full ? "full" : rec == Recompute::Selective ? "selective" : "none") + "\"\n";
  if (rec == Recompute::Selective) t += "selective_ac_option = \"op\"\n";
  t += "\n[float8]\n";
  t += std::string("enable_float8_linear = ") + (p.fp8 ? "true" : "false") + "\n";
  return f;
}

LaunchImport importTorchtitan(const std::string& text, const std::string& source, const LayerStack& st, int devices) {
  toml::table cfg;
  try {
    cfg = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw Error(source, "line " + num(e.source().begin.line) + ": " + std::string(e.description()));
  }
  auto fail = [&](const std::string& why) { return Error(source, why); };
  auto integer = [&](const char* section, const char* key, int64_t fallback) {
    const toml::node* n = cfg[section][key].node();
    if (!n) return fallback;
    const int64_t v = n->value<int64_t>().value_or(fallback);
    if (!n->is_integer() || v < -1 || v > kMaxLaunchCount * kMaxLaunchCount)
      throw fail("[" + std::string(section) + "] " + key + " must be an integer -1 .. 2^40");
    return v;
  };
  auto flag = [&](const char* section, const char* key) {
    const toml::node* n = cfg[section][key].node();
    if (!n) return false;
    if (!n->is_boolean()) throw fail("[" + std::string(section) + "] " + key + " must be true or false");
    return n->value<bool>().value_or(false);
  };
  auto text_ = [&](const char* section, const char* key, const std::string& fallback) {
    const toml::node* n = cfg[section][key].node();
    if (!n) return fallback;
    if (!n->is_string()) throw fail("[" + std::string(section) + "] " + key + " must be a string");
    return n->value<std::string>().value_or(fallback);
  };
  if (!cfg.contains("training") && !cfg.contains("experimental"))
    throw fail("no torchtitan [training] or [experimental] section found");

  LaunchImport r;
  ParallelPlan& p = r.plan;
  const int64_t replicate = integer("training", "data_parallel_replicate_degree", 1);
  int64_t shard = integer("training", "data_parallel_shard_degree", -1);
  auto degree = [&](const char* section, const char* key) {
    const int64_t d = integer(section, key, 1);
    if (d < 1 || d > kMaxLaunchCount) throw fail("Parallelism degree should be >= 1, except for dp_shard (and at most 2^20 here)");
    return static_cast<int>(d);
  };
  p.tp = degree("training", "tensor_parallel_degree");
  p.pp = degree("experimental", "pipeline_parallel_degree");
  p.cp = degree("experimental", "context_parallel_degree");
  if (replicate < 1 || replicate > kMaxLaunchCount)
    throw fail("Parallelism degree should be >= 1, except for dp_shard (and at most 2^20 here)");
  if (shard == -1) shard = devices / (replicate * p.tp * p.pp * p.cp);
  if (shard < 1 || replicate * shard * p.cp * p.tp * p.pp != devices)
    throw fail("Invalid parallel dims: dp_replicate(" + num(replicate) + ") * dp_shard(" + num(shard) + ") * cp(" + num(p.cp) +
               ") * tp(" + num(p.tp) + ") * pp(" + num(p.pp) + ") != WORLD_SIZE(" + num(devices) + ")");
  p.dp = static_cast<int>(replicate * shard);
  const bool fsdp = shard > 1 || p.cp > 1;
  if (!fsdp && replicate > 1 && (p.tp > 1 || p.pp > 1)) throw fail("DDP has not supported > 1D parallelism");
  if (fsdp) p.zero = p.pp > 1 ? 1 : 3, p.overlapParamGather = p.zero == 3;
  if (fsdp && replicate > 1) p.shardGroup = static_cast<int>(shard * p.cp);  // HSDP: sharded in groups, replicated across

  // The model and the batch.
  const int layers = st.numLayers();
  r.seqLen = integer("training", "seq_len", 2048);
  const int64_t local = integer("training", "batch_size", 8);
  if (local < 1) throw fail("[training] batch_size must be at least 1");
  // Pipeline stages from the split points ("layers.K": a stage starts at layer K).
  std::vector<int> starts{0};
  if (const toml::array* points = cfg["experimental"]["pipeline_parallel_split_points"].as_array()) {
    for (const toml::node& n : *points) {
      const std::string s = n.value<std::string>().value_or("");
      int k = -1;
      if (!s.starts_with("layers.") || std::sscanf(s.c_str() + 7, "%d", &k) != 1 || k <= starts.back() || k >= layers)
        throw fail("pipeline_parallel_split_points: '" + s + "' is not a layer after the one before (layers.1 .. layers." +
                   num(layers - 1) + ")");
      starts.push_back(k);
    }
  }
  const std::string schedule = text_("experimental", "pipeline_parallel_schedule", "1F1B");
  if (p.pp > 1) {
    if (starts.size() == 1) {
      const int v = schedule == "Interleaved1F1B" ? 2 : 1;
      r.approximated.push_back("no split points: read as " + num(p.pp * v) + " even stages");
      for (const PipeStage& s : evenStages(layers, p.pp * v)) if (s.first > 0) starts.push_back(s.first);
    }
    if (starts.size() % static_cast<size_t>(p.pp) != 0)
      throw fail(num(static_cast<int64_t>(starts.size())) + " stages from the split points do not divide over pipeline_parallel_degree " +
                 num(p.pp));
    p.virtualStages = static_cast<int>(starts.size()) / p.pp;
    const int64_t m = integer("experimental", "pipeline_parallel_microbatches", static_cast<int64_t>(starts.size()));
    if (m < 1 || m > kMaxLaunchCount || local % m != 0)
      throw fail("the local batch " + num(local) + " does not split into pipeline_parallel_microbatches " + num(m));
    p.microbatches = static_cast<int>(m);
    if (schedule == "GPipe") p.schedule = PipeSchedule::GPipe;
    else if (schedule != "1F1B" && schedule != "Interleaved1F1B")
      r.approximated.push_back("schedule " + schedule + ": read as " + (p.virtualStages > 1 ? "Interleaved1F1B" : "1F1B"));
    if (p.virtualStages == 1 && schedule == "Interleaved1F1B") throw fail("Interleaved1F1B needs more stages than pipeline ranks");
  } else if (starts.size() > 1) {
    throw fail("pipeline_parallel_split_points without pipeline_parallel_degree > 1");
  }
  for (size_t k = 0; k < starts.size(); ++k)
    p.stages.push_back({starts[k], k + 1 < starts.size() ? starts[k + 1] : layers, Recompute::None});
  r.globalBatch = local * p.dp;

  // Recomputation, numerics, overlaps.
  const std::string mode = text_("activation_checkpoint", "mode", "selective");
  Recompute rec = Recompute::None;
  if (mode == "full") {
    rec = Recompute::Full;
  } else if (mode == "selective") {
    rec = Recompute::Selective;
    const std::string option = text_("activation_checkpoint", "selective_ac_option", "2");
    if (option == "op")
      r.approximated.push_back("selective recomputation by op policy: read as the attention cores recomputed");
    else
      rec = Recompute::Full, r.approximated.push_back("full recomputation of every " + option + " blocks: read as of every block");
  } else if (mode != "none") {
    throw fail("[activation_checkpoint] mode must be none, selective or full, got '" + mode + "'");
  }
  for (PipeStage& s : p.stages) s.recompute = rec;
  p.fp8 = flag("float8", "enable_float8_linear");
  p.sequenceParallel = p.tp > 1;
  if (flag("experimental", "enable_async_tensor_parallel") && p.tp > 1) {
    if (!flag("training", "compile")) throw fail("Async TP requires --training.compile");
    p.overlapTpComm = true;
  }
  p.attention = AttentionImpl::Flash2;
  p.training.framework = TrainingFramework::Torchtitan;
  p.training.gradAccumulation =
      torchtitanReduce(text_("training", "mixed_precision_reduce", "float32"), source, "[training] mixed_precision_reduce");
  if (flag("training", "enable_cpu_offload")) {
    if (p.zero != 3) throw fail("[training] enable_cpu_offload needs FSDP (data_parallel_shard_degree > 1, no pipeline)");
    p.training.optimizerOffload = true;
    r.approximated.push_back("enable_cpu_offload: FSDP2 moves the parameter and gradient shards to the CPU too, read as the "
                             "optimizer offloaded");
  }
  return r;
}

bool isTorchtitanToml(const std::string& text) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const size_t s = line.find_first_not_of(" \t");
    if (s != std::string::npos && line[s] == '[' && line.find(']') != std::string::npos && line.find("--") == std::string::npos)
      return true;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return false;
}

int64_t torchtitanSeqLength(const std::string& text) {
  bool training = false;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    line.erase(0, line.find_first_not_of(" \t"));
    if (line.starts_with("[")) training = line.starts_with("[training]");
    else if (training && line.starts_with("seq_len")) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) {
        std::string v = line.substr(eq + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        v = v.substr(0, v.find_first_of(" \t#"));
        return positiveOrZero(v);
      }
    }
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return 0;
}

}  // namespace gp

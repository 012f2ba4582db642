#include "launch/torchtitan_py_launch.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "base/error.h"
#include "parallel/pipeline_sim.h"
#include "launch/torchtitan_layout.h"

namespace gp {
namespace {

std::string num(int64_t v) { return std::to_string(v); }

const char* scheduleName(const ParallelPlan& p) {
  return p.virtualStages > 1 ? "Interleaved1F1B" : p.schedule == PipeSchedule::GPipe ? "GPipe" : "1F1B";
}

// module_fqns_per_model_part: each chunk's blocks, the embedding before the first and the final
// norm and head after the last (torchtitan's names at b5bcd76).
std::string modulesPerPart(const ParallelPlan& p, int layers) {
  std::string out = "[";
  for (size_t k = 0; k < p.stages.size(); ++k) {
    out += k ? ", [" : "[";
    std::vector<std::string> names;
    if (k == 0) names.push_back("tok_embeddings");
    for (int l = p.stages[k].first; l < p.stages[k].last; ++l) names.push_back("layers." + num(l));
    if (k + 1 == p.stages.size() || p.stages[k].last == layers) names.insert(names.end(), {"norm", "lm_head"});
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", \"" : "\"") + names[i] + "\"";
    out += "]";
  }
  return out + "]";
}

// The layer numbers ("layers.K") of each inner list of a list of lists of module names.
std::vector<std::vector<int>> layersPerPart(const std::string& v, int layers) {
  std::vector<std::vector<int>> parts;
  int depth = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '[') {
      if (++depth == 2) parts.emplace_back();
    } else if (v[i] == ']') {
      --depth;
    } else if (depth == 2 && v.compare(i, 7, "layers.") == 0) {
      int id = 0;
      const auto [end, ec] = std::from_chars(v.data() + i + 7, v.data() + v.size(), id);
      if (ec == std::errc()) parts.back().push_back(id < 0 || id > layers ? layers : id);
      i = static_cast<size_t>(end - v.data()) - 1;
    }
  }
  return parts;
}

}  // namespace

std::string torchtitanScheduleCsv(const ParallelPlan& p) {
  std::string csv;
  for (int rank = 0; rank < p.pp; ++rank) {
    std::string row;
    for (const PipelinePass& pass : pipelinePassOrder(p, rank)) {
      if (!row.empty()) row += ',';
      row += num(pass.chunk);
      row += pass.forward ? 'F' : 'B';
      row += num(pass.microbatch);
    }
    csv += row + "\n";
  }
  return csv;
}

LaunchFile exportTorchtitanPython(const ParallelPlan& p, const LaunchContext& ctx) {
  if (!ctx.stack) throw Error("torchtitan", "no model to export for");
  const LayerStack& st = *ctx.stack;
  if (st.seqLen <= 0) throw Error("torchtitan", "the model has no sequence length; torchtitan counts its batch in tokens");
  const TorchtitanLayout layout = torchtitanLayout(p, ctx.globalBatch, /*current=*/true);
  LaunchFile f;
  f.inexact = layout.inexact;
  const int64_t mbs = p.microbatchSize(ctx.globalBatch);

  char line[512];
  std::snprintf(line, sizeof line, "Names as in torchtitan b5bcd76 (torchtitan/config/configs.py, trainer.py); call it on a\n"
                "# recipe in your config_registry, e.g. return graphplace_plan(llama3_8b()), and run with NGPU=%d",
                std::min(p.devicesUsed(), std::max(1, ctx.devicesPerServer)));
  std::string& t = f.text;
  t = launchHeader(p, ctx, "torchtitan configuration", line, "torchtitan", f.inexact);
  std::snprintf(line, sizeof line, "# The recipe's model must be this one: %d layers, hidden %lld, %d heads, %d key / value heads.\n",
                st.numLayers(), static_cast<long long>(st.hidden), st.heads, st.kvHeads);
  t += line;
  t += "import os\n\n";
  if (p.fp8) t += "from torchtitan.components.quantization import Float8LinearConverter\n";
  t += "from torchtitan.distributed.activation_checkpoint import FullAC, SelectiveAC\n"
       "from torchtitan.models.llama3 import model_registry\n"
       "from torchtitan.trainer import Trainer\n\n\n"
       "def graphplace_plan(config: Trainer.Config) -> Trainer.Config:\n";
  auto set = [&](const std::string& key, const std::string& value) { t += "    config." + key + " = " + value + "\n"; };
  // the model spec carries the attention kernel (SDPA: FlashAttention-2 on Hopper) and FP8
  set("model_spec", std::string("model_registry(config.model_spec.flavor, attn_backend=\"sdpa\"") +
                        (p.fp8 ? ", converters=[Float8LinearConverter.Config()]" : "") + ")");
  set("training.num_tokens_per_microbatch_per_dp_rank", num(mbs * st.seqLen));
  set("training.num_tokens_per_train_step", num(ctx.globalBatch * st.seqLen));
  set("training.max_context_length", num(st.seqLen));
  set("parallelism.data_parallel_replicate_degree", num(layout.replicate));
  set("parallelism.data_parallel_shard_degree", num(layout.shard));
  set("parallelism.tensor_parallel_degree", num(p.tp));
  set("parallelism.enable_sequence_parallel", p.sequenceParallel || p.tp == 1 ? "True" : "False");
  set("parallelism.context_parallel_degree", num(p.cp));
  set("parallelism.expert_parallel_degree", num(p.expertParallel ? p.dp : 1));
  set("parallelism.pipeline_parallel_degree", num(p.pp));
  if (p.pp > 1) {
    set("parallelism.pipeline_parallel_schedule", std::string("\"") + scheduleName(p) + "\"");
    set("parallelism.num_pp_microbatches", num(p.microbatches));
    set("parallelism.module_fqns_per_model_part", modulesPerPart(p, st.numLayers()));
    set("parallelism.pipeline_parallel_schedule_csv", "os.path.splitext(__file__)[0] + \"_schedule.csv\"");
    f.companion = torchtitanScheduleCsv(p);
  }
  set("activation_checkpoint", layout.recompute == Recompute::Full        ? "FullAC.Config()"
                               : layout.recompute == Recompute::Selective ? "SelectiveAC.Config()"
                                                                          : "None");
  set("training.mixed_precision_reduce", std::string("\"") + layout.reduce + "\"");
  if (layout.cpuOffload) set("training.enable_cpu_offload", "True");
  set("compile.enable", p.overlapTpComm ? "True" : "False");
  set("compile.enable_async_tensor_parallel", p.overlapTpComm ? "True" : "False");
  t += "    return config\n";
  return f;
}

int64_t torchtitanPythonSeqLength(const std::string& text) {
  const auto values = pythonAssignments(text, "config.");
  auto it = values.find("training.max_context_length");
  int64_t v = 0;
  if (it == values.end()) return 0;
  const auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return ec == std::errc() && end == it->second.data() + it->second.size() && v > 0 ? v : 0;
}

bool isTorchtitanPython(const std::string& text) {
  return text.find("config.parallelism.") != std::string::npos;
}

LaunchImport importTorchtitanPython(const std::string& text, const std::string& source, const LayerStack& st, int devices) {
  auto fail = [&](const std::string& why) { return Error(source, why); };
  const std::map<std::string, std::string> values = pythonAssignments(text, "config.");
  if (!values.count("parallelism.tensor_parallel_degree") && !values.count("parallelism.pipeline_parallel_degree") &&
      !values.count("parallelism.data_parallel_shard_degree"))
    throw fail("no torchtitan config.parallelism settings found");
  auto integer = [&](const std::string& key, int64_t fallback) {
    auto it = values.find(key);
    if (it == values.end()) return fallback;
    int64_t v = 0;
    const std::string& s = it->second;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < -1 || v > kMaxLaunchCount * kMaxLaunchCount)
      throw fail("config." + key + " must be an integer literal -1 .. 2^40, got '" + s + "'");
    return v;
  };
  auto flag = [&](const std::string& key, bool fallback) {
    auto it = values.find(key);
    if (it == values.end()) return fallback;
    if (it->second != "True" && it->second != "False") throw fail("config." + key + " must be True or False");
    return it->second == "True";
  };
  auto degree = [&](const std::string& key) {
    const int64_t d = integer(key, 1);
    if (d < 1 || d > kMaxLaunchCount) throw fail("Parallelism degree should be >= 1, except for dp_shard (and at most 2^20 here)");
    return static_cast<int>(d);
  };

  LaunchImport r;
  ParallelPlan& p = r.plan;
  const int64_t replicate = degree("parallelism.data_parallel_replicate_degree");
  int64_t shard = integer("parallelism.data_parallel_shard_degree", -1);
  p.tp = degree("parallelism.tensor_parallel_degree");
  p.pp = degree("parallelism.pipeline_parallel_degree");
  p.cp = degree("parallelism.context_parallel_degree");
  const int ep = degree("parallelism.expert_parallel_degree");
  if (shard == -1) shard = devices / (replicate * p.tp * p.pp * p.cp);
  if (shard < 1 || replicate * shard * p.cp * p.tp * p.pp != devices)
    throw fail("Invalid parallel dims: dp_replicate(" + num(replicate) + ") * dp_shard(" + num(shard) + ") * cp(" + num(p.cp) +
               ") * tp(" + num(p.tp) + ") * pp(" + num(p.pp) + ") != WORLD_SIZE(" + num(devices) + ")");
  if ((shard * p.cp * p.tp) % ep != 0)
    throw fail("expert_parallel_degree (" + num(ep) + ") must divide dp_shard * cp * tp (" + num(shard * p.cp * p.tp) + ")");
  p.dp = static_cast<int>(replicate * shard);
  if (ep > 1) {
    p.expertParallel = true;
    if (ep != p.dp) r.approximated.push_back("expert_parallel_degree " + num(ep) + ": read as experts spread over all " + num(p.dp) + " replicas");
  }
  const bool fsdp = shard > 1 || p.cp > 1;
  if (fsdp) p.zero = p.pp > 1 ? 1 : 3, p.overlapParamGather = p.zero == 3;
  if (fsdp && replicate > 1) p.shardGroup = static_cast<int>(shard * p.cp);  // HSDP: sharded in groups, replicated across

  // Tokens: per micro-batch and data-parallel rank, and per step.
  r.seqLen = integer("training.max_context_length", 2048);
  if (r.seqLen < 1) throw fail("max_context_length must be greater than 0.");
  const int64_t microTokens = integer("training.num_tokens_per_microbatch_per_dp_rank", 16384);
  if (microTokens < 1) throw fail("num_tokens_per_microbatch_per_dp_rank must be greater than 0.");
  if (microTokens % r.seqLen != 0)
    throw fail("num_tokens_per_microbatch_per_dp_rank " + num(microTokens) + " is not a whole number of " + num(r.seqLen) +
               "-token samples");
  const int64_t mbs = microTokens / r.seqLen;
  const int64_t ppMicro = p.pp > 1 ? integer("parallelism.num_pp_microbatches", 1) : 1;
  if (ppMicro < 1 || ppMicro > kMaxLaunchCount) throw fail("num_pp_microbatches must be 1 .. 2^20");
  const int64_t perStep = integer("training.num_tokens_per_train_step", microTokens * ppMicro * p.dp);
  if (perStep < 1) throw fail("num_tokens_per_train_step must be -1 or greater than 0.");
  if (perStep % (microTokens * ppMicro * p.dp) != 0)
    throw fail("num_tokens_per_train_step " + num(perStep) + " is not a multiple of the tokens of one forward over every "
               "data-parallel rank and pipeline micro-batch (" + num(microTokens * ppMicro * p.dp) + ")");
  const int64_t accumulation = perStep / (microTokens * ppMicro * p.dp);
  if (accumulation > kMaxLaunchCount) throw fail("more than 2^20 gradient accumulation steps");
  p.microbatches = static_cast<int>(ppMicro * accumulation);
  if (p.pp > 1 && accumulation > 1)
    r.approximated.push_back(num(accumulation) + " gradient accumulation steps around the pipeline: read as one schedule of " +
                             num(p.microbatches) + " micro-batches");
  r.globalBatch = mbs * p.microbatches * p.dp;

  // Pipeline chunks from module_fqns_per_model_part (each part's first "layers.K").
  const int layers = st.numLayers();
  std::vector<int> starts{0};
  if (auto it = values.find("parallelism.module_fqns_per_model_part"); it != values.end() && it->second != "None") {
    int expected = 0;
    bool firstPart = true;
    for (const std::vector<int>& ids : layersPerPart(it->second, layers)) {
      for (int id : ids) {
        if (id != expected || id >= layers)
          throw fail("module_fqns_per_model_part: 'layers." + num(id) + "' is not the next of the model's " + num(layers) +
                     " layers");
        ++expected;
      }
      if (!firstPart && !ids.empty()) starts.push_back(ids.front());
      firstPart = false;
    }
    if (expected != layers) throw fail("module_fqns_per_model_part names " + num(expected) + " of the model's " + num(layers) + " layers");
  }
  std::string schedule = "1F1B";
  if (auto it = values.find("parallelism.pipeline_parallel_schedule"); it != values.end())
    schedule = it->second.size() >= 2 ? it->second.substr(1, it->second.size() - 2) : it->second;
  if (p.pp > 1) {
    if (starts.size() == 1) {
      const int v = schedule == "Interleaved1F1B" ? 2 : 1;
      r.approximated.push_back("no module_fqns_per_model_part: read as " + num(p.pp * v) + " even stages");
      for (const PipeStage& s : evenStages(layers, p.pp * v))
        if (s.first > 0) starts.push_back(s.first);
    }
    if (starts.size() % static_cast<size_t>(p.pp) != 0)
      throw fail(num(static_cast<int64_t>(starts.size())) + " model parts do not divide over pipeline_parallel_degree " + num(p.pp));
    p.virtualStages = static_cast<int>(starts.size()) / p.pp;
    if (schedule == "GPipe") p.schedule = PipeSchedule::GPipe;
    else if (schedule != "1F1B" && schedule != "Interleaved1F1B")
      r.approximated.push_back("schedule " + schedule + ": read as " + (p.virtualStages > 1 ? "Interleaved1F1B" : "1F1B"));
    if (values.count("parallelism.pipeline_parallel_schedule_csv"))
      r.approximated.push_back("pipeline_parallel_schedule_csv: read as the " + schedule + " order it was written from");
  } else if (starts.size() > 1) {
    throw fail("module_fqns_per_model_part with several parts needs pipeline_parallel_degree > 1");
  }
  for (size_t k = 0; k < starts.size(); ++k)
    p.stages.push_back({starts[k], k + 1 < starts.size() ? starts[k + 1] : layers, Recompute::None});

  // Recomputation (Trainer.Config's default is SelectiveAC), overlaps, attention.
  const std::string ac = values.count("activation_checkpoint") ? values.at("activation_checkpoint") : "SelectiveAC.Config()";
  Recompute rec = Recompute::None;
  if (ac.starts_with("FullAC.Config(")) {
    rec = Recompute::Full;
  } else if (ac.starts_with("SelectiveAC.Config(")) {
    rec = Recompute::Selective;
    r.approximated.push_back("selective recomputation by op policy: read as the attention cores recomputed");
  } else if (ac.starts_with("MemoryBudgetAC.Config(")) {
    rec = Recompute::Full;
    r.approximated.push_back("memory-budget recomputation: read as full");
  } else if (ac != "None") {
    throw fail("config.activation_checkpoint must be FullAC.Config(), SelectiveAC.Config(), MemoryBudgetAC.Config() or None, "
               "got '" + ac + "'");
  }
  for (PipeStage& s : p.stages) s.recompute = rec;
  p.sequenceParallel = p.tp > 1 && flag("parallelism.enable_sequence_parallel", true);
  if (flag("compile.enable_async_tensor_parallel", false) && p.tp > 1) {
    if (!flag("compile.enable", false)) throw fail("Async TP requires compile.enable");
    p.overlapTpComm = p.sequenceParallel;
    if (!p.sequenceParallel) r.approximated.push_back("async TP without sequence parallelism: read as TP communication not overlapped");
  }
  // The model spec: the attention backend (llama3's model_registry defaults to FlexAttention) and
  // FP8 converters.
  p.attention = AttentionImpl::Flash2;
  if (auto it = values.find("model_spec"); it != values.end()) {
    p.fp8 = it->second.find("Float8LinearConverter") != std::string::npos;
    if (it->second.find("attn_backend=\"sdpa\"") == std::string::npos &&
        it->second.find("attn_backend='sdpa'") == std::string::npos)
      r.approximated.push_back("attention other than SDPA (model_registry's default is FlexAttention): read as FlashAttention-2");
  } else {
    r.approximated.push_back("no config.model_spec: the recipe's attention read as FlashAttention-2, its FP8 setting unknown (read as off)");
  }
  p.training.framework = TrainingFramework::Torchtitan;
  if (auto it = values.find("training.mixed_precision_reduce"); it != values.end())
    p.training.gradAccumulation = torchtitanReduce(unquoted(it->second), source, "config.training.mixed_precision_reduce");
  if (flag("training.enable_cpu_offload", false)) {
    if (p.zero != 3) throw fail("training.enable_cpu_offload needs FSDP (data_parallel_shard_degree > 1, no pipeline)");
    p.training.optimizerOffload = true;
    r.approximated.push_back("enable_cpu_offload: FSDP2 moves the parameter and gradient shards to the CPU too, read as the "
                             "optimizer offloaded");
  }
  return r;
}

}  // namespace gp

#include "launch/megatron_launch.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "base/error.h"
#include "graph/dtype.h"

namespace gp {
namespace {

constexpr const char* kWhere = " (Megatron-LM core_r0.11.0, megatron/training/arguments.py)";



std::string num(int64_t v) { return std::to_string(v); }

// Layers per chunk, in order.
std::vector<int> chunkSizes(const ParallelPlan& p) {
  std::vector<int> out;
  for (const PipeStage& s : p.stages) out.push_back(s.last - s.first);
  return out;
}

struct Args {
  MegatronArgs& out;
  const char* target;  // the export being written ("megatron", "nemo"): refusals name it
  void add(const std::string& flag, const std::string& value = "") { out.list.emplace_back(flag, value); }
  [[noreturn]] void reject(const std::string& why) const { throw Error(target, why + kWhere); }
};

// The pipeline's layer split as flags; inexact notes where Megatron-LM's split differs.
void stageFlags(const ParallelPlan& p, int layers, Args& a, std::vector<std::string>& inexact) {
  const std::vector<int> sizes = chunkSizes(p);
  const bool even = std::all_of(sizes.begin(), sizes.end(), [&](int s) { return s == sizes.front(); });
  if (p.virtualStages > 1) {
    if (layers % (p.pp * p.virtualStages) != 0)
      a.reject("interleaving needs the " + num(layers) + " layers in " + num(p.pp * p.virtualStages) +
             " equal chunks: number of layers per pipeline stage must be divisible by the number of layers per virtual "
             "pipeline stage");
    if (!even) inexact.push_back("the chunks' uneven layer counts: Megatron-LM interleaves equal chunks, written as " +
                                 num(layers / (p.pp * p.virtualStages)) + " layers each");
    a.add("--num-layers-per-virtual-pipeline-stage", num(layers / (p.pp * p.virtualStages)));
    // "When interleaved schedule is used and p2p communication overlap is disabled,
    // pipeline-model-parallel size should be greater than 2".
    if (p.pp == 2) a.add("--overlap-p2p-comm");
    return;
  }
  if (p.pp == 1 || even) return;
  const int first = sizes.front(), last = sizes.back();
  if (p.pp == 2) {
    a.add("--decoder-first-pipeline-num-layers", num(first));
    a.add("--decoder-last-pipeline-num-layers", num(last));
    return;
  }
  const bool middleEven = std::all_of(sizes.begin() + 1, sizes.end() - 1, [&](int s) { return s == sizes[1]; });
  if (middleEven) {
    if (first != sizes[1]) a.add("--decoder-first-pipeline-num-layers", num(first));
    if (last != sizes[1]) a.add("--decoder-last-pipeline-num-layers", num(last));
    return;
  }
  std::string listed;
  for (int s : sizes) {
    if (!listed.empty()) listed += ' ';
    listed += num(s);
  }
  if ((layers - first - last) % (p.pp - 2) == 0) {
    inexact.push_back("stage layer counts " + listed + ": Megatron-LM splits the middle stages evenly, written as first " +
                      num(first) + ", last " + num(last) + ", " + num((layers - first - last) / (p.pp - 2)) + " between");
    a.add("--decoder-first-pipeline-num-layers", num(first));
    a.add("--decoder-last-pipeline-num-layers", num(last));
  } else if (layers % p.pp == 0) {
    inexact.push_back("stage layer counts " + listed + ": written as " + num(layers / p.pp) + " layers on every stage");
  } else {
    a.reject("the stage layer counts " + listed + " have no Megatron-LM split (first, last and evenly between)");
  }
}

void recomputeFlags(const ParallelPlan& p, Args& a, std::vector<std::string>& inexact) {
  std::set<Recompute> kinds;
  for (const PipeStage& s : p.stages) kinds.insert(s.recompute);
  if (kinds.size() > 1)
    inexact.push_back("recomputation that differs between chunks: Megatron-LM recomputes alike on every stage, written "
                      "as full recomputation everywhere (more recomputation and less memory than the plan)");
  const Recompute r = kinds.size() > 1 ? Recompute::Full : *kinds.begin();
  if (r == Recompute::Full) {
    a.add("--recompute-granularity", "full");
    a.add("--recompute-method", "uniform");
    a.add("--recompute-num-layers", "1");
  } else if (r == Recompute::Selective) {
    a.add("--recompute-granularity", "selective");
  }
}

}  // namespace

// The optimizer's knobs: where it runs, its moments' precision, the gradients'. Megatron-LM
// offloads and keeps 16- or 8-bit moments in its distributed optimizer only.
void optimizerFlags(const ParallelPlan& p, const LayerStack& st, Args& a, std::vector<std::string>& inexact) {
  const TrainingSetup& t = p.training;
  const bool distributed = p.zero == 1 || p.zero == 2;
  if (t.optimizerOffload) {
    if (distributed) a.add("--optimizer-cpu-offload"), a.add("--use-precision-aware-optimizer");
    else inexact.push_back("the optimizer on the CPU: Megatron-LM offloads only its distributed optimizer (ZeRO-1), not written");
  }
  if (t.optimizerStates != OptimizerStates::Fp32) {
    if (distributed) {
      const char* dtype = t.optimizerStates == OptimizerStates::Bf16 ? "bf16" : "fp8";
      if (!t.optimizerOffload) a.add("--use-precision-aware-optimizer");
      a.add("--exp-avg-dtype", dtype);
      a.add("--exp-avg-sq-dtype", dtype);
    } else {
      inexact.push_back("16- or 8-bit Adam moments: Megatron-LM keeps them only in its distributed optimizer (ZeRO-1), "
                        "written as fp32");
    }
  }
  if (dtypeSize(st.activationType) != 2) return;
  if (t.gradAccumulation == GradAccumulation::Fp32 && st.activationType == DType::F16)
    a.add("--accumulate-allreduce-grads-in-fp32");
  else if (t.gradAccumulation == GradAccumulation::Param && st.activationType == DType::BF16)
    a.add("--grad-reduce-in-bf16");
}

MegatronArgs megatronArgs(const ParallelPlan& p, const LaunchContext& ctx, const char* target) {
  if (!ctx.stack) throw Error(target, "no model to export for");
  const LayerStack& st = *ctx.stack;
  const int layers = st.numLayers();
  MegatronArgs f;
  Args a{f, target};
  // The model's shape as the simulator knows it.
  a.add("--num-layers", num(layers));
  a.add("--hidden-size", num(st.hidden));
  if (st.heads > 0) a.add("--num-attention-heads", num(st.heads));
  if (st.kvHeads > 0 && st.kvHeads < st.heads) {
    a.add("--group-query-attention");
    a.add("--num-query-groups", num(st.kvHeads));
  }
  if (st.seqLen > 0) {
    a.add("--seq-length", num(st.seqLen));
    a.add("--max-position-embeddings", num(st.seqLen));
  }
  if (st.experts > 0) a.add("--num-experts", num(st.experts));
  // The mesh.
  a.add("--tensor-model-parallel-size", num(p.tp));
  a.add("--pipeline-model-parallel-size", num(p.pp));
  if (p.cp > 1) {
    if (st.seqLen > 0 && st.seqLen % (2 * p.cp) != 0)
      a.reject("--seq-length " + num(st.seqLen) + " is not a multiple of 2 x --context-parallel-size " + num(p.cp));
    a.add("--context-parallel-size", num(p.cp));
  }
  if (p.expertParallel) {
    if (p.zero == 3) a.reject("--use-torch-fsdp2 is not supported with expert parallelism");
    a.add("--expert-model-parallel-size", num(p.dp));
  }
  if (p.sequenceParallel) a.add("--sequence-parallel");
  if (p.overlapTpComm) a.add("--tp-comm-overlap");
  // The batch.
  a.add("--micro-batch-size", num(p.microbatchSize(ctx.globalBatch)));
  a.add("--global-batch-size", num(ctx.globalBatch));
  if (p.schedule == PipeSchedule::GPipe && p.pp > 1)
    f.inexact.push_back("GPipe: Megatron-LM runs 1F1B, which keeps fewer micro-batches in flight (same bubble, less memory)");
  stageFlags(p, layers, a, f.inexact);
  recomputeFlags(p, a, f.inexact);
  // Where the state lives.
  if (p.zero == 1 || p.zero == 2) {
    a.add("--use-distributed-optimizer");
    if (p.shardSize() < p.gradientGroup()) a.add("--num-distributed-optimizer-instances", num(p.gradientGroup() / p.shardSize()));
    if (p.zero == 2)
      f.inexact.push_back("ZeRO-2: Megatron-LM's distributed optimizer shards the optimizer state and master weights "
                          "but keeps the whole gradient buffer, written as ZeRO-1 (more memory than the plan)");
    if (p.overlapParamGather) {
      a.add("--overlap-grad-reduce");
      a.add("--overlap-param-gather");  // "Must use --overlap-param-gather with --overlap-grad-reduce"
    }
  } else if (p.zero == 3) {
    if (p.pp > 1) a.reject("--use-torch-fsdp2 is not supported with pipeline parallelism");
    a.add("--use-torch-fsdp2");
    a.add("--untie-embeddings-and-output-weights");  // "--use-torch-fsdp2 requires --untie-embeddings-and-output-weights"
    a.add("--ckpt-format", "torch_dist");
    a.add("--no-gradient-accumulation-fusion");
    if (!p.overlapParamGather)
      f.inexact.push_back("ZeRO-3 without prefetching: FSDP2 prefetches the next layer's parameters (faster than the plan)");
    if (p.shardSize() < p.gradientGroup())
      f.inexact.push_back("a ZeRO-3 sharding group of " + num(p.shardSize()) +
                          ": Megatron-LM's FSDP2 shards over the whole data-parallel group, written as that");
  }
  // Numerics.
  if (st.activationType == DType::BF16) a.add("--bf16");
  else if (st.activationType == DType::F16) a.add("--fp16");
  optimizerFlags(p, st, a, f.inexact);
  if (p.fp8) a.add("--fp8-format", "hybrid");
  a.add("--attention-backend", p.attention == AttentionImpl::Unfused  ? "unfused"
                               : p.attention == AttentionImpl::Flash2 ? "flash"
                                                                      : "auto");
  if (!p.devices.empty())
    f.inexact.push_back("the plan's own device order: Megatron-LM numbers its ranks tp, cp, dp, pp from the launcher's "
                        "ranks (write the hosts in the plan's order)");
  return f;
}

LaunchFile exportMegatron(const ParallelPlan& p, const LaunchContext& ctx) {
  const MegatronArgs a = megatronArgs(p, ctx, "megatron");
  LaunchFile f;
  f.inexact = a.inexact;
  char line[512];
  std::string& t = f.text;
  t = "#!/usr/bin/env bash\n" + launchHeader(p, ctx, "Megatron-LM launch arguments",
                                               "Flag names as in Megatron-LM core_r0.11.0 (megatron/training/arguments.py).",
                                               "Megatron-LM", f.inexact);
  t += "# Add your data, tokenizer and optimizer arguments, and the model's own (ffn size, normalisation,\n"
       "# activation, position embedding, vocabulary), after the script or as this file's arguments.\n";
  t += "GRAPHPLACE_ARGS=(\n";
  for (const auto& [flag, value] : a.list) t += "  " + flag + (value.empty() ? "" : " " + value) + "\n";
  t += ")\n";
  const int perNode = std::max(1, std::min(ctx.devicesPerServer, p.devicesUsed()));
  std::snprintf(line, sizeof line, "torchrun --nproc-per-node %d --nnodes %d pretrain_gpt.py \"${GRAPHPLACE_ARGS[@]}\" \"$@\"\n",
                perNode, (p.devicesUsed() + perNode - 1) / perNode);
  t += line;
  return f;
}

namespace {

// Megatron-LM's switches (store_true) among the flags this reader knows; every other flag takes
// the word after it.
const std::set<std::string>& switches() {
  static const std::set<std::string> s = {
      "--sequence-parallel", "--use-distributed-optimizer", "--overlap-grad-reduce", "--overlap-param-gather",
      "--tp-comm-overlap", "--use-torch-fsdp2", "--bf16", "--fp16", "--group-query-attention", "--overlap-p2p-comm",
      "--use-flash-attn", "--untie-embeddings-and-output-weights", "--no-gradient-accumulation-fusion", "--swiglu",
      "--disable-bias-linear", "--use-mcore-models", "--standalone", "--no-masked-softmax-fusion", "--no-bias-gelu-fusion",
      "--no-bias-dropout-fusion", "--no-rope-fusion", "--use-rotary-position-embeddings", "--recompute-activations",
      "--overlap-param-gather-with-optimizer-step", "--moe-grouped-gemm", "--checkpoint-activations", "--optimizer-cpu-offload",
      "--use-precision-aware-optimizer", "--accumulate-allreduce-grads-in-fp32", "--grad-reduce-in-bf16",
      "--overlap-cpu-optimizer-d2h-h2d"};
  return s;
}

// Flags an export writes that describe the model or the kernels' fusion and change nothing the
// simulator reads of the plan: read, not reported as unread.
const std::set<std::string>& withoutPlanEffect() {
  static const std::set<std::string> s = {
      "--ckpt-format", "--disable-bias-linear", "--max-position-embeddings", "--moe-grouped-gemm", "--no-bias-dropout-fusion",
      "--no-bias-gelu-fusion", "--no-gradient-accumulation-fusion", "--no-masked-softmax-fusion", "--no-rope-fusion",
      "--num-experts", "--swiglu", "--untie-embeddings-and-output-weights", "--use-mcore-models",
      "--use-rotary-position-embeddings", "--overlap-grad-reduce", "--overlap-param-gather-with-optimizer-step", "--bf16",
      "--fp16"};
  return s;
}

// Megatron-LM's 2021 recomputation flags (the SC'21 scripts still pass them; core_r0.11.0
// rejects them) as the names that replaced them.
void readLegacyRecompute(std::map<std::string, std::string>& flags, std::vector<std::string>& notes) {
  const bool method = flags.count("--activations-checkpoint-method") > 0;
  if (!method && !flags.count("--checkpoint-activations")) return;
  if (flags.count("--recompute-granularity")) return;
  const std::string m = method ? flags.at("--activations-checkpoint-method") : "uniform";
  const std::string n =
      flags.count("--activations-checkpoint-num-layers") ? flags.at("--activations-checkpoint-num-layers") : "1";
  flags["--recompute-granularity"] = "full";
  flags["--recompute-method"] = m;
  flags["--recompute-num-layers"] = n;
  for (const char* old : {"--activations-checkpoint-method", "--checkpoint-activations", "--activations-checkpoint-num-layers"})
    flags.erase(old);
  notes.push_back(std::string(method ? "--activations-checkpoint-method " + m : "--checkpoint-activations") +
                  " (Megatron-LM's 2021 names, which core_r0.11.0 rejects): read as --recompute-granularity full "
                  "--recompute-method " + m + " --recompute-num-layers " + n);
}

const std::set<std::string>& launcherFlags() {
  static const std::set<std::string> s = {"--nproc-per-node", "--nnodes",      "--node-rank",    "--master-addr",
                                          "--master-port",    "--rdzv-id",     "--rdzv-backend", "--rdzv-endpoint",
                                          "--rdzv-conf",      "--max-restarts", "--standalone",  "--log-dir"};
  return s;
}

struct Parsed {
  std::map<std::string, std::string> flags;  // Megatron-LM's, "--name" -> value ("" for switches)
  std::optional<int64_t> nproc, nnodes;      // the launcher's
};

int64_t count(const std::string& source, const std::string& flag, const std::string& v) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < 0 || n > (int64_t{1} << 40))
    throw Error(source, flag + " wants a whole number, got '" + v + "'");
  return n;
}

Parsed parse(const std::string& text, const std::string& source) {
  const std::vector<std::string> words = shellWords(text);
  Parsed out;
  // The script's position: flags before it are the launcher's.
  size_t script = words.size();
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i].ends_with(".py")) {
      script = i;
      break;
    }
  const bool hasScript = script < words.size();
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    if (!w.starts_with("--")) continue;
    std::string value;
    if (const size_t eq = w.find('='); eq != std::string::npos) {
      value = w.substr(eq + 1), w = w.substr(0, eq);
    } else if (!switches().count(w) && i + 1 < words.size() && !words[i + 1].starts_with("--") &&
               !(hasScript && i + 1 == script)) {
      value = words[++i];
    }
    // torchrun's own (--nproc-per-node or --nproc_per_node, --nnodes, ...) before the script.
    std::string name = w;
    std::replace(name.begin(), name.end(), '_', '-');
    if ((!hasScript || i < script) && launcherFlags().count(name)) {
      if (name == "--nproc-per-node") out.nproc = count(source, w, value);
      if (name == "--nnodes") out.nnodes = count(source, w, value.substr(0, value.find(':')));
      continue;
    }
    out.flags[w] = value;
  }
  if (out.flags.empty()) throw Error(source, "no Megatron-LM arguments (--tensor-model-parallel-size, --micro-batch-size, ...) found");
  return out;
}

}  // namespace

// The optimizer's knobs as Megatron-LM core_r0.13.0 checks them (megatron/training/arguments.py).
template <class Has>
void readOptimizer(const std::map<std::string, std::string>& flags, Has& has, ParallelPlan& p, std::vector<std::string>& notes,
                   const std::string& source) {
  TrainingSetup& t = p.training;
  t.framework = TrainingFramework::Megatron;
  const bool distributed = has("--use-distributed-optimizer");
  const bool aware = has("--use-precision-aware-optimizer");
  if (aware && !distributed) throw Error(source, "--use-precision-aware-optimizer requires --use-distributed-optimizer");
  if (has("--optimizer-cpu-offload")) {
    if (!aware)
      throw Error(source, "The optimizer cpu offload must be used in conjunction with `--use-precision-aware-optimizer`, "
                          "as the hybrid device optimizer reuses the code path of this flag.");
    t.optimizerOffload = true;
    if (has("--overlap-cpu-optimizer-d2h-h2d"))
      notes.push_back("--overlap-cpu-optimizer-d2h-h2d: read as the copies to and from the host not overlapped");
    if (has("--optimizer-offload-fraction") && flags.at("--optimizer-offload-fraction") != "1.0" &&
        flags.at("--optimizer-offload-fraction") != "1")
      notes.push_back("--optimizer-offload-fraction " + flags.at("--optimizer-offload-fraction") +
                      ": read as the whole optimizer on the CPU");
  }
  auto bytes = [&](const char* flag) {
    if (!has(flag)) return 4;
    const std::string& v = flags.at(flag);
    if (!aware && v != "fp32") throw Error(source, std::string(flag) + " " + v + " requires --use-precision-aware-optimizer");
    if (v == "fp32") return 4;
    if (v == "fp16" || v == "bf16") return 2;
    if (v == "fp8") return 1;
    throw Error(source, std::string(flag) + " must be fp32, fp16, bf16 or fp8, got '" + v + "'");
  };
  const int moments = bytes("--exp-avg-dtype") + bytes("--exp-avg-sq-dtype");
  t.optimizerStates = moments >= 6 ? OptimizerStates::Fp32 : moments >= 3 ? OptimizerStates::Bf16 : OptimizerStates::Eight;
  if (moments != 8 && moments != 4 && moments != 2)
    notes.push_back("Adam's moments in " + flags.at(has("--exp-avg-dtype") ? "--exp-avg-dtype" : "--exp-avg-sq-dtype") +
                    " and another precision: read as both in " + std::string(moments >= 6 ? "fp32" : moments >= 3 ? "bf16" : "fp8"));
  if (has("--main-params-dtype") && flags.at("--main-params-dtype") != "fp32")
    notes.push_back("--main-params-dtype " + flags.at("--main-params-dtype") + ": read as fp32 master weights");
  if (has("--accumulate-allreduce-grads-in-fp32")) t.gradAccumulation = GradAccumulation::Fp32;
  if (has("--grad-reduce-in-bf16") || (has("--main-grads-dtype") && flags.at("--main-grads-dtype") == "bf16"))
    t.gradAccumulation = GradAccumulation::Param;
}

LaunchImport importMegatron(const std::string& text, const std::string& source, const LayerStack& st, int devices) {
  Parsed in = parse(text, source);
  std::vector<std::string> legacy;
  readLegacyRecompute(in.flags, legacy);
  std::set<std::string> consulted = withoutPlanEffect();
  auto has = [&](const char* f) {
    consulted.insert(f);
    return in.flags.count(f) > 0;
  };
  auto value = [&](const char* f, int64_t fallback) { return has(f) ? count(source, f, in.flags.at(f)) : fallback; };
  auto fail = [&](const std::string& why) { return Error(source, why); };
  const int layers = st.numLayers();
  // The model's shape must be the stack's.
  auto same = [&](const char* flag, int64_t model, const char* what) {
    if (has(flag) && value(flag, 0) != model)
      throw fail(std::string(flag) + " " + in.flags.at(flag) + " but the model has " + num(model) + " " + what);
  };
  same("--num-layers", layers, "layers");
  same("--hidden-size", st.hidden, "as its hidden size");
  if (st.heads > 0) same("--num-attention-heads", st.heads, "attention heads");
  if (st.kvHeads > 0 && has("--group-query-attention")) same("--num-query-groups", st.kvHeads, "key / value heads");

  LaunchImport r;
  r.approximated = std::move(legacy);
  ParallelPlan& p = r.plan;
  for (const char* f : {"--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--context-parallel-size",
                        "--num-virtual-stages-per-pipeline-rank", "--expert-model-parallel-size"})
    if (value(f, 1) < 1 || value(f, 1) > kMaxLaunchCount) throw fail(std::string(f) + " must be 1 .. " + num(kMaxLaunchCount));
  p.tp = static_cast<int>(value("--tensor-model-parallel-size", 1));
  p.pp = static_cast<int>(value("--pipeline-model-parallel-size", 1));
  p.cp = static_cast<int>(value("--context-parallel-size", 1));
  if (in.nproc && in.nnodes && *in.nproc * *in.nnodes != devices)
    throw fail("the launcher starts " + num(*in.nproc * *in.nnodes) + " processes (--nproc-per-node " + num(*in.nproc) +
               " x --nnodes " + num(*in.nnodes) + "); the cluster has " + num(devices) + " GPUs");
  const int64_t model = int64_t{p.tp} * p.pp * p.cp;
  if (devices % model != 0)
    throw fail("world size (" + num(devices) + ") is not divisible by tensor (" + num(p.tp) + ") x pipeline (" + num(p.pp) +
               ") x context (" + num(p.cp) + ") parallel sizes");
  p.dp = static_cast<int>(devices / model);
  if (!has("--micro-batch-size")) throw fail("--micro-batch-size is missing (Megatron-LM asserts it is given)");
  const int64_t mbs = value("--micro-batch-size", 1);
  if (mbs < 1) throw fail("--micro-batch-size must be at least 1");
  r.globalBatch = value("--global-batch-size", mbs * p.dp);  // Megatron-LM's default: one micro-batch per replica
  if (r.globalBatch < 1 || r.globalBatch % (mbs * p.dp) != 0)
    throw fail("global batch size (" + num(r.globalBatch) + ") is not divisible by micro batch size (" + num(mbs) +
               ") times data parallel size (" + num(p.dp) + ")");
  if (r.globalBatch / (mbs * p.dp) > kMaxLaunchCount) throw fail("more than " + num(kMaxLaunchCount) + " micro-batches per step");
  p.microbatches = static_cast<int>(r.globalBatch / (mbs * p.dp));
  r.seqLen = value("--seq-length", 0);
  if (p.cp > 1 && r.seqLen > 0 && r.seqLen % (2 * p.cp) != 0)
    throw fail("--seq-length " + num(r.seqLen) + " is not a multiple of 2 x --context-parallel-size " + num(p.cp));

  // Virtual stages and the layer split.
  if (has("--num-layers-per-virtual-pipeline-stage") && has("--num-virtual-stages-per-pipeline-rank"))
    throw fail("--num-layers-per-virtual-pipeline-stage and --num-virtual-stages-per-pipeline-rank cannot be set at the same time");
  if (has("--num-layers-per-virtual-pipeline-stage")) {
    const int64_t per = value("--num-layers-per-virtual-pipeline-stage", 1);
    if (per < 1 || layers % p.pp != 0 || (layers / p.pp) % per != 0)
      throw fail("number of layers per pipeline stage must be divisible by the number of layers per virtual pipeline stage");
    p.virtualStages = static_cast<int>(layers / p.pp / per);
  } else if (has("--num-virtual-stages-per-pipeline-rank")) {
    p.virtualStages = static_cast<int>(value("--num-virtual-stages-per-pipeline-rank", 1));
  }
  if (p.virtualStages > 1 && p.pp <= (has("--overlap-p2p-comm") ? 1 : 2))
    throw fail("when the interleaved schedule is used, pipeline-model-parallel size should be greater than " +
               std::string(has("--overlap-p2p-comm") ? "1" : "2 (or 1 with --overlap-p2p-comm)"));
  const bool uneven = has("--decoder-first-pipeline-num-layers") || has("--decoder-last-pipeline-num-layers");
  if (uneven && p.virtualStages > 1 && !has("--num-virtual-stages-per-pipeline-rank"))
    throw fail("uneven first / last stages with interleaving need --num-virtual-stages-per-pipeline-rank");
  if (uneven && p.pp > 1) {
    const int stages = p.pp;
    int64_t first = value("--decoder-first-pipeline-num-layers", -1), last = value("--decoder-last-pipeline-num-layers", -1);
    const int64_t middleStages = stages - (first >= 0) - (last >= 0);
    const int64_t rest = layers - std::max<int64_t>(first, 0) - std::max<int64_t>(last, 0);
    if (rest < 0 || (middleStages == 0 ? rest != 0 : rest % middleStages != 0))
      throw fail("the layers left after the first and last stages (" + num(rest) + ") do not split evenly over " +
                 num(middleStages) + " stages");
    const int64_t middle = middleStages > 0 ? rest / middleStages : 0;
    if (first < 0) first = middle;
    if (last < 0) last = middle;
    if (p.virtualStages > 1)
      r.approximated.push_back("uneven first / last stages with virtual stages: read as even chunks");
    if (p.virtualStages > 1) {
      p.stages = evenStages(layers, p.chunks());
    } else {
      int at = 0;
      for (int s = 0; s < stages; ++s) {
        const int n = static_cast<int>(s == 0 ? first : s == stages - 1 ? last : middle);
        p.stages.push_back({at, at + n, Recompute::None});
        at += n;
      }
    }
  } else {
    if (layers % p.pp != 0) throw fail("number of layers (" + num(layers) + ") should be divisible by the pipeline-model-parallel size");
    p.stages = evenStages(layers, p.chunks());
  }

  // Recomputation.
  const std::string granularity = has("--recompute-granularity") ? in.flags.at("--recompute-granularity")
                                  : has("--recompute-activations") ? "selective"
                                                                   : "";
  Recompute rec = Recompute::None;
  if (granularity == "selective") {
    rec = Recompute::Selective;
  } else if (granularity == "full") {
    rec = Recompute::Full;
    const std::string method = has("--recompute-method") ? in.flags.at("--recompute-method") : "";
    const int64_t n = value("--recompute-num-layers", 0);
    if (method != "uniform" && method != "block") throw fail("--recompute-granularity full needs --recompute-method uniform or block");
    if (!has("--recompute-num-layers")) throw fail("--recompute-method " + method + " needs --recompute-num-layers");
    if (method == "uniform" && n > 1)
      r.approximated.push_back("uniform recomputation of groups of " + num(n) +
                               " layers: read as every layer's input kept (more memory than Megatron-LM keeps)");
    if (method == "block") {
      const int perChunk = layers / std::max(1, p.chunks());
      if (n == 0) rec = Recompute::None;
      else if (n < perChunk)
        r.approximated.push_back("block recomputation of " + num(n) + " of " + num(perChunk) +
                                 " layers per stage: read as full recomputation of every stage");
    }
  } else if (!granularity.empty()) {
    throw fail("--recompute-granularity must be full or selective, got '" + granularity + "'");
  }
  for (PipeStage& s : p.stages) s.recompute = rec;

  // State, overlaps, numerics.
  if (has("--use-torch-fsdp2")) {
    if (p.pp > 1) throw fail("--use-torch-fsdp2 is not supported with pipeline parallelism");
    if (has("--use-distributed-optimizer")) throw fail("--use-torch-fsdp2 is not supported with MCore's distributed optimizer");
    p.zero = 3;
    p.overlapParamGather = true;  // FSDP2 prefetches
  } else if (has("--use-distributed-optimizer")) {
    p.zero = 1;
  }
  // Partial distributed optimizer: its state sharded over dp x cp / instances, replicated across.
  if (const int64_t instances = value("--num-distributed-optimizer-instances", 1); instances != 1) {
    if (instances < 1 || p.gradientGroup() % instances != 0)
      throw fail("--num-distributed-optimizer-instances " + num(instances) + " must divide the data-parallel size " +
                 num(p.gradientGroup()) + " (with context parallelism, dp x cp)");
    if (p.zero == 1) p.shardGroup = static_cast<int>(p.gradientGroup() / instances);
    else r.approximated.push_back("--num-distributed-optimizer-instances " + num(instances) + " without --use-distributed-optimizer: nothing to shard");
  }
  if (has("--overlap-param-gather")) {
    if (!has("--use-distributed-optimizer")) throw fail("--overlap-param-gather only supported with distributed optimizer");
    if (!has("--overlap-grad-reduce")) throw fail("Must use --overlap-param-gather with --overlap-grad-reduce");
    p.overlapParamGather = true;
  }
  p.sequenceParallel = has("--sequence-parallel") && p.tp > 1;  // Megatron-LM turns it off at tp 1
  p.overlapTpComm = has("--tp-comm-overlap");
  if (p.overlapTpComm && !p.sequenceParallel) throw fail("Tensor parallel communication/GEMM overlap can happen only when sequence parallelism is enabled");
  p.fp8 = has("--fp8-format");
  const std::string backend = has("--attention-backend") ? in.flags.at("--attention-backend") : "auto";
  if (backend == "flash" || (has("--use-flash-attn") && !has("--attention-backend"))) p.attention = AttentionImpl::Flash2;
  else if (backend == "unfused" || backend == "local") p.attention = AttentionImpl::Unfused;
  else if (backend == "auto" || backend == "fused") p.attention = AttentionImpl::Flash;
  else throw fail("--attention-backend must be flash, fused, unfused, local or auto, got '" + backend + "'");
  readOptimizer(in.flags, has, p, r.approximated, source);
  if (const int64_t ep = value("--expert-model-parallel-size", 1); ep > 1) {
    if (p.zero == 3) throw fail("--use-torch-fsdp2 is not supported with expert parallelism");
    p.expertParallel = true;
    if (ep != p.dp) r.approximated.push_back("experts over " + num(ep) + " ranks: read as over the " + num(p.dp) + " data-parallel replicas");
  }
  // Every flag left is named: it changes nothing simulated here (data, optimizer, logging) or
  // this version of Megatron-LM does not know it.
  std::string unread;
  int listed = 0, more = 0;
  for (const auto& [flag, v] : in.flags) {
    if (consulted.count(flag)) continue;
    if (listed++ < 12) unread += (unread.empty() ? "" : ", ") + flag + (v.empty() ? "" : " " + v);
    else ++more;
  }
  if (!unread.empty())
    r.approximated.push_back("not read (nothing the simulator models, or unknown to Megatron-LM core_r0.11.0): " + unread +
                             (more ? " and " + num(more) + " more" : ""));
  return r;
}

int64_t megatronSeqLength(const std::string& text) {
  const std::vector<std::string> w = shellWords(text);
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "--seq-length" && i + 1 < w.size()) return positiveOrZero(w[i + 1]);
    if (w[i].starts_with("--seq-length=")) return positiveOrZero(w[i].substr(13));
  }
  return 0;
}

}  // namespace gp

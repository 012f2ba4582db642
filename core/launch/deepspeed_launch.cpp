#include "launch/deepspeed_launch.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "base/error.h"
#include "base/json_text.h"
#include "graph/dtype.h"

namespace gp {
namespace {

constexpr const char* kTarget = "deepspeed";
using nlohmann::ordered_json;

std::string num(int64_t v) { return std::to_string(v); }

bool evenChunks(const ParallelPlan& p) {
  return std::all_of(p.stages.begin(), p.stages.end(), [&](const PipeStage& s) {
    return s.last - s.first == p.stages.front().last - p.stages.front().first;
  });
}

}  // namespace

LaunchFile exportDeepSpeed(const ParallelPlan& p, const LaunchContext& ctx) {
  if (!ctx.stack) throw Error(kTarget, "no model to export for");
  const LayerStack& st = *ctx.stack;
  if (p.pp > 1 && p.zero >= 2)
    throw Error(kTarget, "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism (DeepSpeed v0.19.5, "
                         "deepspeed/runtime/pipe/engine.py)");
  LaunchFile f;
  const int64_t mbs = p.microbatchSize(ctx.globalBatch);
  ordered_json j;
  j["train_batch_size"] = ctx.globalBatch;
  j["train_micro_batch_size_per_gpu"] = mbs;
  j["gradient_accumulation_steps"] = p.microbatches;
  if (st.activationType == DType::BF16) j["bf16"] = {{"enabled", true}};
  else if (st.activationType == DType::F16) j["fp16"] = {{"enabled", true}};
  j["zero_optimization"] = {{"stage", p.zero}, {"overlap_comm", p.overlapParamGather}};
  if (p.shardSize() < p.gradientGroup()) {  // MiCS: ZeRO-3 sharded in groups, replicated across
    if (p.zero == 3) j["zero_optimization"]["mics_shard_size"] = p.shardSize();
    else
      f.inexact.push_back("a ZeRO-" + num(p.zero) + " sharding group of " + num(p.shardSize()) +
                          ": DeepSpeed shards ZeRO-1 and 2 over the whole data-parallel group (groups are ZeRO-3's "
                          "mics_shard_size), written as that");
  }
  const TrainingSetup& t = p.training;
  if (t.optimizerOffload) {
    if (p.zero >= 1) j["zero_optimization"]["offload_optimizer"] = {{"device", "cpu"}, {"pin_memory", true}};
    else f.inexact.push_back("the optimizer on the CPU: DeepSpeed offloads it under ZeRO 1-3 only, not written");
  }
  if (t.optimizerStates != OptimizerStates::Fp32)
    f.inexact.push_back("16- or 8-bit Adam moments: DeepSpeed's Adam keeps them in fp32, written as that");
  if (t.gradAccumulation != GradAccumulation::Framework && dtypeSize(st.activationType) == 2)
    j["data_types"] = {{"grad_accum_dtype", t.gradAccumulation == GradAccumulation::Fp32 ? "fp32"
                                            : st.activationType == DType::BF16   ? "bf16"
                                                                                 : "fp16"}};
  if (p.tp > 1) {
    j["tensor_parallel"] = {{"autotp_size", p.tp}};
    if (p.overlapTpComm) {
      j["tensor_parallel"]["tp_overlap_comm"] = true;
      f.inexact.push_back("TP communication overlapped: DeepSpeed's AutoTP overlaps its all-reduces only");
    }
    if (p.sequenceParallel)
      f.inexact.push_back("sequence parallelism: DeepSpeed's AutoTP keeps the norms' activations whole over tp");
  }
  if (p.cp > 1) {
    j["sequence_parallel_size"] = p.cp;
    f.inexact.push_back("context parallelism: written as DeepSpeed's sequence parallelism (Ulysses), which exchanges "
                        "heads by all-to-all where the plan passes keys and values around a ring");
  }
  std::set<Recompute> kinds;
  for (const PipeStage& s : p.stages) kinds.insert(s.recompute);
  if (kinds.count(Recompute::Full) || kinds.count(Recompute::Selective)) {
    // cpu_checkpointing offloads the checkpoints DeepSpeed's checkpointing partitions over the
    // model-parallel ranks (partition_activations).
    const bool offload = p.training.activationOffload;
    j["activation_checkpointing"] = {{"partition_activations", offload},
                                     {"cpu_checkpointing", offload},
                                     {"contiguous_memory_optimization", false}};
    f.inexact.push_back("recomputation: DeepSpeed recomputes what the model wraps in deepspeed.checkpointing.checkpoint; "
                        "wrap every layer" + std::string(kinds.size() > 1 ? " of the chunks the plan recomputes" : "") +
                        (kinds.count(Recompute::Selective) ? " (selective: its attention core only)" : ""));
  }
  if (p.fp8) f.inexact.push_back("FP8: DeepSpeed's configuration has no FP8 switch; the model's layers must be Transformer Engine's");
  if (p.expertParallel)
    f.inexact.push_back("expert parallelism: DeepSpeed-MoE takes it from the model's MoE layers (ep_size " + num(p.dp) + ")");
  ordered_json g;
  g["note"] = "graphplace's plan for " + ctx.model + " on " + ctx.cluster + "; DeepSpeed ignores this section";
  g["plan"] = {{"dp", p.dp}, {"tp", p.tp}, {"pp", p.pp}, {"cp", p.cp}};
  if (ctx.stepSeconds > 0) g["simulated_step_s"] = ctx.stepSeconds, g["peak_GiB"] = ctx.peakGiB;
  if (p.pp > 1) {
    if (p.virtualStages > 1)
      f.inexact.push_back("virtual stages: DeepSpeed's pipeline runs one chunk per stage, written as " + num(p.pp) + " stages");
    if (p.schedule == PipeSchedule::GPipe)
      f.inexact.push_back("GPipe: DeepSpeed's pipeline runs its own 1F1B-like schedule (TrainSchedule)");
    // The stages' layer boundaries (chunks of one stage merged when there are virtual stages).
    std::vector<int> parts;
    if (p.virtualStages == 1)
      for (const PipeStage& s : p.stages) parts.push_back(s.first);
    else
      for (const PipeStage& s : evenStages(st.numLayers(), p.pp)) parts.push_back(s.first);
    parts.push_back(st.numLayers());
    g["pipeline_parts"] = parts;
    const bool uniform = p.virtualStages > 1 || evenChunks(p);
    g["pipeline_module"] = "PipelineModule(layers=<your " + num(st.numLayers()) + " layer specs>, num_stages=" + num(p.pp) +
                           ", partition_method=\"" + (uniform ? "uniform" : "parameters") + "\")";
    if (!uniform)
      f.inexact.push_back("uneven stages: DeepSpeed's PipelineModule partitions uniformly or by parameters, not at given "
                          "layers; the plan's boundaries are under graphplace.pipeline_parts");
  }
  if (!f.inexact.empty()) g["not_exactly_expressible"] = f.inexact;
  j["graphplace"] = g;
  f.text = j.dump(2) + "\n";
  return f;
}

namespace {

// The optimizer's place and the gradients' precision (DeepSpeed v0.19.5's zero_optimization.
// offload_optimizer and data_types.grad_accum_dtype).
void readOptimizer(const nlohmann::json& j, const nlohmann::json& zero, ParallelPlan& p, std::vector<std::string>& notes,
                   const std::string& source) {
  TrainingSetup& t = p.training;
  t.framework = TrainingFramework::DeepSpeed;
  auto device = [&](const char* key) -> std::string {
    if (!zero.is_object() || !zero.contains(key)) return "none";
    const nlohmann::json& o = zero[key];
    if (!o.is_object()) throw Error(source, std::string("zero_optimization.") + key + " must be an object");
    if (!o.contains("device")) return "none";
    if (!o["device"].is_string()) throw Error(source, std::string("zero_optimization.") + key + ".device must be a string");
    const std::string d = o["device"].get<std::string>();
    if (d != "none" && d != "cpu" && d != "nvme")
      throw Error(source, std::string("zero_optimization.") + key + ".device must be \"none\", \"cpu\" or \"nvme\", got \"" + d + "\"");
    return d;
  };
  const std::string optimizer = device("offload_optimizer");
  if (optimizer != "none") {
    if (p.zero == 0) throw Error(source, "zero_optimization.offload_optimizer needs ZeRO stage 1, 2 or 3");
    t.optimizerOffload = true;
    if (optimizer == "nvme") notes.push_back("offload_optimizer to NVMe: read as to host memory (the NVMe traffic is not simulated)");
  }
  if (device("offload_param") != "none")
    notes.push_back("zero_optimization.offload_param: read as the parameters kept on the GPUs");
  if (j.contains("data_types") && j["data_types"].is_object() && j["data_types"].contains("grad_accum_dtype")) {
    const nlohmann::json& v = j["data_types"]["grad_accum_dtype"];
    const std::string d = v.is_string() ? v.get<std::string>() : "";
    if (d == "fp32") t.gradAccumulation = GradAccumulation::Fp32;
    else if (d == "bf16" || d == "fp16") t.gradAccumulation = GradAccumulation::Param;
    else throw Error(source, "data_types.grad_accum_dtype must be \"fp32\", \"bf16\" or \"fp16\"");
  }
}

}  // namespace

LaunchImport importDeepSpeed(const std::string& text, const std::string& source, const LayerStack& st, int devices) {
  const nlohmann::json j = parseJsonText(text, source);
  auto fail = [&](const std::string& why) { return Error(source, why); };
  if (!j.is_object() || !(j.contains("train_batch_size") || j.contains("train_micro_batch_size_per_gpu")))
    throw fail("not a DeepSpeed configuration (train_batch_size or train_micro_batch_size_per_gpu missing)");
  auto integer = [&](const nlohmann::json& o, const char* key, int64_t fallback) -> int64_t {
    if (!o.is_object() || !o.contains(key) || o[key].is_null()) return fallback;
    const std::optional<int64_t> v = jsonInteger(o, key, 0, int64_t{1} << 40);
    if (!v) throw fail(std::string("\"") + key + "\" must be a whole number 0 .. 2^40");
    return *v;
  };
  // A switch: true / false where given, else `fallback` (nlohmann's value() throws on other types).
  auto flag = [&](const nlohmann::json& o, const char* key, bool fallback) {
    if (!o.is_object() || !o.contains(key)) return fallback;
    if (!o[key].is_boolean()) throw fail(std::string("\"") + key + "\" must be true or false");
    return o[key].get<bool>();
  };
  const nlohmann::json none = nlohmann::json::object();
  const nlohmann::json& g = j.contains("graphplace") ? j["graphplace"] : none;
  const nlohmann::json& gp = g.contains("plan") ? g["plan"] : none;
  LaunchImport r;
  ParallelPlan& p = r.plan;
  const int64_t tp = std::max<int64_t>(1, integer(j.contains("tensor_parallel") ? j["tensor_parallel"] : none, "autotp_size", 1));
  const int64_t cp = integer(j, "sequence_parallel_size", 1), pp = integer(gp, "pp", 1);
  for (const int64_t d : {tp, cp, pp})
    if (d < 1 || d > kMaxLaunchCount) throw fail("parallel sizes must be 1 .. " + num(kMaxLaunchCount));
  p.tp = static_cast<int>(tp), p.cp = static_cast<int>(cp), p.pp = static_cast<int>(pp);
  if (devices % (p.tp * p.cp * p.pp) != 0)
    throw fail("the " + num(devices) + " GPUs do not divide into tp " + num(p.tp) + " x sequence parallel " + num(p.cp) +
               " x pipeline " + num(p.pp));
  p.dp = devices / (p.tp * p.cp * p.pp);
  // DeepSpeed's _set_batch_related_parameters: any two of the three give the third.
  int64_t train = integer(j, "train_batch_size", 0), micro = integer(j, "train_micro_batch_size_per_gpu", 0);
  int64_t gas = integer(j, "gradient_accumulation_steps", 0);
  if (train > 0 && micro > 0 && gas == 0) gas = train / std::max<int64_t>(1, micro * p.dp);
  if (train > 0 && micro == 0) micro = train / std::max<int64_t>(1, std::max<int64_t>(gas, 1) * p.dp), gas = std::max<int64_t>(gas, 1);
  if (train == 0) gas = std::max<int64_t>(gas, 1), train = micro * gas * p.dp;
  if (gas > kMaxLaunchCount || static_cast<double>(micro) * static_cast<double>(gas) * p.dp > 1e15)
    throw fail("a batch of " + num(micro) + " x " + num(gas) + " x " + num(p.dp) + " samples is out of range");
  if (micro <= 0 || gas <= 0 || train != micro * gas * p.dp)
    throw fail("Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * "
               "world_size " + num(train) + " != " + num(micro) + " * " + num(gas) + " * " + num(p.dp));
  r.globalBatch = train;
  p.microbatches = static_cast<int>(gas);
  const nlohmann::json& zero = j.contains("zero_optimization") ? j["zero_optimization"] : none;
  p.zero = static_cast<int>(integer(zero, "stage", 0));
  if (p.zero < 0 || p.zero > 3) throw fail("zero_optimization.stage must be 0-3");
  if (p.pp > 1 && p.zero >= 2) throw fail("ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism");
  p.overlapParamGather = p.zero > 0 && flag(zero, "overlap_comm", p.zero == 3);
  // MiCS (DeepSpeed's ZeRO-3 in sharding groups): mics_shard_size GPUs hold one copy of the state.
  if (const int64_t mics = integer(zero, "mics_shard_size", -1); mics > 0) {
    if (p.zero != 3) throw fail("zero_optimization.mics_shard_size needs stage 3 (MiCS shards ZeRO-3's state)");
    if (p.gradientGroup() % mics != 0)
      throw fail("zero_optimization.mics_shard_size " + num(mics) + " does not divide the " + num(p.gradientGroup()) +
                 " data-parallel GPUs");
    p.shardGroup = static_cast<int>(mics);
  }
  readOptimizer(j, zero, p, r.approximated, source);
  // The layers per stage.
  const int layers = st.numLayers();
  if (p.pp > 1 && g.contains("pipeline_parts") && g["pipeline_parts"].is_array() &&
      g["pipeline_parts"].size() == static_cast<size_t>(p.pp) + 1) {
    const auto& parts = g["pipeline_parts"];
    for (int s = 0; s < p.pp; ++s) {
      const std::optional<int64_t> a = jsonInteger(parts[static_cast<size_t>(s)], 0, layers);
      const std::optional<int64_t> b = jsonInteger(parts[static_cast<size_t>(s) + 1], 0, layers);
      if (!a || !b || *a >= *b) throw fail("graphplace.pipeline_parts must be increasing layer numbers 0 .. " + num(layers));
      p.stages.push_back({static_cast<int>(*a), static_cast<int>(*b), Recompute::None});
    }
    if (p.stages.front().first != 0 || p.stages.back().last != layers) throw fail("graphplace.pipeline_parts must cover the model's " + num(layers) + " layers");
  } else {
    p.stages = evenStages(layers, p.pp);
  }
  if (j.contains("activation_checkpointing")) {
    for (PipeStage& s : p.stages) s.recompute = Recompute::Full;
    r.approximated.push_back("activation_checkpointing: which layers recompute is the model's code; read as every layer");
    if (j["activation_checkpointing"].is_object() && flag(j["activation_checkpointing"], "cpu_checkpointing", false)) {
      if (!flag(j["activation_checkpointing"], "partition_activations", false))
        throw fail("activation_checkpointing.cpu_checkpointing offloads partitioned activations: it needs partition_activations");
      p.training.activationOffload = true;
    }
  }
  if (p.cp > 1) r.approximated.push_back("sequence_parallel_size (Ulysses): read as context parallelism (ring attention)");
  if (j.contains("tensor_parallel") && flag(j["tensor_parallel"], "tp_overlap_comm", false))
    r.approximated.push_back("tp_overlap_comm overlaps AutoTP's all-reduces only: read as not overlapped");
  p.sequenceParallel = false;
  r.seqLen = 0;
  // Settings that change the run but not what is simulated here, named rather than dropped.
  std::string unread;
  auto note = [&](const std::string& key) { unread += (unread.empty() ? "" : ", ") + key; };
  static const std::set<std::string> read = {"train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps",
                                             "bf16", "fp16", "zero_optimization", "tensor_parallel", "activation_checkpointing",
                                             "sequence_parallel_size", "graphplace", "data_types"};
  for (const auto& [key, value] : j.items())
    if (!read.count(key)) note(key);
  if (zero.is_object())
    for (const auto& [key, value] : zero.items())
      if (key != "stage" && key != "overlap_comm" && key != "mics_shard_size" && key != "offload_optimizer" && key != "offload_param")
        note("zero_optimization." + key);
  if (j.contains("activation_checkpointing") && j["activation_checkpointing"].is_object())
    for (const auto& [key, value] : j["activation_checkpointing"].items())
      if (key != "cpu_checkpointing") note("activation_checkpointing." + key);
  if (!unread.empty())
    r.approximated.push_back("not read (bucket sizes, partitioned activations and the rest are not simulated): " + unread);
  return r;
}

bool isDeepSpeedJson(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '{';
}

}  // namespace gp

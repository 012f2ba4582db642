#include "parallel/plan_knobs.h"

#include "base/error.h"

namespace gp {

const std::vector<PlanKnob>& planKnobs() {
  constexpr int kDegree = 1 << 20;
  static const std::vector<PlanKnob> knobs = {
      {"dp", "", KnobKind::Count, 1, kDegree, {}, true, 1, [](const ParallelPlan& p) { return p.dp; },
       [](ParallelPlan& p, int v) { p.dp = v; }},
      {"tp", "", KnobKind::Count, 1, kDegree, {}, true, 1, [](const ParallelPlan& p) { return p.tp; },
       [](ParallelPlan& p, int v) { p.tp = v; }},
      {"pp", "", KnobKind::Count, 1, kDegree, {}, true, 1, [](const ParallelPlan& p) { return p.pp; },
       [](ParallelPlan& p, int v) { p.pp = v; }},
      {"cp", "", KnobKind::Count, 1, kDegree, {}, false, 1, [](const ParallelPlan& p) { return p.cp; },
       [](ParallelPlan& p, int v) { p.cp = v; }},
      {"virtual_stages", "", KnobKind::Count, 1, kMaxVirtualStages, {}, false, 1,
       [](const ParallelPlan& p) { return p.virtualStages; }, [](ParallelPlan& p, int v) { p.virtualStages = v; }},
      {"microbatches", "", KnobKind::Count, 1, static_cast<int>(kMaxPassesPerStep / 2), {}, true, 1,
       [](const ParallelPlan& p) { return p.microbatches; }, [](ParallelPlan& p, int v) { p.microbatches = v; }},
      {"schedule", "", KnobKind::Choice, 0, 0, {"gpipe", "1f1b"}, true, static_cast<int>(PipeSchedule::OneFOneB),
       [](const ParallelPlan& p) { return static_cast<int>(p.schedule); },
       [](ParallelPlan& p, int v) { p.schedule = static_cast<PipeSchedule>(v); }},
      {"zero", "", KnobKind::Count, 0, 3, {}, true, 0, [](const ParallelPlan& p) { return p.zero; },
       [](ParallelPlan& p, int v) { p.zero = v; }},
      {"shard_group", "", KnobKind::Count, 0, kDegree, {}, false, 0, [](const ParallelPlan& p) { return p.shardGroup; },
       [](ParallelPlan& p, int v) { p.shardGroup = v; }},
      {"overlap_param_gather", "parameter gather overlapped", KnobKind::Flag, 0, 1, {}, false, 0,
       [](const ParallelPlan& p) { return static_cast<int>(p.overlapParamGather); },
       [](ParallelPlan& p, int v) { p.overlapParamGather = v != 0; }},
      {"expert_parallel", "experts over dp", KnobKind::Flag, 0, 1, {}, false, 0,
       [](const ParallelPlan& p) { return static_cast<int>(p.expertParallel); },
       [](ParallelPlan& p, int v) { p.expertParallel = v != 0; }},
      {"attention", "", KnobKind::Choice, 0, 0, {"flash", "unfused", "flash2"}, false,
       static_cast<int>(AttentionImpl::Flash), [](const ParallelPlan& p) { return static_cast<int>(p.attention); },
       [](ParallelPlan& p, int v) { p.attention = static_cast<AttentionImpl>(v); }, {"", "unfused attention", "FlashAttention-2"}},
      {"fp8", "FP8 GEMMs", KnobKind::Flag, 0, 1, {}, false, 0, [](const ParallelPlan& p) { return static_cast<int>(p.fp8); },
       [](ParallelPlan& p, int v) { p.fp8 = v != 0; }},
      {"sequence_parallel", "sequence parallel", KnobKind::Flag, 0, 1, {}, false, 0,
       [](const ParallelPlan& p) { return static_cast<int>(p.sequenceParallel); },
       [](ParallelPlan& p, int v) { p.sequenceParallel = v != 0; }},
      {"overlap_tp_comm", "TP communication overlapped", KnobKind::Flag, 0, 1, {}, false, 0,
       [](const ParallelPlan& p) { return static_cast<int>(p.overlapTpComm); },
       [](ParallelPlan& p, int v) { p.overlapTpComm = v != 0; }},
      {"framework", "", KnobKind::Choice, 0, 0, {"generic", "megatron", "deepspeed", "torchtitan"}, false,
       static_cast<int>(TrainingFramework::Generic), [](const ParallelPlan& p) { return static_cast<int>(p.training.framework); },
       [](ParallelPlan& p, int v) { p.training.framework = static_cast<TrainingFramework>(v); },
       {"", "Megatron-LM", "DeepSpeed", "torchtitan"}},
      {"optimizer_offload", "optimizer on the CPU", KnobKind::Flag, 0, 1, {}, false, 0,
       [](const ParallelPlan& p) { return static_cast<int>(p.training.optimizerOffload); },
       [](ParallelPlan& p, int v) { p.training.optimizerOffload = v != 0; }},
      {"optimizer_states", "", KnobKind::Choice, 0, 0, {"fp32", "bf16", "8bit"}, false,
       static_cast<int>(OptimizerStates::Fp32), [](const ParallelPlan& p) { return static_cast<int>(p.training.optimizerStates); },
       [](ParallelPlan& p, int v) { p.training.optimizerStates = static_cast<OptimizerStates>(v); },
       {"", "bf16 Adam moments", "8-bit Adam moments"}},
      {"activation_offload", "checkpoints on the CPU", KnobKind::Flag, 0, 1, {}, false, 0,
       [](const ParallelPlan& p) { return static_cast<int>(p.training.activationOffload); },
       [](ParallelPlan& p, int v) { p.training.activationOffload = v != 0; }},
      {"grad_accumulation", "", KnobKind::Choice, 0, 0, {"framework", "fp32", "16bit"}, false,
       static_cast<int>(GradAccumulation::Framework),
       [](const ParallelPlan& p) { return static_cast<int>(p.training.gradAccumulation); },
       [](ParallelPlan& p, int v) { p.training.gradAccumulation = static_cast<GradAccumulation>(v); },
       {"", "fp32 gradient accumulation", "16-bit gradient accumulation"}},
  };
  return knobs;
}

nlohmann::ordered_json knobJson(const PlanKnob& k, const ParallelPlan& p) {
  const int v = k.get(p);
  switch (k.kind) {
    case KnobKind::Flag: return v != 0;
    case KnobKind::Choice: return std::string(k.choices[static_cast<size_t>(v)]);
    case KnobKind::Count: break;
  }
  return v;
}

nlohmann::ordered_json planKnobsJson(const ParallelPlan& p) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const PlanKnob& k : planKnobs()) j[std::string(k.key)] = knobJson(k, p);
  return j;
}

namespace {

std::string choiceList(const PlanKnob& k, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < k.choices.size(); ++i)
    s.append(i == 0 ? std::string_view() : i + 1 == k.choices.size() ? sep : std::string_view(", "))
        .append("\"")
        .append(k.choices[i])
        .append("\"");
  return s;
}

int knobValue(const PlanKnob& k, const nlohmann::json& v, const std::string& source) {
  std::string key = "\"";
  key.append(k.key).append("\"");
  switch (k.kind) {
    case KnobKind::Flag:
      if (!v.is_boolean()) throw Error(source, key + " must be true or false");
      return v.get<bool>() ? 1 : 0;
    case KnobKind::Choice: {
      if (v.is_string())
        for (size_t i = 0; i < k.choices.size(); ++i)
          if (v.get<std::string>() == k.choices[i]) return static_cast<int>(i);
      std::string why = key + " must be " + choiceList(k, " or ");
      if (v.is_string()) why.append(", got \"").append(v.get<std::string>()).append("\"");
      throw Error(source, why);
    }
    case KnobKind::Count: break;
  }
  if (!v.is_number_integer()) throw Error(source, key + " must be an integer");
  const int64_t n = v.get<int64_t>();
  if (n < k.low || n > k.high)
    throw Error(source, key + " = " + std::to_string(n) + " is outside " + std::to_string(k.low) + ".." + std::to_string(k.high));
  return static_cast<int>(n);
}

}  // namespace

void readPlanKnobs(const nlohmann::json& object, ParallelPlan& p, const std::string& source) {
  for (const PlanKnob& k : planKnobs()) {
    const std::string key(k.key);
    if (!object.contains(key)) {
      if (k.required) throw Error(source, "\"" + key + "\" is missing from the plan");
      k.set(p, k.defaultValue);
      continue;
    }
    k.set(p, knobValue(k, object[key], source));
  }
}

std::vector<std::string_view> planKnobNotes(const ParallelPlan& p) {
  std::vector<std::string_view> out;
  for (const PlanKnob& k : planKnobs())
    if (k.get(p) == k.defaultValue) continue;
    else if (!k.summary.empty()) out.push_back(k.summary);
    else if (!k.choiceNotes.empty() && !k.choiceNotes[static_cast<size_t>(k.get(p))].empty())
      out.push_back(k.choiceNotes[static_cast<size_t>(k.get(p))]);
  return out;
}

bool sameKnobs(const ParallelPlan& a, const ParallelPlan& b) {
  for (const PlanKnob& k : planKnobs())
    if (k.get(a) != k.get(b)) return false;
  return true;
}

namespace {

// A knob's value in words: a count, "on" / "off", or the choice's name.
std::string knobText(const PlanKnob& k, int v) {
  switch (k.kind) {
    case KnobKind::Flag: return v != 0 ? "on" : "off";
    case KnobKind::Choice: return std::string(k.choices[static_cast<size_t>(v)]);
    case KnobKind::Count: break;
  }
  return std::to_string(v);
}

// The chunks' recomputation: one name when they agree, else "mixed".
std::string recomputeText(const ParallelPlan& p) {
  if (p.stages.empty()) return "none";
  for (const PipeStage& s : p.stages)
    if (s.recompute != p.stages.front().recompute) return "mixed";
  return std::string(recomputeName(p.stages.front().recompute));
}

}  // namespace

std::string planChanges(const ParallelPlan& from, const ParallelPlan& to, int64_t globalBatch) {
  std::string out;
  auto add = [&](std::string_view what, const std::string& a, const std::string& b) {
    if (a == b) return;
    out.append(out.empty() ? "" : ", ").append(what).append(" ").append(a).append(" -> ").append(b);
  };
  for (const PlanKnob& k : planKnobs()) {
    if (k.key == "microbatches") {  // the size says more than the count
      add("micro-batch", std::to_string(from.microbatchSize(globalBatch)), std::to_string(to.microbatchSize(globalBatch)));
      continue;
    }
    add(k.key, knobText(k, k.get(from)), knobText(k, k.get(to)));
  }
  add("recompute", recomputeText(from), recomputeText(to));
  return out.empty() ? "the same plan" : out;
}

}  // namespace gp

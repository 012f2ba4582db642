#include "parallel/parallel_plan.h"

#include <algorithm>
#include <map>

#include "base/error.h"
#include "base/json_text.h"
#include "parallel/plan_knobs.h"

namespace gp {

std::string_view pipeScheduleName(PipeSchedule s) { return s == PipeSchedule::GPipe ? "gpipe" : "1f1b"; }

PipeSchedule parsePipeSchedule(std::string_view name, const std::string& source) {
  if (name == "gpipe") return PipeSchedule::GPipe;
  if (name == "1f1b") return PipeSchedule::OneFOneB;
  throw Error(source, "unknown pipeline schedule '" + std::string(name) + "' (gpipe, 1f1b)");
}

std::string_view recomputeName(Recompute r) {
  return r == Recompute::Full ? "full" : r == Recompute::Selective ? "selective" : "none";
}

Recompute parseRecompute(std::string_view name, const std::string& source) {
  if (name == "none") return Recompute::None;
  if (name == "selective") return Recompute::Selective;
  if (name == "full") return Recompute::Full;
  throw Error(source, "unknown recomputation '" + std::string(name) + "' (none, selective, full)");
}

std::string_view attentionImplName(AttentionImpl a) {
  switch (a) {
    case AttentionImpl::Flash: return "flash";
    case AttentionImpl::Unfused: return "unfused";
    case AttentionImpl::Flash2: return "flash2";
  }
  return "flash";
}

AttentionImpl parseAttentionImpl(std::string_view name, const std::string& source) {
  if (name == "flash") return AttentionImpl::Flash;
  if (name == "unfused") return AttentionImpl::Unfused;
  if (name == "flash2") return AttentionImpl::Flash2;
  throw Error(source, "unknown attention '" + std::string(name) + "' (flash, unfused, flash2)");
}

std::vector<PipeStage> evenStages(int layers, int n, Recompute recompute) {
  std::vector<PipeStage> out;
  if (n < 1) return out;
  int first = 0;
  for (int s = 0; s < n; ++s) {
    const int count = layers / n + (s < layers % n ? 1 : 0);
    out.push_back({first, first + count, recompute});
    first += count;
  }
  return out;
}

int uniformChunkLayers(const ParallelPlan& p) {
  if (p.virtualStages < 2 || p.stages.empty()) return 0;
  const PipeStage& a = p.stages.front();
  for (const PipeStage& s : p.stages)
    if (s.last - s.first != a.last - a.first || s.recompute != a.recompute) return 0;
  return a.last - a.first;
}

std::vector<int> serverOf(const Cluster& c) {
  std::map<std::string, int> index;
  std::vector<int> out;
  for (int d = 0; d < c.numDevices(); ++d) {
    const std::string& name = c.device(d).name;
    const size_t slash = name.find_last_of('/');
    const std::string server = slash == std::string::npos ? std::string() : name.substr(0, slash);
    out.push_back(index.emplace(server, static_cast<int>(index.size())).first->second);
  }
  return out;
}

std::vector<int> serverOrder(const Cluster& c) {
  const std::vector<int> server = serverOf(c);
  std::vector<int> order(static_cast<size_t>(c.numDevices()));
  for (int d = 0; d < c.numDevices(); ++d) order[static_cast<size_t>(d)] = d;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return server[static_cast<size_t>(a)] < server[static_cast<size_t>(b)]; });
  return order;
}

std::vector<int> planDevices(const ParallelPlan& p, const Cluster& c) {
  return p.devices.empty() ? serverOrder(c) : p.devices;
}

std::string parallelPlanProblem(const LayerStack& st, const Cluster& c, int64_t globalBatch, const ParallelPlan& p) {
  auto num = [](int64_t v) { return std::to_string(v); };
  if (p.dp < 1 || p.tp < 1 || p.pp < 1 || p.cp < 1) return "dp, cp, tp and pp must each be at least 1";
  if (p.microbatches < 1) return "the micro-batch count must be at least 1";
  if (p.virtualStages < 1 || p.virtualStages > kMaxVirtualStages)
    return "virtual stages must be between 1 and " + num(kMaxVirtualStages);
  if (int64_t{p.pp} * p.virtualStages * p.microbatches > kMaxPassesPerStep / 2)
    return std::string(p.virtualStages > 1 ? "pp x virtual stages" : "pp") + " x micro-batches = " +
           num(int64_t{p.pp} * p.virtualStages * p.microbatches) + " passes of each kind in one step, over the limit of " +
           num(kMaxPassesPerStep / 2);
  if (p.zero < 0 || p.zero > 3) return "ZeRO stage " + num(p.zero) + " does not exist (0, 1, 2, 3)";
  if (p.shardGroup < 0) return "the sharding group must be 0 (the whole gradient group) or a size";
  if (p.shardGroup > 0 && p.zero == 0) return "a sharding group of " + num(p.shardGroup) + " needs ZeRO 1, 2 or 3 (ZeRO 0 shards nothing)";
  if (p.shardGroup > 0 && (p.shardGroup > p.gradientGroup() || p.gradientGroup() % p.shardGroup != 0))
    return "the sharding group of " + num(p.shardGroup) + " does not divide dp x cp = " + num(p.gradientGroup());
  const int64_t used = int64_t{p.dp} * p.cp * p.tp * p.pp;
  if (used != c.numDevices())
    return (p.cp > 1 ? "dp x cp x tp x pp = " + num(p.dp) + " x " + num(p.cp) + " x " : "dp x tp x pp = " + num(p.dp) + " x ") +
           num(p.tp) + " x " + num(p.pp) + " = " + num(used) + " devices, but the cluster has " + num(c.numDevices()) +
           " (a plan uses every device)";
  if (!p.devices.empty()) {
    if (static_cast<int64_t>(p.devices.size()) != used)
      return "the plan lists " + num(static_cast<int64_t>(p.devices.size())) + " devices for the mesh's " + num(used);
    std::vector<uint8_t> seen(static_cast<size_t>(c.numDevices()), 0);
    for (int d : p.devices) {
      if (d < 0 || d >= c.numDevices()) return "device index " + num(d) + " is not in the cluster";
      if (seen[static_cast<size_t>(d)]++) return "device " + c.device(d).name + " is listed twice";
    }
  }
  if (st.heads > 0 && st.heads % p.tp != 0)
    return "tp = " + num(p.tp) + " does not divide the " + num(st.heads) + " attention heads";
  if (st.kvHeads > 0 && st.kvHeads % p.tp != 0)
    return "tp = " + num(p.tp) + " does not divide the " + num(st.kvHeads) + " key / value heads";
  if (st.hidden > 0 && st.hidden % p.tp != 0)
    return "tp = " + num(p.tp) + " does not divide the hidden size " + num(st.hidden);
  if (p.expertParallel && st.experts == 0) return "expert parallelism needs a model with experts";
  if (p.expertParallel && st.experts % p.dp != 0)
    return "dp = " + num(p.dp) + " does not divide the " + num(st.experts) + " experts (expert parallelism)";
  if (p.cp > 1 && st.heads == 0) return "context parallelism splits attention's sequence: this model has no attention";
  if (p.cp > 1 && p.expertParallel) return "expert parallelism with context parallelism is not modelled";
  if (p.cp > 1) {
    const int64_t chunks = int64_t{2} * p.cp * (p.sequenceParallel ? p.tp : 1);
    if (st.seqLen > 0 && st.seqLen % chunks != 0)
      return "the sequence of " + num(st.seqLen) + " tokens does not split into 2 x cp" +
             (p.sequenceParallel ? std::string(" x tp = ") : std::string(" = ")) + num(chunks) +
             " equal chunks (context parallelism)";
  }
  if (p.fp8 && dtypeSize(st.activationType) != 2)
    return "FP8 GEMMs train a 16-bit model (bf16 or fp16 mixed precision); this one is " +
           std::string(dtypeName(st.activationType));
  if (p.fp8)
    for (int d = 0; d < c.numDevices(); ++d)
      if (!(c.device(d).peakFlops(DType::F8) > c.device(d).peakFlops(st.activationType)))
        return "FP8 GEMMs need GPUs with an FP8 rate above their 16-bit one: " + c.device(d).name + " has none";
  if (std::string why = trainingSetupProblem(p); !why.empty()) return why;
  if (p.training.activationOffload)
    for (const PipeStage& s : p.stages)
      if (s.recompute != Recompute::Full)
        return "activation offload keeps full recomputation's checkpoints in host memory: every stage must recompute "
               "full";
  if (p.sequenceParallel && p.tp < 2) return "sequence parallelism splits over the TP group: it needs tp > 1";
  if (p.overlapTpComm && !p.sequenceParallel)
    return "Tensor parallel communication/GEMM overlap can happen only when sequence parallelism is enabled (Megatron-LM)";
  if (p.sequenceParallel && !st.sequenceDivides(p.tp))
    return "tp = " + num(p.tp) + " does not divide the sequence of " + num(st.seqLen) + " tokens (sequence parallelism)";
  if (p.virtualStages > 1 && p.pp < 2) return "virtual stages interleave a pipeline: they need pp > 1";
  if (p.virtualStages > 1 && p.schedule != PipeSchedule::OneFOneB)
    return "virtual stages run the interleaved 1F1B schedule: the schedule must be 1f1b";
  if (p.virtualStages > 1 && p.microbatches % p.pp != 0)
    return "the number of micro-batches (" + num(p.microbatches) + ") is not divisible by pp (" + num(p.pp) +
           ") when using the interleaved schedule";
  const int64_t chunks = int64_t{p.pp} * p.virtualStages;
  if (chunks > st.numLayers())
    return (p.virtualStages > 1 ? "pp x virtual stages = " + num(chunks) : "pp = " + num(p.pp)) + " exceeds the " +
           num(st.numLayers()) + " layers (each " + (p.virtualStages > 1 ? "chunk" : "stage") + " needs at least one)";
  if (static_cast<int64_t>(p.stages.size()) != chunks)
    return "the plan has " + num(static_cast<int64_t>(p.stages.size())) + " stages for " +
           (p.virtualStages > 1 ? "pp x virtual stages = " + num(chunks) : "pp = " + num(p.pp));
  int next = 0;
  for (size_t s = 0; s < p.stages.size(); ++s) {
    const PipeStage& stg = p.stages[s];
    if (stg.first != next || stg.last <= stg.first)
      return "stage " + num(static_cast<int64_t>(s)) + " holds layers [" + num(stg.first) + ", " + num(stg.last) +
             "): stages must cover the layers in order, each at least one";
    next = stg.last;
  }
  if (next != st.numLayers()) return "the stages end at layer " + num(next) + " of " + num(st.numLayers());
  if (globalBatch < 1 || globalBatch > kMaxGlobalBatch)
    return "the global batch must be between 1 and " + num(kMaxGlobalBatch) + ", got " + num(globalBatch);
  const int64_t split = int64_t{p.dp} * p.microbatches;
  if (globalBatch % split != 0)
    return "global batch " + num(globalBatch) + " is not divisible by dp x micro-batches = " + num(p.dp) + " x " +
           num(p.microbatches);
  return {};
}

std::string parallelPlanJson(const ParallelPlanFile& f, const Cluster& c) {
  using nlohmann::ordered_json;
  const ParallelPlan& p = f.plan;
  ordered_json stages = ordered_json::array(), recompute = ordered_json::array();
  for (const PipeStage& s : p.stages) {
    stages.push_back({s.first, s.last});
    recompute.push_back(std::string(recomputeName(s.recompute)));
  }
  ordered_json devices = ordered_json::array();
  for (int d : planDevices(p, c))
    if (static_cast<int64_t>(devices.size()) < p.devicesUsed()) devices.push_back(c.device(d).name);
  ordered_json plan = planKnobsJson(p);
  plan["stages"] = stages;
  plan["recompute"] = recompute;
  plan["devices"] = devices;
  const ordered_json j = {{"format", "graphplace-parallel-plan"}, {"version", 1},         {"model", f.model},
                          {"cluster", f.cluster},                 {"global_batch", f.globalBatch}, {"plan", plan}};
  return j.dump(2) + "\n";
}

ParallelPlanFile parseParallelPlanJson(const std::string& text, const std::string& source, const Cluster& c) {
  const nlohmann::json j = parseJsonText(text, source);
  auto fail = [&](const std::string& why) { return Error(source, why); };
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string() || j["format"] != "graphplace-parallel-plan")
    throw fail("not a graphplace parallel plan (\"format\": \"graphplace-parallel-plan\" missing)");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int64_t>() != 1)
    throw fail("unsupported version (this build reads version 1)");
  auto integer = [&](const nlohmann::json& o, const char* key, int64_t lo, int64_t hi) {
    if (!o.contains(key) || !o[key].is_number_integer()) throw fail(std::string("\"") + key + "\" must be an integer");
    const int64_t v = o[key].get<int64_t>();
    if (v < lo || v > hi)
      throw fail(std::string("\"") + key + "\" = " + std::to_string(v) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
    return v;
  };
  ParallelPlanFile f;
  auto stringField = [&](const char* key) {
    if (!j.contains(key)) return std::string();
    if (!j[key].is_string()) throw fail(std::string("\"") + key + "\" must be a string");
    return j[key].get<std::string>();
  };
  f.model = stringField("model");
  f.cluster = stringField("cluster");
  f.globalBatch = integer(j, "global_batch", 1, kMaxGlobalBatch);
  if (!j.contains("plan") || !j["plan"].is_object()) throw fail("\"plan\" must be an object");
  const nlohmann::json& pj = j["plan"];
  ParallelPlan& p = f.plan;
  readPlanKnobs(pj, p, source);
  if (!pj.contains("stages") || !pj["stages"].is_array()) throw fail("\"stages\" must be a list of [first, last] layer ranges");
  const nlohmann::json& rec = pj.contains("recompute") ? pj["recompute"] : nlohmann::json::array();
  if (!rec.is_array() || (pj.contains("recompute") && rec.size() != pj["stages"].size()))
    throw fail("\"recompute\" must be a list with one entry per stage (\"none\", \"selective\", \"full\")");
  for (size_t s = 0; s < pj["stages"].size(); ++s) {
    const nlohmann::json& r = pj["stages"][s];
    if (!r.is_array() || r.size() != 2 || !r[0].is_number_integer() || !r[1].is_number_integer())
      throw fail("stage " + std::to_string(s) + " must be [first, last]");
    const int64_t first = r[0].get<int64_t>(), last = r[1].get<int64_t>();
    if (first < 0 || last < 0 || first > (1 << 20) || last > (1 << 20))
      throw fail("stage " + std::to_string(s) + " = [" + std::to_string(first) + ", " + std::to_string(last) + "] is outside 0..1048576");
    PipeStage stg{static_cast<int>(first), static_cast<int>(last), Recompute::None};
    if (s < rec.size()) {
      if (rec[s].is_boolean()) stg.recompute = rec[s].get<bool>() ? Recompute::Full : Recompute::None;
      else if (rec[s].is_string()) stg.recompute = parseRecompute(rec[s].get<std::string>(), source);
      else throw fail("\"recompute\"[" + std::to_string(s) + "] must be \"none\", \"selective\" or \"full\"");
    }
    p.stages.push_back(stg);
  }
  if (pj.contains("devices")) {
    if (!pj["devices"].is_array()) throw fail("\"devices\" must be a list of device names");
    for (const nlohmann::json& d : pj["devices"]) {
      const int id = d.is_string() ? c.findDevice(d.get<std::string>()) : -1;
      if (id < 0) throw fail("device " + (d.is_string() ? "'" + d.get<std::string>() + "'" : d.dump()) + " is not in cluster " + c.name());
      p.devices.push_back(id);
    }
  }
  return f;
}

}  // namespace gp

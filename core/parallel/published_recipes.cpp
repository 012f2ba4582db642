#include "parallel/published_recipes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "base/error.h"
#include "base/file_text.h"
#include "base/json_text.h"
#include "base/resource_dir.h"
#include "parallel/plan_knobs.h"

namespace gp {
namespace {

using nlohmann::json;

int64_t integerField(const json& r, const char* key, int64_t lo, int64_t hi, const std::string& source, const std::string& where) {
  const auto v = jsonInteger(r, key, lo, hi);
  if (!v)
    throw Error(source, where + ": \"" + key + "\" must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return *v;
}

// The largest value from `start` down to 1 for which `ok` holds (1 when none).
int largestFrom(int start, auto ok) {
  for (int v = start; v > 1; --v)
    if (ok(v)) return v;
  return 1;
}

void noteChange(std::string& adjusted, const char* what, int64_t from, int64_t to) {
  if (from == to) return;
  if (!adjusted.empty()) adjusted += ", ";
  adjusted += std::string(what) + " " + std::to_string(from) + " -> " + std::to_string(to);
}

}  // namespace

std::vector<PublishedRecipe> parsePublishedRecipes(const std::string& text, const std::string& source) {
  const json doc = parseJsonText(text, source);
  if (jsonString(doc, "format") != "graphplace-recipes") throw Error(source, "not a recipes file (\"format\": \"graphplace-recipes\")");
  if (!doc.contains("recipes") || !doc["recipes"].is_array()) throw Error(source, "\"recipes\" must be an array");
  std::vector<PublishedRecipe> out;
  for (const json& r : doc["recipes"]) {
    const std::string where = "recipe " + std::to_string(out.size());
    if (!r.is_object()) throw Error(source, where + " must be an object");
    PublishedRecipe p;
    p.name = jsonString(r, "name");
    p.source = jsonString(r, "source");
    p.gpu = jsonString(r, "gpu");
    if (p.name.empty() || p.source.empty() || p.gpu.empty())
      throw Error(source, where + ": \"name\", \"source\" and \"gpu\" must be non-empty strings");
    const std::string at = "recipe '" + p.name + "'";
    p.gpus = static_cast<int>(integerField(r, "gpus", 1, 1 << 20, source, at));
    p.layers = static_cast<int>(integerField(r, "layers", 1, 1 << 20, source, at));
    p.hidden = integerField(r, "hidden", 1, int64_t{1} << 30, source, at);
    p.seqLen = integerField(r, "seq_len", 1, int64_t{1} << 30, source, at);
    p.globalBatch = integerField(r, "global_batch", 1, kMaxGlobalBatch, source, at);
    p.microBatch = integerField(r, "micro_batch", 1, kMaxGlobalBatch, source, at);
    if (!r.contains("parameters") || !r["parameters"].is_number() || !(r["parameters"].get<double>() >= 1))
      throw Error(source, at + ": \"parameters\" must be a positive number");
    p.parameters = r["parameters"].get<double>();
    if (!r.contains("plan") || !r["plan"].is_object()) throw Error(source, at + ": \"plan\" must be an object");
    json plan = r["plan"];
    if (plan.contains("recompute")) {
      if (!plan["recompute"].is_string()) throw Error(source, at + ": \"recompute\" must be \"none\", \"selective\" or \"full\"");
      p.recompute = parseRecompute(plan["recompute"].get<std::string>(), source + ": " + at);
      plan.erase("recompute");
    }
    readPlanKnobs(plan, p.plan, source + ": " + at);
    out.push_back(std::move(p));
  }
  if (out.empty()) throw Error(source, "holds no recipes");
  return out;
}

const std::vector<PublishedRecipe>& shippedRecipes() {
  static const std::vector<PublishedRecipe> recipes = [] {
    const std::string path = findResourceFile("recipes", "published_llm_plans.json");
    if (path.empty()) throw Error("recipes/published_llm_plans.json", "not found in graphplace's resource folders");
    return parsePublishedRecipes(readFileText(path, "recipes"), path);
  }();
  return recipes;
}

double recipeDistance(const PublishedRecipe& r, double parameters, int gpus, int64_t seqLen, const std::string& deviceKind) {
  const auto logRatio = [](double a, double b) { return a > 0 && b > 0 ? std::abs(std::log(a / b)) : 10.0; };
  return logRatio(parameters, r.parameters) + logRatio(gpus, r.gpus) +
         0.5 * logRatio(static_cast<double>(seqLen), static_cast<double>(r.seqLen)) +
         (deviceKind.find(r.gpu) == std::string::npos ? 0.25 : 0.0);
}

std::optional<ParallelPlan> carryRecipe(const PublishedRecipe& r, const LayerStack& st, const Cluster& c, int64_t globalBatch,
                                        FixedKnobs fixed, std::string& adjusted) {
  adjusted.clear();
  const int n = c.numDevices(), layers = st.numLayers();
  const ParallelPlan& from = r.plan;
  ParallelPlan p;
  p.tp = largestFrom(std::min(from.tp, n), [&](int t) { return n % t == 0 && st.tpDivides(t); });
  p.cp = largestFrom(std::min(from.cp, n / p.tp),
                     [&](int k) { return (n / p.tp) % k == 0 && contextParallelFits(st, k, p.tp); });
  p.pp = largestFrom(std::min({from.pp, n / p.tp / p.cp, layers}), [&](int k) { return (n / p.tp / p.cp) % k == 0; });
  p.dp = n / p.tp / p.cp / p.pp;
  noteChange(adjusted, "tp", from.tp, p.tp);
  noteChange(adjusted, "cp", from.cp, p.cp);
  noteChange(adjusted, "pp", from.pp, p.pp);
  if (globalBatch % p.dp != 0) {
    adjusted = "global batch " + std::to_string(globalBatch) + " does not split over " + std::to_string(p.dp) + " replicas";
    return std::nullopt;
  }
  const int64_t perReplica = globalBatch / p.dp;
  int64_t mbs = std::min<int64_t>(r.microBatch, perReplica);
  while (perReplica % mbs != 0) --mbs;
  noteChange(adjusted, "micro-batch", r.microBatch, mbs);
  p.microbatches = static_cast<int>(perReplica / mbs);
  p.schedule = p.pp > 1 ? from.schedule : PipeSchedule::OneFOneB;
  p.virtualStages = p.pp > 1 && p.microbatches % p.pp == 0 && p.schedule == PipeSchedule::OneFOneB
                        ? largestFrom(from.virtualStages, [&](int v) { return p.pp * v <= layers; })
                        : 1;
  noteChange(adjusted, "virtual stages", from.virtualStages, p.virtualStages);
  p.zero = p.dp * p.cp > 1 ? from.zero : 0;
  p.overlapParamGather = from.overlapParamGather && p.zero > 0;
  p.sequenceParallel = from.sequenceParallel && p.tp > 1 && sequenceParallelFits(st, p.tp);
  p.overlapTpComm = from.overlapTpComm && p.sequenceParallel;
  p.expertParallel = from.expertParallel && st.experts > 0;
  fixed.applyTo(p);
  p.stages = evenStages(layers, p.pp * p.virtualStages, r.recompute);
  if (std::string why = parallelPlanProblem(st, c, globalBatch, p); !why.empty()) {
    adjusted = why;
    return std::nullopt;
  }
  return p;
}

ParallelResult recipePlan(const StageCostModel& model, int64_t globalBatch, const std::vector<PublishedRecipe>& recipes,
                          FixedKnobs fixed) {
  const auto t0 = std::chrono::steady_clock::now();
  const LayerStack& st = model.stack();
  const Cluster& c = model.cluster();
  ParallelResult res;
  res.method = "recipe";
  std::vector<size_t> order(recipes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const double params = static_cast<double>(st.totalParams());
  const std::string kind = c.numDevices() > 0 ? c.device(0).kind : "";
  std::vector<double> distance(recipes.size());
  for (size_t i = 0; i < recipes.size(); ++i)
    distance[i] = recipeDistance(recipes[i], params, c.numDevices(), st.seqLen, kind);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return distance[a] < distance[b]; });
  std::string firstWhy;
  for (size_t i : order) {
    const PublishedRecipe& r = recipes[i];
    std::string adjusted;
    std::optional<ParallelPlan> plan = carryRecipe(r, st, c, globalBatch, fixed, adjusted);
    if (!plan) {
      if (firstWhy.empty()) firstWhy = r.name + ": " + adjusted;
      continue;
    }
    // As published, then with more recomputation where it does not fit.
    for (Recompute more : {r.recompute, Recompute::Selective, Recompute::Full}) {
      if (more < r.recompute) continue;
      for (PipeStage& s : plan->stages) s.recompute = more;
      ParallelMeasurement m = simulateParallel(model, globalBatch, *plan, {false, false});
      ++res.evaluated;
      if (!m.feasible) {
        if (!res.found) res.plan = *plan, res.measurement = std::move(m), res.found = true;
        continue;
      }
      res.plan = std::move(*plan), res.measurement = std::move(m), res.found = true;
      res.note = "the closest published plan: " + r.name + " (" + r.source + ")";
      if (!adjusted.empty()) res.note += "; carried over with " + adjusted;
      if (more != r.recompute) res.note += std::string("; recomputation ") + std::string(recomputeName(more)) + " to fit";
      res.searchSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return res;
    }
  }
  res.note = res.found ? "no published plan carried over fits: " + res.measurement.problem
                       : "no published plan carries over (" + firstWhy + ")";
  res.searchSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace gp

#include "cli/cli_costmodel.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

#include "base/error.h"
#include "base/file_text.h"
#include "cli/cli_args.h"
#include "cli/cli_json.h"
#include "cli/cli_model_options.h"
#include "cli/cli_optimize_options.h"
#include "costmodel/analytic_baseline.h"
#include "costmodel/cost_eval.h"
#include "costmodel/dataset_maker.h"
#include "costmodel/kernel_sum.h"
#include "costmodel/tpugraphs.h"
#include "io/model_loader.h"
#include "optimize/cost_plugin.h"
#include "optimize/cpu_step_check.h"

namespace gp::cli {
namespace {

using nlohmann::ordered_json;

// The shipped models (resources/costmodels): trained on this project's CPU measurements of the
// zoo's training families (docs/performance.md, "Learned cost model").
constexpr const char* kShippedKernelModel = "cpu_kernel.pt";
constexpr const char* kShippedPlanModel = "cpu_plan.pt";
constexpr const char* kShippedRoofline = "cpu_roofline.json";

struct LoadedModels {
  std::vector<std::unique_ptr<Graph>> graphs;
  std::vector<DatasetModel> models;
};

LoadedModels loadModels(const std::vector<std::string>& specs, const Args& a) {
  LoadOptions lo = loadOptionsFrom(a);
  if (!a.value("--mode")) lo.mode = GraphMode::Inference;
  LoadedModels out;
  for (const std::string& spec : specs) {
    out.graphs.push_back(std::make_unique<Graph>(loadModel(spec, lo)));
    std::string name = spec.rfind("zoo:", 0) == 0 ? spec.substr(4) : spec;
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos) name = name.substr(slash + 1);
    out.models.push_back({name, modelFamily(spec), out.graphs.back().get()});
  }
  return out;
}

DatasetMakeOptions makeOptions(const Args& a) {
  DatasetMakeOptions o;
  o.repeats = a.intValue("--repeats", o.repeats);
  o.planConfigs = a.countValue("--plan-configs", o.planConfigs);
  o.maxKernelsPerModel = a.countValue("--max-kernels", o.maxKernelsPerModel);
  o.seed = a.seed("--seed");
  return o;
}

void progressLine(const DatasetMakeReport& r) {
  std::fprintf(stderr, "\r%-40s %-7s %lld/%lld   ", r.model.c_str(), r.stage.c_str(), static_cast<long long>(r.done),
               static_cast<long long>(r.total));
  if (r.done == r.total) std::fprintf(stderr, "\n");
}

int datasetMake(const Args& a, std::ostream& out) {
  if (a.positional.size() < 2) throw std::invalid_argument("dataset make needs at least one MODEL");
  const auto kernelsOut = a.value("--kernels"), plansOut = a.value("--plans");
  if (!kernelsOut && !plansOut) throw std::invalid_argument("dataset make needs --kernels FILE and/or --plans FILE");
  const LoadedModels lm = loadModels({a.positional.begin() + 1, a.positional.end()}, a);
  DatasetMakeOptions o = makeOptions(a);
  o.kernels = kernelsOut.has_value();
  o.plans = plansOut.has_value();
  auto source = cpuMeasurementSource();
  const MadeDatasets d = makeCostDatasets(lm.models, *source, o, a.has("--quiet") ? DatasetProgressFn{} : progressLine);
  if (kernelsOut) d.kernels.save(*kernelsOut);
  if (plansOut) d.plans.save(*plansOut);
  out << "device " << source->deviceKind() << ": " << d.kernels.graphs.size() << " kernels, " << d.plans.graphs.size()
      << " plan graphs\n";
  return 0;
}

CostTrainOptions trainOptions(const Args& a) {
  CostTrainOptions o;
  o.epochs = static_cast<int>(a.integer("--epochs"));
  o.budgetSeconds = a.number("--budget-seconds");
  o.hidden = static_cast<int>(a.integer("--hidden"));
  o.layers = static_cast<int>(a.integer("--layers"));
  o.segmentNodes = a.integer("--segment-nodes");
  o.segmentsPerStep = static_cast<int>(a.integer("--segments-per-step"));
  o.keep = a.number("--keep");
  if (o.keep <= 0 || o.keep > 1) throw std::invalid_argument("--keep must be in (0, 1]");
  o.seed = a.seed("--seed");
  if (auto l = a.value("--loss")) {
    if (*l == "listmle") o.loss = RankingLoss::ListMle;
    else if (*l == "hinge") o.loss = RankingLoss::Hinge;
    else if (*l == "mse") o.loss = RankingLoss::None;
    else throw std::invalid_argument("--loss must be listmle, hinge or mse; got '" + *l + "'");
  }
  return o;
}

// The dataset's graphs to train and to test on: --hold-out FAMILIES goes to test.
void splitArgs(const CostDataset& all, const Args& a, CostDataset& train, CostDataset& test) {
  const auto held = a.value("--hold-out") ? splitList(*a.value("--hold-out")) : std::vector<std::string>{};
  splitByFamily(all, held, train, test);
  if (!held.empty() && test.graphs.empty()) throw std::invalid_argument("--hold-out names no family of the dataset");
}

// TpuGraphs mode: --tpugraphs DIR (a collection folder such as npz/layout/xla/random, holding
// train/ and valid/) with --task tile|layout; its collection name from the path after "npz".
CostDataset tpuGraphsSplit(const Args& a, const char* split, int64_t maxConfigs) {
  namespace fs = std::filesystem;
  const std::string dir = *a.value("--tpugraphs");
  const std::string task = a.value("--task").value_or("");
  if (task != "tile" && task != "layout") throw std::invalid_argument("--tpugraphs needs --task tile or --task layout");
  std::string collection = "tpugraphs";
  bool after = false;
  for (const auto& part : fs::path(dir).lexically_normal()) {
    if (after && !part.empty()) collection += ":" + part.string();
    after = after || part == "npz";
  }
  if (collection == "tpugraphs") collection += ":" + task;
  std::error_code ec;
  const fs::path folder = fs::is_directory(fs::path(dir) / split, ec) ? fs::path(dir) / split : fs::path(dir);
  return loadTpuGraphsSplit(folder.string(), task == "tile" ? CostTask::Kernel : CostTask::Plan, collection, maxConfigs);
}

// The DATASET argument, or TpuGraphs' `split` in TpuGraphs mode.
CostDataset dataArg(const Args& a, const char* split, int64_t maxConfigs = 0) {
  if (a.value("--tpugraphs")) {
    if (a.positional.size() != 1) throw std::invalid_argument("give either a DATASET or --tpugraphs DIR");
    return tpuGraphsSplit(a, split, maxConfigs);
  }
  if (a.positional.size() != 2) throw std::invalid_argument("costmodel " + a.positional[0] + " needs one DATASET");
  return CostDataset::load(a.positional[1]);
}

int costTrain(const Args& a, std::ostream& out) {
  const auto outPath = a.value("--out");
  if (!outPath) throw std::invalid_argument("costmodel train needs --out MODEL.pt");
  CostDataset train, test;
  // TpuGraphs' layout training keeps 1,000 configurations per graph too
  splitArgs(dataArg(a, "train", a.value("--tpugraphs") ? a.countValue("--configs-per-graph", 1000) : 0), a, train, test);
  if (train.graphs.empty()) throw Error("costmodel", "no graph left to train on");
  const CostTrainResult r = trainCostModelFile(train, trainOptions(a), *outPath, [&](const CostTrainReport& e) {
    if (!a.has("--quiet")) std::fprintf(stderr, "epoch %d loss %.4f (%.0f s)\n", e.epoch, e.loss, e.seconds);
  });
  if (a.has("--roofline-out")) {
    if (train.task != CostTask::Kernel) throw std::invalid_argument("--roofline-out fits on kernel-task data");
    writeTextFileAtomically(*a.value("--roofline-out"), AnalyticCostModel::fit(train).toJson());
  }
  if (a.has("--json")) {
    out << ordered_json{{"graphs", train.graphs.size()}, {"epochs", r.epochs}, {"steps", r.steps},
                        {"seconds", r.seconds}, {"seconds_per_step", r.secondsPerStep}, {"final_loss", r.finalLoss}}
               .dump(2)
        << "\n";
  } else {
    out << "trained on " << train.graphs.size() << " graphs: " << r.epochs << " epochs, " << r.steps << " steps in "
        << r.seconds << " s, loss " << r.finalLoss << " -> " << *outPath << "\n";
  }
  return 0;
}

ordered_json scoresJson(const RankingScores& s) {
  return {{"kendall_tau", s.kendallTau}, {"opa", s.opa},   {"top1_slowdown", s.top1},
          {"top5_slowdown", s.top5},     {"top10_slowdown", s.top10}, {"global_kendall_tau", s.globalTau}};
}

std::vector<std::vector<double>> analyticPredictions(const AnalyticCostModel& m, const CostDataset& d) {
  std::vector<std::vector<double>> p;
  for (const CostGraph& g : d.graphs) p.push_back(m.predict(g, d.task, d.configWidth));
  return p;
}

// The kernel-sum predictor's time for each candidate plan: the kernel model's predictions for
// the plans' calls, summed per plan.
std::vector<double> kernelSumPredictions(const std::string& kernelModel, const Graph& g, const PlanCandidates& pc) {
  const CallQueries q = callQueries(g, pc.runs, pc.callOps, pc.data.deviceKind);
  return sumPerRun(q, predictCostsWith(kernelModel, q.data));
}

// Scores of the learned model and (where the data has analytic fields) the roofline +
// calibration model on `test`.
ordered_json compare(const std::string& modelPath, const AnalyticCostModel* roofline, const CostDataset& test) {
  const RankingScores learned = scoreRanking(test, predictCostsWith(modelPath, test));
  ordered_json j{{"task", costTaskName(test.task)}, {"n", learned.graphs}, {"samples", learned.samples},
                 {"learned", scoresJson(learned)}};
  if (roofline) j["roofline"] = scoresJson(scoreRanking(test, analyticPredictions(*roofline, test)));
  return j;
}

void printComparison(const ordered_json& j, std::ostream& out) {
  out << j["collection"].get<std::string>() << ", " << j["task"].get<std::string>() << " task, " << j["n"] << " graphs, "
      << j["samples"] << " samples\n";
  char line[200];
  std::snprintf(line, sizeof line, "  %-10s %8s %8s %8s %8s %8s %8s\n", "model", "tau", "opa", "top1", "top5", "top10",
                "glob.tau");
  out << line;
  for (const char* name : {"learned", "roofline"}) {
    if (!j.contains(name)) continue;
    const auto& s = j[name];
    std::snprintf(line, sizeof line, "  %-10s %8.3f %8.3f %7.1f%% %7.1f%% %7.1f%% %8.3f\n", name,
                  s["kendall_tau"].get<double>(), s["opa"].get<double>(), 100 * s["top1_slowdown"].get<double>(),
                  100 * s["top5_slowdown"].get<double>(), 100 * s["top10_slowdown"].get<double>(),
                  s["global_kendall_tau"].get<double>());
    out << line;
  }
}

int costEvalDataset(const Args& a, std::ostream& out) {
  const auto model = a.value("--model");
  if (!model) throw std::invalid_argument("costmodel eval DATASET needs --model MODEL.pt");
  // TpuGraphs' protocol: its validation split, 1,000 configurations per graph
  const bool tpu = a.value("--tpugraphs").has_value();
  const int64_t keep = a.countValue("--configs-per-graph", tpu ? 1000 : 0);
  const CostDataset all = dataArg(a, "valid", keep);
  CostDataset train, test;
  splitArgs(all, a, train, test);
  if (!a.value("--hold-out")) test = all;
  test = subsampleConfigs(test, keep);
  // the roofline + calibration model, fitted on kernel-task training data
  std::unique_ptr<AnalyticCostModel> roofline;
  if (auto fit = a.value("--fit")) {
    CostDataset fitTrain, fitTest;
    splitArgs(CostDataset::load(*fit), a, fitTrain, fitTest);
    roofline = std::make_unique<AnalyticCostModel>(AnalyticCostModel::fit(fitTrain));
  } else if (all.task == CostTask::Kernel && !train.graphs.empty() && !train.graphs[0].nodeFlops.empty()) {
    roofline = std::make_unique<AnalyticCostModel>(AnalyticCostModel::fit(train));
  }
  ordered_json j = compare(*model, roofline.get(), test);
  j["collection"] = test.collection;
  if (a.has("--json")) out << j.dump(2) << "\n";
  else printComparison(j, out);
  return 0;
}

std::string shipped(const char* name) {
  const std::string path = shippedCostModel(name);
  if (path.empty()) throw Error("costmodel", std::string("the shipped ") + name + " is missing (resources/costmodels)");
  return path;
}

// costmodel eval MODEL --device cpu: measure the model's kernels and some of its plans here,
// predict them with the shipped models and the shipped fitted roofline.
int costEvalModel(const Args& a, std::ostream& out) {
  if (*a.value("--device") != "cpu") throw std::invalid_argument("--device must be cpu (the one measurement source here)");
  const LoadedModels lm = loadModels({a.positional[1]}, a);
  DatasetMakeOptions o = makeOptions(a);
  if (!a.value("--max-kernels")) o.maxKernelsPerModel = 40;
  if (!a.value("--plan-configs")) o.planConfigs = 16;
  if (!a.value("--repeats")) o.repeats = 3;
  // the models first: a missing file is reported before minutes of measuring
  auto given = [&](const char* option, const char* name) {
    const auto v = a.value(option);
    return v ? *v : shipped(name);
  };
  const std::string kernelModel = given("--kernel-model", kShippedKernelModel);
  const std::string planModel = given("--plan-model", kShippedPlanModel);
  const std::string rooflinePath = given("--roofline", kShippedRoofline);
  const AnalyticCostModel roofline = AnalyticCostModel::parse(readFileText(rooflinePath, "a fitted roofline"), rooflinePath);
  for (const std::string& f : {kernelModel, planModel})
    if (std::error_code ec; !std::filesystem::is_regular_file(f, ec)) throw Error(f, "no such cost-model file");
  auto source = cpuMeasurementSource();
  const MadeDatasets d = makeCostDatasets(lm.models, *source, o, a.has("--quiet") ? DatasetProgressFn{} : progressLine);
  ordered_json j;
  const ordered_json k = compare(kernelModel, &roofline, d.kernels);
  j["kernel"] = {{"n", k["n"]},
                 {"samples", k["samples"]},
                 {"kendall_tau", {{"learned", k["learned"]["kendall_tau"]}, {"roofline", k["roofline"]["kendall_tau"]}}},
                 {"opa", {{"learned", k["learned"]["opa"]}, {"roofline", k["roofline"]["opa"]}}},
                 {"global_kendall_tau",
                  {{"learned", k["learned"]["global_kendall_tau"]}, {"roofline", k["roofline"]["global_kendall_tau"]}}}};
  if (d.plans.graphs.empty()) {
    j["plan"] = {{"n", 0}, {"note", "the model has no layout-configurable op"}};
  } else {
    const ordered_json p = compare(planModel, &roofline, d.plans);
    // the same plans again (same seed and count), with their calls, for the kernel-sum predictor
    const PlanCandidates pc = makePlanCandidates(lm.models[0], *source, o.planConfigs, o.seed);
    const ordered_json sum = scoresJson(scoreRanking(d.plans, {kernelSumPredictions(kernelModel, *lm.models[0].graph, pc)}));
    j["plan"] = {{"n", p["samples"]},
                 {"kendall_tau",
                  {{"learned", p["learned"]["kendall_tau"]},
                   {"roofline", p["roofline"]["kendall_tau"]},
                   {"kernel_sum", sum["kendall_tau"]}}},
                 {"top1_slowdown",
                  {{"learned", p["learned"]["top1_slowdown"]},
                   {"roofline", p["roofline"]["top1_slowdown"]},
                   {"kernel_sum", sum["top1_slowdown"]}}}};
  }
  const CpuStepCheck step = checkCpuStep(*lm.models[0].graph, *source, roofline, rooflinePath, kernelModel, o.repeats);
  auto error = [&](double simulated) { return simulated > 0 ? ordered_json(simulated / step.measured - 1) : ordered_json(nullptr); };
  j["step"] = {{"measured_ms", step.measured * 1e3},
               {"simulated_ms",
                {{"learned", step.simulatedLearned > 0 ? ordered_json(step.simulatedLearned * 1e3) : ordered_json(nullptr)},
                 {"roofline", step.simulatedRoofline * 1e3}}},
               {"error", {{"learned", error(step.simulatedLearned)}, {"roofline", error(step.simulatedRoofline)}}},
               {"learned_op_times", step.learnedOpTimes}};
  if (step.learnedOpTimes == 0)
    j["step"]["note"] = "the kernel model was measured on " + step.learnedKind + ", not on this CPU: it predicts nothing here";
  j["device_kind"] = source->deviceKind();
  if (a.has("--json")) {
    out << j.dump(2) << "\n";
  } else {
    out << "kernels (" << j["kernel"]["n"] << "): tau learned " << j["kernel"]["kendall_tau"]["learned"] << ", roofline "
        << j["kernel"]["kendall_tau"]["roofline"] << "\n";
    if (j["plan"]["n"] != 0)
      out << "plans (" << j["plan"]["n"] << "): tau learned " << j["plan"]["kendall_tau"]["learned"] << ", roofline "
          << j["plan"]["kendall_tau"]["roofline"] << "; top-1 slowdown learned " << j["plan"]["top1_slowdown"]["learned"]
          << ", roofline " << j["plan"]["top1_slowdown"]["roofline"] << "; kernel sum: tau "
          << j["plan"]["kendall_tau"]["kernel_sum"] << ", top-1 slowdown " << j["plan"]["top1_slowdown"]["kernel_sum"]
          << "\n";
    char line[200];
    std::snprintf(line, sizeof line, "step (simulated on the cpu cluster vs run here): measured %.3f ms, roofline %.3f ms",
                  step.measured * 1e3, step.simulatedRoofline * 1e3);
    out << line;
    if (step.simulatedLearned > 0) {
      std::snprintf(line, sizeof line, ", learned op times %.3f ms", step.simulatedLearned * 1e3);
      out << line;
    }
    out << "\n";
  }
  return 0;
}

// How far down an order of candidates a search must measure: the best measured runtime among
// the first k, and the first k that comes within 1 % of the best of all.
struct Screened {
  double bestOfK = 0;
  int64_t toWithin1Percent = 0;
};
Screened screen(const std::vector<double>& predicted, const std::vector<double>& measured, int64_t k) {
  std::vector<size_t> order(predicted.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return predicted[x] < predicted[y]; });
  const double best = *std::min_element(measured.begin(), measured.end());
  Screened s{measured[order[0]], 0};
  for (size_t i = 0; i < order.size(); ++i) {
    if (static_cast<int64_t>(i) < k) s.bestOfK = std::min(s.bestOfK, measured[order[i]]);
    if (s.toWithin1Percent == 0 && measured[order[i]] <= 1.01 * best) s.toWithin1Percent = static_cast<int64_t>(i) + 1;
  }
  return s;
}

// costmodel screen MODEL --device cpu: a search over the model's plans that measures only the
// K the cost model predicts fastest, against measuring every candidate.
int costScreen(const Args& a, std::ostream& out) {
  if (a.value("--device").value_or("cpu") != "cpu") throw std::invalid_argument("--device must be cpu (the one measurement source here)");
  if (a.positional.size() != 2) throw std::invalid_argument("costmodel screen needs one MODEL");
  const int candidates = static_cast<int>(a.integer("--candidates"));
  const int k = static_cast<int>(a.integer("--screen"));
  if (candidates < 3) throw std::invalid_argument("--candidates must be at least 3");
  const std::string planModel = a.value("--plan-model") ? *a.value("--plan-model") : shipped(kShippedPlanModel);
  const std::string kernelModel = a.value("--kernel-model") ? *a.value("--kernel-model") : shipped(kShippedKernelModel);
  const std::string rooflinePath = a.value("--roofline") ? *a.value("--roofline") : shipped(kShippedRoofline);
  const AnalyticCostModel roofline = AnalyticCostModel::parse(readFileText(rooflinePath, "a fitted roofline"), rooflinePath);
  for (const std::string& f : {planModel, kernelModel})
    if (std::error_code ec; !std::filesystem::is_regular_file(f, ec)) throw Error(f, "no such cost-model file");
  const LoadedModels lm = loadModels({a.positional[1]}, a);
  auto source = cpuMeasurementSource();
  PlanCandidates pc = makePlanCandidates(lm.models[0], *source, candidates - 2, a.seed("--seed"));
  const std::vector<double> learned = predictCostsWith(planModel, pc.data)[0];
  const std::vector<double> analytic = roofline.predict(pc.data.graphs[0], CostTask::Plan, pc.data.configWidth);
  const std::vector<double> kernelSum = kernelSumPredictions(kernelModel, *lm.models[0].graph, pc);
  // the search without a model: the candidates in an order drawn from the seed
  const std::vector<double> randomOrder = [&] {
    std::vector<double> draws(pc.runs.size());
    std::mt19937_64 rng(a.seed("--seed") + 1);
    for (double& v : draws) v = std::uniform_real_distribution<double>(0, 1)(rng);
    return draws;
  }();
  // every candidate measured: the reference an exhaustive search would find
  std::vector<double> measured;
  for (const RunTiming& t : source->time(pc.runs, a.intValue("--repeats", 3))) measured.push_back(t.seconds);
  const double best = *std::min_element(measured.begin(), measured.end());
  ordered_json j{{"model", a.positional[1]}, {"candidates", measured.size()}, {"screen", k},
                 {"best_seconds", best}, {"canonical_seconds", measured[0]}};
  for (const auto& [name, predicted] : {std::pair{"learned", &learned}, std::pair{"kernel_sum", &kernelSum},
                                        std::pair{"roofline", &analytic}, std::pair{"random", &randomOrder}}) {
    const Screened s = screen(*predicted, measured, k);
    j[name] = {{"evaluations", std::min<int64_t>(k, static_cast<int64_t>(measured.size()))},
               {"best_seconds", s.bestOfK},
               {"slowdown", s.bestOfK / best - 1},
               {"evaluations_to_within_1pct", s.toWithin1Percent}};
  }
  if (a.has("--json")) {
    out << j.dump(2) << "\n";
  } else {
    out << j["candidates"] << " candidate plans, best " << best * 1e3 << " ms (all canonical " << measured[0] * 1e3 << " ms)\n";
    for (const char* name : {"learned", "kernel_sum", "roofline", "random"})
      out << "  " << name << ": top " << k << " measured, best " << j[name]["best_seconds"].get<double>() * 1e3
          << " ms (" << 100 * j[name]["slowdown"].get<double>() << " % slower); within 1 % of the best after "
          << j[name]["evaluations_to_within_1pct"] << " evaluations\n";
  }
  return 0;
}

int costPredict(const Args& a, std::ostream& out) {
  const auto model = a.value("--model");
  if (!model) throw std::invalid_argument("costmodel predict needs --model MODEL.pt");
  const CostDataset d = dataArg(a, "valid");
  const auto p = predictCostsWith(*model, d);
  ordered_json j = ordered_json::array();
  for (size_t i = 0; i < d.graphs.size(); ++i)
    j.push_back({{"graph", d.graphs[i].name}, {"predicted_seconds", p[i]}, {"measured_seconds", d.graphs[i].runtime}});
  out << j.dump(a.has("--json") ? 2 : -1) << "\n";
  return 0;
}

int datasetMerge(const Args& a, std::ostream& out) {
  const auto outPath = a.value("--out");
  if (!outPath || a.positional.size() < 3) throw std::invalid_argument("usage: dataset merge FILE FILE... --out FILE");
  std::vector<CostDataset> parts;
  const std::vector<std::string> sources(a.positional.begin() + 1, a.positional.end());
  for (const std::string& f : sources) parts.push_back(CostDataset::load(f));
  const CostDataset merged = mergeDatasets(parts, sources);
  merged.save(*outPath);
  out << merged.graphs.size() << " graphs, " << merged.opcodes.size() << " opcodes -> " << *outPath << "\n";
  return 0;
}

}  // namespace

int runDataset(const std::vector<std::string>& args, std::ostream& out) {
  const Args a = parseArgs(args, "dataset");
  if (!a.positional.empty() && a.positional[0] == "make") return datasetMake(a, out);
  if (!a.positional.empty() && a.positional[0] == "merge") return datasetMerge(a, out);
  throw std::invalid_argument("usage: dataset make MODEL... --kernels FILE --plans FILE | dataset merge FILE... --out FILE");
}

int runCostModel(const std::vector<std::string>& args, std::ostream& out) {
  const Args a = parseArgs(args, "costmodel");
  const std::string verb = a.positional.empty() ? "" : a.positional[0];
  if (verb == "train") return costTrain(a, out);
  if (verb == "predict") return costPredict(a, out);
  if (verb == "screen") return costScreen(a, out);
  if (verb == "eval") {
    if (a.value("--device")) {
      if (a.positional.size() != 2) throw std::invalid_argument("costmodel eval --device needs one MODEL");
      return costEvalModel(a, out);
    }
    return costEvalDataset(a, out);
  }
  throw std::invalid_argument("usage: costmodel train|eval|predict|screen ... (try --help)");
}

}  // namespace gp::cli

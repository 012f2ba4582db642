#include "cli/cli_option_tables.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "costmodel/dataset_maker.h"
#include "costmodel/learned_cost.h"
#include "optimize/optimize.h"
#include "optimize/parallel_dqn.h"
#include "launch/launch_formats.h"
#include "parallel/parallel_search.h"
#include "parallel/plan_knobs.h"
#include "profile/gpu_measure.h"
#include "session/parallel_methods.h"

namespace gp::cli {
namespace {

using T = OptionType;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

OptionSpec declare(std::string name, OptionType type, std::string value, std::string help, std::string fallback = "") {
  OptionSpec o;
  o.name = std::move(name);
  o.type = type;
  o.value = std::move(value);
  o.help = std::move(help);
  o.fallback = std::move(fallback);
  return o;
}
OptionSpec flag(std::string name, std::string help) { return declare(std::move(name), T::Switch, "", std::move(help)); }
OptionSpec text(std::string name, std::string value, std::string help, std::string fallback = "") {
  return declare(std::move(name), T::Text, std::move(value), std::move(help), std::move(fallback));
}
// A whole number min .. max (a positive integer by default).
OptionSpec whole(std::string name, std::string value, std::string help, std::string fallback = "", double min = 1,
                 double max = 1e6) {
  OptionSpec o = declare(std::move(name), T::Count, std::move(value), std::move(help), std::move(fallback));
  o.min = min;
  o.max = max;
  return o;
}
OptionSpec number(std::string name, std::string value, std::string help, std::string fallback = "", double min = 0,
                  double max = 1e9, bool aboveMin = false) {
  OptionSpec o = declare(std::move(name), T::Number, std::move(value), std::move(help), std::move(fallback));
  o.min = min;
  o.max = max;
  o.aboveMin = aboveMin;
  return o;
}
OptionSpec seconds(std::string name, std::string help, std::string fallback, double max) {
  return number(std::move(name), "S", std::move(help), std::move(fallback), 0, max, /*aboveMin=*/true);
}
OptionSpec seed(std::string name, std::string help, std::string fallback = "1") {
  return declare(std::move(name), T::Seed, "N", std::move(help), std::move(fallback));
}
OptionSpec choice(std::string name, std::vector<std::string> choices, std::string help, std::string fallback = "") {
  OptionSpec o = declare(std::move(name), T::Choice, "", std::move(help), std::move(fallback));
  o.choices = std::move(choices);
  return o;
}

const OptionSpec kJson = flag("--json", "print one JSON line");

std::string joined(const std::vector<std::string>& names, const char* between) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : between) + n;
  return out;
}

// A plan knob (parallel/plan_knobs.h) as the option that sets it for searched plans: its choices
// are the knob's (the reader checks them, naming the knob's forms).
OptionSpec knobOption(const std::string& key, std::string help) {
  std::string name = "--" + key;
  std::replace(name.begin(), name.end(), '_', '-');
  for (const PlanKnob& k : planKnobs())
    if (k.key == key) {
      if (k.kind == KnobKind::Flag) return flag(name, std::move(help));
      std::vector<std::string> forms(k.choices.begin(), k.choices.end());
      return text(name, joined(forms, "|"), std::move(help));
    }
  throw std::logic_error("no plan knob " + key);
}

// What every command that takes a MODEL accepts.
std::vector<OptionSpec> modelGroup() {
  OptionSpec dim = text("--dim", "NAME=VALUE", "binds a symbolic input dimension of an ONNX model (default 1); repeats");
  dim.repeats = true;
  std::vector<OptionSpec> group = {
      // --mode and --precision are checked where they are read, with the names of their forms.
      text("--mode", "inference|training", "the graph of one inference or one training step"),
      text("--input-shape", "1x3x224x224", "the input's shape, for a model whose file does not say it"),
      whole("--batch", "N", "the zoo model's batch (samples the graph holds)"),
      whole("--seq-len", "N", "the zoo model's sequence length"),
      whole("--layers", "N", "resize a zoo model's depth (zoo list gives each model's range)"),
      whole("--hidden", "N", "resize a zoo model's width"),
      seed("--graph-seed", "the graph of zoo:random_dag", ""),
      dim,
      text("--precision", "fp32|tf32|fp16|bf16|fp8", "the arithmetic the model runs in"),
  };
  for (OptionSpec& o : group) o.group = "model options";
  return group;
}

std::vector<OptionSpec> without(std::vector<OptionSpec> group, const std::string& name) {
  group.erase(std::remove_if(group.begin(), group.end(), [&](const OptionSpec& o) { return o.name == name; }), group.end());
  return group;
}

OptionSpec cluster(const char* help = "the cluster: a preset, N servers of one, a file, random:SEED[:DEVICES] or cpu") {
  return text("--cluster", "PRESET|FILE", help);
}

std::vector<OptionSpec> costsGroup() {
  return {text("--calibration", "TABLE.json", "measured op times (profile) in place of the roofline's"),
          text("--costs", "learned:FILE", "a learned kernel-cost model for the op times the table lacks (or roofline)")};
}

std::vector<OptionSpec> placementFileGroup() {
  return {text("--placement", "FILE", "the placement to use (default: every op on device 0)"),
          flag("--ignore-hash", "use a --placement file written for another version of the graph"),
          choice("--fuse", {"default", "none", "plan"},
                 "default: the compilers' elementwise chains; none; plan: the file's own groups", "plan")};
}

// What optimize, pretrain and bench --optimize share, with the core's defaults.
std::vector<OptionSpec> optimizeGroup() {
  const OptimizeOptions o;
  return {
      text("--policy", "search|pretrained|scratch|colocrl|FILE",
           "the policy whose samples the search starts from, and whether it learns", "search"),
      whole("--iterations", "N", "search iterations; 0: the start plan and the policy as they are (default " +
                                     std::to_string(o.iterations) + ", or as many as fit --budget-seconds)",
            "", 0, 2147483647.0),
      number("--budget-seconds", "S", "stop after this wall time (0: none)", "0"),
      seed("--seed", "the same seed gives the same plan", std::to_string(o.seed)),
      whole("--samples", "K", "plans sampled per iteration", std::to_string(o.samplesPerIteration)),
      whole("--threads", "N", "simulation threads (default: one per core)"),
      text("--tasks", "placement,schedule,fusion", "what to optimize (default placement,schedule)"),
      choice("--fuse", {"default", "none", "plan"}, "the fusion when fusion is not a task; plan: the start plan's groups",
             "none"),
      text("--save-policy", "FILE.pt", "write the policy after the run"),
      whole("--patience", "N", "stop when the best step has not improved for N iterations"),
      text("--checkpoint", "FILE", "write the session (policy, optimizer, best plan) as it goes"),
      whole("--checkpoint-every", "N", "iterations between checkpoints", std::to_string(o.checkpointEvery)),
      text("--resume", "FILE", "continue a checkpointed session"),
      flag("--no-update", "sample the policy without learning"),
      number("--polish-share", "F", "the budget's last share spent polishing the best plan with the suggestions' moves",
             num(o.polishShare), 0, 1),
      whole("--polish-moves", "N", "the most polishing moves", std::to_string(o.polishMoves)),
      whole("--polish-keep", "K", "candidates simulated at a time while polishing (0: all; default 48)", "", 0),
      text("--move-ranker", "RANKER.json|none", "the ranker of polishing's candidates (default the shipped one)"),
  };
}

std::vector<OptionSpec> distributedGroup() {
  return {flag("--distributed", "one rank of several: the launcher's RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT"),
          number("--dist-timeout", "S", "the most a collective waits for a peer", num(OptimizeOptions{}.distTimeoutSeconds)),
          text("--events", "RUN.jsonl", "the run's event log, for the app's File > Attach to Run")};
}

std::vector<CommandSpec> makeSpecs() {
  const std::vector<OptionSpec> model = modelGroup();
  const OptionSpec out = text("--out", "PLACEMENT.json", "write the plan");
  const OptionSpec trace = text("--trace", "OUT.json", "the step as a Chrome / Perfetto trace");
  std::vector<CommandSpec> s;
  s.push_back({"info", {"MODEL [model options]"}, "The model's ops, FLOPs, parameters and op types.",
               joinOptions({model, {kJson}})});
  s.push_back({"zoo",
               {"list [--json]", "export NAME --out FILE.json [model options]"},
               "The zoo's models with the ranges of --layers and --hidden; one of them as our JSON.",
               joinOptions({model, {text("--out", "FILE.json", "where export writes the model"), kJson}})});
  s.push_back({"evaluate", {"MODEL --cluster PRESET|FILE [options]"}, "Simulates one step of a placement.",
               joinOptions({model, {cluster()}, placementFileGroup(), costsGroup(),
                            {whole("--repeat", "N", "simulate N times (timing)", "1"), trace, out,
                             text("--torch-program", "OUT.py", "a PyTorch model's placement as a torch.fx program"),
                             kJson}})});
  s.push_back({"explain",
               {"MODEL --cluster PRESET|FILE [options]"},
               "The critical path, its breakdown, slack, and the moves that shorten the step.",
               joinOptions({model, {cluster()}, placementFileGroup(), costsGroup(),
                            {whole("--top", "N", "suggestions listed", "10"),
                             whole("--follow", "N", "apply the top suggestion up to N times first", "0"),
                             text("--out", "PLACEMENT.json", "write the plan after --follow"),
                             text("--report", "REPORT.html", "the plan report: one self-contained HTML page"), kJson}})});
  s.push_back({"baseline",
               {"MODEL --cluster PRESET|FILE [options]"},
               "The baseline placers (METIS, Baechi's m-TOPO / m-ETF / m-SCT, HEFT, ...) on the model.",
               joinOptions({model, {cluster(), text("--method", "NAME|all", "one placer or all", "all")}, costsGroup(),
                            {out, kJson}})});
  s.push_back({"optimize",
               {"MODEL --cluster PRESET|FILE [options]"},
               "Searches placements, schedules and fusions from the best baseline's plan.",
               joinOptions({model, {cluster()}, optimizeGroup(), costsGroup(),
                            {text("--start", "baseline|none|METHOD|PLACEMENT.json", "where the search starts", "baseline"),
                             out, trace, kJson},
                            distributedGroup()})});
  {
    const PretrainOptions p;
    std::vector<OptionSpec> own = {
        text("--corpus", "CORPUS.json", "the training and held-out graphs and clusters"),
        text("--models", "zoo:a,zoo:b|FILES", "the training models (without --corpus)"),
        text("--exclude", "zoo:a,...", "models left out"), text("--eval", "zoo:a,...", "held-out models, evaluated zero-shot"),
        text("--clusters", "A,B", "the clusters trained on"),
        whole("--rounds", "N", "rounds over the tasks (default " + std::to_string(p.rounds) + ", or as many as fit)"),
        choice("--method", {"expert", "ppo"}, "imitation of the search's best plans, or PPO", "expert"),
        whole("--fit-epochs", "N", "imitation epochs per round", std::to_string(p.fitEpochs)),
        whole("--eval-every", "N", "rounds between zero-shot evaluations", std::to_string(p.evalEvery)),
        text("--from", "FILE.pt", "start from this policy"), text("--resume", "SESSION", "continue a pre-training session"),
        text("--checkpoint", "SESSION", "write the session as it goes"),
        choice("--start", {"none", "baseline"}, "each task's start plan", "baseline"),
        choice("--fuse", {"none", "default"}, "the fusion when fusion is not a task", "none"),
        flag("--keep-prior", "a new policy starts from the current plan's devices"),
        flag("--relative-devices", "a new policy reads devices only through features"),
        choice("--fit-loss", {"balanced", "mean"}, "the imitation loss", "balanced"),
        text("--out", "FILE.pt", "the pre-trained policy"),
        seed("--seed", "the same seed gives the same policy", std::to_string(p.seed)),
        whole("--samples", "K", "plans sampled per iteration", std::to_string(p.samplesPerIteration)), kJson};
    std::vector<OptionSpec> shared;
    for (const OptionSpec& o : optimizeGroup())
      if (o.name == "--budget-seconds" || o.name == "--seed" || o.name == "--samples" || o.name == "--threads" ||
          o.name == "--tasks")
        shared.push_back(o);
    s.push_back({"pretrain",
                 {"(--corpus CORPUS.json | [--models ...] [--exclude ...] [--eval ...] [--clusters ...]) --out FILE.pt "
                  "[options]"},
                 "Pre-trains the placement policy on many graphs and clusters.",
                 joinOptions({model, shared, own, distributedGroup()})});
  }
  s.push_back({"train-moves",
               {"--corpus CORPUS.json --out RANKER.json [options]"},
               "The move ranker: which of the suggestions' candidates polishing simulates; judged on the held-out "
               "families.",
               {text("--corpus", "CORPUS.json", "the training and held-out graphs"),
                text("--out", "RANKER.json", "the fitted ranker"), whole("--rounds", "N", "polishing rounds per task", "6"),
                whole("--keep", "K", "candidates simulated per round", "48"),
                number("--lambda", "L", "the ridge penalty", "0.001"), whole("--threads", "N", "simulation threads", "2"),
                whole("--eval-moves", "N", "held-out moves judged per task", "10", 0), kJson}});
  s.push_back({"bench",
               {"[--cluster PRESET|FILE] [--models zoo:a,zoo:b|FILES] [options]",
                "--optimize [optimize options]", "--tasks-table [--budget-seconds B]"},
               "The baselines on several models; --optimize: the search beside them; --tasks-table: the search with "
               "each combination of tasks.",
               joinOptions({model,
                            {cluster("the cluster (default 4xP100-PCIe)"),
                             text("--models", "zoo:a,zoo:b|FILES", "the models (default the zoo's benchmark set)"),
                             text("--calibration", "TABLE.json", "measured op times (profile) in place of the roofline's"),
                             flag("--optimize", "the search on each model, beside the best baseline"),
                             flag("--tasks-table", "the search with each combination of tasks (20 s each by default)")},
                            optimizeGroup(), {kJson}})});
  {
    const GpuMeasureOptions g;
    s.push_back({"profile",
                 {"--out CLUSTER.json [options] [--model MODEL [model options]]"},
                 "Profiles this machine's GPUs (rates, links, op times) as a cluster file. --model needs --calibration: "
                 "the model's ops, timed per device kind, are added to it.",
                 joinOptions({model,
                              {text("--out", "CLUSTER.json", "the profiled cluster"),
                               text("--calibration", "TABLE.json", "write measured op times"),
                               text("--report", "REPORT.json", "every measurement"), flag("--quick", "fewer repeats"),
                               text("--name", "NAME", "the cluster's name"), text("--devices", "0,1", "the GPUs to profile"),
                               choice("--timer", {"auto", "cupti", "events"}, "how kernels are timed", "auto"),
                               whole("--max-peer-exponent", "K", "the largest peer copy is 2^K bytes", "", 1, 34),
                               text("--model", "MODEL", "time this model's ops"), kJson}})});
    s.push_back({"measure",
                 {"MODEL --cluster PRESET|FILE [--placement FILE [--ignore-hash] | --method NAME] [options]"},
                 "Runs one step of the plan on the local GPUs: simulated against measured.",
                 joinOptions({model, {cluster()}, placementFileGroup(),
                              {text("--method", "NAME", "a baseline placer's plan"),
                               text("--calibration", "TABLE.json", "measured op times (profile) in place of the roofline's"),
                               whole("--steps", "N", "measured steps", std::to_string(g.steps)),
                               whole("--warmup", "N", "steps before measuring", std::to_string(g.warmupSteps), 0),
                               text("--gpus", "0,1", "the GPU of each cluster device (default device d on GPU d)"),
                               choice("--timer", {"auto", "cupti", "events"}, "how kernels are timed", "auto"), trace,
                               kJson}})});
  }
  s.push_back({"fidelity",
               {"[--corpus DIR|FILE] [options]"},
               "The published measurements of the corpus, simulated: ratios, summary, plan orders.",
               {text("--corpus", "DIR|FILE", "the published measurements (default tests/data/published)"),
                text("--cluster", "PROFILED.json", "a profiled cluster for the rows run on it"),
                text("--calibration", "TABLE.json", "measured op times (profile) in place of the roofline's"),
                seconds("--search-seconds", "each parallel run's plan against the exact search's best, S each", "", 1e5),
                kJson}});
  {
    const DqnOptions d;
    std::vector<std::string> methods;
    for (const ParallelMethodInfo& m : parallelMethodTable()) methods.emplace_back(m.name);
    s.push_back(
        {"parallelize",
         {"MODEL --cluster PRESET|FILE --global-batch B [options]"},
         "Data / tensor / pipeline parallel training plans for a model of repeated layers: samples/s, step time, MFU, "
         "bubble and communication shares, memory per device; the best plan beside the recipe and beside a --plan or "
         "--config file of yours (what changed and where the step's time moved). --batch N: the samples the graph "
         "holds, 1 by default.",
         joinOptions({without(model, "--mode"),  // the forward graph: training is costed per layer
                      {cluster(), whole("--global-batch", "B", "samples per step"),
                       text("--method", "all|METHOD[,METHOD...]", "METHOD: " + joined(methods, ", "), "all"),
                       seconds("--budget-seconds", "the exact search's and the DQN's wall time",
                               num(ParallelSearchOptions{}.budgetSeconds), 1e6),
                       whole("--episodes", "N", "the DQN's most episodes (0: the budget's)", "0", 0),
                       whole("--patience", "N", "the DQN stops after N episodes without a better plan", "1000", 0),
                       text("--policy", "FILE", "the DQN's pre-trained Q-network (default the shipped one)"),
                       flag("--from-scratch", "the DQN without a pre-trained network"),
                       seed("--seed", "the DQN's seed", std::to_string(d.seed)),
                       // checked where it is read, with the reason a file cannot take it
                       text("--attention", "flash|flash2|unfused", "how searched plans run attention"),
                       flag("--fp8", "searched plans multiply in FP8"),
                       text("--plan", "FILE", "your plan file, simulated and compared"),
                       text("--config", "FILE", "your Megatron-LM arguments, NeMo, torchtitan or DeepSpeed file as that plan"),
                       knobOption("framework", "what searched plans train with (memory per parameter, loss, the "
                                               "plans it runs)"),
                       knobOption("optimizer_offload", "the optimizer's state and step in host memory"),
                       knobOption("optimizer_states", "the optimizer's moments"),
                       knobOption("grad_accumulation", "the gradients' accumulation"),
                       text("--out", "PLAN.json|FILE", "write the best plan (with --export: as that launch file)"),
                       text("--export", joined(launchExportFormats(), "|"),
                            "the best plan as a launch configuration (torchtitan-py: with FILE_schedule.csv when it "
                            "pipelines)"),
                       trace, kJson}})});
  }
  {
    const DqnPretrainOptions d;
    s.push_back({"pretrain-parallel",
                 {"--out FILE [options]"},
                 "Pre-trains the parallel-plan DQN on synthetic GPT stacks.",
                 {text("--out", "FILE", "the Q-network"),
                  seconds("--budget-seconds", "wall time", num(d.budgetSeconds), 1e7),
                  whole("--episodes", "N", "the most episodes (0: the budget's)", "0", 0),
                  whole("--tasks", "N", "synthetic GPT stacks", "48", 1, 1024), seed("--seed", "the seed", std::to_string(d.seed)),
                  kJson}});
  }
  {
    const DatasetMakeOptions d;
    s.push_back(
        {"dataset",
         {"make MODEL... [options]   (inference graphs unless --mode training)", "merge FILE FILE... --out FILE"},
         "make: times each distinct kernel and fused group under 8 configurations, and whole models under random "
         "per-node layouts, on this machine's CPU; merge: datasets as one.",
         joinOptions({model,
                      {text("--kernels", "FILE", "the kernel dataset"), text("--plans", "FILE", "the plan dataset"),
                       whole("--repeats", "N", "timings per kernel", std::to_string(d.repeats)),
                       whole("--plan-configs", "N", "random layouts per model", std::to_string(d.planConfigs), 0),
                       whole("--max-kernels", "N", "the most kernels per model (0: all)", "0", 0),
                       seed("--seed", "the seed", std::to_string(d.seed)), text("--out", "FILE", "the merged dataset"),
                       flag("--quiet", "no progress")}})});
  }
  {
    const CostTrainOptions c;
    s.push_back(
        {"costmodel",
         {"train DATASET --out MODEL.pt [options]", "eval DATASET --model MODEL.pt [--hold-out FAMILY,...] [--fit KERNELS.json]",
          "eval MODEL --device cpu [--max-kernels N] [--plan-configs N]", "predict DATASET --model MODEL.pt",
          "screen MODEL --device cpu [--candidates N] [--screen K] [options]"},
         "The learned cost model: train; eval (Kendall's tau, ordered-pair accuracy, top-k slowdown per graph, learned "
         "against the roofline + calibration model; or the shipped models on this machine's measurements); predict; "
         "screen (a plan search that measures only the K candidates predicted fastest, against measuring all N). "
         "TpuGraphs' collections: --tpugraphs DIR --task tile|layout in place of DATASET (train reads DIR/train, eval "
         "and predict DIR/valid).",
         joinOptions({model,
                      {text("--out", "MODEL.pt", "the trained model"),
                       text("--hold-out", "FAMILY,...", "families left out of training"),
                       whole("--epochs", "N", "training epochs", std::to_string(c.epochs)),
                       number("--budget-seconds", "S", "stop after the epoch that passes this wall time (0: none)", "0"),
                       whole("--hidden", "N", "the GNN's width", std::to_string(c.hidden)),
                       whole("--layers", "N", "the GNN's layers", std::to_string(c.layers), 0),
                       choice("--loss", {"listmle", "hinge", "mse"}, "the training loss", "listmle"),
                       whole("--segment-nodes", "N", "Graph Segment Training's segment length (0: whole graphs)", "0", 0),
                       whole("--segments-per-step", "K", "segments per update", std::to_string(c.segmentsPerStep)),
                       number("--keep", "P", "the probability a stale segment's embedding is kept", num(c.keep)),
                       seed("--seed", "the seed", std::to_string(c.seed)),
                       text("--roofline-out", "FIT.json", "the roofline fitted on the training families"),
                       text("--model", "MODEL.pt", "the model to evaluate or predict with"),
                       text("--fit", "KERNELS.json", "the dataset the roofline is fitted on"),
                       whole("--configs-per-graph", "N", "configurations per graph (TpuGraphs: 1,000 by default)", "", 0),
                       text("--device", "cpu", "measure on this machine's CPU"),
                       whole("--repeats", "N", "timings per kernel or candidate"),
                       whole("--plan-configs", "N", "random layouts", "", 0), whole("--max-kernels", "N", "the most kernels", "", 0),
                       text("--kernel-model", "FILE", "the kernel model (default the shipped one)"),
                       text("--plan-model", "FILE", "the plan model (default the shipped one)"),
                       text("--roofline", "FIT.json", "the fitted roofline (default the shipped one)"),
                       text("--tpugraphs", "DIR", "a TpuGraphs collection folder"),
                       text("--task", "tile|layout", "the TpuGraphs task"),
                       whole("--candidates", "N", "screen: the candidate plans", "64"),
                       whole("--screen", "K", "screen: the candidates measured", "8"), flag("--quiet", "no progress"),
                       kJson}})});
  }
  return s;
}

}  // namespace

const std::vector<OptionSpec>& modelOptionSpecs() {
  static const std::vector<OptionSpec> specs = modelGroup();
  return specs;
}

const std::vector<OptionSpec>& optimizeOptionSpecs() {
  static const std::vector<OptionSpec> specs = optimizeGroup();
  return specs;
}

const std::vector<CommandSpec>& commandSpecs() {
  static const std::vector<CommandSpec> specs = makeSpecs();
  return specs;
}

const CommandSpec& commandSpec(const std::string& name) {
  for (const CommandSpec& s : commandSpecs())
    if (s.name == name) return s;
  throw std::logic_error("no option table for command " + name);
}

void printUsage(std::ostream& out) {
  out << "Usage: graphplace-cli COMMAND [ARGUMENTS]\n"
         "Places the operations of an ML model's computation graph on the GPUs of a cluster and simulates\n"
         "a training or inference step; compares baselines, optimizes placements, plans data / tensor / pipeline\n"
         "parallel training, profiles local GPUs.\n"
         "\n"
         "Commands:\n";
  for (const CommandSpec& s : commandSpecs()) out << commandUsage("graphplace-cli", s) << "\n";
  out << "Model options (every command that takes a MODEL):\n" << optionsUsage(modelOptionSpecs(), 2) << "\n";
  out << "--layers N / --hidden N resize a zoo model (depth / width; `zoo list` gives each model's ranges).\n"
         "--calibration TABLE.json: measured op times (graphplace-cli profile) replace the roofline for matching ops.\n"
         "--costs learned:FILE: a learned kernel-cost model (costmodel train) predicts the op times the table lacks,\n"
         "on the device kind it was measured on (e.g. --cluster cpu with resources/costmodels/cpu_kernel.pt).\n"
         "--cluster takes a preset, N servers of a multi-server preset (128x8xH100-IB), a cluster JSON file,\n"
         "random:SEED[:DEVICES] (a random cluster: 2..16 devices drawn from the seed, or DEVICES 2..64), or cpu\n"
         "(this machine's CPU as one device, its roofline fitted on the shipped cost models' measurements).\n"
         "--dim NAME=VALUE binds a symbolic input dimension of an ONNX model (e.g. batch_size=8; default 1).\n"
         "--precision fp32|tf32|fp16|bf16|fp8 runs the model with that arithmetic (fp16/bf16/fp8: mixed precision,\n"
         "activations and gradients in the narrow type, parameters and optimizer state in f32; tf32: f32 matrix\n"
         "math on TF32 units).\n"
         "MODEL is a file (.onnx, .pt, .dot/.gv, .json) or zoo:NAME (e.g. zoo:gnmt).\n"
         "Zoo models default to training mode, imported files to inference.\n";
}

}  // namespace gp::cli

#include "cli/cli_commands.h"

#include <cstdio>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_model_options.h"
#include "graph/graph_stats.h"
#include "io/json_io.h"
#include "io/model_loader.h"
#include "zoo/zoo.h"

namespace gp::cli {
namespace {

std::string human(double v, const char* unit) {
  const char* prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  int i = 0;
  while (v >= 1000 && i < 6) {
    v /= 1000;
    ++i;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s%s", v, prefixes[i], unit);
  return buf;
}

std::string modeName(const Graph& g) {
  for (OpId op = 0; op < g.numOps(); ++op)
    if (g.role(op) != OpRole::Forward) return "training";
  return "inference";
}

}  // namespace

void printUsage(std::ostream& out) {
  out << "Usage: graphplace-cli COMMAND [ARGUMENTS]\n"
         "Places the operations of an ML model's computation graph on the GPUs of a cluster and simulates\n"
         "a training or inference step; compares baselines, optimizes placements, plans data / tensor / pipeline\n"
         "parallel training, profiles local GPUs.\n"
         "\n"
         "Commands:\n"
         "  graphplace-cli info MODEL [--mode inference|training] [--input-shape 1x3x224x224]\n"
         "                            [--batch N] [--seq-len N] [--layers N] [--hidden N] [--graph-seed N]\n"
         "                            [--dim NAME=VALUE] [--precision fp32|tf32|fp16|bf16|fp8] [--json]\n"
         "\n"
         "  graphplace-cli zoo list [--json]\n"
         "                            (the zoo's models with the ranges of --layers and --hidden)\n"
         "\n"
         "  graphplace-cli zoo export NAME --out FILE.json [--mode ...] [--batch N] [--seq-len N] [--layers N]\n"
         "                            [--hidden N] [--graph-seed N] [--precision ...]\n"
         "\n"
         "  graphplace-cli evaluate MODEL --cluster PRESET|FILE [--placement FILE [--ignore-hash]] [--repeat N]\n"
         "                            [--fuse default|none|plan] [--calibration TABLE.json] [--costs learned:FILE]\n"
         "                            [--trace OUT.json] [--out PLACEMENT.json] [--json]\n"
         "                            [--torch-program OUT.py]  (a PyTorch model's placement as a torch.fx program)\n"
         "\n"
         "  graphplace-cli explain MODEL --cluster PRESET|FILE [--placement FILE [--ignore-hash]] [--top N]\n"
         "                            [--follow N [--out PLACEMENT.json]]  (apply the top suggestion up to N times first)\n"
         "                            [--report REPORT.html]  (the plan report: one self-contained HTML page)\n"
         "                            [--fuse default|none|plan] [--calibration TABLE.json] [--costs learned:FILE] [--json]\n"
         "                            (the critical path, its breakdown, slack, and the moves that shorten the step)\n"
         "\n"
         "  graphplace-cli baseline MODEL --cluster PRESET|FILE [--method NAME|all] [--calibration TABLE.json]\n"
         "                            [--costs learned:FILE] [--out PLACEMENT.json] [--json]\n"
         "\n"
         "  graphplace-cli optimize MODEL --cluster PRESET|FILE [--policy search|pretrained|scratch|colocrl|FILE]\n"
         "                            [--iterations N | --budget-seconds S] [--seed S] [--samples K] [--threads N]\n"
         "                            [--tasks placement,schedule,fusion] [--fuse none|default|plan]\n"
         "                            [--start baseline|none|METHOD|PLACEMENT.json] [--calibration TABLE.json]\n"
         "                            [--costs learned:FILE] [--out PLACEMENT.json]\n"
         "                            [--trace OUT.json] [--save-policy FILE.pt] [--patience N] [--no-update]\n"
         "                            [--polish-share F] [--polish-moves N]  (the budget's last share, 0.2 by default:\n"
         "                            the best plan polished with the suggestions' moves; 0: none)\n"
         "                            [--polish-keep K] [--move-ranker RANKER.json|none]  (candidates simulated K at a\n"
         "                            time, 48 by default, 0: all; ranked by the shipped or given ranker, none: by path time)\n"
         "                            [--checkpoint FILE [--checkpoint-every N]] [--resume FILE] [--json]\n"
         "                            [--events RUN.jsonl]  (the run's event log, for File > Attach to Run)\n"
         "                            [--distributed [--dist-timeout S]]  (one rank of several: the launcher's\n"
         "                            RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT; scripts/launch-local.sh N)\n"
         "\n"
         "  graphplace-cli pretrain (--corpus CORPUS.json | [--models ...] [--exclude ...] [--eval ...] [--clusters ...])\n"
         "                            [--rounds N | --budget-seconds S] [--method expert|ppo] [--fit-epochs N] [--eval-every N]\n"
         "                            [--from FILE.pt | --resume SESSION] [--checkpoint SESSION] [--tasks ...]\n"
         "                            [--start baseline|none] [--keep-prior] [--relative-devices] [--fit-loss balanced|mean]\n"
         "                            --out FILE.pt [--json] [--events RUN.jsonl]\n"
         "                            [--distributed [--dist-timeout S]]  (as optimize's)\n"
         "\n"
         "  graphplace-cli train-moves --corpus CORPUS.json --out RANKER.json [--rounds N] [--keep K] [--lambda L]\n"
         "                            [--threads N] [--eval-moves N] [--json]  (the move ranker: which of the\n"
         "                            suggestions' candidates polishing simulates; judged on the held-out families)\n"
         "\n"
         "  graphplace-cli bench [--cluster PRESET|FILE] [--models zoo:a,zoo:b|FILES] [--calibration TABLE.json] [--json]\n"
         "                            [--optimize [optimize options] | --tasks-table [--budget-seconds B]]\n"
         "\n"
         "  graphplace-cli profile --out CLUSTER.json [--calibration TABLE.json] [--report REPORT.json] [--quick]\n"
         "                            [--json] [--name NAME] [--devices 0,1] [--timer auto|cupti|events]\n"
         "                            [--max-peer-exponent K] [--model MODEL [model options]] (--model needs\n"
         "                            --calibration: the model's ops, timed per device kind, are added to it)\n"
         "\n"
         "  graphplace-cli measure MODEL --cluster PRESET|FILE [--placement FILE [--ignore-hash] | --method NAME]\n"
         "                            [--fuse none|default|plan] [--calibration TABLE.json] [--steps N] [--warmup N]\n"
         "                            [--gpus 0,1] [--timer auto|cupti|events] [--trace OUT.json] [--json]\n"
         "                            (runs one step of the plan on the local GPUs: simulated vs measured)\n"
         "\n"
         "  graphplace-cli fidelity [--corpus DIR|FILE] [--cluster PROFILED.json] [--calibration TABLE.json]\n"
         "                            [--search-seconds S] [--json]\n"
         "                            (the published measurements of the corpus, simulated: ratios, summary, plan orders;\n"
         "                            --search-seconds: each parallel run's plan against the exact search's best)\n"
         "\n"
         "  graphplace-cli parallelize MODEL --cluster PRESET|FILE --global-batch B [--method all | METHOD[,METHOD...]]\n"
         "                            (METHOD: megatron, dp, recipe (the closest published plan), exact, dqn, random)\n"
         "                            [--budget-seconds S] [--episodes N] [--patience N] [--policy FILE | --from-scratch]\n"
         "                            [--seed N] [--attention flash|flash2|unfused] [--fp8] [--plan FILE | --config FILE]\n"
         "                            [--framework generic|megatron|deepspeed|torchtitan] [--optimizer-offload]\n"
         "                            [--optimizer-states fp32|bf16|8bit] [--grad-accumulation framework|fp32|16bit]\n"
         "                            [--out PLAN.json | --export megatron|nemo|nemo1|torchtitan|torchtitan-py|deepspeed\n"
         "                            --out FILE]\n"
         "                            [--trace OUT.json] [--json]\n"
         "                            (data / tensor / pipeline parallel training plans for a model of repeated layers:\n"
         "                            samples/s, step time, MFU, bubble and communication shares, memory per device;\n"
         "                            the best plan beside the recipe and beside a --plan file (with --method, the\n"
         "                            searched plans run too): what changed and where the step's time moved;\n"
         "                            --config: your Megatron-LM arguments (with or without torchrun and the script),\n"
         "                            torchtitan TOML or Python configuration, or DeepSpeed JSON as that plan; --export:\n"
         "                            the best plan as one (torchtitan-py: with FILE_schedule.csv when it pipelines);\n"
         "                            --framework and the optimizer flags: what searched plans train with (its memory\n"
         "                            per parameter and loss, the plans it can run); a --config file's format says it;\n"
         "                            --batch N: the samples the graph holds, 1 by default)\n"
         "\n"
         "  graphplace-cli pretrain-parallel --out FILE [--budget-seconds S] [--episodes N] [--tasks N] [--seed N] [--json]\n"
         "                            (pre-trains the parallel-plan DQN on synthetic GPT stacks)\n"
         "\n"
         "  graphplace-cli dataset make MODEL... [--kernels FILE] [--plans FILE] [--repeats N] [--plan-configs N]\n"
         "                            [--max-kernels N] [--seed N]   (inference graphs unless --mode training)\n"
         "                            (times each distinct kernel and fused group under 8 configurations, and whole\n"
         "                            models under random per-node layouts, on this machine's CPU)\n"
         "  graphplace-cli dataset merge FILE FILE... --out FILE\n"
         "  graphplace-cli costmodel train DATASET --out MODEL.pt [--hold-out FAMILY,...] [--epochs N]\n"
         "                            [--budget-seconds S] [--loss listmle|hinge|mse] [--hidden N] [--layers N]\n"
         "                            [--segment-nodes N --segments-per-step K --keep P] [--seed N]\n"
         "                            [--roofline-out FIT.json] [--json]\n"
         "  graphplace-cli costmodel eval DATASET --model MODEL.pt [--hold-out FAMILY,...] [--fit KERNELS.json]\n"
         "                            [--configs-per-graph N] [--json]\n"
         "                            (Kendall's tau, ordered-pair accuracy, top-1/5/10 slowdown per graph, learned\n"
         "                            against the roofline + calibration model fitted on the training families)\n"
         "  graphplace-cli costmodel eval MODEL --device cpu [--max-kernels N] [--plan-configs N] [--json]\n"
         "                            (measures the model's kernels and plans here, predicts them with the shipped\n"
         "                            models, the kernel model summed over each plan's calls and the shipped fitted\n"
         "                            roofline; and the simulated step on --cluster cpu against the measured one)\n"
         "  graphplace-cli costmodel predict DATASET --model MODEL.pt [--json]\n"
         "  graphplace-cli costmodel screen MODEL --device cpu [--candidates N] [--screen K] [--plan-model FILE]\n"
         "                            [--kernel-model FILE] [--roofline FIT.json] [--repeats N] [--seed N] [--json]\n"
         "                            (a plan search that measures only the K candidates predicted fastest — by the\n"
         "                            plan model, the kernel sum, the roofline, or in a random order — against\n"
         "                            measuring all N: the best found and the evaluations to come within 1 %)\n"
         "  TpuGraphs' collections: --tpugraphs DIR --task tile|layout in place of DATASET (DIR: a collection folder,\n"
         "                            e.g. npz/layout/xla/random; train reads DIR/train, eval and predict DIR/valid,\n"
         "                            1,000 configurations per graph unless --configs-per-graph N)\n"
         "\n"
         "--calibration TABLE.json: measured op times (graphplace-cli profile) replace the roofline for matching ops.\n"
         "--costs learned:FILE: a learned kernel-cost model (costmodel train) predicts the op times the table lacks,\n"
         "on the device kind it was measured on (e.g. --cluster cpu with resources/costmodels/cpu_kernel.pt).\n"
         "Every command that takes a MODEL also takes --mode, --input-shape, --batch, --seq-len, --layers, --hidden,\n"
         "--graph-seed, --dim. --layers N / --hidden N resize a zoo model (depth / width; `zoo list` gives each\n"
         "model's ranges); --graph-seed N picks the graph of zoo:random_dag.\n"
         "--cluster takes a preset, a cluster JSON file, random:SEED[:DEVICES] (a random cluster: 2..16\n"
         "devices drawn from the seed, or DEVICES 2..64), or cpu (this machine's CPU as one device, its roofline\n"
         "fitted on the shipped cost models' measurements).\n"
         "--dim NAME=VALUE binds a symbolic input dimension of an ONNX model (e.g. batch_size=8; default 1).\n"
         "--precision fp32|tf32|fp16|bf16|fp8 runs the model with that arithmetic (fp16/bf16/fp8: mixed precision,\n"
         "activations and gradients in the narrow type, parameters and optimizer state in f32; tf32: f32 matrix\n"
         "math on TF32 units).\n"
         "MODEL is a file (.onnx, .pt, .dot/.gv, .json) or zoo:NAME (e.g. zoo:gnmt).\n"
         "Zoo models default to training mode, imported files to inference.\n";
}

int runInfo(const std::vector<std::string>& argv, std::ostream& out) {
  auto opts = modelOptions();
  Args a = parseArgs(argv, opts, {"--json"});
  if (a.positional.size() != 1) throw std::invalid_argument("info needs exactly one MODEL");
  const std::string& spec = a.positional[0];
  Graph g = loadModel(spec, loadOptionsFrom(a));
  GraphStats s = computeStats(g);
  if (a.has("--json")) {
    nlohmann::ordered_json j;
    j["model"] = spec;
    j["mode"] = modeName(g);
    j["ops"] = s.ops;
    j["edges"] = s.edges;
    j["tensors"] = s.tensors;
    j["flops"] = s.flops;
    j["param_bytes"] = s.paramBytes;
    j["resident_bytes"] = s.residentBytes;
    j["activation_bytes"] = s.activationBytes;
    j["scopes"] = s.scopes;
    j["scope_depth"] = s.scopeDepth;
    j["forward_ops"] = s.forwardOps;
    j["backward_ops"] = s.backwardOps;
    j["update_ops"] = s.updateOps;
    nlohmann::ordered_json types = nlohmann::ordered_json::object();
    for (const auto& [name, n] : s.opTypes) types[name] = n;
    j["op_types"] = types;
    std::map<std::string, double> byType;
    for (OpId op = 0; op < g.numOps(); ++op) byType[std::string(g.opType(op))] += g.flops(op);
    j["flops_by_type"] = byType;
    auto& dims = j["symbolic_dims"] = nlohmann::ordered_json::array();
    for (const auto& d : g.symbolicDims())
      dims.push_back({{"name", d.name}, {"value", d.value}, {"bound", d.bound}});
    auto& estimated = j["estimated_ops"] = nlohmann::ordered_json::array();
    for (OpId op = 0; op < g.numOps(); ++op)
      if (g.costEstimated(op)) estimated.push_back(g.opName(op));
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  out << "model        " << spec << " (" << modeName(g) << ")\n"
      << "ops          " << s.ops << "  (forward " << s.forwardOps << ", backward " << s.backwardOps
      << ", update " << s.updateOps << ")\n"
      << "edges        " << s.edges << "\n"
      << "tensors      " << s.tensors << "\n"
      << "FLOPs        " << human(s.flops, "FLOP") << "  (" << std::setprecision(6) << s.flops << ")\n"
      << "parameters   " << human(static_cast<double>(s.paramBytes), "B") << "  (" << s.paramBytes << " bytes)\n"
      << "resident     " << human(static_cast<double>(s.residentBytes), "B")
      << "  (parameters + optimizer state, kept on the devices)\n"
      << "activations  " << human(static_cast<double>(s.activationBytes), "B") << "\n"
      << "scopes       " << s.scopes << ", depth " << s.scopeDepth << "\n";
  if (!g.symbolicDims().empty()) {
    out << "symbolic     ";
    for (size_t i = 0; i < g.symbolicDims().size(); ++i) {
      const auto& d = g.symbolicDims()[i];
      out << (i ? ", " : "") << d.name << "=" << d.value << (d.bound ? "" : " (default; --dim " + d.name + "=N)");
    }
    out << "\n";
  }
  if (g.numEstimatedOps() > 0) out << "estimated    " << g.numEstimatedOps() << " ops (unknown shapes)\n";
  out
      << "op types     " << s.opTypes.size() << "\n";
  for (const auto& [name, n] : s.opTypes) out << "  " << std::left << std::setw(28) << name << std::right << n << "\n";
  return 0;
}

int runZoo(const std::vector<std::string>& argv, std::ostream& out) {
  auto opts = modelOptions();
  opts.insert("--out");
  Args a = parseArgs(argv, opts, {"--json"});
  if (a.positional.empty()) throw std::invalid_argument("zoo needs a subcommand: list or export");
  const std::string& sub = a.positional[0];
  if (sub == "list") {
    if (a.has("--json")) {
      nlohmann::ordered_json arr = nlohmann::ordered_json::array();
      for (const auto& m : zooModels())
        arr.push_back({{"name", m.name},
                       {"description", m.description},
                       {"batch", m.defaultBatch},
                       {"seq_len", m.defaultSeqLen},
                       {"layers", m.defaultLayers},
                       {"hidden", m.defaultHidden},
                       {"parameters", m.parameters},
                       {"synthetic", m.synthetic},
                       {"llm", m.llm}});
      out << arr.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      for (const auto& m : zooModels())
        out << std::left << std::setw(16) << m.name << m.description << "\n"
            << std::setw(16) << "" << "parameters: " << m.parameters << "\n";
    }
    return 0;
  }
  if (sub == "export") {
    if (a.positional.size() != 2) throw std::invalid_argument("zoo export needs exactly one NAME");
    auto outPath = a.value("--out");
    if (!outPath || outPath->empty()) throw std::invalid_argument("zoo export needs --out FILE.json");
    Graph g = loadModel("zoo:" + a.positional[1], loadOptionsFrom(a));
    writeGraphJson(g, *outPath);
    out << "wrote " << *outPath << ": " << g.numOps() << " ops, " << g.numEdges() << " edges\n";
    return 0;
  }
  throw std::invalid_argument("unknown zoo subcommand '" + sub + "' (list, export)");
}

}  // namespace gp::cli

#include "cli/cli_commands.h"

#include <cstdio>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/cli_args.h"
#include "cli/cli_json.h"
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

int runInfo(const std::vector<std::string>& argv, std::ostream& out) {
  Args a = parseArgs(argv, "info");
  if (a.positional.size() != 1) throw std::invalid_argument("info needs exactly one MODEL");
  const std::string& spec = a.positional[0];
  Graph g = loadModel(spec, loadOptionsFrom(a));
  GraphStats s = computeStats(g);
  if (a.has("--json")) {
    nlohmann::ordered_json j{{"model", spec}, {"mode", modeName(g)}, {"ops", s.ops}, {"edges", s.edges}, {"tensors", s.tensors},
                             {"flops", s.flops}, {"param_bytes", s.paramBytes}, {"resident_bytes", s.residentBytes},
                             {"activation_bytes", s.activationBytes}, {"scopes", s.scopes}, {"scope_depth", s.scopeDepth},
                             {"forward_ops", s.forwardOps}, {"backward_ops", s.backwardOps}, {"update_ops", s.updateOps}};
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
    out << dump(j) << "\n";
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
  Args a = parseArgs(argv, "zoo");
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
      out << dump(arr) << "\n";
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

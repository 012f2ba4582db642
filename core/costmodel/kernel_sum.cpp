#include "costmodel/kernel_sum.h"

#include <map>
#include <tuple>

#include "base/error.h"
#include "costmodel/cost_features.h"

namespace gp {
namespace {

// Everything a call's graph row and configuration row are made of.
using CallKey = std::tuple<std::string, int, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int, int32_t>;

CallKey keyOf(const std::string& opType, const KernelCall& c, int32_t threads) {
  const KernelSpec& k = c.kernel;
  return {opType,  static_cast<int>(k.kind), k.m,     k.n,     k.k,      k.batch,  k.convN,  k.convC, k.convH, k.convW,
          k.convK, k.convR,                  k.convS, k.stride, k.rows, k.cols,  c.layout, c.tiles, threads};
}

}  // namespace

CallQueries callQueries(const Graph& g, const std::vector<KernelRun>& runs,
                        const std::vector<std::vector<OpId>>& callOps, const std::string& deviceKind) {
  if (callOps.size() != runs.size()) throw Error("costmodel", "call ops for " + std::to_string(callOps.size()) +
                                                                  " runs, expected " + std::to_string(runs.size()));
  CallQueries q;
  q.data.task = CostTask::Kernel;
  q.data.collection = "graphplace";
  q.data.deviceKind = deviceKind;
  q.data.nodeWidth = kNodeWidth;
  q.data.configWidth = kConfigWidth;
  q.data.noise = "not measured: the calls of candidate plans";
  std::map<std::string, int32_t> vocab;
  std::map<CallKey, int32_t> graphOf;
  for (size_t r = 0; r < runs.size(); ++r) {
    const KernelRun& run = runs[r];
    if (callOps[r].size() != run.calls.size())
      throw Error("costmodel", "run " + std::to_string(r) + " has " + std::to_string(run.calls.size()) + " calls and " +
                                   std::to_string(callOps[r].size()) + " call ops");
    auto& graphs = q.graphOfCall.emplace_back();
    for (size_t i = 0; i < run.calls.size(); ++i) {
      const KernelCall& call = run.calls[i];
      const OpId op = callOps[r][i];
      const std::string opType = op == kNone ? std::string("Transpose") : std::string(g.opType(op));
      const auto [it, added] = graphOf.try_emplace(keyOf(opType, call, run.threads), static_cast<int32_t>(q.data.graphs.size()));
      graphs.push_back(it->second);
      if (!added) continue;
      CostGraph cg;
      cg.name = op == kNone ? "layout conversion" : g.opName(op);
      const auto [v, fresh] = vocab.try_emplace(opType, static_cast<int32_t>(q.data.opcodes.size()));
      if (fresh) q.data.opcodes.push_back(opType);
      cg.opcode.push_back(v->second);
      appendNodeFeatures(call.kernel, false, cg.nodeFeatures);
      appendConfigFeatures(KernelConfig{run.threads, call.layout, call.tiles}, false, cg.configFeatures);
      cg.threads.push_back(run.threads);
      cg.runtime.push_back(1.0);  // placeholder
      q.data.graphs.push_back(std::move(cg));
    }
  }
  return q;
}

std::vector<double> sumPerRun(const CallQueries& q, const std::vector<std::vector<double>>& predicted) {
  if (predicted.size() != q.data.graphs.size())
    throw Error("costmodel", std::to_string(predicted.size()) + " predictions for " +
                                 std::to_string(q.data.graphs.size()) + " call graphs");
  std::vector<double> out;
  for (const auto& graphs : q.graphOfCall) {
    double t = 0;
    for (int32_t gi : graphs) t += predicted[static_cast<size_t>(gi)].at(0);
    out.push_back(t);
  }
  return out;
}

}  // namespace gp

// The placer registry and the steps every placer's plan goes through: colocation and pins
// enforced, memory checked with the simulator, repaired, or replaced by a feasible fallback.
#include "placement/placer.h"

#include <chrono>

#include "base/error.h"
#include "placement/placement_util.h"

namespace gp {
namespace {

using placement::Context;
using PlaceFn = Plan (*)(const Context&, std::string&);

struct Method {
  const char* name;
  PlaceFn fn;
};

constexpr Method kMethods[] = {
    {"single", placement::placeSingle},   {"round_robin", placement::placeRoundRobin},
    {"expert", placement::placeExpert},   {"metis", placement::placeMetis},
    {"m_topo", placement::placeTopo},     {"m_etf", placement::placeEtf},
    {"m_sct", placement::placeSct},       {"heft", placement::placeHeft},
};

void addNote(std::string& note, const std::string& s) { note += (note.empty() ? "" : "; ") + s; }

}  // namespace

std::vector<std::string> placementMethods() {
  std::vector<std::string> names;
  for (const Method& m : kMethods) names.emplace_back(m.name);
  return names;
}

PlacementResult runPlacement(const std::string& method, const CostModel& cost, Simulator& sim) {
  const Method* found = nullptr;
  for (const Method& m : kMethods)
    if (method == m.name) found = &m;
  if (!found) {
    std::string known;
    for (const Method& m : kMethods) known += (known.empty() ? "" : ", ") + std::string(m.name);
    throw Error("method " + method, "unknown placement method (known: " + known + ")");
  }

  const auto start = std::chrono::steady_clock::now();
  PlacementResult r;
  r.method = method;
  Context ctx(cost, sim);
  // 1. The placer's own plan, with colocation groups and requested devices enforced.
  r.plan = found->fn(ctx, r.note);
  placement::enforceUnits(ctx, r.plan);
  Measurement& m = r.measurement;
  sim.run(r.plan, m, /*recordTimeline=*/false);
  // 2. Memory: "single" is the honest one-device result; every other plan is repaired, else
  //    replaced by the first feasible fallback (memory-balanced fill, m_etf, heft, one device).
  if (!m.feasible && method != "single") {
    std::string why = m.problem;
    if (!placement::repairMemory(ctx, r.plan, m, r.note)) {
      Plan best;
      double bestStep = 0;
      std::string bestName;
      auto consider = [&](Plan p, const char* name) {
        std::string ignored;
        placement::enforceUnits(ctx, p);
        Measurement pm;
        if (!placement::repairMemory(ctx, p, pm, ignored)) return;
        if (bestName.empty() || pm.stepTime < bestStep) best = std::move(p), bestStep = pm.stepTime, bestName = name;
      };
      // Cheapest first; stop at the first that fits (the list schedulers weigh memory as they go).
      std::string ignored;
      consider(placement::memoryBalancedPlan(ctx), "memory-balanced topological fill");
      if (bestName.empty() && method != "m_etf") consider(placement::placeEtf(ctx, ignored), "m_etf plan");
      if (bestName.empty() && method != "heft") consider(placement::placeHeft(ctx, ignored), "heft plan");
      if (bestName.empty()) consider(placement::placeSingle(ctx, ignored), "single device");
      if (!bestName.empty()) {
        addNote(r.note, "plan did not fit (" + why + ") and could not be repaired: fell back to the " + bestName);
        r.plan = std::move(best);
      } else {
        addNote(r.note, "no feasible plan found (" + why + ")");
      }
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sim.run(r.plan, m, /*recordTimeline=*/true);
  return r;
}

}  // namespace gp

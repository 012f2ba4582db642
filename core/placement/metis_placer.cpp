// TensorFlow's METIS placer (grappler): a k-way partition of the op graph, one part per device,
// vertex weight = op time, edge weight = bytes of the tensors between two ops. Colocation
// groups are contracted into one vertex first, so a partition can never split one.
#include <metis.h>

#include <algorithm>
#include <cmath>

#include "placement/placement_util.h"

namespace gp::placement {

Plan placeMetis(const Context& ctx, std::string& note) {
  const Graph& g = ctx.g;
  const Units& u = ctx.units;
  const int32_t nv = u.size();
  Plan plan = Plan::singleDevice(g.numOps());

  // 1. Undirected unit graph: an edge per pair of units a tensor crosses, weights summed.
  std::vector<std::pair<int64_t, int64_t>> edges;  // (a * nv + b, bytes), both directions
  for (OpId p = 0; p < g.numOps(); ++p)
    for (TensorId t : g.outputs(p))
      for (OpId c : g.consumers(t)) {
        int64_t a = u.unitOf[p], b = u.unitOf[c];
        if (a == b) continue;
        int64_t bytes = std::max<int64_t>(g.tensorBytes(t), 1);
        edges.push_back({a * nv + b, bytes});
        edges.push_back({b * nv + a, bytes});
      }
  std::sort(edges.begin(), edges.end());
  std::vector<std::pair<int64_t, int64_t>> merged;
  for (const auto& e : edges) {
    if (!merged.empty() && merged.back().first == e.first) merged.back().second += e.second;
    else merged.push_back(e);
  }

  std::vector<int32_t> dev(nv, 0);
  if (nv <= ctx.n || ctx.n == 1) {
    // Fewer units than devices: one each.
    for (int32_t i = 0; i < nv; ++i) dev[i] = i % ctx.n;
  } else {
    // 2. Integer weights METIS can sum without overflow: vertex totals ~1e7, edges <= 1e5.
    double totalTime = 0;
    for (int32_t i = 0; i < nv; ++i) totalTime += u.time[i];
    int64_t maxBytes = 1;
    for (const auto& e : merged) maxBytes = std::max(maxBytes, e.second);
    const double tScale = totalTime > 0 ? 1e7 / totalTime : 0;
    const double bScale = 1e5 / static_cast<double>(maxBytes);
    std::vector<idx_t> xadj(nv + 1, 0), adjncy(merged.size()), adjwgt(merged.size()), vwgt(nv);
    for (int32_t i = 0; i < nv; ++i) vwgt[i] = std::max<idx_t>(1, static_cast<idx_t>(std::llround(u.time[i] * tScale)));
    for (size_t k = 0; k < merged.size(); ++k) {
      ++xadj[merged[k].first / nv + 1];
      adjncy[k] = static_cast<idx_t>(merged[k].first % nv);
      adjwgt[k] = std::max<idx_t>(1, static_cast<idx_t>(std::llround(static_cast<double>(merged[k].second) * bScale)));
    }
    for (int32_t i = 0; i < nv; ++i) xadj[i + 1] += xadj[i];

    // 3. Partition; on any METIS failure, fall back to round-robin units and say so.
    idx_t nvtxs = nv, ncon = 1, nparts = ctx.n, objval = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1;
    std::vector<idx_t> part(nv, 0);
    int rc = METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr, adjwgt.data(),
                                 &nparts, nullptr, nullptr, options, &objval, part.data());
    if (rc != METIS_OK) {
      note = "METIS_PartGraphKway failed (code " + std::to_string(rc) + "): units dealt round-robin";
      for (int32_t i = 0; i < nv; ++i) dev[i] = i % ctx.n;
    } else {
      for (int32_t i = 0; i < nv; ++i) dev[i] = static_cast<int32_t>(part[i]);
      note = "edge cut " + std::to_string(objval) + " (scaled bytes)";
    }
  }
  for (int32_t i = 0; i < nv; ++i)
    for (int32_t k = u.off[i]; k < u.off[i + 1]; ++k) plan.device[u.ops[k]] = std::clamp(dev[i], 0, ctx.n - 1);
  return plan;
}

}  // namespace gp::placement

// Baechi's m-TOPO (Jeon et al., SoCC 2020): fill the devices one after the other in
// topological order, each up to an equal share of the total compute time, memory permitting.
#include "placement/placement_util.h"

namespace gp::placement {

Plan placeTopo(const Context& ctx, std::string&) {
  const Units& u = ctx.units;
  Plan plan = Plan::singleDevice(ctx.g.numOps());
  double total = 0;
  for (int32_t un = 0; un < u.size(); ++un) total += u.time[un];
  const double share = total / ctx.n;
  std::vector<double> load(ctx.n, 0);
  std::vector<int64_t> used(ctx.n, 0);
  int d = 0;
  for (int32_t un : u.order) {
    int dev = u.pinned[un];
    if (dev < 0) {
      // 1. Move on to the next device once the current one has its share of the time, or
      //    when the unit would not fit in its memory (its estimate keeps every output).
      while (d < ctx.n - 1 && (load[d] >= share || used[d] + u.mem[un] > ctx.capacity(d))) ++d;
      dev = d;
      // 2. The last device is full too: the device with the most memory left takes it.
      if (used[dev] + u.mem[un] > ctx.capacity(dev))
        for (int k = 0; k < ctx.n; ++k)
          if (ctx.capacity(k) - used[k] > ctx.capacity(dev) - used[dev]) dev = k;
    }
    load[dev] += u.time[un];
    used[dev] += u.mem[un];
    for (int32_t i = u.off[un]; i < u.off[un + 1]; ++i) plan.device[u.ops[i]] = dev;
  }
  return plan;
}

}  // namespace gp::placement

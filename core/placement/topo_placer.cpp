// Baechi's m-TOPO (Jeon et al., SoCC 2020): fill the devices one after the other in
// topological order, each up to an equal share of the total compute time, memory permitting.
// Memory is the live memory of each device with ops placed in topological order (MemoryTracker,
// placement_util.h), not the sum of every output.
#include "placement/placement_util.h"

namespace gp::placement {

Plan placeTopo(const Context& ctx, std::string&) {
  const Units& u = ctx.units;
  Plan plan = Plan::singleDevice(ctx.g.numOps());
  double total = 0;
  for (int32_t un = 0; un < u.size(); ++un) total += u.time[un];
  const double share = total / ctx.n;
  std::vector<double> load(ctx.n, 0);
  std::vector<int32_t> unitDev(u.pinned);
  MemoryTracker mem(ctx);
  int d = 0;
  for (OpId op : ctx.g.topoOrder()) {
    const int32_t un = u.unitOf[op];
    int dev = unitDev[un];
    if (dev < 0) {
      // 1. Move on to the next device once the current one has its share of the time, or when
      //    what the op allocates does not fit the memory it has free at this point.
      while (d < ctx.n - 1 && (load[d] >= share || !mem.fits(op, d))) ++d;
      dev = d;
      // 2. The last device is full too: the device it overfills least takes it.
      if (!mem.fits(op, dev)) dev = mem.leastOverflow(op);
      unitDev[un] = dev;
    }
    load[dev] += ctx.avgTime[op];
    mem.place(op, dev);
    plan.device[op] = dev;
  }
  return plan;
}

}  // namespace gp::placement

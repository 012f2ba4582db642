// The two trivial baselines: everything on one device, and round-robin over the devices.
#include "placement/placement_util.h"

namespace gp::placement {

Plan placeSingle(const Context& ctx, std::string& note) {
  // Every op on the device with the most memory (device 0 on a homogeneous cluster): no
  // communication at all, so this is the plan every placer has to beat.
  int d = ctx.largestDevice();
  if (d != 0) note = "device " + ctx.c.device(d).name + " has the most memory";
  return Plan::singleDevice(ctx.g.numOps(), d);
}

Plan placeRoundRobin(const Context& ctx, std::string&) {
  // Units (colocation groups or single ops) in topological order, dealt to the devices in
  // turn: the naive spread, which balances op counts and ignores communication.
  const Units& u = ctx.units;
  Plan plan = Plan::singleDevice(ctx.g.numOps());
  int next = 0;
  for (int32_t un : u.order) {
    int d = u.pinned[un] >= 0 ? u.pinned[un] : next++ % ctx.n;
    for (int32_t i = u.off[un]; i < u.off[un + 1]; ++i) plan.device[u.ops[i]] = d;
  }
  return plan;
}

}  // namespace gp::placement

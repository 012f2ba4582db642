// The plugin's optimizer entry: which policy, which thread count, resume, save.
#include <dlfcn.h>

#include <algorithm>
#include <thread>

#include "base/error.h"
#include "rl/colocrl_trainer.h"
#include "rl/ppo.h"

namespace gp::rl {

void setTorchThreads(int threads) {
  const int n = std::max(1, threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency()));
  torch::set_num_threads(n);
  // Debian's LibTorch multiplies matrices in OpenBLAS, whose own threads spin (sched_yield)
  // between calls: they follow the same count, or a one-thread rank would still keep a second
  // core busy and ranks sharing a machine would not run side by side.
  for (const char* lib : {"libopenblas.so.0", "libblas.so.3"}) {
    void* handle = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) continue;
    using SetThreads = void (*)(int);
    const auto set = reinterpret_cast<SetThreads>(dlsym(handle, "openblas_set_num_threads"));
    if (set) set(n);
    dlclose(handle);
    if (set) break;
  }
}

OptimizeResult runOptimizer(const CostModel& cost, const OptimizeOptions& options, const IterationFn& onIteration,
                            const std::atomic<bool>* cancel) {
  setTorchThreads(TrainingRanks::threadsFor(options.distributed, options.threads));
  if (options.policy.kind == PolicyKind::ColocRL) {
    if (options.distributed) throw Error("colocrl", "distributed runs train GDP policies, not ColocRL");
    if (!options.resume.empty() || !options.checkpoint.empty())
      throw Error("colocrl", "checkpoints and --resume are for GDP policies, not ColocRL");
    if (!options.tasks.placement)
      throw Error("colocrl", "ColocRL optimizes placement: leave placement in the tasks, or use a GDP policy");
    OptimizeOptions placementOnly = options;  // ColocRL places; scheduling and fusion keep their defaults
    placementOnly.tasks = {true, false, false};
    OptimizeResult r = runColocRl(cost, placementOnly, onIteration, cancel);
    if (options.tasks.schedule || options.tasks.fusion)
      r.note = "ColocRL optimizes placement only: FIFO scheduling and no fusion";
    else if (options.fuse != FuseMode::None)
      r.note = "ColocRL optimizes placement only, without fusion groups";
    r.stopReason = r.cancelled                          ? StopReason::Cancelled
                   : options.iterations <= 0            ? StopReason::ZeroShot
                   : r.iterations >= options.iterations ? StopReason::Iterations
                                                        : StopReason::Budget;
    return r;
  }
  OptimizeOptions o = options;
  // a distributed run: this rank's own samples, the machine's cores shared among its ranks
  std::shared_ptr<TrainingRanks> ranks;
  if (o.distributed) {
    ranks = std::make_shared<TrainingRanks>(o.distributed, o.distTimeoutSeconds);
    o.seed += static_cast<uint64_t>(ranks->rank());
    o.threads = TrainingRanks::threadsFor(o.distributed, o.threads);
  }
  std::string file, note;
  const bool isPretrained = o.policy.kind == PolicyKind::Pretrained;
  // the search never learns; a resumed session goes on learning unless told not to (--no-update)
  if (o.policy.kind == PolicyKind::Search && o.resume.empty()) o.update = false;
  if (!o.resume.empty()) {
    // the session's policy and best plan; its optimizer state is restored by the trainer
    LoadedSession session = loadSession(o.resume, cost.graph(), cost.cluster().numDevices());
    o.startPlan = session.session.best;
    file = o.resume;
    note = "resumed after iteration " + std::to_string(session.session.iterations) + " from " + o.resume;
  } else if (isPretrained) {
    file = defaultPolicyPath();
    if (file.empty()) note = "no pre-trained policy found (resources/policies/gdp_default.pt): trained from scratch";
  } else if (o.policy.kind == PolicyKind::File) {
    file = o.policy.path;
  }
  PpoTrainer trainer(cost, o, [&](int64_t featureDim) {
    if (file.empty()) return makePolicy(featureDim, o.seed);
    GdpPolicy p{nullptr};
    try {
      p = loadCheckpoint(file);
    } catch (const Error& e) {
      if (!isPretrained || !o.resume.empty()) throw;
      note = "the pre-trained policy does not load (" + std::string(e.what()) + "): trained from scratch";
      return makePolicy(featureDim, o.seed);
    }
    const bool needsHeads = o.tasks.schedule || o.tasks.fusion;
    if (isPretrained && o.resume.empty() && needsHeads && !p->config().multiTask) {
      note = "the pre-trained policy " + file + " places only: trained from scratch";
      return makePolicy(featureDim, o.seed);
    }
    if (p->featureDim() == featureDim) {
      torch::manual_seed(o.seed);
      return p;
    }
    if (!isPretrained || !o.resume.empty())
      throw Error(file, "the policy takes " + std::to_string(p->featureDim()) + " features per op, this graph has " +
                            std::to_string(featureDim));
    note = "the pre-trained policy " + file + " does not fit this version's features: trained from scratch";
    return makePolicy(featureDim, o.seed);
  });
  if (ranks) trainer.joinRanks(ranks);
  OptimizeResult r = trainer.run(onIteration, cancel);
  r.note = note;
  if (!o.saveCheckpoint.empty() && (!ranks || ranks->rank() == 0)) {
    GdpPolicy p = trainer.policy();
    saveCheckpoint(p, o.saveCheckpoint);
  }
  return r;
}

}  // namespace gp::rl

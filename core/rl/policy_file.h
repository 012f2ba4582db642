// Policy and optimizer-session files (.pt, torch::serialize archives).
//
// Policy file (written by pretrain and optimize --save-policy):
//   "gp_policy_format"  int64 [1]     format version (3; files of 1 and 2 without the device
//                                     embedding are refused with a one-line error)
//   "config"            int64 [10]    hidden, typeEmbedding, sageLayers, segment, heads,
//                                     maxDevices, film (0/1), multiTask (0/1), scheduleLevels,
//                                     fusionLevels (format 1: the first 7)
//   "feature_dim"       int64 [1]     GdpPolicy::featureDim()
//   "policy"            archive       the module's parameters and buffers (Module::save)
// Session file (optimize --checkpoint): a policy file (so --policy accepts it too) plus
//   "session_ops"       int64 [1]     the graph's op count
//   "session_iterations" int64 [1]    iterations done
//   "session_device"    int32 [ops]   the best plan's devices
//   "session_priority"  int32 [ops or 0]  its priorities
//   "session_fusion"    int32 [ops or 0]  its fusion groups (optional: older sessions lack it)
//                                     in [-1, ops); they must keep the fusion rules (fuser.h)
//   "session_history"   float64 [iterations]  best step time per iteration (seconds)
//   "optimizer"         archive       Adam's state
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "rl/gdp_policy.h"
#include "sim/plan.h"

namespace gp::rl {

// Written atomically (rl/archive_file.h). Throws gp::Error(path, ...).
void saveCheckpoint(GdpPolicy& policy, const std::string& path);
// The policy entries of those files, for files that hold a policy among other things.
void writePolicy(GdpPolicy& policy, torch::serialize::OutputArchive& archive);
GdpPolicy readPolicy(torch::serialize::InputArchive& archive, const std::string& path);  // gp::Error(path, ...)
// A file holding the policy, what `fill` adds, and Adam's state ("optimizer"), written to
// path + ".tmp" and renamed over `path`; errors: gp::Error(path, "cannot write WHAT: ...").
void saveWithPolicy(GdpPolicy& policy, const torch::optim::Adam& optimizer, const std::string& path,
                    const std::string& what, const std::function<void(torch::serialize::OutputArchive&)>& fill);
GdpPolicy loadCheckpoint(const std::string& path);               // throws gp::Error(path, ...)

// The file `name` in the policies resource folder (base/resource_dir.h: $GP_RESOURCE_DIR/policies,
// <prefix>/share/graphplace/policies, resources/policies); empty when there is none.
std::string shippedPolicyFile(const std::string& name);
std::string defaultPolicyPath();  // gdp_default.pt there

struct Session {
  int iterations = 0;
  Plan best;
  std::vector<double> history;
};

// Writes to path + ".tmp" and renames, so an interrupted write never leaves half a file.
void saveSession(GdpPolicy& policy, const torch::optim::Adam& optimizer, const Session& session,
                 const std::string& path);
// Reads a session file for a graph of `ops` ops on `devices` devices (gp::Error otherwise):
// the policy (as loadCheckpoint), the session and Adam's state for loadOptimizerState. Checks
// the plan's shape: ops devices in [0, devices), priorities for no op or every op, fusion groups
// for no op or every op with ids in [-1, ops).
struct LoadedSession {
  GdpPolicy policy{nullptr};
  Session session;
  torch::serialize::InputArchive optimizerState;
};
LoadedSession loadSession(const std::string& path, int64_t ops, int64_t devices);
// The same for graph `g`, and the plan's fusion groups must keep the fusion rules
// (fusionProblem: one device, at most one heavy op, no cycle, ...): a hand-edited or stale
// session is a one-line gp::Error(path, ...) instead of a plan that never fits or deadlocks.
// What `optimize --resume` uses.
LoadedSession loadSession(const std::string& path, const Graph& g, int64_t devices);

}  // namespace gp::rl

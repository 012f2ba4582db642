// A pre-training session file (pretrain --checkpoint / --resume), a torch::serialize archive:
//   the policy entries of a policy file (rl/policy_file.h), so --policy and --from accept it too
//   "pretrain_rounds"   int64 [1]        rounds done
//   "pretrain_seconds"  float64 [1]      training time so far
//   "pretrain_curve"    float64 [P, 4]   the learning curve (round, seconds, zero-shot gain, greedy gain)
//   "pretrain_tasks"    int64 [1]        training tasks T; per task i < T:
//   "task_i_units", "task_i_schedule", "task_i_fusion"  int32   its best decisions
//   "optimizer"         archive          Adam's state
#pragma once
#include <string>
#include <vector>

#include "optimize/optimize.h"
#include "rl/decisions.h"
#include "rl/gdp_policy.h"

namespace gp::rl {

struct PretrainSession {
  int rounds = 0;
  double seconds = 0;
  std::vector<PretrainCurvePoint> curve;
  std::vector<Decisions> best;  // per training task
};

// Written to path + ".tmp", then renamed. Throws gp::Error(path, ...).
void savePretrainSession(GdpPolicy& policy, const torch::optim::Adam& optimizer, const PretrainSession& session,
                         const std::string& path);
struct LoadedPretrainSession {
  GdpPolicy policy{nullptr};
  PretrainSession session;
  torch::serialize::InputArchive optimizerState;
};
// Throws gp::Error(path, one line) for a missing file, a file that is not a pre-training
// session, or one written for another number of training tasks (`tasks`).
LoadedPretrainSession loadPretrainSession(const std::string& path, size_t tasks);

}  // namespace gp::rl

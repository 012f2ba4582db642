// The optimizer's named choices (OptimizeOptions, PretrainOptions, OptimizeResult), each with
// its text form: parse* reads the words the CLI, the app and files use, toString writes them back.
#pragma once
#include <optional>
#include <string>

namespace gp {

// Which policy the optimizer starts from.
enum class PolicyKind {
  Search,      // the default: a new GDP policy used as it is, never updated — its samples and the
               // local search from the start plan, no learning (docs/performance.md, "Learning":
               // on held-out families nothing learned did better in the same time)
  Pretrained,  // the pre-trained policy shipped in resources/policies, fine-tuned (scratch, with a
               // note, when absent)
  Scratch,     // a new GDP policy, learning as it searches
  ColocRL,     // the 2017 seq2seq policy, trained with REINFORCE
  File,        // a policy checkpoint (.pt) written by pretrain or optimize, fine-tuned
};
struct PolicyChoice {
  PolicyKind kind = PolicyKind::Search;
  std::string path;  // the checkpoint, for PolicyKind::File
  bool operator==(const PolicyChoice&) const = default;
};
// "search" (also "default" or empty), "pretrained", "scratch", "colocrl"; any other text is a
// checkpoint's path.
PolicyChoice parsePolicy(const std::string& text);
std::string toString(const PolicyChoice& policy);

// Fusion when it is not a task.
enum class FuseMode {
  None,     // no fusion groups
  Default,  // defaultFusion on each plan's devices (the compilers' elementwise-chain fusion)
  Plan,     // the start plan's groups (only with placement fixed)
};
// "none", "default" or "plan"; nullopt for anything else.
std::optional<FuseMode> parseFuse(const std::string& text);
std::string toString(FuseMode fuse);

// Why an optimizer run stopped.
enum class StopReason {
  Iterations,  // it ran the iterations asked for
  Budget,      // the time budget ran out
  Converged,   // no 0.1% gain in `patience` iterations
  Cancelled,
  ZeroShot,    // zero iterations asked for: the zero-shot plan
};
// "iterations", "budget", "converged", "cancelled" or "zero-shot"; nullopt for anything else.
std::optional<StopReason> parseStopReason(const std::string& text);
std::string toString(StopReason reason);

// How pre-training learns.
enum class PretrainMethod {
  Expert,  // expert iteration: the policy learns to produce the search's best plans
  Ppo,     // PPO on the search's samples
};
// "expert" or "ppo"; nullopt for anything else.
std::optional<PretrainMethod> parsePretrainMethod(const std::string& text);
std::string toString(PretrainMethod method);

}  // namespace gp

#include "cli/cli_optimize_options.h"

#include <climits>
#include <csignal>
#include <cstdlib>
#include <sstream>
#include <optional>
#include <stdexcept>

namespace gp::cli {
namespace {

std::atomic<bool> gInterrupted{false};
extern "C" void onInterrupt(int) {
  gInterrupted.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C kills
}

}  // namespace

bool distributedFrom(const Args& a, std::optional<DistEnv>& env, double& timeoutSeconds) {
  if (!a.has("--distributed")) {
    if (a.has("--dist-timeout")) throw std::invalid_argument("--dist-timeout is for --distributed runs");
    return true;
  }
  env = distEnvFrom([](const char* k) { return std::getenv(k); });
  timeoutSeconds = a.number("--dist-timeout", timeoutSeconds);
  if (timeoutSeconds <= 0) throw std::invalid_argument("--dist-timeout wants seconds above 0");
  return env->rank == 0;
}

OptimizeOptions optimizeOptionsFrom(const Args& a) {
  OptimizeOptions o;
  o.policy = parsePolicy(a.text("--policy"));
  o.budgetSeconds = a.number("--budget-seconds");
  // --budget-seconds alone: as many iterations as fit (--iterations is declared 0 .. INT_MAX)
  o.iterations = a.integer("--iterations", a.has("--budget-seconds") ? INT_MAX : o.iterations);
  o.seed = a.seed("--seed");
  o.samplesPerIteration = static_cast<int>(a.integer("--samples"));
  o.threads = a.intValue("--threads", 0);
  o.saveCheckpoint = a.value("--save-policy").value_or("");
  o.patience = a.intValue("--patience", 0);
  o.checkpoint = a.value("--checkpoint").value_or("");
  o.checkpointEvery = static_cast<int>(a.integer("--checkpoint-every"));
  o.resume = a.value("--resume").value_or("");
  o.update = !a.has("--no-update");
  o.polishShare = a.number("--polish-share");  // declared 0 .. 1: a share of the budget
  o.polishMoves = static_cast<int>(a.integer("--polish-moves"));
  o.polishKeep = a.countValue("--polish-keep", o.polishKeep);
  o.moveRanker = a.value("--move-ranker").value_or("");
  if (a.has("--move-ranker") && o.moveRanker.empty()) throw std::invalid_argument("--move-ranker wants a ranker file or none");
  if (auto tasks = a.value("--tasks")) o.tasks = parseTasks(*tasks);
  o.fuse = *parseFuse(a.text("--fuse"));  // a declared choice
  if (o.fuse == FuseMode::Plan && o.tasks.placement)
    throw std::invalid_argument("--fuse plan keeps the start plan's groups: leave placement out of --tasks");
  if (!o.resume.empty() && a.has("--policy"))
    throw std::invalid_argument("--resume continues the checkpoint's policy; leave out --policy");
  return o;
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

InterruptScope::InterruptScope() {
  gInterrupted = false;
  previous_ = std::signal(SIGINT, onInterrupt);
}

InterruptScope::~InterruptScope() { std::signal(SIGINT, previous_); }

const std::atomic<bool>* InterruptScope::flag() const { return &gInterrupted; }

}  // namespace gp::cli

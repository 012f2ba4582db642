#include "cli/cli_events.h"

namespace gp::cli {

std::unique_ptr<RunLogWriter> eventLogFrom(const Args& a, bool lead) {
  const std::optional<std::string> path = a.value("--events");
  if (!path || !lead) return nullptr;
  return std::make_unique<RunLogWriter>(*path);
}

void logIteration(RunLogWriter& log, const IterationReport& it) {
  nlohmann::ordered_json e{{"iteration", it.zeroShot ? 0 : it.iteration},
                           {"mean_reward", it.meanReward},
                           {"best_reward", it.bestReward},
                           {"best_step_ms", it.bestStepTime * 1e3},
                           {"entropy", it.entropy},
                           {"elapsed_s", it.elapsed}};
  if (it.polish) e["polish"] = true;
  log.event("iteration", std::move(e));
  if ((it.improved || it.zeroShot) && it.best && it.bestStepTime > 0)
    log.event("best", {{"iteration", it.zeroShot ? 0 : it.iteration},
                       {"step_ms", it.bestStepTime * 1e3},
                       {"devices", it.best->device},
                       {"priority", it.best->priority},
                       {"fusion_group", it.best->fusionGroup}});
}

void logPretrainReport(RunLogWriter& log, const PretrainReport& r) {
  if (r.rankHealth) {
    log.event("ranks", {{"round", r.round}, {"busy_s", r.rankBusy}, {"waiting_s", r.rankWaiting}});
    return;
  }
  nlohmann::ordered_json e{{"round", r.round}, {"task", r.task}, {"rank", r.rank}};
  if (!r.evaluation) e["mean_reward"] = r.meanReward;
  e["start_ms"] = r.startStepTime * 1e3;
  e["best_ms"] = r.bestStepTime * 1e3;
  e["own_ms"] = r.ownStepTime * 1e3;
  if (!r.evaluation) e["loss"] = r.loss;
  e["elapsed_s"] = r.elapsed;
  log.event(r.evaluation ? "evaluation" : "round", std::move(e));
}

}  // namespace gp::cli

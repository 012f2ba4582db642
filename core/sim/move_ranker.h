// A learned neighbourhood for polishing (sim/polish.h): a linear model per kind of candidate
// (MoveGroup) that predicts, from a candidate's features (sim/move_features.h), how much of the
// step it takes off, so that a round simulates only the candidates ranked best instead of all of
// them. Trained by ridge regression (Eigen) on the polishing of training graphs
// (graphplace-cli train-moves), every simulated candidate a sample.
//
// The ranker file (JSON):
//   {"format": "graphplace-move-ranker", "version": 1,
//    "features": ["bias", "lead_share", ...],        // moveFeatureNames(), in order
//    "weights": {"family": [12 numbers], "alone": [...], "scope": [...], "fuse": [...], "priority": [...]},
//    "trained": {...}}                                 // what it was trained on and how it ranked (free form)
#pragma once
#include <array>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/move_features.h"

namespace gp {

// One simulated candidate: its features and the share of the step it took off (percent; 0 when
// it did not shorten the step or did not fit). `round` numbers the analysis it came from.
struct MoveSample {
  MoveGroup group = MoveGroup::Family;
  MoveFeatureRow x{};
  double gain = 0;
  int round = 0;
};

class MoveRanker {
 public:
  // The predicted gain (percent of the step) of a candidate.
  double score(MoveGroup group, const MoveFeatureRow& x) const;
  // Ridge regression per group (the bias not penalised), `lambda` per sample; a group with no
  // samples scores 0.
  static MoveRanker fit(const std::vector<MoveSample>& samples, double lambda = 1e-3);

  // Throws gp::Error(path, one line) for a missing or bad file, another format or version, or
  // features other than this version's.
  static MoveRanker load(const std::string& path);
  // Written atomically; `trained` is stored as it is.
  void save(const std::string& path, const nlohmann::json& trained = nlohmann::json::object()) const;

  const std::array<MoveFeatureRow, kMoveGroups>& weights() const { return w_; }

 private:
  std::array<MoveFeatureRow, kMoveGroups> w_{};
};

// The shipped ranker (resources/policies/move_ranker.json), or "" when there is none.
std::string defaultMoveRankerPath();

// How well a ranking picks a round's best candidates, over the rounds of `samples` in which some
// candidate shortened the step: `recall` = share of those rounds in which one of the `keep`
// candidates ranked first is (one of) the best; `captured` = mean over those rounds of the best
// gain among the kept candidates / the round's best gain.
struct RankingQuality {
  int rounds = 0;
  double recall = 0, captured = 0;
};
// `score(sample)` ranks the samples of each round, highest first (ties: the samples' order).
RankingQuality rankingQuality(const std::vector<MoveSample>& samples, int keep,
                                const std::function<double(const MoveSample&)>& score);

}  // namespace gp

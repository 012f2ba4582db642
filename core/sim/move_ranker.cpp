// The move ranker: see move_ranker.h.
#include "sim/move_ranker.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "base/error.h"
#include "base/file_text.h"
#include "base/json_text.h"
#include "base/resource_dir.h"

namespace gp {

namespace {
constexpr const char* kFormat = "graphplace-move-ranker";
constexpr int kVersion = 1;
}  // namespace

double MoveRanker::score(MoveGroup group, const MoveFeatureRow& x) const {
  const MoveFeatureRow& w = w_[static_cast<size_t>(group)];
  double s = 0;
  for (int i = 0; i < kMoveFeatures; ++i) s += w[i] * x[i];
  return s;
}

MoveRanker MoveRanker::fit(const std::vector<MoveSample>& samples, double lambda) {
  MoveRanker r;
  for (int grp = 0; grp < kMoveGroups; ++grp) {
    std::vector<const MoveSample*> own;
    for (const MoveSample& s : samples)
      if (static_cast<int>(s.group) == grp) own.push_back(&s);
    if (own.empty()) continue;
    const auto n = static_cast<Eigen::Index>(own.size());
    Eigen::MatrixXd x(n, kMoveFeatures);
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (int j = 0; j < kMoveFeatures; ++j) x(i, j) = own[i]->x[j];
      y(i) = own[i]->gain;
    }
    Eigen::MatrixXd a = x.transpose() * x;
    for (int j = 1; j < kMoveFeatures; ++j) a(j, j) += lambda * static_cast<double>(n);  // not the bias
    a(0, 0) += 1e-9 * static_cast<double>(n);
    const Eigen::VectorXd w = a.ldlt().solve(x.transpose() * y);
    for (int j = 0; j < kMoveFeatures; ++j) r.w_[grp][j] = std::isfinite(w(j)) ? w(j) : 0.0;
  }
  return r;
}

MoveRanker MoveRanker::load(const std::string& path) {
  const nlohmann::json j = parseJsonText(readFileText(path, "a move ranker file"), path);
  if (!j.is_object() || jsonString(j, "format") != kFormat)
    throw Error(path, std::string("not a move ranker file (\"format\" is not \"") + kFormat + "\")");
  if (jsonInteger(j, "version", 0, 1 << 30) != kVersion)
    throw Error(path, "move ranker file version " + (j.contains("version") ? j["version"].dump() : std::string("missing")) +
                          ", this version reads " + std::to_string(kVersion));
  const auto& names = moveFeatureNames();
  const auto features = j.find("features");
  bool same = features != j.end() && features->is_array() && features->size() == names.size();
  for (size_t i = 0; same && i < names.size(); ++i) same = (*features)[i].is_string() && (*features)[i] == names[i];
  if (!same) throw Error(path, "the ranker was trained on other features than this version's: train it again (train-moves)");
  const auto weights = j.find("weights");
  if (weights == j.end() || !weights->is_object()) throw Error(path, "\"weights\" must be an object");
  MoveRanker r;
  for (int grp = 0; grp < kMoveGroups; ++grp) {
    const char* name = moveGroupName(static_cast<MoveGroup>(grp));
    const auto w = weights->find(name);
    if (w == weights->end()) continue;  // a kind never seen in training scores 0
    if (!w->is_array() || w->size() != names.size())
      throw Error(path, std::string("weights.") + name + " must be " + std::to_string(names.size()) + " numbers");
    for (int i = 0; i < kMoveFeatures; ++i) {
      const auto& v = (*w)[static_cast<size_t>(i)];
      if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw Error(path, std::string("weights.") + name + "[" + std::to_string(i) + "] is not a finite number");
      r.w_[grp][i] = v.get<double>();
    }
  }
  return r;
}

void MoveRanker::save(const std::string& path, const nlohmann::json& trained) const {
  nlohmann::ordered_json j{{"format", kFormat}, {"version", kVersion}};
  j["features"] = moveFeatureNames();
  auto& w = j["weights"] = nlohmann::ordered_json::object();
  for (int grp = 0; grp < kMoveGroups; ++grp) w[moveGroupName(static_cast<MoveGroup>(grp))] = w_[grp];
  j["trained"] = trained;
  writeTextFileAtomically(path, j.dump(1) + "\n");
}

std::string defaultMoveRankerPath() { return findResourceFile("policies", "move_ranker.json"); }

RankingQuality rankingQuality(const std::vector<MoveSample>& samples, int keep,
                              const std::function<double(const MoveSample&)>& score) {
  std::map<int, std::vector<const MoveSample*>> rounds;
  for (const MoveSample& s : samples) rounds[s.round].push_back(&s);
  RankingQuality q;
  double recall = 0, captured = 0;
  for (auto& [round, all] : rounds) {
    double best = 0;
    for (const MoveSample* s : all) best = std::max(best, s->gain);
    if (best <= 0) continue;
    std::vector<double> scores;
    for (const MoveSample* s : all) scores.push_back(score(*s));
    std::vector<size_t> order(all.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return scores[x] > scores[y]; });
    double kept = 0;
    for (size_t i = 0; i < order.size() && i < static_cast<size_t>(std::max(keep, 0)); ++i)
      kept = std::max(kept, all[order[i]]->gain);
    ++q.rounds;
    recall += kept >= best * (1 - 1e-9);
    captured += kept / best;
  }
  if (q.rounds > 0) q.recall = recall / q.rounds, q.captured = captured / q.rounds;
  return q;
}

}  // namespace gp

// The move ranker (sim/move_ranker.h): the ridge fit recovers a known linear rule per kind of
// move, a ranker file round-trips and a bad one is a one-line error, the ranking quality is
// counted as hand-worked here, and the suggestions simulate candidates in a ranking's order, a
// chunk at a time until one helps (and no fusion the rules refuse).
#include "sim/move_ranker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "base/error.h"
#include "core/scattered_inception.h"
#include "sim/simulator.h"

using namespace gp;

namespace {

std::string tempFile(const std::string& name, const std::string& text) {
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(MoveRanker, RidgeFitRecoversALinearRulePerKind) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<MoveSample> samples;
  for (int i = 0; i < 400; ++i) {
    MoveSample s;
    s.group = i % 2 ? MoveGroup::Scope : MoveGroup::Priority;
    s.x[0] = 1;
    for (int j = 1; j < kMoveFeatures; ++j) s.x[j] = u(rng);
    // scopes: 2 x lead_share - transfer_change; priorities: 3 x waited_share + 0.5
    s.gain = s.group == MoveGroup::Scope ? 2 * s.x[1] - s.x[10] : 3 * s.x[2] + 0.5;
    samples.push_back(s);
  }
  const MoveRanker r = MoveRanker::fit(samples, 1e-9);
  const auto& scope = r.weights()[static_cast<size_t>(MoveGroup::Scope)];
  const auto& prio = r.weights()[static_cast<size_t>(MoveGroup::Priority)];
  EXPECT_NEAR(scope[1], 2, 1e-6);
  EXPECT_NEAR(scope[10], -1, 1e-6);
  EXPECT_NEAR(scope[0], 0, 1e-6);
  EXPECT_NEAR(prio[2], 3, 1e-6);
  EXPECT_NEAR(prio[0], 0.5, 1e-6);
  for (double w : r.weights()[static_cast<size_t>(MoveGroup::Fuse)]) EXPECT_EQ(w, 0);  // no samples: scores 0
  MoveFeatureRow x{};
  x[0] = 1, x[1] = 0.5, x[10] = 0.25;
  EXPECT_NEAR(r.score(MoveGroup::Scope, x), 0.75, 1e-6);

  const std::string path = (std::filesystem::temp_directory_path() / "gp_move_ranker_test.json").string();
  r.save(path, {{"note", "test"}});
  const MoveRanker back = MoveRanker::load(path);
  EXPECT_EQ(back.weights(), r.weights());
  std::filesystem::remove(path);
}

TEST(MoveRanker, ABadFileIsAOneLineError) {
  const auto expectError = [](const std::string& text, const std::string& part) {
    const std::string path = tempFile("gp_bad_ranker.json", text);
    try {
      MoveRanker::load(path);
      ADD_FAILURE() << "loaded: " << text;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_NE(what.find(part), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    std::filesystem::remove(path);
  };
  expectError("{", "not valid JSON");
  expectError(R"({"format": "graphplace-policy"})", "not a move ranker file");
  expectError(R"({"format": "graphplace-move-ranker", "version": 7})", "version 7");
  expectError(R"({"format": "graphplace-move-ranker", "version": 1, "features": ["bias"], "weights": {}})",
              "other features");
  std::string names;
  for (const char* n : moveFeatureNames()) names += std::string(names.empty() ? "" : ",") + "\"" + n + "\"";
  expectError(R"({"format": "graphplace-move-ranker", "version": 1, "features": [)" + names +
                  R"(], "weights": {"scope": [1, 2]}})",
              "weights.scope must be 12 numbers");
  expectError(R"({"format": "graphplace-move-ranker", "version": 1, "features": [)" + names +
                  R"(], "weights": {"fuse": [1,1,1,1,1,1,1,1,1,1,1,"x"]}})",
              "weights.fuse[11] is not a finite number");
  expectError(R"({"format": "graphplace-move-ranker", "version": 1, "features": [)" + names + R"(]})",
              "\"weights\" must be an object");
}

TEST(MoveRanker, RankingQualityCountsTheRoundsWhoseBestIsKept) {
  // round 0: gains 0, 4, 2 (best: the second); round 1: gains 1, 3; round 2: nothing helps (left out)
  std::vector<MoveSample> s(7);
  const double gains[] = {0, 4, 2, 1, 3, 0, 0};
  const int rounds[] = {0, 0, 0, 1, 1, 2, 2};
  for (size_t i = 0; i < s.size(); ++i) s[i].gain = gains[i], s[i].round = rounds[i], s[i].x[1] = static_cast<double>(i);
  // ranked by x[1] descending, keep 1: round 0 keeps the third (2 of 4), round 1 the second (3 of 3)
  const RankingQuality q = rankingQuality(s, 1, [](const MoveSample& m) { return m.x[1]; });
  EXPECT_EQ(q.rounds, 2);
  EXPECT_DOUBLE_EQ(q.recall, 0.5);
  EXPECT_DOUBLE_EQ(q.captured, (0.5 + 1.0) / 2);
  const RankingQuality all = rankingQuality(s, 3, [](const MoveSample& m) { return m.x[1]; });
  EXPECT_DOUBLE_EQ(all.recall, 1.0);
}

TEST(MoveRanker, TheSuggestionsSimulateOnlyTheCandidatesARankingKeeps) {
  const gptest::ScatteredInception t;
  const CostModel& cost = t.cost;
  const Plan& plan = t.plan;
  const Measurement& m = t.measured;
  const StepAnalysis& a = t.analysis;

  SuggestOptions all;
  all.measured = &m;
  std::vector<MoveSample> recorded;
  all.record = [&](const MoveSample& s) { recorded.push_back(s); };
  int triedAll = 0;
  suggestMoves(cost, plan, a, 8, all, &triedAll);
  ASSERT_GT(recorded.size(), 40u);  // every candidate drawn from the path, with its features

  const std::vector<MoveSample> allRecorded = recorded;
  // simulated ten at a time, best ranked first: the next ten only while none shortened the step
  const auto expectChunks = [&](const std::vector<MoveSample>& got) {
    ASSERT_GE(got.size(), 10u);
    EXPECT_TRUE(got.size() % 10 == 0 || got.size() == allRecorded.size()) << got.size();
    for (size_t i = 0; i + 10 < got.size(); ++i) {
      const size_t chunkEnd = (i / 10 + 1) * 10;
      if (chunkEnd < got.size()) {
        EXPECT_EQ(got[i].gain, 0) << i;  // a later chunk follows: nothing helped
      }
    }
  };
  // a ranker that wants priorities only: they are tried first
  MoveRanker byWait = MoveRanker::fit([&] {
    std::vector<MoveSample> s;
    for (MoveSample r : recorded) {
      r.gain = r.group == MoveGroup::Priority ? 10 : 0;
      s.push_back(r);
    }
    return s;
  }());
  SuggestOptions few = all;
  recorded.clear();
  few.ranker = &byWait;
  few.keep = 10;
  int triedFew = 0;
  suggestMoves(cost, plan, a, 8, few, &triedFew);
  expectChunks(recorded);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(recorded[i].group, MoveGroup::Priority) << i;
  EXPECT_LT(triedFew, triedAll);

  // without a ranker the first are those of the longest path kernels (waits, for priorities)
  few.ranker = nullptr;
  recorded.clear();
  suggestMoves(cost, plan, a, 8, few, nullptr);
  expectChunks(recorded);
  const auto pathTime = [](const MoveSample& s) { return s.group == MoveGroup::Priority ? s.x[2] : s.x[1]; };
  std::vector<double> times;
  for (const MoveSample& s : allRecorded) times.push_back(pathTime(s));
  std::sort(times.rbegin(), times.rend());
  for (size_t i = 0; i < 10; ++i) EXPECT_GE(pathTime(recorded[i]), times[9]) << i;

  // fusions the rules refuse are never tried
  SuggestOptions noFusion;
  noFusion.kinds = moveKindBit(PlanMove::Kind::Fuse);
  noFusion.allowFusion = [](const Plan&) { return false; };
  int tried = -1;
  EXPECT_TRUE(suggestMoves(cost, plan, a, 8, noFusion, &tried).empty());
  EXPECT_EQ(tried, 0);
}

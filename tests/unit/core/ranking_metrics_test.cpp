// TpuGraphs' ranking metrics against values worked out by hand (ties included) and against
// scipy.stats.kendalltau's tau-b on the same inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "costmodel/ranking_metrics.h"

using gp::kendallTau;
using gp::orderedPairAccuracy;
using gp::topKSlowdown;

TEST(RankingMetrics, KendallTauWithoutTies) {
  const std::vector<double> y{1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(kendallTau(y, std::vector<double>{10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(kendallTau(y, std::vector<double>{4, 3, 2, 1}), -1.0);
  // One swapped neighbour pair of 6 pairs: (5 - 1) / 6.
  EXPECT_DOUBLE_EQ(kendallTau(y, std::vector<double>{1, 3, 2, 4}), 4.0 / 6);
}

TEST(RankingMetrics, KendallTauBWithTies) {
  // measured 1, 2, 2, 3 / predicted 1, 2, 3, 3: 6 pairs; tied in measured: (2,3); in predicted:
  // (3,4). Concordant: (1,2) (1,3) (1,4) (2,4); the pair (2,3) is tied in x, (3,4) in y:
  // (4 - 0) / sqrt((6 - 1) * (6 - 1)) = 0.8 — scipy.stats.kendalltau([1,2,2,3], [1,2,3,3]) = 0.8.
  EXPECT_NEAR(kendallTau(std::vector<double>{1, 2, 2, 3}, std::vector<double>{1, 2, 3, 3}), 0.8, 1e-12);
  // scipy.stats.kendalltau([1,1,2,2], [1,2,1,2]) = 0.0; a constant side gives 0 (scipy: nan).
  EXPECT_NEAR(kendallTau(std::vector<double>{1, 1, 2, 2}, std::vector<double>{1, 2, 1, 2}), 0.0, 1e-12);
  EXPECT_EQ(kendallTau(std::vector<double>{1, 1, 1}, std::vector<double>{1, 2, 3}), 0.0);
  EXPECT_EQ(kendallTau(std::vector<double>{5}, std::vector<double>{7}), 0.0);
}

TEST(RankingMetrics, OrderedPairAccuracyCountsPredictedTiesAsWrong) {
  const std::vector<double> y{3, 1, 2};
  EXPECT_DOUBLE_EQ(orderedPairAccuracy(y, std::vector<double>{30, 10, 20}), 1.0);
  // Pairs with y_i > y_j: (3>1) (3>2) (2>1); predicted 5, 1, 5 gets (3>1), misses the tie (3,2),
  // gets (2>1): 2 / 3.
  EXPECT_DOUBLE_EQ(orderedPairAccuracy(y, std::vector<double>{5, 1, 5}), 2.0 / 3);
  EXPECT_DOUBLE_EQ(orderedPairAccuracy(std::vector<double>{2, 2}, std::vector<double>{1, 3}), 1.0);
}

TEST(RankingMetrics, TopKSlowdown) {
  const std::vector<double> y{4, 2, 8, 1};         // the best configuration is the last
  const std::vector<double> p{1, 2, 3, 4};         // predicted best first: y 4, then 2, 8, 1
  EXPECT_DOUBLE_EQ(topKSlowdown(y, p, 1), 3.0);    // 4 / 1 - 1
  EXPECT_DOUBLE_EQ(topKSlowdown(y, p, 2), 1.0);    // min(4, 2) / 1 - 1
  EXPECT_DOUBLE_EQ(topKSlowdown(y, p, 4), 0.0);
  EXPECT_DOUBLE_EQ(topKSlowdown(y, p, 99), 0.0);   // K clamped to n
  // Predicted ties are broken by position: the first of the tied configurations comes first.
  EXPECT_DOUBLE_EQ(topKSlowdown(y, std::vector<double>{1, 1, 1, 1}, 1), 3.0);
  EXPECT_EQ(topKSlowdown(std::vector<double>{}, std::vector<double>{}, 1), 0.0);
}

TEST(RankingMetrics, DifferentLengthsAreRefused) {
  EXPECT_THROW(kendallTau(std::vector<double>{1, 2}, std::vector<double>{1}), std::invalid_argument);
  EXPECT_THROW(orderedPairAccuracy(std::vector<double>{1}, std::vector<double>{}), std::invalid_argument);
  EXPECT_THROW(topKSlowdown(std::vector<double>{1}, std::vector<double>{1, 2}, 1), std::invalid_argument);
}

// RewardPlot: the RL optimizer's progress, one point per iteration (QCustomPlot): the mean and
// the best reward of the iteration's sampled plans and the best plan so far, with the best
// baseline and the lower bound as labelled horizontal lines, and the policy's zero-shot plan
// (reported before the first iteration) as a labelled diamond at iteration 0. The rounds that
// polish the best plan after the search are on a shaded, labelled band. Rewards are the optimizer's
// −√(step time ÷ lower bound): the lower bound is −1, higher is better; the labels give the
// step times in ms. Zoom with the wheel, pan by dragging, double-click to fit again.
//
//   plot->setReferenceLines({.lowerBound = 0.081, .bestBaseline = 0.112, .bestBaselineName = "m_etf"});
//   plot->addIteration(report);   // cheap: replots are coalesced (at most ~10 per second)
#pragma once
#include <QRectF>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include "optimize/optimize.h"

class QCustomPlot;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QPainter;

namespace gp {

struct RewardReferences {
  double lowerBound = 0;     // seconds; 0: unknown (no lines, no best-so-far curve)
  double bestBaseline = 0;   // seconds; 0: no baseline measured yet
  QString bestBaselineName;  // e.g. "m_etf"
};

class RewardPlot : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kReplotIntervalMs = 100;

  explicit RewardPlot(QWidget* parent = nullptr);

  void addIteration(const IterationReport& it);
  void setReferenceLines(const RewardReferences& refs);
  // Points per round rather than per iteration (a pre-training run's log): the axis and the
  // legend say "round", and the mean is always in view (it cannot dive to out-of-memory samples).
  void setPerRound(bool perRound);
  void clear();  // a new run: curves emptied, the view fits the data again
  // Paints the whole plot into `target` (PNG/SVG export), laid out at a readable size.
  void renderTo(QPainter* painter, const QRectF& target);

  // Figures shown, for tests.
  int pointCount() const { return static_cast<int>(iterations_.size()); }
  const QVector<double>& meanRewards() const { return mean_; }
  const QVector<double>& bestRewards() const { return best_; }
  double bestStepTime() const { return bestStep_; }  // seconds; 0 before a feasible plan
  double zeroShotStepTime() const { return zeroShotStep_; }  // seconds; 0 before the report
  bool zeroShotMarkerVisible() const;
  bool polishBandVisible() const;
  // The first and last polishing rounds on the x axis; 0 before polishing starts.
  double polishFrom() const { return polishFrom_; }
  double polishTo() const { return polishTo_; }
  const RewardReferences& references() const { return refs_; }
  // Reward of a step time against the lower bound (−√(step ÷ bound)); 0 without a bound.
  double rewardOf(double stepSeconds) const;
  bool baselineLineVisible() const;
  bool lowerBoundLineVisible() const;
  int replotCount() const { return replots_; }
  QCustomPlot* plot() const { return plot_; }
  void replotNow();  // a pending replot happens at once

 private:
  void scheduleReplot();
  void fitView();
  void updateReferenceItems();
  void updateBestCurve();
  void updateZeroShotMarker();
  void updatePolishBand();

  QCustomPlot* plot_;
  QCPGraph *meanGraph_, *bestGraph_, *bestSoFarGraph_, *zeroShotGraph_;
  QCPItemStraightLine *baselineLine_, *boundLine_;
  QCPItemText *baselineText_, *boundText_, *zeroShotText_, *polishText_;
  QCPItemRect* polishBand_;
  QTimer replotTimer_;
  RewardReferences refs_;
  QVector<double> iterations_, mean_, best_, bestSoFarStep_;
  double bestStep_ = 0;
  double zeroShotStep_ = 0;
  double polishFrom_ = 0, polishTo_ = 0;
  bool userView_ = false;  // zoomed or panned: the view no longer follows the data
  bool perRound_ = false;
  int replots_ = 0;
};

}  // namespace gp

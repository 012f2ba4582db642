#include "reward/reward_plot.h"

#include <qcustomplot.h>

#include <QLocale>
#include <QPainter>
#include <QPicture>
#include <algorithm>
#include <cmath>
#include <limits>

#include "plot_parts.h"

namespace gp {

namespace {

const QColor kMeanColor(70, 130, 180);
const QColor kBestColor(230, 145, 56);
const QColor kBestSoFarColor(46, 139, 87);
const QColor kBaselineColor(178, 34, 34);
const QColor kBoundColor(90, 90, 90);
const QColor kZeroShotColor(128, 0, 128);
const QColor kPolishColor(218, 165, 32);

QString ms(double seconds) {
  return QLocale().toString(seconds * 1e3, 'f', seconds < 0.1 ? 2 : 1);
}

}  // namespace

RewardPlot::RewardPlot(QWidget* parent)
    : QWidget(parent), plot_(fillWithPlot(this, QStringLiteral("rewardCustomPlot"))) {

  meanGraph_ = plot_->addGraph();
  meanGraph_->setName(tr("mean reward"));
  meanGraph_->setPen(QPen(kMeanColor, 1.5));
  meanGraph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
  bestGraph_ = plot_->addGraph();
  bestGraph_->setName(tr("best of the iteration"));
  bestGraph_->setPen(QPen(kBestColor, 1.5));
  bestGraph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
  bestSoFarGraph_ = plot_->addGraph();
  bestSoFarGraph_->setName(tr("best so far"));
  bestSoFarGraph_->setPen(QPen(kBestSoFarColor, 2.5));
  bestSoFarGraph_->setLineStyle(QCPGraph::lsStepLeft);

  zeroShotGraph_ = plot_->addGraph();
  zeroShotGraph_->setName(tr("zero-shot plan"));
  zeroShotGraph_->setLineStyle(QCPGraph::lsNone);
  zeroShotGraph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(kZeroShotColor, 1.5),
                                                  QBrush(kZeroShotColor), 10));
  zeroShotGraph_->setPen(QPen(kZeroShotColor));
  zeroShotGraph_->removeFromLegend();

  baselineLine_ = makeLine(plot_, kBaselineColor);
  boundLine_ = makeLine(plot_, kBoundColor);
  baselineText_ = makeLineLabel(plot_, kBaselineColor);
  boundText_ = makeLineLabel(plot_, kBoundColor);
  zeroShotText_ = new QCPItemText(plot_);
  zeroShotText_->position->setType(QCPItemPosition::ptPlotCoords);
  zeroShotText_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
  zeroShotText_->setColor(kZeroShotColor);
  zeroShotText_->setPadding(QMargins(6, 0, 2, 4));
  zeroShotText_->setVisible(false);
  // Polishing: a band behind the curves, from the first round to the last, the full height.
  polishBand_ = new QCPItemRect(plot_);
  polishBand_->setLayer(QStringLiteral("grid"));
  polishBand_->setPen(Qt::NoPen);
  QColor band = kPolishColor;
  band.setAlpha(50);
  polishBand_->setBrush(band);
  for (QCPItemPosition* p : {polishBand_->topLeft, polishBand_->bottomRight}) {
    p->setTypeX(QCPItemPosition::ptPlotCoords);
    p->setTypeY(QCPItemPosition::ptAxisRectRatio);
  }
  polishBand_->setVisible(false);
  polishText_ = new QCPItemText(plot_);
  polishText_->position->setTypeX(QCPItemPosition::ptPlotCoords);
  polishText_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  polishText_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);  // inside the band's end: in view
  polishText_->setColor(kPolishColor.darker(160));
  polishText_->setPadding(QMargins(4, 2, 2, 2));
  polishText_->setText(tr("polishing"));
  polishText_->setVisible(false);

  plot_->xAxis->setLabel(tr("iteration"));
  plot_->yAxis->setLabel(tr("reward"));
  setToolTip(
      tr("Reward of a plan: −√(step time ÷ lower bound). The lower bound is −1; higher is better.\n"
         "Wheel: zoom · drag: pan · double-click: fit"));
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // whole iterations only
  plot_->xAxis->setTicker(ticker);
  putLegendBelow(plot_, 2);  // two per row: fits a narrow dock
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  // Once the user zooms or pans, new points no longer move the view; a double click fits again.
  connect(plot_, &QCustomPlot::mousePress, this, [this] { userView_ = true; });
  connect(plot_, &QCustomPlot::mouseWheel, this, [this] { userView_ = true; });
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
    userView_ = false;
    scheduleReplot();
  });

  replotTimer_.setSingleShot(true);
  replotTimer_.setInterval(kReplotIntervalMs);
  connect(&replotTimer_, &QTimer::timeout, this, &RewardPlot::replotNow);
  setMinimumSize(260, 160);
  updateReferenceItems();
  fitView();
  plot_->replot();
}

double RewardPlot::rewardOf(double stepSeconds) const {
  if (refs_.lowerBound <= 0 || stepSeconds <= 0) return 0;
  return -std::sqrt(stepSeconds / refs_.lowerBound);
}

bool RewardPlot::baselineLineVisible() const {
  return baselineLine_->visible();
}
bool RewardPlot::lowerBoundLineVisible() const {
  return boundLine_->visible();
}

void RewardPlot::addIteration(const IterationReport& it) {
  if (it.zeroShot) {  // the policy's own plan, before the first iteration: a marker, not a point
    zeroShotStep_ = it.bestStepTime;
    if (it.bestStepTime > 0) bestStep_ = it.bestStepTime;
    updateZeroShotMarker();
    scheduleReplot();
    return;
  }
  const double x = it.iteration > 0 ? it.iteration : iterations_.size() + 1.0;
  iterations_ << x;
  mean_ << it.meanReward;
  best_ << it.bestReward;
  bestSoFarStep_ << it.bestStepTime;
  if (it.bestStepTime > 0) bestStep_ = it.bestStepTime;
  meanGraph_->addData(x, it.meanReward);
  bestGraph_->addData(x, it.bestReward);
  if (it.bestStepTime > 0 && refs_.lowerBound > 0) bestSoFarGraph_->addData(x, rewardOf(it.bestStepTime));
  if (it.polish) {
    if (polishFrom_ <= 0) polishFrom_ = x;
    polishTo_ = x;
    updatePolishBand();
  }
  scheduleReplot();
}

void RewardPlot::setReferenceLines(const RewardReferences& refs) {
  const bool boundChanged = refs.lowerBound != refs_.lowerBound;
  refs_ = refs;
  if (boundChanged) {
    updateBestCurve();
    updateZeroShotMarker();
  }
  updateReferenceItems();
  scheduleReplot();
}

void RewardPlot::clear() {
  iterations_.clear();
  mean_.clear();
  best_.clear();
  bestSoFarStep_.clear();
  bestStep_ = 0;
  zeroShotStep_ = 0;
  polishFrom_ = polishTo_ = 0;
  updatePolishBand();
  for (QCPGraph* g : {meanGraph_, bestGraph_, bestSoFarGraph_}) g->data()->clear();
  updateZeroShotMarker();
  userView_ = false;
  scheduleReplot();
}

void RewardPlot::updateBestCurve() {
  bestSoFarGraph_->data()->clear();
  if (refs_.lowerBound <= 0) return;
  for (qsizetype i = 0; i < iterations_.size(); ++i)
    if (bestSoFarStep_[i] > 0) bestSoFarGraph_->addData(iterations_[i], rewardOf(bestSoFarStep_[i]));
}

void RewardPlot::updateZeroShotMarker() {
  zeroShotGraph_->data()->clear();
  const bool show = zeroShotStep_ > 0 && refs_.lowerBound > 0;
  zeroShotText_->setVisible(show);
  if (!show) return;
  const double y = rewardOf(zeroShotStep_);
  zeroShotGraph_->addData(0, y);
  zeroShotText_->position->setCoords(0, y);
  zeroShotText_->setText(tr("zero-shot: %1 ms").arg(ms(zeroShotStep_)));
}

void RewardPlot::updatePolishBand() {
  const bool show = polishFrom_ > 0;
  polishBand_->setVisible(show);
  polishText_->setVisible(show);
  if (!show) return;
  polishBand_->topLeft->setCoords(polishFrom_ - 0.5, 0);
  polishBand_->bottomRight->setCoords(polishTo_ + 0.5, 1);
  polishText_->position->setCoords(polishTo_ + 0.5, 1);
}

bool RewardPlot::polishBandVisible() const {
  return polishBand_->visible() && polishText_->visible();
}

bool RewardPlot::zeroShotMarkerVisible() const {
  return zeroShotText_->visible() && !zeroShotGraph_->data()->isEmpty();
}

void RewardPlot::updateReferenceItems() {
  const bool hasBound = refs_.lowerBound > 0;
  const bool hasBaseline = hasBound && refs_.bestBaseline > 0;
  boundLine_->setVisible(hasBound);
  boundText_->setVisible(hasBound);
  baselineLine_->setVisible(hasBaseline);
  baselineText_->setVisible(hasBaseline);
  if (hasBound) {
    boundLine_->point1->setCoords(0, -1);
    boundLine_->point2->setCoords(1, -1);
    boundText_->position->setCoords(0.995, -1);
    boundText_->setText(tr("lower bound: %1 ms").arg(ms(refs_.lowerBound)));
  }
  if (hasBaseline) {
    const double y = rewardOf(refs_.bestBaseline);
    baselineLine_->point1->setCoords(0, y);
    baselineLine_->point2->setCoords(1, y);
    baselineText_->position->setCoords(0.995, y);
    baselineText_->setText(tr("best baseline %1: %2 ms").arg(refs_.bestBaselineName, ms(refs_.bestBaseline)));
  }
  bestSoFarGraph_->setName(bestStep_ > 0 ? tr("best so far: %1 ms").arg(ms(bestStep_)) : tr("best so far"));
}

void RewardPlot::setPerRound(bool perRound) {
  perRound_ = perRound;
  plot_->xAxis->setLabel(perRound ? tr("round") : tr("iteration"));
  bestGraph_->setName(perRound ? tr("best task of the round") : tr("best of the iteration"));
  meanGraph_->setName(perRound ? tr("mean over the round's tasks") : tr("mean reward"));
  if (perRound) bestSoFarGraph_->removeFromLegend();  // tasks' rewards do not add up to a best so far
  else bestSoFarGraph_->addToLegend();
  if (!userView_) fitView();
  scheduleReplot();
}

void RewardPlot::fitView() {
  const double n = std::max<double>(10, iterations_.isEmpty() ? 0 : iterations_.back());
  plot_->xAxis->setRange(zeroShotGraph_->data()->isEmpty() ? 0.5 : -0.5, n + 0.5);
  // The figures that matter: the best rewards, the best so far and the reference lines. The
  // mean may dive far below them (out-of-memory samples earn −10): it is shown down to as far
  // below the others as they span, the rest is a zoom away.
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  auto take = [&](double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (double v : best_) take(v);
  for (const QCPGraph* g : {bestSoFarGraph_, zeroShotGraph_})
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) take(it->value);
  if (refs_.lowerBound > 0) take(-1);
  if (baselineLine_->visible()) take(rewardOf(refs_.bestBaseline));
  if (!std::isfinite(lo)) {
    lo = -3;
    hi = -1;
  }
  double bottom = lo;
  for (double v : mean_) bottom = std::min(bottom, v);
  for (double v : mean_) hi = std::max(hi, v);
  const double span = std::max(hi - lo, 0.2);
  if (!perRound_) bottom = std::max(bottom, lo - span);
  const double pad = 0.06 * (hi - bottom + 1e-9);
  // Room above the top line for its label (about 18 px of the axis rect).
  const double px = std::max(80, plot_->axisRect()->height());
  const double perPx = (hi - bottom + 2 * pad) / px;
  plot_->yAxis->setRange(bottom - pad, hi + std::max(pad, 18 * perPx));
}

void RewardPlot::scheduleReplot() {
  if (!replotTimer_.isActive()) replotTimer_.start();
}

void RewardPlot::replotNow() {
  replotTimer_.stop();
  updateReferenceItems();
  if (!userView_) fitView();
  plot_->replot();
  ++replots_;
}

void RewardPlot::renderTo(QPainter* painter, const QRectF& target) {
  if (!painter || target.isEmpty()) return;
  replotNow();
  // Laid out at about 800 px wide, then scaled: fonts and lines keep their proportions.
  const double s = std::clamp(target.width() / 800.0, 1.0, 4.0);
  const int w = std::max(1, static_cast<int>(target.width() / s)),
            h = std::max(1, static_cast<int>(target.height() / s));
  QPicture picture;  // vector commands: an SVG export stays vector
  {
    QCPPainter qp(&picture);
    plot_->toPainter(&qp, w, h);
  }
  painter->save();
  painter->translate(target.topLeft());
  painter->scale(s, s);
  painter->drawPicture(0, 0, picture);
  painter->restore();
  plot_->replot(QCustomPlot::rpQueuedReplot);  // lay out again at the widget's own size
}

}  // namespace gp

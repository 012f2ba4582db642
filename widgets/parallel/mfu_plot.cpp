#include "parallel/mfu_plot.h"

#include <qcustomplot.h>

#include <algorithm>

#include "plot_parts.h"

namespace gp {

namespace {
const QColor kEpisodeColor(70, 130, 180, 150);
const QColor kBestColor(46, 139, 87);
const QColor kRefColor(178, 34, 34);
}  // namespace

MfuPlot::MfuPlot(QWidget* parent) : QWidget(parent), plot_(fillWithPlot(this, QStringLiteral("mfuCustomPlot"))) {
  episodes_ = plot_->addGraph();
  episodes_->setName(tr("episode's plan"));
  episodes_->setLineStyle(QCPGraph::lsNone);
  episodes_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kEpisodeColor, 3));
  episodes_->setPen(QPen(kEpisodeColor));
  bestGraph_ = plot_->addGraph();
  bestGraph_->setName(tr("best so far"));
  bestGraph_->setPen(QPen(kBestColor, 2.5));
  bestGraph_->setLineStyle(QCPGraph::lsStepLeft);
  refLine_ = makeLine(plot_, kRefColor);
  refText_ = makeLineLabel(plot_, kRefColor);
  refLine_->setVisible(false);
  refText_->setVisible(false);

  plot_->xAxis->setLabel(tr("episode"));
  plot_->yAxis->setLabel(tr("MFU %"));
  putLegendBelow(plot_, 0);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  connect(plot_, &QCustomPlot::mousePress, this, [this] { userView_ = true; });
  connect(plot_, &QCustomPlot::mouseWheel, this, [this] { userView_ = true; });
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
    userView_ = false;
    replotNow();
  });
  setToolTip(
      tr("Model FLOPs utilisation of each plan the DQN tried (0 when it does not fit) and the best so far.\n"
         "Wheel: zoom · drag: pan · double-click: fit"));
  replotTimer_.setSingleShot(true);
  replotTimer_.setInterval(100);
  connect(&replotTimer_, &QTimer::timeout, this, &MfuPlot::replotNow);
  setMinimumSize(220, 140);
  fitView();
  plot_->replot();
}

void MfuPlot::addEpisode(const DqnEpisodeReport& r) {
  ++points_;
  lastEpisode_ = std::max(lastEpisode_, r.episode);
  best_ = std::max(best_, r.bestReward);
  top_ = std::max(top_, r.reward);
  episodes_->addData(r.episode, 100 * r.reward);
  bestGraph_->addData(r.episode, 100 * r.bestReward);
  if (!replotTimer_.isActive()) replotTimer_.start();
}

void MfuPlot::clear() {
  episodes_->data()->clear();
  bestGraph_->data()->clear();
  points_ = lastEpisode_ = 0;
  best_ = top_ = 0;
  userView_ = false;
  replotNow();
}

void MfuPlot::setReference(double mfu, const QString& label) {
  ref_ = mfu;
  refLine_->setVisible(mfu > 0);
  refText_->setVisible(mfu > 0);
  refLine_->point1->setCoords(0, 100 * mfu);
  refLine_->point2->setCoords(1, 100 * mfu);
  refText_->position->setCoords(0.98, 100 * mfu);
  refText_->setText(label);
  replotNow();
}

void MfuPlot::fitView() {
  plot_->xAxis->setRange(0, std::max(10, lastEpisode_ + 1));
  plot_->yAxis->setRange(0, std::max(5.0, 100 * std::max({top_, best_, ref_}) * 1.15));
}

void MfuPlot::replotNow() {
  replotTimer_.stop();
  if (!userView_) fitView();
  plot_->replot();
}

}  // namespace gp

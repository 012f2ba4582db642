#include "op_type_chart.h"

#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace gp {

OpTypeChart::OpTypeChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  bars_ = new QCPBars(plot_->yAxis, plot_->xAxis);  // horizontal bars: long op-type names fit
  bars_->setBrush(QColor(70, 130, 180));
  bars_->setPen(Qt::NoPen);
  plot_->yAxis->setRangeReversed(true);
  plot_->xAxis->setLabel(tr("ops"));
  setMinimumSize(320, 240);
}

void OpTypeChart::setGraph(const Graph& g, Measure measure, int maxBars) {
  std::vector<double> perType(g.opTypeNames().size(), 0.0);
  for (OpId op = 0; op < g.numOps(); ++op)
    perType[g.opTypeId(op)] += measure == Measure::OpCount ? 1.0 : g.flops(op);
  std::vector<int> order(perType.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return perType[a] != perType[b] ? perType[a] > perType[b] : g.opTypeNames()[a] < g.opTypeNames()[b];
  });
  labels_.clear();
  values_.clear();
  double other = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    if (static_cast<int>(i) < maxBars) {
      labels_ << QString::fromStdString(g.opTypeNames()[order[i]]);
      values_ << perType[order[i]];
    } else {
      other += perType[order[i]];
    }
  }
  if (other > 0) {
    labels_ << tr("other");
    values_ << other;
  }
  QVector<double> ticks;
  for (int i = 0; i < values_.size(); ++i) ticks << i + 1;
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  ticker->addTicks(ticks, labels_);
  plot_->yAxis->setTicker(ticker);
  plot_->yAxis->setRange(0.3, values_.size() + 0.7);
  bars_->setData(ticks, values_, true);
  const double top = values_.isEmpty() ? 1.0 : *std::max_element(values_.begin(), values_.end());
  plot_->xAxis->setRange(0, top * 1.08);
  plot_->xAxis->setLabel(measure == Measure::OpCount ? tr("ops") : tr("FLOPs"));
  plot_->replot();
}

int OpTypeChart::barCount() const { return bars_->dataCount(); }
QStringList OpTypeChart::labels() const { return labels_; }
QVector<double> OpTypeChart::values() const { return values_; }

}  // namespace gp

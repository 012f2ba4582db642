#include "costmodel/cost_scatter_plot.h"

#include <qcustomplot.h>

#include <QHelpEvent>
#include <QLocale>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "plot_parts.h"

namespace gp {

namespace {

const QColor kLearnedColor(31, 119, 180);
const QColor kRooflineColor(230, 120, 20);
const QColor kDiagonalColor(90, 96, 110);
constexpr double kHoverPixels = 8;

// Decades of seconds labelled as times ("10 µs") instead of "1e-05".
class SecondsLogTicker : public QCPAxisTickerLog {
 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override { return CostScatterPlot::secondsText(tick); }
};

void styleAxis(QCPAxis* axis, const QString& label) {
  axis->setScaleType(QCPAxis::stLogarithmic);
  auto ticker = QSharedPointer<SecondsLogTicker>::create();
  ticker->setLogBase(10);
  ticker->setSubTickCount(8);
  axis->setTicker(ticker);
  axis->setLabel(label);
  axis->grid()->setSubGridVisible(true);
  QPen sub = axis->grid()->subGridPen();
  sub.setColor(QColor(225, 228, 234));
  axis->grid()->setSubGridPen(sub);
}

QString ratioText(double predicted, double measured) {
  return QStringLiteral("×%1").arg(QLocale().toString(predicted / measured, 'g', 3));
}

}  // namespace

CostScatterPlot::CostScatterPlot(QWidget* parent)
    : QWidget(parent), plot_(fillWithPlot(this, QStringLiteral("costScatterCustomPlot"))) {
  diagonal_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
  diagonal_->setName(tr("y = x (exact)"));
  diagonal_->setPen(QPen(kDiagonalColor, 1.2, Qt::DashLine));
  diagonal_->setData({1e-12, 1e6}, {1e-12, 1e6});
  const QString names[2] = {tr("learned model"), tr("fitted roofline")};
  const QColor colors[2] = {kLearnedColor, kRooflineColor};
  const QCPScatterStyle::ScatterShape shapes[2] = {QCPScatterStyle::ssDisc, QCPScatterStyle::ssTriangle};
  for (int s = 0; s < 2; ++s) {
    series_[s] = plot_->addGraph();
    series_[s]->setName(names[s]);
    series_[s]->setLineStyle(QCPGraph::lsNone);
    QColor fill = colors[s];
    fill.setAlpha(150);
    series_[s]->setScatterStyle(QCPScatterStyle(shapes[s], colors[s], fill, 6));
    series_[s]->setPen(QPen(colors[s]));
    series_[s]->setAdaptiveSampling(false);  // every point stays hoverable
  }
  styleAxis(plot_->xAxis, tr("measured time on this CPU"));
  styleAxis(plot_->yAxis, tr("predicted time"));
  putLegendBelow(plot_, 0);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { replotNow(); });
  plot_->installEventFilter(this);
  setMinimumSize(320, 260);
  fitView();
  plot_->replot();
}

QString CostScatterPlot::secondsText(double seconds) {
  const QLocale loc;
  const double a = std::fabs(seconds);
  if (a >= 1) return tr("%1 s").arg(loc.toString(seconds, 'g', 3));
  if (a >= 1e-3) return tr("%1 ms").arg(loc.toString(seconds * 1e3, 'g', 3));
  if (a >= 1e-6) return tr("%1 µs").arg(loc.toString(seconds * 1e6, 'g', 3));
  return tr("%1 ns").arg(loc.toString(seconds * 1e9, 'g', 3));
}

void CostScatterPlot::setPoints(std::vector<CostScatterPoint> points) {
  points_ = std::move(points);
  for (int s = 0; s < 2; ++s) {
    QVector<double> x, y;
    for (const CostScatterPoint& p : points_) {
      const double v = valueOf(static_cast<Series>(s), p);
      if (!(p.measured > 0) || !std::isfinite(v) || v <= 0) continue;
      x.push_back(p.measured);
      y.push_back(v);
    }
    series_[s]->setData(x, y);
  }
  replotNow();
}

void CostScatterPlot::clear() { setPoints({}); }

int CostScatterPlot::seriesCount() const { return 2; }

int CostScatterPlot::pointCount(Series s) const { return series_[s]->dataCount(); }

void CostScatterPlot::fitView() {
  double lo = INFINITY, hi = 0;
  for (const CostScatterPoint& p : points_)
    for (double v : {p.measured, p.learned, p.roofline})
      if (std::isfinite(v) && v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!(hi > 0)) lo = 1e-6, hi = 1e-2;
  lo /= 1.6, hi *= 1.6;
  if (hi / lo < 100) {  // two decades at least, so the log ticks label something
    const double mid = std::sqrt(lo * hi);
    lo = mid / 10, hi = mid * 10;
  }
  plot_->xAxis->setRange(lo, hi);
  plot_->yAxis->setRange(lo, hi);
}

void CostScatterPlot::replotNow() {
  fitView();
  plot_->replot();
}

QPoint CostScatterPlot::pointPosition(Series s, int index) const {
  if (index < 0 || index >= static_cast<int>(points_.size())) return {};
  const CostScatterPoint& p = points_[static_cast<size_t>(index)];
  return series_[s]->coordsToPixels(p.measured, valueOf(s, p)).toPoint();
}

QString CostScatterPlot::toolTipAt(const QPoint& pos) const {
  int best = -1;
  double bestDistance = kHoverPixels;
  for (int s = 0; s < 2; ++s)
    for (size_t i = 0; i < points_.size(); ++i) {
      const CostScatterPoint& p = points_[i];
      const double v = valueOf(static_cast<Series>(s), p);
      if (!(p.measured > 0) || !std::isfinite(v) || v <= 0) continue;
      const QPointF at = series_[s]->coordsToPixels(p.measured, v);
      const double d = std::hypot(at.x() - pos.x(), at.y() - pos.y());
      if (d <= bestDistance) bestDistance = d, best = static_cast<int>(i);
    }
  if (best < 0) return {};
  const CostScatterPoint& p = points_[static_cast<size_t>(best)];
  QString text = p.kernel + QLatin1Char('\n') + p.config + QLatin1Char('\n') +
                 tr("measured: %1").arg(secondsText(p.measured));
  if (std::isfinite(p.learned) && p.learned > 0)
    text += QLatin1Char('\n') +
            tr("learned model: %1 (%2)").arg(secondsText(p.learned), ratioText(p.learned, p.measured));
  if (std::isfinite(p.roofline) && p.roofline > 0)
    text += QLatin1Char('\n') +
            tr("fitted roofline: %1 (%2)").arg(secondsText(p.roofline), ratioText(p.roofline, p.measured));
  return text;
}

bool CostScatterPlot::eventFilter(QObject* watched, QEvent* e) {
  if (watched != plot_ || e->type() != QEvent::ToolTip) return QWidget::eventFilter(watched, e);
  auto* help = static_cast<QHelpEvent*>(e);
  const QString text = toolTipAt(help->pos());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(help->globalPos(), text, plot_);
  return true;
}

}  // namespace gp

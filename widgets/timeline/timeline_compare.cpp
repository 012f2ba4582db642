#include "timeline/timeline_compare.h"

#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

#include "timeline/timeline_view.h"

namespace gp {

namespace {
QLabel* makeCaption(const QString& name, QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setObjectName(name);
  l->setTextFormat(Qt::PlainText);
  l->setStyleSheet(QStringLiteral("QLabel { font-weight: bold; padding: 2px 6px; }"));
  l->hide();
  return l;
}
}  // namespace

TimelineCompare::TimelineCompare(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  splitter_ = new QSplitter(Qt::Vertical, this);
  splitter_->setChildrenCollapsible(false);
  layout->addWidget(splitter_);

  auto* simPanel = new QWidget(splitter_);
  auto* simLayout = new QVBoxLayout(simPanel);
  simLayout->setContentsMargins(0, 0, 0, 0);
  simLayout->setSpacing(0);
  simulatedCaption_ = makeCaption(QStringLiteral("simulatedCaption"), simPanel);
  simulated_ = new TimelineView(simPanel);
  simulated_->setObjectName(QStringLiteral("simulatedTimeline"));
  simLayout->addWidget(simulatedCaption_);
  simLayout->addWidget(simulated_, 1);

  measuredPanel_ = new QWidget(splitter_);
  auto* measLayout = new QVBoxLayout(measuredPanel_);
  measLayout->setContentsMargins(0, 0, 0, 0);
  measLayout->setSpacing(0);
  measuredCaption_ = makeCaption(QStringLiteral("measuredCaption"), measuredPanel_);
  measuredCaption_->show();
  measured_ = new TimelineView(measuredPanel_);
  measured_->setObjectName(QStringLiteral("measuredTimeline"));
  measLayout->addWidget(measuredCaption_);
  measLayout->addWidget(measured_, 1);
  splitter_->addWidget(simPanel);
  splitter_->addWidget(measuredPanel_);
  measuredPanel_->hide();

  for (TimelineView* v : {simulated_, measured_}) {
    connect(v, &TimelineView::selectionChanged, this, [this, v](const std::vector<OpId>& ops) {
      // the other view shows the same ops selected
      (v == simulated_ ? measured_ : simulated_)->setSelectedOps(ops);
      Q_EMIT selectionChanged(ops);
    });
    connect(v, &TimelineView::visibleTimeRangeChanged, this,
            [this, v](double start, double end) { follow(v, start, end); });
  }
}

void TimelineCompare::follow(TimelineView* from, double start, double end) {
  if (!hasMeasured_ || syncing_) return;
  syncing_ = true;
  (from == simulated_ ? measured_ : simulated_)->setVisibleTimeRange(start, end);
  syncing_ = false;
}

void TimelineCompare::setMeasured(std::shared_ptr<const Graph> g, const Cluster& c, const Measurement& measured,
                                  const QString& simulatedCaption, const QString& measuredCaption) {
  measured_->setData(std::move(g), c, measured);
  measured_->setSelectedOps(simulated_->selectedOps());
  simulatedCaption_->setText(simulatedCaption);
  measuredCaption_->setText(measuredCaption);
  simulatedCaption_->show();
  measuredPanel_->show();
  hasMeasured_ = true;
  const int h = std::max(2, splitter_->height());
  splitter_->setSizes({h / 2, h - h / 2});
  syncAxes();
}

void TimelineCompare::clearMeasured() {
  if (!hasMeasured_) return;
  hasMeasured_ = false;
  measured_->clear();
  measuredPanel_->hide();
  simulatedCaption_->hide();
  simulatedCaption_->clear();
  measuredCaption_->clear();
  simulated_->setTimeExtent(0);
  simulated_->setMinLabelWidth(0);
  simulated_->zoomToFit();
}

QString TimelineCompare::simulatedCaption() const {
  return hasMeasured_ ? simulatedCaption_->text() : QString();
}
QString TimelineCompare::measuredCaption() const {
  return hasMeasured_ ? measuredCaption_->text() : QString();
}

void TimelineCompare::setSelectedOps(const std::vector<OpId>& ops) {
  simulated_->setSelectedOps(ops);
  if (hasMeasured_) measured_->setSelectedOps(ops);
}

void TimelineCompare::zoomToFit() {
  simulated_->zoomToFit();  // the measured view follows
  if (hasMeasured_) measured_->zoomToFit();
}

void TimelineCompare::syncAxes() {
  if (!hasMeasured_) {
    simulated_->setTimeExtent(0);
    simulated_->setMinLabelWidth(0);
    return;
  }
  const double extent = std::max(simulated_->endTime(), measured_->endTime());
  const double labels = std::max(simulated_->naturalLabelWidth(), measured_->naturalLabelWidth());
  for (TimelineView* v : {simulated_, measured_}) {
    v->setTimeExtent(extent);
    v->setMinLabelWidth(labels);
  }
  zoomToFit();
}

void TimelineCompare::renderTo(QPainter* painter, const QRectF& target) {
  if (!painter || target.isEmpty()) return;
  if (!hasMeasured_) return simulated_->renderTo(painter, target);
  // One scale for both (each view scales its natural height into its rectangle), so that the
  // label columns and the time axes line up.
  const double caption = 2.0 * QFontMetricsF(font()).height();
  auto natural = [](const TimelineView* v) { return std::max(60.0, static_cast<double>(v->contentHeight())); };
  const double hs = natural(simulated_), hm = natural(measured_);
  const double s = target.height() / (hs + hm + 2 * caption);
  double y = target.top();
  for (auto [view, label] : {std::pair{simulated_, simulatedCaption_}, std::pair{measured_, measuredCaption_}}) {
    painter->save();
    painter->translate(target.left(), y);
    painter->scale(s, s);
    painter->fillRect(QRectF(0, 0, target.width() / s, caption), palette().window());
    QFont f = font();
    f.setBold(true);
    painter->setFont(f);
    painter->setPen(palette().windowText().color());
    painter->drawText(QRectF(6, 0, target.width() / s - 12, caption), Qt::AlignVCenter | Qt::AlignLeft, label->text());
    painter->restore();
    y += caption * s;
    const double h = natural(view) * s;
    view->renderTo(painter, QRectF(target.left(), y, target.width(), h));
    y += h;
  }
}

}  // namespace gp

#include "panels/device_legend.h"

#include <QPaintEvent>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QToolTip>
#include <algorithm>

#include "device_colors.h"

namespace gp {

namespace {
constexpr int kMargin = 4;
constexpr int kSwatch = 12;
constexpr int kPad = 6;
}  // namespace

DeviceLegend::DeviceLegend(QWidget* parent) : QWidget(parent) {
  setAcceptDrops(true);
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void DeviceLegend::setDevices(const QStringList& names) {
  names_ = names;
  measureNames();
  counts_.assign(static_cast<size_t>(names.size()), 0);
  updateCountTexts();
  setFilter(filter_);  // rows: the devices whose name matches
}

void DeviceLegend::measureNames() {
  const QFontMetrics fm(font());
  maxNameWidth_ = 0;
  for (const QString& n : names_) maxNameWidth_ = std::max(maxNameWidth_, fm.horizontalAdvance(n));
}

void DeviceLegend::setOpCounts(const std::vector<int>& opsPerDevice) {
  counts_.assign(names_.size(), 0);
  std::copy_n(opsPerDevice.begin(), std::min(opsPerDevice.size(), counts_.size()), counts_.begin());
  updateCountTexts();
  updateGeometry();
  update();
}

void DeviceLegend::updateCountTexts() {
  total_ = 0;
  for (int c : counts_) total_ += c;
  // The widest count text from the distinct counts (a large cluster's devices mostly hold 0).
  const QFontMetrics fm(font());
  std::vector<int> distinct(counts_.begin(), counts_.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  maxCountWidth_ = 0;
  for (int c : distinct) maxCountWidth_ = std::max(maxCountWidth_, fm.horizontalAdvance(tr("%Ln ops", nullptr, c)));
}

QRect DeviceLegend::countRect(const QRect& row) const {
  return {row.right() - kPad - maxCountWidth_, row.top(), maxCountWidth_, row.height()};
}

QRect DeviceLegend::nameRect(const QRect& row) const {
  const int left = row.left() + kPad + kSwatch + kPad;
  return {left, row.top(), countRect(row).left() - left - kPad, row.height()};
}

void DeviceLegend::resizeEvent(QResizeEvent*) { update(); }

QString DeviceLegend::countText(int device) const {
  return device >= 0 && static_cast<size_t>(device) < counts_.size() ? tr("%Ln ops", nullptr, counts_[static_cast<size_t>(device)])
                                                                    : QString();
}

int DeviceLegend::rowHeight() const {
  return QFontMetrics(font()).height() + 8;
}

QRect DeviceLegend::rowRect(int device) const {
  if (device < 0 || device >= deviceCount() || rowOf_[static_cast<size_t>(device)] < 0) return {};
  return {kMargin, kMargin + rowOf_[static_cast<size_t>(device)] * rowHeight(), width() - 2 * kMargin, rowHeight()};
}

int DeviceLegend::rowAt(const QPoint& pos) const {
  if (pos.x() < 0 || pos.x() >= width() || pos.y() < kMargin) return -1;
  const int row = (pos.y() - kMargin) / rowHeight();
  return row < shownCount() ? shown_[static_cast<size_t>(row)] : -1;
}

void DeviceLegend::setFilter(const QString& text) {
  filter_ = text;
  shown_.clear();
  rowOf_.assign(names_.size(), -1);
  for (int d = 0; d < deviceCount(); ++d)
    if (filter_.isEmpty() || names_[d].contains(filter_, Qt::CaseInsensitive)) {
      rowOf_[static_cast<size_t>(d)] = static_cast<int>(shown_.size());
      shown_.push_back(d);
    }
  hoverRow_ = dropRow_ = -1;
  updateGeometry();
  update();
}

QSize DeviceLegend::sizeHint() const {
  const int nameW = maxNameWidth_;
  const int w = 2 * kMargin + kPad + kSwatch + kPad + nameW + 3 * kPad + maxCountWidth_ + kPad;
  return {std::max(w, 160), 2 * kMargin + std::max(1, shownCount()) * rowHeight()};
}

QSize DeviceLegend::minimumSizeHint() const {
  return {100, sizeHint().height()};
}

void DeviceLegend::paintEvent(QPaintEvent* event) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QPalette& pal = palette();
  const int rh = rowHeight();
  // Only the rows in the exposed part (the legend scrolls: thousands of rows at cluster scale).
  const int firstRow = std::max(0, (event->rect().top() - kMargin) / rh);
  const int lastRow = std::min(shownCount() - 1, (event->rect().bottom() - kMargin) / rh);
  for (int row = firstRow; row <= lastRow; ++row) {
    const int d = shown_[static_cast<size_t>(row)];
    const QRect r = rowRect(d);
    const QColor c = deviceColor(d);
    // Share of the ops as a faint bar behind the row.
    if (total_ > 0 && counts_[static_cast<size_t>(d)] > 0) {
      QColor share = c;
      share.setAlpha(40);
      const int w =
          std::max(2, static_cast<int>(r.width() * static_cast<double>(counts_[static_cast<size_t>(d)]) / total_));
      p.fillRect(QRect(r.left(), r.top() + 1, w, r.height() - 2), share);
    }
    if (d == dropRow_) {
      QColor fill = c;
      fill.setAlpha(70);
      p.setPen(QPen(c.darker(120), 2));
      p.setBrush(fill);
      p.drawRoundedRect(QRectF(r).adjusted(1, 1, -1, -1), 4, 4);
    } else if (d == hoverRow_) {
      p.fillRect(r, pal.color(QPalette::Highlight).lighter(190));
    }
    // Swatch, name, count (right-aligned).
    const QRectF sw(r.left() + kPad, r.top() + (rh - kSwatch) / 2.0, kSwatch, kSwatch);
    p.setPen(QPen(c.darker(130), 1));
    p.setBrush(c);
    p.drawRoundedRect(sw, 2, 2);
    p.setPen(pal.color(QPalette::Text));
    if (d == dropRow_ && !dropPreview_.isEmpty()) {  // the preview replaces the count; the name yields room
      QFont bold = font();
      bold.setBold(true);
      p.setFont(bold);
      const QRect text = QRect(nameRect(r).left(), r.top(), r.right() - kPad - nameRect(r).left(), r.height());
      const int w = QFontMetrics(bold).horizontalAdvance(dropPreview_);
      p.drawText(text, Qt::AlignVCenter | Qt::AlignRight, dropPreview_);
      p.setFont(font());
      const QRect name = text.adjusted(0, 0, -(w + 2 * kPad), 0);
      if (d < names_.size() && name.width() > 0)
        p.drawText(name, Qt::AlignVCenter | Qt::AlignLeft, fontMetrics().elidedText(names_[d], Qt::ElideRight, name.width()));
      continue;
    }
    if (d < names_.size())  // elided for the rows painted only
      p.drawText(nameRect(r), Qt::AlignVCenter | Qt::AlignLeft,
                 fontMetrics().elidedText(names_[d], Qt::ElideMiddle, nameRect(r).width()));
    if (static_cast<size_t>(d) < counts_.size()) {
      p.setPen(pal.color(counts_[static_cast<size_t>(d)] > 0 ? QPalette::Text : QPalette::PlaceholderText));
      p.drawText(countRect(r), Qt::AlignVCenter | Qt::AlignRight, countText(d));
    }
  }
}

bool DeviceLegend::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int d = rowAt(help->pos());
    if (d < 0) {
      QToolTip::hideText();
      event->ignore();
      return true;
    }
    const int n = counts_[static_cast<size_t>(d)];
    const double pct = total_ > 0 ? 100.0 * n / total_ : 0.0;
    QToolTip::showText(help->globalPos(),
                       tr("%1: %2 ops (%3 %)\nDrop ops here to move them to %1; double-click to select its ops.")
                           .arg(names_[d], QLocale().toString(n), QLocale().toString(pct, 'f', 1)),
                       this, rowRect(d));
    return true;
  }
  return QWidget::event(event);
}

void DeviceLegend::mouseMoveEvent(QMouseEvent* event) {
  const int row = rowAt(event->position().toPoint());
  if (row != hoverRow_) {
    hoverRow_ = row;
    update();
  }
}

void DeviceLegend::leaveEvent(QEvent*) {
  hoverRow_ = -1;
  update();
}

void DeviceLegend::mouseDoubleClickEvent(QMouseEvent* event) {
  const int row = rowAt(event->position().toPoint());
  if (row >= 0 && event->button() == Qt::LeftButton) Q_EMIT deviceActivated(row);
}

void DeviceLegend::setDropRow(int row) {
  if (row == dropRow_) return;
  dropRow_ = row;
  dropPreview_.clear();
  update();
}

void DeviceLegend::setDropPreview(int device, const QString& text) {
  if (device != dropRow_ || text == dropPreview_) return;
  dropPreview_ = text;
  update();
}

void DeviceLegend::dragEnterEvent(QDragEnterEvent* event) {
  if (!event->mimeData()->hasFormat(kOpsMimeType)) return event->ignore();
  event->acceptProposedAction();
  const int row = rowAt(event->position().toPoint());
  setDropRow(row);
  if (row >= 0) Q_EMIT dropHovered(opsFromMime(event->mimeData()), row);
}

void DeviceLegend::dragMoveEvent(QDragMoveEvent* event) {
  const int row = event->mimeData()->hasFormat(kOpsMimeType) ? rowAt(event->position().toPoint()) : -1;
  const bool entered = row != dropRow_;
  setDropRow(row);
  if (entered && row >= 0) Q_EMIT dropHovered(opsFromMime(event->mimeData()), row);
  if (row >= 0)
    event->acceptProposedAction();
  else
    event->ignore();
}

void DeviceLegend::dragLeaveEvent(QDragLeaveEvent*) {
  setDropRow(-1);
}

void DeviceLegend::dropEvent(QDropEvent* event) {
  const int row = rowAt(event->position().toPoint());
  setDropRow(-1);
  std::vector<OpId> ops = opsFromMime(event->mimeData());
  if (row < 0 || ops.empty()) return event->ignore();
  event->acceptProposedAction();
  Q_EMIT assignRequested(ops, row);
}

void DeviceLegend::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) {
    measureNames();
    updateCountTexts();
    updateGeometry();
  }
  QWidget::changeEvent(event);
}

}  // namespace gp

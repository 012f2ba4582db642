#include "panels/device_legend.h"

#include <QPaintEvent>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFontMetrics>
#include <QHash>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPolygonF>
#include <QTimer>
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
  springTimer_ = new QTimer(this);
  springTimer_->setSingleShot(true);
  springTimer_->setInterval(kSpringOpenMs);
  connect(springTimer_, &QTimer::timeout, this, [this] {
    if (springServer_ >= 0) setServerExpanded(springServer_, true);
    springServer_ = -1;
  });
}

void DeviceLegend::springOpen(int server) {
  if (server == springServer_) return;
  springServer_ = server >= 0 && !isServerExpanded(server) ? server : -1;
  if (springServer_ >= 0)
    springTimer_->start();
  else
    springTimer_->stop();
}

void DeviceLegend::setDevices(const QStringList& names) {
  names_ = names;
  counts_.assign(static_cast<size_t>(names.size()), 0);
  groupByServer();
  measureNames();
  userExpanded_ = false;
  updateCountTexts();
  setFilter(filter_);  // rows: the devices whose name matches
}

void DeviceLegend::groupByServer() {
  serverOf_.assign(static_cast<size_t>(names_.size()), 0);
  serverNames_.clear();
  serverDevices_.clear();
  QHash<QString, int> index;
  for (int d = 0; d < deviceCount(); ++d) {
    const qsizetype slash = names_[d].lastIndexOf(QLatin1Char('/'));
    const QString server = slash < 0 ? QString() : names_[d].left(slash);
    auto it = index.find(server);
    if (it == index.end()) {
      it = index.insert(server, static_cast<int>(serverNames_.size()));
      serverNames_.push_back(server);
      serverDevices_.emplace_back();
    }
    serverOf_[static_cast<size_t>(d)] = *it;
    serverDevices_[static_cast<size_t>(*it)].push_back(d);
  }
  grouped_ = deviceCount() > kGroupAbove && serverNames_.size() > 1;
  expanded_.assign(serverNames_.size(), 0);
  serverCounts_.assign(serverNames_.size(), 0);
}

void DeviceLegend::openServersWithOps() {
  if (!grouped_ || userExpanded_) return;
  int open = 0;
  for (size_t s = 0; s < serverNames_.size(); ++s) {
    const int size = static_cast<int>(serverDevices_[s].size());
    expanded_[s] = serverCounts_[s] > 0 && open + size <= kAutoOpenDevices;
    if (expanded_[s]) open += size;
  }
}

void DeviceLegend::setServerExpanded(int server, bool open) {
  if (server < 0 || server >= serverCount() || isServerExpanded(server) == open) return;
  expanded_[static_cast<size_t>(server)] = open;
  userExpanded_ = true;
  rebuildRows();
}

QString DeviceLegend::rowName(int device) const {
  const QString& n = names_[device];
  return grouped_ ? n.mid(n.lastIndexOf(QLatin1Char('/')) + 1) : n;  // under its server: "gpu5"
}

void DeviceLegend::measureNames() {
  const QFontMetrics fm(font());
  maxNameWidth_ = 0;
  for (int d = 0; d < deviceCount(); ++d) maxNameWidth_ = std::max(maxNameWidth_, fm.horizontalAdvance(rowName(d)));
  QFont bold = font();
  bold.setBold(true);
  const QFontMetrics bm(bold);
  for (const QString& server : serverNames_) maxNameWidth_ = std::max(maxNameWidth_, bm.horizontalAdvance(server) - kSwatch);
}

void DeviceLegend::setOpCounts(const std::vector<int>& opsPerDevice) {
  counts_.assign(names_.size(), 0);
  std::copy_n(opsPerDevice.begin(), std::min(opsPerDevice.size(), counts_.size()), counts_.begin());
  updateCountTexts();
  openServersWithOps();
  rebuildRows();
}

void DeviceLegend::updateCountTexts() {
  total_ = 0;
  for (int c : counts_) total_ += c;
  serverCounts_.assign(serverNames_.size(), 0);
  for (size_t d = 0; d < counts_.size(); ++d) serverCounts_[static_cast<size_t>(serverOf_[d])] += counts_[d];
  // The widest count text from the distinct counts (a large cluster's devices mostly hold 0).
  const QFontMetrics fm(font());
  std::vector<int> distinct(counts_.begin(), counts_.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  maxCountWidth_ = 0;
  for (int c : distinct) maxCountWidth_ = std::max(maxCountWidth_, fm.horizontalAdvance(tr("%Ln ops", nullptr, c)));
  if (!grouped_) return;
  QFont bold = font();
  bold.setBold(true);
  const QFontMetrics bm(bold);
  for (size_t s = 0; s < serverNames_.size(); ++s)  // few distinct widths: a server's size and ops
    maxCountWidth_ = std::max(maxCountWidth_, bm.horizontalAdvance(tr("%Ln devices", nullptr, static_cast<int>(serverDevices_[s].size())) +
                                                                   QStringLiteral(" · ") + tr("%Ln ops", nullptr, serverCounts_[s])));
}

QRect DeviceLegend::countRect(const QRect& row) const {
  return {row.right() - kPad - maxCountWidth_, row.top(), maxCountWidth_, row.height()};
}

QRect DeviceLegend::nameRect(const QRect& row) const {
  const int left = row.left() + kPad + kSwatch + kPad + (grouped_ ? kSwatch : 0);  // indented under its server
  return {left, row.top(), countRect(row).left() - left - kPad, row.height()};
}

void DeviceLegend::paintServerRow(QPainter& p, int server, const QRect& r) const {
  const QPalette& pal = palette();
  const auto s = static_cast<size_t>(server);
  if (total_ > 0 && serverCounts_[s] > 0) {  // its share of the ops, as the devices' rows show theirs
    QColor share = pal.color(QPalette::Text);
    share.setAlpha(28);
    const int w = std::max(2, static_cast<int>(r.width() * static_cast<double>(serverCounts_[s]) / total_));
    p.fillRect(QRect(r.left(), r.top() + 1, w, r.height() - 2), share);
  }
  // The arrow: right when closed, down when open.
  const QPointF c(r.left() + kPad + kSwatch / 2.0, r.center().y() + 0.5);
  const double a = kSwatch / 3.0;
  QPolygonF arrow;
  if (expanded_[s])
    arrow << QPointF(c.x() - a, c.y() - a / 2) << QPointF(c.x() + a, c.y() - a / 2) << QPointF(c.x(), c.y() + a);
  else
    arrow << QPointF(c.x() - a / 2, c.y() - a) << QPointF(c.x() + a, c.y()) << QPointF(c.x() - a / 2, c.y() + a);
  p.setPen(Qt::NoPen);
  p.setBrush(pal.color(QPalette::Text));
  p.drawPolygon(arrow);
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  const QFontMetrics bm(bold);
  const QString count = tr("%Ln devices", nullptr, static_cast<int>(serverDevices_[s].size())) + QStringLiteral(" · ") +
                        tr("%Ln ops", nullptr, serverCounts_[s]);
  const int left = r.left() + kPad + kSwatch + kPad;
  const QRect countBox(r.right() - kPad - maxCountWidth_, r.top(), maxCountWidth_, r.height());
  const QRect name(left, r.top(), countBox.left() - left - kPad, r.height());
  p.setPen(pal.color(QPalette::Text));
  p.drawText(name, Qt::AlignVCenter | Qt::AlignLeft, bm.elidedText(serverNames_[s], Qt::ElideMiddle, name.width()));
  p.setPen(pal.color(serverCounts_[s] > 0 ? QPalette::Text : QPalette::PlaceholderText));
  p.drawText(countBox, Qt::AlignVCenter | Qt::AlignRight, count);
  p.setFont(font());
}

void DeviceLegend::resizeEvent(QResizeEvent*) { update(); }

QString DeviceLegend::countText(int device) const {
  return device >= 0 && static_cast<size_t>(device) < counts_.size() ? tr("%Ln ops", nullptr, counts_[static_cast<size_t>(device)])
                                                                    : QString();
}

int DeviceLegend::rowHeight() const {
  return QFontMetrics(font()).height() + 8;
}

QRect DeviceLegend::rowRectAt(int row) const {
  if (row < 0) return {};
  return {kMargin, kMargin + row * rowHeight(), width() - 2 * kMargin, rowHeight()};
}

QRect DeviceLegend::rowRect(int device) const {
  if (device < 0 || device >= deviceCount()) return {};
  return rowRectAt(rowOf_[static_cast<size_t>(device)]);
}

QRect DeviceLegend::serverRowRect(int server) const {
  if (server < 0 || server >= serverCount()) return {};
  return rowRectAt(serverRow_[static_cast<size_t>(server)]);
}

int DeviceLegend::rowIndexAt(const QPoint& pos) const {
  if (pos.x() < 0 || pos.x() >= width() || pos.y() < kMargin) return -1;
  const int row = (pos.y() - kMargin) / rowHeight();
  return row < rowCount() ? row : -1;
}

int DeviceLegend::rowAt(const QPoint& pos) const {
  const int row = rowIndexAt(pos);
  return row >= 0 && rows_[static_cast<size_t>(row)] >= 0 ? rows_[static_cast<size_t>(row)] : -1;
}

int DeviceLegend::serverAt(const QPoint& pos) const {
  const int row = rowIndexAt(pos);
  return row >= 0 && rows_[static_cast<size_t>(row)] < 0 ? ~rows_[static_cast<size_t>(row)] : -1;
}

void DeviceLegend::setFilter(const QString& text) {
  filter_ = text;
  rebuildRows();
}

void DeviceLegend::rebuildRows() {
  auto matches = [&](int d) { return filter_.isEmpty() || names_[d].contains(filter_, Qt::CaseInsensitive); };
  rows_.clear();
  rowOf_.assign(names_.size(), -1);
  serverRow_.assign(serverNames_.size(), -1);
  shownDevices_ = 0;
  auto addDevice = [&](int d) {
    rowOf_[static_cast<size_t>(d)] = static_cast<int>(rows_.size());
    rows_.push_back(d);
    ++shownDevices_;
  };
  if (!grouped_) {
    for (int d = 0; d < deviceCount(); ++d)
      if (matches(d)) addDevice(d);
  } else {
    int matching = 0;
    if (!filter_.isEmpty())
      for (int d = 0; d < deviceCount(); ++d) matching += matches(d);
    const bool openAll = !filter_.isEmpty() && matching <= kAutoOpenDevices;
    for (size_t s = 0; s < serverNames_.size(); ++s) {
      const std::vector<int>& devices = serverDevices_[s];
      if (!filter_.isEmpty() && std::none_of(devices.begin(), devices.end(), matches)) continue;
      serverRow_[s] = static_cast<int>(rows_.size());
      rows_.push_back(~static_cast<int>(s));
      if (expanded_[s] || openAll)
        for (int d : devices)
          if (matches(d)) addDevice(d);
    }
  }
  hoverRow_ = dropRow_ = -1;
  updateGeometry();
  update();
}

QSize DeviceLegend::sizeHint() const {
  const int nameW = maxNameWidth_;
  const int w = 2 * kMargin + kPad + kSwatch + kPad + (grouped_ ? kSwatch : 0) + nameW + 3 * kPad + maxCountWidth_ + kPad;
  return {std::max(w, 160), 2 * kMargin + std::max(1, rowCount()) * rowHeight()};
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
  const int lastRow = std::min(rowCount() - 1, (event->rect().bottom() - kMargin) / rh);
  for (int row = firstRow; row <= lastRow; ++row) {
    const QRect r = rowRectAt(row);
    if (row == hoverRow_) p.fillRect(r, pal.color(QPalette::Highlight).lighter(190));
    if (rows_[static_cast<size_t>(row)] < 0) {
      paintServerRow(p, ~rows_[static_cast<size_t>(row)], r);
      continue;
    }
    const int d = rows_[static_cast<size_t>(row)];
    const int indent = grouped_ ? kSwatch : 0;
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
    }
    // Swatch, name, count (right-aligned); under a server, indented.
    const QRectF sw(r.left() + kPad + indent, r.top() + (rh - kSwatch) / 2.0, kSwatch, kSwatch);
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
        p.drawText(name, Qt::AlignVCenter | Qt::AlignLeft, fontMetrics().elidedText(rowName(d), Qt::ElideRight, name.width()));
      continue;
    }
    if (d < names_.size())  // elided for the rows painted only
      p.drawText(nameRect(r), Qt::AlignVCenter | Qt::AlignLeft,
                 fontMetrics().elidedText(rowName(d), Qt::ElideMiddle, nameRect(r).width()));
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
    if (const int server = serverAt(help->pos()); server >= 0) {
      const auto s = static_cast<size_t>(server);
      const double pct = total_ > 0 ? 100.0 * serverCounts_[s] / total_ : 0.0;
      const QString text = expanded_[s] ? tr("%1: %2 devices, %3 ops (%4 %)\nClick to hide its devices.")
                                        : tr("%1: %2 devices, %3 ops (%4 %)\nClick to show its devices.");
      QToolTip::showText(help->globalPos(),
                         text.arg(serverNames_[s], QLocale().toString(static_cast<int>(serverDevices_[s].size())),
                                  QLocale().toString(serverCounts_[s]), QLocale().toString(pct, 'f', 1)),
                         this, serverRowRect(server));
      return true;
    }
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

void DeviceLegend::mousePressEvent(QMouseEvent* event) {
  const int server = event->button() == Qt::LeftButton ? serverAt(event->position().toPoint()) : -1;
  if (server < 0) return QWidget::mousePressEvent(event);
  setServerExpanded(server, !isServerExpanded(server));
  hoverRow_ = rowIndexAt(event->position().toPoint());
}

void DeviceLegend::mouseMoveEvent(QMouseEvent* event) {
  const int row = rowIndexAt(event->position().toPoint());
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
  const bool ops = event->mimeData()->hasFormat(kOpsMimeType);
  const int row = ops ? rowAt(event->position().toPoint()) : -1;
  springOpen(ops ? serverAt(event->position().toPoint()) : -1);  // a closed server opens under a held drag
  const bool entered = row != dropRow_;
  setDropRow(row);
  if (entered && row >= 0) Q_EMIT dropHovered(opsFromMime(event->mimeData()), row);
  if (row >= 0)
    event->acceptProposedAction();
  else
    event->ignore();
}

void DeviceLegend::dragLeaveEvent(QDragLeaveEvent*) {
  springOpen(-1);
  setDropRow(-1);
}

void DeviceLegend::dropEvent(QDropEvent* event) {
  const int row = rowAt(event->position().toPoint());
  springOpen(-1);
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

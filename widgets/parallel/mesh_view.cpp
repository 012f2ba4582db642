#include "parallel/mesh_view.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>

#include "device_colors.h"

namespace gp {

namespace {
constexpr double kMargin = 8;
constexpr double kRowGap = 8;
constexpr double kCellGap = 6;
constexpr double kLegendHeight = 20;  // the compact drawing's caption and stages
const QColor kUnused(205, 207, 210);
}  // namespace

MeshView::MeshView(QWidget* parent) : QWidget(parent) { setMouseTracking(true); }

void MeshView::setCluster(const Cluster& c) {
  groups_ = DeviceGroups(c);
  rankOf_.assign(static_cast<size_t>(c.numDevices()), -1);
  compactStale_ = true;
  updateGeometry();
  update();
}

void MeshView::setPlan(const ParallelPlan& plan, const std::vector<int>& rankDevice) {
  plan_ = plan;
  std::fill(rankOf_.begin(), rankOf_.end(), -1);
  const size_t ranks = std::min(rankDevice.size(), static_cast<size_t>(std::max(0, plan.devicesUsed())));
  for (size_t r = 0; r < ranks; ++r) {
    const int d = rankDevice[r];
    if (d >= 0 && d < static_cast<int>(rankOf_.size())) rankOf_[static_cast<size_t>(d)] = static_cast<int>(r);
  }
  compactStale_ = true;
  update();
}

void MeshView::clear() {
  groups_ = {};
  rankOf_.clear();
  plan_ = {};
  compactStale_ = true;
  update();
}

void MeshView::resizeEvent(QResizeEvent* e) {
  compactStale_ = true;
  QWidget::resizeEvent(e);
}

std::vector<std::vector<int>> MeshView::tpGroupDevices() const {
  std::vector<std::vector<int>> groups;
  if (plan_.tp < 1) return groups;
  const int used = plan_.devicesUsed();
  groups.resize(static_cast<size_t>(used / plan_.tp));
  for (size_t d = 0; d < rankOf_.size(); ++d)
    if (rankOf_[d] >= 0 && rankOf_[d] < used)
      groups[static_cast<size_t>(rankOf_[d] / plan_.tp)].push_back(static_cast<int>(d));
  return groups;
}

int MeshView::stageOf(int device) const {
  const int rank = rankOf_[static_cast<size_t>(device)];
  return rank >= 0 ? rank / std::max(1, plan_.ranksPerStage()) : -1;
}

double MeshView::labelWidth() const { return fontMetrics().horizontalAdvance(QStringLiteral("node00")) + 12; }

double MeshView::cellWidth() const {
  const int most = std::max(1, groups_.mostDevicesPerServer());
  return std::clamp((width() - 2 * kMargin - labelWidth() - 8 - kCellGap * (most - 1)) / static_cast<double>(most), 18.0,
                    96.0);
}

double MeshView::cellHeight() const {
  const int n = std::max(1, groups_.numServers());
  const double fit = (height() - 2 * kMargin - kRowGap * (n - 1)) / n - 12;
  return std::clamp(fit, 18.0, 2.0 * fontMetrics().height() + 14);
}

double MeshView::rowTop(int server) const { return kMargin + server * (cellHeight() + 12 + kRowGap); }

bool MeshView::isCompact() const {
  const int n = groups_.numServers();
  if (n == 0) return false;
  const double boxesHeight = 2 * kMargin + n * (18.0 + 12 + kRowGap) - kRowGap;
  const double boxesWidth = 2 * kMargin + labelWidth() + 8 + groups_.mostDevicesPerServer() * (18.0 + kCellGap);
  return boxesHeight > height() || boxesWidth > width();
}

// The largest cell (in whole pixels) at which every server's strip fits, in columns.
MeshView::Compact MeshView::compactLayout() const {
  Compact c;
  const int servers = std::max(1, groups_.numServers());
  const int per = std::max(1, groups_.mostDevicesPerServer());
  const double w = width() - 2 * kMargin, h = height() - 2 * kMargin - kLegendHeight;
  for (int cell = 24; cell >= 1; --cell) {
    const int gap = cell >= 4 ? 3 : 1;
    const int tileW = per * cell + gap + (cell >= 4 ? 2 : 0), tileH = cell + gap;
    const int columns = std::max(1, static_cast<int>(w / tileW));
    const int rows = (servers + columns - 1) / columns;
    if (rows * tileH <= h || cell == 1) {
      c.cell = cell;
      c.gap = gap;
      c.columns = columns;
      c.tileW = tileW;
      c.tileH = tileH;
      c.border = cell >= 4 ? 1 : 0;
      c.fits = rows * tileH <= h;
      c.left = kMargin;
      c.top = kMargin + kLegendHeight;
      return c;
    }
  }
  return c;
}

QRectF MeshView::deviceRect(int device) const {
  if (device < 0 || device >= groups_.numDevices()) return {};
  if (isCompact()) return compactRect(compactLayout(), device);
  const int server = groups_.serverOf(device), slot = groups_.slotOf(device);
  const double x = kMargin + labelWidth() + 4 + slot * (cellWidth() + kCellGap);
  return {x, rowTop(server) + 6, cellWidth(), cellHeight()};
}

QRectF MeshView::compactRect(const Compact& c, int device) const {
  const int server = groups_.serverOf(device), slot = groups_.slotOf(device);
  return {c.left + c.border + (server % c.columns) * c.tileW + slot * c.cell,
          c.top + c.border + (server / c.columns) * c.tileH, static_cast<double>(c.cell), static_cast<double>(c.cell)};
}

QSize MeshView::sizeHint() const {
  // Boxes for up to four servers; more are drawn smaller or compact, never a taller window.
  const int n = std::clamp(groups_.numServers(), 1, 4);
  const int line = fontMetrics().height();
  return {520, static_cast<int>(2 * kMargin + n * (2 * line + 26 + kRowGap))};
}

QSize MeshView::minimumSizeHint() const { return {240, 80}; }

int MeshView::deviceAt(QPointF pos) const {
  if (groups_.numDevices() == 0) return -1;
  if (isCompact()) {
    const Compact c = compactLayout();
    const double x = pos.x() - c.left, y = pos.y() - c.top;
    if (x < 0 || y < 0) return -1;
    const int column = static_cast<int>(x) / c.tileW, row = static_cast<int>(y) / c.tileH;
    const int slot = (static_cast<int>(x) % c.tileW - c.border) / c.cell;
    const int server = row * c.columns + column;
    if (column >= c.columns || server >= groups_.numServers() || (static_cast<int>(y) % c.tileH) >= c.cell) return -1;
    const std::span<const int> devices = groups_.devicesOf(server);
    return slot < static_cast<int>(devices.size()) ? devices[static_cast<size_t>(slot)] : -1;
  }
  const int server = static_cast<int>((pos.y() - kMargin) / (cellHeight() + 12 + kRowGap));
  if (server < 0 || server >= groups_.numServers()) return -1;
  for (int d : groups_.devicesOf(server))
    if (deviceRect(d).contains(pos)) return d;
  return -1;
}

void MeshView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Base));
  if (groups_.numServers() == 0) return;
  if (isCompact())
    paintCompact(p);
  else
    paintBoxes(p);
}

void MeshView::paintCompact(QPainter& p) {
  const Compact c = compactLayout();
  const QFontMetrics fm(font());
  // The stages' legend and what is drawn.
  double x = kMargin;
  const int stages = std::max(1, plan_.pp);
  p.setPen(palette().color(QPalette::Text));
  const QString caption = tr("%1 servers × %2 GPUs").arg(QLocale().toString(groups_.numServers())).arg(groups_.mostDevicesPerServer());
  p.drawText(QRectF(x, kMargin, width() - 2 * kMargin, kLegendHeight - 4), Qt::AlignVCenter | Qt::AlignLeft, caption);
  x += fm.horizontalAdvance(caption) + 12;
  for (int s = 0; s < stages && x < width() - kMargin - 40; ++s) {
    const QString label = tr("S%1").arg(s);
    p.fillRect(QRectF(x, kMargin + 4, 10, 10), deviceColor(s));
    p.drawText(QRectF(x + 13, kMargin, fm.horizontalAdvance(label) + 4, kLegendHeight - 4), Qt::AlignVCenter | Qt::AlignLeft, label);
    x += 13 + fm.horizontalAdvance(label) + 8;
  }
  // Every GPU a cell, drawn once into an image per plan and size (16,384 cells at scale).
  if (compactStale_ || compactImage_.size() != size() * devicePixelRatioF()) {
    const qreal dpr = devicePixelRatioF();
    compactImage_ = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    compactImage_.setDevicePixelRatio(dpr);
    compactImage_.fill(Qt::transparent);
    QPainter ip(&compactImage_);
    const QColor box = palette().color(QPalette::Mid);
    const int per = std::max(1, groups_.mostDevicesPerServer());
    for (int server = 0; server < groups_.numServers(); ++server) {
      const std::span<const int> devices = groups_.devicesOf(server);
      const QRectF first = compactRect(c, devices.front());
      if (c.border > 0) ip.fillRect(QRectF(first.left() - 1, first.top() - 1, per * c.cell + 2, c.cell + 2), box);
      for (int d : devices) {
        const int stage = stageOf(d);
        ip.fillRect(compactRect(c, d), stage >= 0 ? deviceColor(stage) : kUnused);
      }
    }
    compactStale_ = false;
  }
  p.drawImage(QPointF(0, 0), compactImage_);
  if (!c.fits) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(8, 0, -8, -4), Qt::AlignBottom | Qt::AlignRight, tr("enlarge to see every server"));
  }
}

void MeshView::paintBoxes(QPainter& p) {
  p.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics fm(font());
  const double labelW = labelWidth();
  for (int s = 0; s < groups_.numServers(); ++s) {
    const std::span<const int> devices = groups_.devicesOf(s);
    const QRectF first = deviceRect(devices.front()), last = deviceRect(devices.back());
    const QRectF box(kMargin, first.top() - 6, last.right() + 6 - kMargin, cellHeight() + 12);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(palette().color(QPalette::AlternateBase));
    p.drawRoundedRect(box, 5, 5);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(kMargin + 4, box.top(), labelW, box.height()), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(QString::fromStdString(groups_.serverName(s)), Qt::ElideMiddle, static_cast<int>(labelW - 4)));
    for (int d : devices) {
      const QRectF r = deviceRect(d);
      const int rank = rankOf_[static_cast<size_t>(d)];
      const int stage = stageOf(d);
      const QColor fill = stage >= 0 ? deviceColor(stage) : kUnused;
      p.setPen(QPen(fill.darker(125), 1));
      p.setBrush(fill);
      p.drawRoundedRect(r, 3, 3);
      if (rank < 0) continue;
      p.setPen(textColorOn(fill));
      const int stride = std::max(1, plan_.ranksPerStage());
      const int tp = std::max(1, plan_.tp), cp = std::max(1, plan_.cp);
      const int replica = (rank % stride) / (tp * cp), context = (rank % stride) / tp % cp, shard = rank % tp;
      const QString top = tr("S%1").arg(stage);
      const QString bottom =
          cp > 1 ? tr("d%1 c%2 t%3").arg(replica).arg(context).arg(shard) : tr("d%1 t%2").arg(replica).arg(shard);
      if (r.height() >= 2 * fm.height() + 2 && fm.horizontalAdvance(bottom) + 4 <= r.width()) {
        p.drawText(r.adjusted(0, 2, 0, -r.height() / 2), Qt::AlignHCenter | Qt::AlignBottom, top);
        p.drawText(r.adjusted(0, r.height() / 2, 0, -2), Qt::AlignHCenter | Qt::AlignTop, bottom);
      } else if (fm.horizontalAdvance(top) + 2 <= r.width()) {
        p.drawText(r, Qt::AlignCenter, top);
      }
    }
  }
  // TP groups: one outline around each run of neighbouring cells of a group on one server.
  if (plan_.tp > 1) {
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(palette().color(QPalette::WindowText), 2));
    for (const std::vector<int>& group : tpGroupDevices()) {
      std::vector<int> cells = group;
      auto sv = [this](int d) { return groups_.serverOf(d); };
      auto sl = [this](int d) { return groups_.slotOf(d); };
      std::sort(cells.begin(), cells.end(), [&](int a, int b) { return std::pair(sv(a), sl(a)) < std::pair(sv(b), sl(b)); });
      for (size_t i = 0; i < cells.size();) {
        size_t j = i + 1;
        while (j < cells.size() && sv(cells[j]) == sv(cells[i]) && sl(cells[j]) == sl(cells[j - 1]) + 1) ++j;
        const QRectF run = deviceRect(cells[i]).united(deviceRect(cells[j - 1])).adjusted(-3, -3, 3, 3);
        p.drawRoundedRect(run, 5, 5);
        i = j;
      }
    }
  }
}

QString MeshView::toolTipAt(QPointF pos) const {
  const int d = deviceAt(pos);
  if (d < 0) return {};
  const QString name = QString::fromStdString(groups_.deviceName(d));
  const int rank = rankOf_[static_cast<size_t>(d)];
  const int stride = std::max(1, plan_.ranksPerStage());
  const int tp = std::max(1, plan_.tp), cp = std::max(1, plan_.cp);
  return rank < 0 ? tr("%1: not used by the plan").arg(name)
                  : tr("%1: rank %2, stage %3, data-parallel replica %4, context rank %5, tensor-parallel shard %6")
                        .arg(name)
                        .arg(rank)
                        .arg(rank / stride)
                        .arg((rank % stride) / (tp * cp))
                        .arg((rank % stride) / tp % cp)
                        .arg(rank % tp);
}

bool MeshView::event(QEvent* e) {
  if (e->type() != QEvent::ToolTip) return QWidget::event(e);
  auto* help = static_cast<QHelpEvent*>(e);
  const QString text = toolTipAt(help->pos());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(help->globalPos(), text, this);
  return true;
}

}  // namespace gp

#include "parallel/mesh_view.h"

#include <QHelpEvent>
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
const QColor kUnused(205, 207, 210);
}  // namespace

MeshView::MeshView(QWidget* parent) : QWidget(parent) { setMouseTracking(true); }

void MeshView::setCluster(const Cluster& c) {
  servers_.clear();
  deviceNames_.clear();
  const std::vector<int> server = serverOf(c);
  serverOfDevice_ = server;
  slotOfDevice_.assign(static_cast<size_t>(c.numDevices()), 0);
  for (int d = 0; d < c.numDevices(); ++d) {
    const std::string& name = c.device(d).name;
    deviceNames_.push_back(QString::fromStdString(name));
    const size_t s = static_cast<size_t>(server[static_cast<size_t>(d)]);
    if (servers_.size() <= s) servers_.resize(s + 1);
    if (servers_[s].devices.empty()) {
      const size_t slash = name.find_last_of('/');
      servers_[s].name =
          slash == std::string::npos ? QString::fromStdString(c.name()) : QString::fromStdString(name.substr(0, slash));
    }
    slotOfDevice_[static_cast<size_t>(d)] = static_cast<int>(servers_[s].devices.size());
    servers_[s].devices.push_back(d);
  }
  rankOf_.assign(static_cast<size_t>(c.numDevices()), -1);
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
  update();
}

void MeshView::clear() {
  servers_.clear();
  deviceNames_.clear();
  rankOf_.clear();
  plan_ = {};
  update();
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

double MeshView::cellWidth() const {
  size_t most = 1;
  for (const Server& s : servers_) most = std::max(most, s.devices.size());
  const double labelW = fontMetrics().horizontalAdvance(QStringLiteral("node00")) + 12;
  return std::clamp((width() - 2 * kMargin - labelW - 8 - kCellGap * (most - 1)) / static_cast<double>(most), 18.0,
                    96.0);
}

double MeshView::cellHeight() const {
  const int n = std::max<int>(1, static_cast<int>(servers_.size()));
  const double fit = (height() - 2 * kMargin - kRowGap * (n - 1)) / n - 12;
  return std::clamp(fit, 18.0, 2.0 * fontMetrics().height() + 14);
}

double MeshView::rowTop(int server) const { return kMargin + server * (cellHeight() + 12 + kRowGap); }

QRectF MeshView::deviceRect(int device) const {
  if (device < 0 || device >= static_cast<int>(serverOfDevice_.size())) return {};
  const double labelW = fontMetrics().horizontalAdvance(QStringLiteral("node00")) + 12;
  const double x = kMargin + labelW + 4 + slotOfDevice_[static_cast<size_t>(device)] * (cellWidth() + kCellGap);
  return {x, rowTop(serverOfDevice_[static_cast<size_t>(device)]) + 6, cellWidth(), cellHeight()};
}

QSize MeshView::sizeHint() const {
  const int n = std::max<int>(1, static_cast<int>(servers_.size()));
  const int line = fontMetrics().height();
  return {520, static_cast<int>(2 * kMargin + n * (2 * line + 26 + kRowGap))};
}

QSize MeshView::minimumSizeHint() const { return {240, 80}; }

int MeshView::deviceAt(QPointF pos) const {
  for (size_t d = 0; d < serverOfDevice_.size(); ++d)
    if (deviceRect(static_cast<int>(d)).contains(pos)) return static_cast<int>(d);
  return -1;
}

void MeshView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().color(QPalette::Base));
  if (servers_.empty()) return;
  const QFontMetrics fm(font());
  const int stride = std::max(1, plan_.ranksPerStage());
  const double labelW = fm.horizontalAdvance(QStringLiteral("node00")) + 12;
  for (int s = 0; s < static_cast<int>(servers_.size()); ++s) {
    const Server& server = servers_[static_cast<size_t>(s)];
    const QRectF first = deviceRect(server.devices.front()), last = deviceRect(server.devices.back());
    const QRectF box(kMargin, first.top() - 6, last.right() + 6 - kMargin, cellHeight() + 12);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(palette().color(QPalette::AlternateBase));
    p.drawRoundedRect(box, 5, 5);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(kMargin + 4, box.top(), labelW, box.height()), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(server.name, Qt::ElideMiddle, static_cast<int>(labelW - 4)));
    for (int d : server.devices) {
      const QRectF r = deviceRect(d);
      const int rank = rankOf_[static_cast<size_t>(d)];
      const int stage = rank >= 0 ? rank / stride : -1;
      const QColor fill = stage >= 0 ? deviceColor(stage) : kUnused;
      p.setPen(QPen(fill.darker(125), 1));
      p.setBrush(fill);
      p.drawRoundedRect(r, 3, 3);
      if (rank < 0) continue;
      p.setPen(textColorOn(fill));
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
      std::sort(cells.begin(), cells.end(), [this](int a, int b) {
        return std::pair(serverOfDevice_[static_cast<size_t>(a)], slotOfDevice_[static_cast<size_t>(a)]) <
               std::pair(serverOfDevice_[static_cast<size_t>(b)], slotOfDevice_[static_cast<size_t>(b)]);
      });
      for (size_t i = 0; i < cells.size();) {
        size_t j = i + 1;
        auto sv = [this](int d) { return serverOfDevice_[static_cast<size_t>(d)]; };
        auto sl = [this](int d) { return slotOfDevice_[static_cast<size_t>(d)]; };
        while (j < cells.size() && sv(cells[j]) == sv(cells[i]) && sl(cells[j]) == sl(cells[j - 1]) + 1) ++j;
        const QRectF run = deviceRect(cells[i]).united(deviceRect(cells[j - 1])).adjusted(-3, -3, 3, 3);
        p.drawRoundedRect(run, 5, 5);
        i = j;
      }
    }
  }
}

bool MeshView::event(QEvent* e) {
  if (e->type() != QEvent::ToolTip) return QWidget::event(e);
  auto* help = static_cast<QHelpEvent*>(e);
  const int d = deviceAt(help->pos());
  if (d < 0) {
    QToolTip::hideText();
    return true;
  }
  const int rank = rankOf_[static_cast<size_t>(d)];
  const int stride = std::max(1, plan_.ranksPerStage());
  const int tp = std::max(1, plan_.tp), cp = std::max(1, plan_.cp);
  const QString text = rank < 0 ? tr("%1: not used by the plan").arg(deviceNames_[static_cast<size_t>(d)])
                                : tr("%1: rank %2, stage %3, data-parallel replica %4, context rank %5, tensor-parallel shard %6")
                                      .arg(deviceNames_[static_cast<size_t>(d)])
                                      .arg(rank)
                                      .arg(rank / stride)
                                      .arg((rank % stride) / (tp * cp))
                                      .arg((rank % stride) / tp % cp)
                                      .arg(rank % tp);
  QToolTip::showText(help->globalPos(), text, this);
  return true;
}

}  // namespace gp

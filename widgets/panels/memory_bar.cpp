#include "panels/memory_bar.h"

#include <QCoreApplication>
#include <QLocale>
#include <QPainter>
#include <algorithm>

#include "device_colors.h"
#include "panels/number_format.h"

namespace gp {

using panels::formatMemorySize;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace

MemoryBar::MemoryBar(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  text_ = memoryBarText(peak_, capacity_);
}

QString memoryBarText(int64_t peak, int64_t capacity, int64_t minPeak) {
  const QLocale loc;
  const QString cap = loc.toString(static_cast<double>(capacity) / kGiB, 'f', 1);
  if (peak < 0) return QCoreApplication::translate("gp::MemoryBar", "– / %1 GiB").arg(cap);
  const QString most = loc.toString(static_cast<double>(peak) / kGiB, 'f', 1);
  if (minPeak >= 0) {
    const QString least = loc.toString(static_cast<double>(minPeak) / kGiB, 'f', 1);
    if (least != most) return QCoreApplication::translate("gp::MemoryBar", "%1–%2 / %3 GiB").arg(least, most, cap);
  }
  return QCoreApplication::translate("gp::MemoryBar", "%1 / %2 GiB").arg(most, cap);
}

void paintMemoryBar(QPainter& p, const QRect& rect, const QPalette& pal, const QFont& font, int64_t peak,
                    int64_t capacity, const QColor& color, const QString& text, int64_t minPeak) {
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  const bool over = peak >= 0 && capacity > 0 && peak > capacity;
  const QColor fillColor = over ? MemoryBar::overColor() : color;
  const QRectF r = QRectF(rect).adjusted(0.5, 1.5, -0.5, -1.5);
  const QColor track = pal.color(QPalette::Base).value() > 128 ? QColor(232, 234, 237) : QColor(60, 63, 67);
  p.setPen(Qt::NoPen);
  p.setBrush(track);
  p.drawRoundedRect(r, 3, 3);

  auto share = [&](int64_t bytes) {
    return bytes >= 0 && capacity > 0 ? std::clamp(static_cast<double>(bytes) / static_cast<double>(capacity), 0.0, 1.0)
                                      : 0.0;
  };
  double frac = share(peak);
  if (peak > 0 && frac * r.width() < 2) frac = 2 / r.width();  // a sliver, so "some" never reads as none
  const QRectF fill(r.left(), r.top(), r.width() * frac, r.height());
  if (frac > 0) {
    p.setBrush(fillColor);
    p.drawRoundedRect(fill, 3, 3);
    if (over) {
      p.setBrush(QBrush(QColor(255, 255, 255, 70), Qt::BDiagPattern));
      p.drawRoundedRect(fill, 3, 3);
    }
  }
  if (minPeak >= 0 && minPeak < peak) {  // a group: its least peak as a tick
    const double x = r.left() + r.width() * share(minPeak);
    p.setPen(QPen(textColorOn(fillColor), 1.5));
    p.drawLine(QPointF(x, r.top() + 1), QPointF(x, r.bottom() - 1));
  }
  if (over) {
    p.setPen(QPen(MemoryBar::overColor().darker(140), 1.2));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(r, 3, 3);
  }

  // The figures: dark over the track, contrasting over the fill (clipped in two passes).
  QFont f = font;
  if (over) f.setBold(true);
  p.setFont(f);
  const QRect textRect = rect.adjusted(6, 0, -6, 0);
  p.save();
  p.setClipRect(fill.adjusted(0, -2, 0, 2));
  p.setPen(textColorOn(fillColor));
  p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, text);
  p.restore();
  p.setClipRect(QRectF(fill.right(), rect.top(), rect.right() + 1 - fill.right(), rect.height()));
  p.setPen(pal.color(QPalette::Text));
  p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, text);
  p.restore();
}

void MemoryBar::setValues(int64_t peakBytes, int64_t capacityBytes, const QColor& deviceColor) {
  peak_ = peakBytes;
  capacity_ = capacityBytes;
  color_ = deviceColor;
  text_ = memoryBarText(peak_, capacity_);
  setToolTip(overCapacity()
                 ? tr("Peak memory %1 of %2: %3 over capacity")
                       .arg(formatMemorySize(peak_), formatMemorySize(capacity_), formatMemorySize(peak_ - capacity_))
             : peak_ >= 0
                 ? tr("Peak memory %1 of %2 (%3 %)")
                       .arg(formatMemorySize(peak_), formatMemorySize(capacity_),
                            QLocale().toString(capacity_ > 0 ? 100.0 * peak_ / capacity_ : 0.0, 'f', 1))
                 : tr("Capacity %1; measure the plan to see its peak memory").arg(formatMemorySize(capacity_)));
  update();
}

QSize MemoryBar::sizeHint() const {
  const QFontMetrics fm(font());
  return {fm.horizontalAdvance(text_) + 24, fm.height() + 6};
}

QSize MemoryBar::minimumSizeHint() const {
  const QFontMetrics fm(font());
  return {fm.horizontalAdvance(QStringLiteral("00.0 / 00.0 GiB")) + 12, fm.height() + 6};
}

void MemoryBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintMemoryBar(p, rect(), palette(), font(), peak_, capacity_, color_, text_);
}

}  // namespace gp

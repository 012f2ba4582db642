#include "panels/memory_bar.h"

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
  updateText();
}

void MemoryBar::setValues(int64_t peakBytes, int64_t capacityBytes, const QColor& deviceColor) {
  peak_ = peakBytes;
  capacity_ = capacityBytes;
  color_ = overCapacity() ? overColor() : deviceColor;
  textOnFill_ = textColorOn(color_);
  boldFont_ = font();
  boldFont_.setBold(true);
  updateText();
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

void MemoryBar::updateText() {
  const QLocale loc;
  const QString cap = loc.toString(capacity_ / kGiB, 'f', 1);
  text_ = peak_ < 0 ? tr("– / %1 GiB").arg(cap) : tr("%1 / %2 GiB").arg(loc.toString(peak_ / kGiB, 'f', 1), cap);
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
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF r = QRectF(rect()).adjusted(0.5, 1.5, -0.5, -1.5);
  const QPalette& pal = palette();
  const QColor track = pal.color(QPalette::Base).value() > 128 ? QColor(232, 234, 237) : QColor(60, 63, 67);
  p.setPen(Qt::NoPen);
  p.setBrush(track);
  p.drawRoundedRect(r, 3, 3);

  double frac = 0;
  if (peak_ >= 0 && capacity_ > 0) frac = std::clamp(static_cast<double>(peak_) / capacity_, 0.0, 1.0);
  if (peak_ > 0 && frac * r.width() < 2) frac = 2 / r.width();  // a sliver, so "some" never reads as none
  const QRectF fill(r.left(), r.top(), r.width() * frac, r.height());
  if (frac > 0) {
    p.setBrush(color_);
    p.drawRoundedRect(fill, 3, 3);
    if (overCapacity()) {
      p.setBrush(QBrush(QColor(255, 255, 255, 70), Qt::BDiagPattern));
      p.drawRoundedRect(fill, 3, 3);
    }
  }
  if (overCapacity()) {
    p.setPen(QPen(overColor().darker(140), 1.2));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(r, 3, 3);
  }

  // The figures: dark over the track, contrasting over the fill (clipped in two passes).
  if (overCapacity()) p.setFont(boldFont_);
  const QRect textRect = rect().adjusted(6, 0, -6, 0);
  p.save();
  p.setClipRect(fill.adjusted(0, -2, 0, 2));
  p.setPen(textOnFill_);
  p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, text_);
  p.restore();
  p.save();
  p.setClipRect(QRectF(fill.right(), 0, width() - fill.right(), height()));
  p.setPen(pal.color(QPalette::Text));
  p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, text_);
  p.restore();
}

}  // namespace gp

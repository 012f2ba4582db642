// MemoryBar: a small painted bar showing one device's peak memory against its capacity,
// filled in the device's colour, with the figures ("11.2 / 16.0 GiB") written inside.
// Over capacity the bar turns red and hatched (device 3's own colour is a red too).
// paintMemoryBar draws the same bar anywhere (the device trees' delegate paints it in their rows).
#pragma once
#include <QColor>
#include <QFont>
#include <QString>
#include <QWidget>
#include <cstdint>

class QPainter;
class QPalette;

namespace gp {

// "11.2 / 16.0 GiB"; "– / 16.0 GiB" when peak < 0; "12.1–61.9 / 80.0 GiB" with a group's least
// peak `minPeak` (>= 0) below its most.
QString memoryBarText(int64_t peak, int64_t capacity, int64_t minPeak = -1);
// Paints the bar into `r`: the track, the fill to peak / capacity in `color` (red and hatched
// over capacity, the outline red), `text` dark over the track and contrasting over the fill; a
// group's least peak `minPeak` (>= 0) as a tick across the fill.
void paintMemoryBar(QPainter& p, const QRect& r, const QPalette& palette, const QFont& font, int64_t peak,
                    int64_t capacity, const QColor& color, const QString& text, int64_t minPeak = -1);

class MemoryBar : public QWidget {
  Q_OBJECT
 public:
  explicit MemoryBar(QWidget* parent = nullptr);

  // peak < 0: no measurement yet (only the capacity is shown).
  void setValues(int64_t peakBytes, int64_t capacityBytes, const QColor& deviceColor);

  int64_t peakBytes() const { return peak_; }
  int64_t capacityBytes() const { return capacity_; }
  bool overCapacity() const { return peak_ >= 0 && capacity_ > 0 && peak_ > capacity_; }
  QString text() const { return text_; }
  static QColor overColor() { return QColor(230, 25, 25); }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int64_t peak_ = -1;
  int64_t capacity_ = 0;
  QColor color_;
  QString text_;
};

}  // namespace gp

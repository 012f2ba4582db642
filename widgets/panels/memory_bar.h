// MemoryBar: a small painted bar showing one device's peak memory against its capacity,
// filled in the device's colour, with the figures ("11.2 / 16.0 GiB") written inside.
// Over capacity the bar turns red and hatched (device 3's own colour is a red too).
#pragma once
#include <QColor>
#include <QFont>
#include <QString>
#include <QWidget>
#include <cstdint>

namespace gp {

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
  void updateText();

  int64_t peak_ = -1;
  int64_t capacity_ = 0;
  QColor color_;
  QColor textOnFill_;
  QFont boldFont_;  // for the figures when over capacity
  QString text_;
};

}  // namespace gp

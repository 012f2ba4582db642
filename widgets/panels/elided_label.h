// ElidedLabel: word-wrapped text shown in at most N lines, the last one ending in "…" when
// the text is longer; the whole text is the tooltip. For long descriptions in narrow docks.
#pragma once
#include <QStringList>
#include <QWidget>

namespace gp {

class ElidedLabel : public QWidget {
  Q_OBJECT
 public:
  explicit ElidedLabel(int maxLines = 3, QWidget* parent = nullptr);

  void setText(const QString& text);
  QString text() const { return text_; }
  // The lines as painted at the current width (last one elided if needed).
  const QStringList& lines() const { return lines_; }
  bool isElided() const { return elided_; }

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  // Breaks text_ into at most maxLines_ lines of `width` pixels.
  QStringList layoutLines(int width, bool* elided) const;
  void relayout();

  int maxLines_;
  QString text_;
  QStringList lines_;
  bool elided_ = false;
};

}  // namespace gp

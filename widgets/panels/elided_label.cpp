#include "panels/elided_label.h"

#include <QEvent>
#include <QPainter>
#include <QTextLayout>

namespace gp {

ElidedLabel::ElidedLabel(int maxLines, QWidget* parent) : QWidget(parent), maxLines_(std::max(1, maxLines)) {
  QSizePolicy sp(QSizePolicy::Preferred, QSizePolicy::Preferred);
  sp.setHeightForWidth(true);
  setSizePolicy(sp);
}

void ElidedLabel::setText(const QString& text) {
  text_ = text;
  relayout();
  updateGeometry();
}

QStringList ElidedLabel::layoutLines(int width, bool* elided) const {
  QStringList out;
  *elided = false;
  if (text_.isEmpty() || width <= 0) return out;
  const QFontMetrics fm(font());
  QTextLayout layout(text_, font());
  layout.beginLayout();
  for (;;) {
    QTextLine line = layout.createLine();
    if (!line.isValid()) break;
    line.setLineWidth(width);
    if (out.size() == maxLines_ - 1) {
      // Last allowed line: everything left, elided to the width.
      const QString rest = text_.mid(line.textStart());
      const QString shown = fm.elidedText(rest, Qt::ElideRight, width);
      *elided = shown != rest;
      out << shown;
      break;
    }
    out << text_.mid(line.textStart(), line.textLength()).trimmed();
  }
  layout.endLayout();
  return out;
}

void ElidedLabel::relayout() {
  lines_ = layoutLines(contentsRect().width(), &elided_);
  setToolTip(elided_ ? text_ : QString());
  update();
}

int ElidedLabel::heightForWidth(int width) const {
  bool elided = false;
  const auto n = layoutLines(width, &elided).size();
  return static_cast<int>(n) * QFontMetrics(font()).lineSpacing();
}

QSize ElidedLabel::sizeHint() const {
  const int w = 320;
  return {w, heightForWidth(w)};
}

QSize ElidedLabel::minimumSizeHint() const {
  return {40, text_.isEmpty() ? 0 : QFontMetrics(font()).lineSpacing()};
}

void ElidedLabel::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setPen(palette().color(foregroundRole()));
  const QFontMetrics fm(font());
  int y = contentsRect().top() + fm.ascent();
  for (const QString& line : lines_) {
    p.drawText(contentsRect().left(), y, line);
    y += fm.lineSpacing();
  }
}

void ElidedLabel::resizeEvent(QResizeEvent*) {
  relayout();
}

void ElidedLabel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) {
    relayout();
    updateGeometry();
  }
  QWidget::changeEvent(event);
}

}  // namespace gp

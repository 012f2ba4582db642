#include "plot_parts.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace gp {

QCustomPlot* fillWithPlot(QWidget* host, const QString& objectName) {
  auto* plot = new QCustomPlot(host);
  auto* layout = new QVBoxLayout(host);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot);
  plot->setObjectName(objectName);
  return plot;
}

void putLegendBelow(QCustomPlot* plot, int wrap) {
  plot->legend->setVisible(true);
  plot->legend->setBorderPen(Qt::NoPen);
  plot->legend->setBrush(Qt::NoBrush);
  plot->legend->setWrap(wrap);
  plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, /*rearrange=*/true);
  QFont small = plot->font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  plot->legend->setFont(small);
  plot->plotLayout()->addElement(1, 0, plot->legend);
  plot->plotLayout()->setRowStretchFactor(1, 0.001);
  plot->plotLayout()->setRowSpacing(0);
  plot->legend->setMargins(QMargins(4, 0, 4, 2));
}

QCPItemStraightLine* makeLine(QCustomPlot* plot, const QColor& color) {
  auto* l = new QCPItemStraightLine(plot);
  l->setPen(QPen(color, 1.5, Qt::DashLine));
  return l;
}

QCPItemText* makeLineLabel(QCustomPlot* plot, const QColor& color) {
  auto* t = new QCPItemText(plot);
  t->position->setAxes(plot->xAxis, plot->yAxis);
  t->position->setAxisRect(plot->axisRect());
  t->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
  t->position->setTypeY(QCPItemPosition::ptPlotCoords);
  t->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
  t->setColor(color);
  t->setPadding(QMargins(2, 0, 4, 1));
  return t;
}

}  // namespace gp

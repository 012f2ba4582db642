// Pieces the QCustomPlot views share (RewardPlot, MfuPlot): the plot filling its host widget,
// the legend in a row of its own below the axes (it never hides a curve), and a dashed
// horizontal reference line with a label at its right end.
#pragma once
#include <QColor>
#include <QString>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;
class QWidget;

namespace gp {

QCustomPlot* fillWithPlot(QWidget* host, const QString& objectName);
// `wrap`: legend entries per row (0: all in one row); the legend's font a little smaller.
void putLegendBelow(QCustomPlot* plot, int wrap);
QCPItemStraightLine* makeLine(QCustomPlot* plot, const QColor& color);
// A label whose x is a fraction of the axis rect and y a plot coordinate (setCoords(0.98, y)).
QCPItemText* makeLineLabel(QCustomPlot* plot, const QColor& color);

}  // namespace gp

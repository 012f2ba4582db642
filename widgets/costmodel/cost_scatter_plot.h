// CostScatterPlot: a cost model's predictions against measurements (QCustomPlot, both axes
// logarithmic in seconds): one point per measured sample (a kernel under one configuration) for
// the learned model and one for the fitted roofline, in two colours and shapes, with the y = x
// diagonal (exact predictions) and a legend below the axes. Hovering a point shows the kernel
// it belongs to, its configuration (threads, layout, tiles), the measured time and both
// predictions. Wheel: zoom · drag: pan · double-click: fit.
#pragma once
#include <QString>
#include <QWidget>
#include <vector>

class QCustomPlot;
class QCPCurve;
class QCPGraph;

namespace gp {

struct CostScatterPoint {
  double measured = 0, learned = 0, roofline = 0;  // seconds
  QString kernel;  // the kernel graph's name ("resnet50/conv1/Conv2D")
  QString config;  // its configuration in words ("threads 2 · layout 1 · tiles 4")
};

class CostScatterPlot : public QWidget {
  Q_OBJECT
 public:
  enum Series { Learned = 0, Roofline = 1 };

  explicit CostScatterPlot(QWidget* parent = nullptr);

  // Replaces the points; a prediction that is not a positive number is left out of its series.
  void setPoints(std::vector<CostScatterPoint> points);
  void clear();

  QCustomPlot* plot() const { return plot_; }
  int seriesCount() const;          // the scatter series: 2
  int pointCount(Series s) const;   // points drawn in series s
  // Where point `index` of `s` is drawn, in plot() coordinates (after the last replot).
  QPoint pointPosition(Series s, int index) const;
  // The tooltip for a position in plot() coordinates: the nearest point within a few pixels,
  // else empty.
  QString toolTipAt(const QPoint& pos) const;
  void replotNow();

  // "850 ns", "12.3 µs", "1.23 ms", "2.5 s" (three significant digits).
  static QString secondsText(double seconds);

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  void fitView();
  double valueOf(Series s, const CostScatterPoint& p) const { return s == Learned ? p.learned : p.roofline; }

  QCustomPlot* plot_;
  QCPGraph* series_[2];
  QCPCurve* diagonal_;
  std::vector<CostScatterPoint> points_;
};

}  // namespace gp

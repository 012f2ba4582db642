// OpTypeChart: bar chart of a graph's op-type histogram (count or FLOPs per op type),
// drawn with QCustomPlot.
#pragma once
#include <QWidget>

#include "graph/graph.h"

class QCustomPlot;
class QCPBars;

namespace gp {

class OpTypeChart : public QWidget {
  Q_OBJECT
 public:
  enum class Measure { OpCount, Flops };

  explicit OpTypeChart(QWidget* parent = nullptr);

  // Shows the `maxBars` largest op types of `g` by `measure`; the rest are summed as "other".
  void setGraph(const Graph& g, Measure measure = Measure::OpCount, int maxBars = 12);

  int barCount() const;
  QStringList labels() const;
  QVector<double> values() const;
  QCustomPlot* plot() const { return plot_; }

 private:
  QCustomPlot* plot_;
  QCPBars* bars_;
  QStringList labels_;
  QVector<double> values_;
};

}  // namespace gp

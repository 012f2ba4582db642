// MfuPlot: the parallel-plan DQN's progress (QCustomPlot): each episode's plan's model FLOPs
// utilisation as a dot, the best so far as a line, and optionally a labelled reference line
// (the best plan found before the run). Replots are coalesced (at most ~10 per second), so
// episodes can be added as fast as they come.
#pragma once
#include <QTimer>
#include <QWidget>

#include "optimize/parallel_dqn.h"

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace gp {

class MfuPlot : public QWidget {
  Q_OBJECT
 public:
  explicit MfuPlot(QWidget* parent = nullptr);

  void addEpisode(const DqnEpisodeReport& r);
  void clear();
  // A dashed line at `mfu` (a share, 0..1) labelled `label`; mfu <= 0 hides it.
  void setReference(double mfu, const QString& label);

  int pointCount() const { return points_; }
  double bestMfu() const { return best_; }
  QCustomPlot* plot() const { return plot_; }
  void replotNow();

 private:
  void fitView();

  QCustomPlot* plot_;
  QCPGraph *episodes_, *bestGraph_;
  QCPItemStraightLine* refLine_;
  QCPItemText* refText_;
  QTimer replotTimer_;
  int points_ = 0, lastEpisode_ = 0;
  bool userView_ = false;  // zoomed or panned: new points do not move the view
  double best_ = 0, top_ = 0, ref_ = 0;
};

}  // namespace gp

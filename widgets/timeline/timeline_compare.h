// TimelineCompare: the simulated step's timeline and, when there is one, the same plan measured
// on real GPUs below it, on one time axis: zooming or panning either view moves the other, both
// fit the longer of the two steps, and their row-label columns have one width so that the axes
// line up. Each view gets a caption ("Simulated 12.3 ms", "Measured on NVIDIA H200 13.1 ms
// (+6.5 %)") while a measured timeline is shown; without one, the simulated view is alone and
// looks as it always did. A splitter between the two lets the user share the height.
//
//   compare->simulatedView()->setData(g, cluster, sim);   // then compare->syncAxes()
//   compare->setMeasured(g, cluster, measured, tr("Simulated …"), tr("Measured on …"));
//   compare->clearMeasured();                             // the plan was edited
#pragma once
#include <QRectF>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/measurement.h"

class QLabel;
class QPainter;
class QSplitter;

namespace gp {

class TimelineView;

class TimelineCompare : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineCompare(QWidget* parent = nullptr);

  TimelineView* simulatedView() const { return simulated_; }
  TimelineView* measuredView() const { return measured_; }

  // Shows `measured` (its timeline indexes the same graph and cluster) below the simulated view.
  void setMeasured(std::shared_ptr<const Graph> g, const Cluster& c, const Measurement& measured,
                   const QString& simulatedCaption, const QString& measuredCaption);
  void clearMeasured();
  bool hasMeasured() const { return hasMeasured_; }
  QString simulatedCaption() const;  // empty while no measured timeline is shown
  QString measuredCaption() const;

  // Both views: the selection (no signal), fit to the longer step.
  void setSelectedOps(const std::vector<OpId>& ops);
  void zoomToFit();
  // After the simulated view got new data: one extent and label width for both again.
  void syncAxes();
  // Draws what is shown into `target` (PNG/SVG export): the simulated timeline alone, or both
  // under their captions at one scale, their time axes lined up.
  void renderTo(QPainter* painter, const QRectF& target);

 Q_SIGNALS:
  // The user clicked a bar or empty space in either view.
  void selectionChanged(const std::vector<gp::OpId>& ops);

 private:
  void follow(TimelineView* from, double start, double end);

  TimelineView* simulated_;
  TimelineView* measured_;
  QLabel* simulatedCaption_;
  QLabel* measuredCaption_;
  QWidget* measuredPanel_;
  QSplitter* splitter_;
  bool hasMeasured_ = false;
  bool syncing_ = false;
};

}  // namespace gp

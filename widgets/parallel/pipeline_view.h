// PipelineView: one simulated training step of a parallel plan as a timeline — per pipeline
// stage a row of forward (light) and backward (dark) passes in the stage's colour, numbered by
// micro-batch, under it a thin row of its sends (activations on, gradients back) and one of its
// gradient synchronisation, optimizer step and ZeRO weight gathers. Bubbles — a stage idle
// before the last pass ends — are hatched gaps. The wheel zooms around the pointer, dragging
// pans, a double click fits the step again; hovering names the event.
#pragma once
#include <QWidget>
#include <QString>
#include <vector>

#include "parallel/pipeline_rows.h"

namespace gp {

class PipelineView : public QWidget {
  Q_OBJECT
 public:
  explicit PipelineView(QWidget* parent = nullptr);

  // The measurement's events (ParallelSimOptions::timeline) for a plan of `stages` stages.
  void setMeasurement(const ParallelMeasurement& m, int stages);
  void clear();
  void zoomToFit();
  // What each stage's row stands for, shown over its label: the ranks and GPUs that run it (a
  // row is every rank of its stage: they run the same passes). Empty: nothing shown.
  void setStageNotes(std::vector<QString> notes) { stageNotes_ = std::move(notes); }
  QString stageNoteAt(QPointF pos) const;  // "" outside the stage labels

  const PipelineRows& rows() const { return rows_; }
  int barCount(PipelineEvent::Kind kind) const;
  // Paints the whole step into `target` (exports, screenshots).
  void renderTo(QPainter* painter, const QRectF& target);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  bool event(QEvent* e) override;  // tooltips

 private:
  struct Geometry {
    QRectF plot;        // where time runs
    double stageH = 0;  // per stage: passes, sends, sync and a gap
    double x(double t, double t0, double t1) const { return plot.left() + (t - t0) / (t1 - t0) * plot.width(); }
  };
  Geometry geometry(const QRectF& area) const;
  QRectF laneRect(const Geometry& g, int stage, PipelineLane lane) const;
  void paint(QPainter& p, const QRectF& area, double t0, double t1) const;
  int eventAt(QPointF pos) const;

  std::vector<PipelineEvent> events_;
  std::vector<QString> stageNotes_;
  PipelineRows rows_;
  double t0_ = 0, t1_ = 1;  // the visible time range, s
  double dragX_ = -1, dragT0_ = 0;
};

}  // namespace gp

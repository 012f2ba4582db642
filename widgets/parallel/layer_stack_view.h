// LayerStackView: a model's layer stack as a row of boxes — the prologue, every repeated layer,
// the epilogue — coloured by the pipeline stage that runs them (the device palette), each
// stage headed by its layers, tensor- and data-parallel degrees and recomputation. The
// boundaries between stages can be dragged to another layer gap; a drag reports
// boundaryMoved(boundary, first layer of the stage after it) once, on release.
#pragma once
#include <QString>
#include <QWidget>
#include <vector>

#include "parallel/layer_stack.h"
#include "parallel/parallel_plan.h"

namespace gp {

class LayerStackView : public QWidget {
  Q_OBJECT
 public:
  explicit LayerStackView(QWidget* parent = nullptr);

  void setStack(const LayerStack& stack);  // copies what it shows
  void setPlan(const ParallelPlan& plan);
  void setEditable(bool editable);  // boundaries draggable
  void clear();

  int layers() const { return static_cast<int>(parts_.size()) - 2; }
  // Geometry, for tests and tooltips: the box of part `part` (-1 prologue, 0..L-1, L epilogue)
  // and the x of boundary b (1..pp-1).
  QRectF partRect(int part) const;
  double boundaryX(int boundary) const;
  // The text heading stage s.
  QString stageText(int stage) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  void boundaryMoved(int boundary, int firstLayer);

 protected:
  void paintEvent(QPaintEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  bool event(QEvent* e) override;  // tooltips

 private:
  struct Part {
    QString name;
    double forwardFlops = 0;  // per sample
    qint64 params = 0;
  };
  double unit() const;
  double left() const;
  int stageOf(int part) const;
  int boundaryAt(double x) const;  // -1 when none is within reach
  int layerGapAt(double x) const;  // the layer a boundary dropped at x would start
  QRectF headerRect(int stage) const;

  std::vector<Part> parts_;  // prologue, layers, epilogue
  ParallelPlan plan_;
  ParallelPlan dragged_;  // the plan shown while a boundary is dragged
  int dragging_ = -1;
  bool editable_ = true;
};

}  // namespace gp

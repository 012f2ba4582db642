// CostModelWindow: the Cost Model window (Run ▸ Cost Model…) — the open model's kernels timed
// on this machine's CPU in the background (Measure; Stop), predicted by the learned kernel
// model and by the fitted roofline, and shown as a scatter plot of predicted against measured
// time (CostScatterPlot: hover a point for its kernel and configuration), under the ranking
// scores of both models (Kendall's tau per kernel over its configurations, ordered-pair
// accuracy). Learned Model… and Roofline… choose other model files than the shipped ones.
// One line above the plot says what runs or what went wrong. It reads the document's
// workspace and never changes the document; the main window colours the graph by the
// result's per-op errors (Colour: prediction error).
#pragma once
#include <QElapsedTimer>
#include <QMainWindow>
#include <memory>

#include "cost_model_session.h"

class QAction;
class QLabel;
class QProgressBar;
class QSpinBox;

namespace gp {

class CostScatterPlot;

class CostModelWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit CostModelWindow(QWidget* parent = nullptr);
  ~CostModelWindow() override;

  // Measures this workspace's model from now on (a new graph clears what is shown).
  void setWorkspace(const std::shared_ptr<const Workspace>& ws);
  CostModelSession* session() { return &session_; }

  // What Learned Model… / Roofline… do once a file is chosen (empty: the shipped one).
  void setLearnedModel(const QString& path);
  void setRoofline(const QString& path);

  // What is shown, for tests.
  QString messageText() const;  // the one line: what runs, a hint, or the error
  bool messageIsError() const { return messageIsError_; }
  QString summaryText() const;  // the scores (rich text)
  CostScatterPlot* scatterPlot() const { return plot_; }
  QSpinBox* kernelsSpin() const { return kernels_; }
  QSpinBox* repeatsSpin() const { return repeats_; }
  QAction* action(const char* name) const;  // by objectName ("costMeasure", "costStop", …)

 Q_SIGNALS:
  // A new result (session()->result()) or none (a new graph): the graph's colours follow it.
  void resultChanged();

 protected:
  void closeEvent(QCloseEvent* e) override;

 private:
  void createActions();
  void measure();
  void onFinished();
  void onBusyChanged(bool running);
  void showMessage(const QString& text, bool error);
  void updateFilesLabel();
  void chooseFile(bool learned);

  CostModelSession session_;
  QLabel* title_ = nullptr;
  QLabel* files_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* summary_ = nullptr;
  CostScatterPlot* plot_ = nullptr;
  QSpinBox* kernels_ = nullptr;
  QSpinBox* repeats_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QAction *measure_ = nullptr, *stop_ = nullptr, *chooseLearned_ = nullptr, *chooseRoofline_ = nullptr;
  QAction* shipped_ = nullptr;
  bool messageIsError_ = false;
  QElapsedTimer elapsed_;  // since Measure
};

}  // namespace gp

// RunWindow: File ▸ Attach to Run… — follows a run's event log (optimize or pretrain --events
// FILE, optimize/run_log.h) while the run writes it, or reads a finished one: the reward plot
// (optimize: per iteration, against the lower bound and the best baseline; pretrain: per round,
// the mean and the best of its tasks' mean rewards), a table (optimize: the best plan, ops per
// device; pretrain: each task's start, best and own plan), and for a distributed pre-training run
// each rank's work and wait in the latest round. One line says what the run is doing: running,
// finished, stopped, failed (its own error line), quiet for a while, or what is wrong with the
// file (the window then stops following; what it read stays). Apply Best Plan hands an optimize
// run's best plan to the main window (applyBestPlan) for the open model.
#pragma once
#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>
#include <memory>
#include <vector>

#include "optimize/run_log.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace gp {

class RewardPlot;

class RunWindow : public QMainWindow {
  Q_OBJECT
 public:
  static constexpr int kPollMs = 500;
  static constexpr int kQuietSeconds = 30;  // no new event for this long: said in the message line

  explicit RunWindow(QWidget* parent = nullptr);
  ~RunWindow() override;

  // Follows `path` from its start (what was shown before is cleared).
  void attach(const QString& path);
  void pollNow();  // reads what is new at once (tests)

  const RunLogState* state() const;  // null before attach
  QString messageText() const;
  bool messageIsError() const { return messageIsError_; }
  QString titleText() const;
  QString healthText() const;
  RewardPlot* rewardPlot() const { return plot_; }
  QTableWidget* table() const { return table_; }
  QPushButton* applyButton() const { return apply_; }
  bool following() const { return timer_.isActive(); }

  // Shown in the message line (the main window's answer to applyBestPlan, among others).
  void showMessage(const QString& text, bool error);

 Q_SIGNALS:
  // An optimize run's best plan (devices, priorities, fusion groups per op) for the run's model.
  void applyBestPlan(const QString& model, const gp::Plan& plan);

 private:
  void poll();
  void refresh();
  void fillPlot();
  void fillTable();
  void updateStatus();

  std::unique_ptr<RunLogFollower> follower_;
  QString path_;
  QLabel* title_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* health_ = nullptr;
  RewardPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  QPushButton* apply_ = nullptr;
  QTimer timer_;
  QElapsedTimer sinceChange_;
  size_t plotted_ = 0;  // points already in the plot
  bool messageIsError_ = false;
};

}  // namespace gp
